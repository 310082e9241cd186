"""The `documents` partitions and the planning of runs for new or changed documents.

The content hash of a document (sha256 of its bytes) is its version. Planning
compares the hashes on disk with *known* hashes: the corpus sensor knows what
it requested last (its cursor), the corpus_refresh schedule knows what was
materialized (the ``sha256`` column of ``source_documents/<doc_id>.parquet``).
Dagster's own ``Output(data_version=...)`` cannot carry this: it is one
version per output, and a multi-partition run writes one output for many
documents.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path

import pyarrow.parquet as pq
from dagster import DagsterInstance, DynamicPartitionsDefinition
from sqlalchemy.exc import IntegrityError

from ..ingest.documents import content_version, scan_corpus
from .io_manager import InvalidPartitionKey, partition_path

documents_partitions = DynamicPartitionsDefinition(name="documents")


@dataclass(frozen=True)
class CorpusPlan:
    """What a sensor or schedule tick should do for a corpus."""

    new_keys: list[str]
    changed_keys: list[str]
    shas: dict[str, str]

    @property
    def to_run(self) -> list[str]:
        return sorted(set(self.new_keys) | set(self.changed_keys))


def plan_corpus(corpus_dir: str | Path, registered: set[str], known_shas: dict[str, str], hasher=None) -> CorpusPlan:
    """Compare the corpus on disk with registered partitions and last-seen hashes.

    A readable file's version is ``hasher(path)`` (default: its sha256; the sensor passes a cached one);
    a file that cannot be named or read gets a version derived from its problem, so it is planned too and
    its ``source_documents`` row says why.
    """
    entries = scan_corpus(corpus_dir)
    shas = {
        doc_id: (hasher(e.path) if hasher is not None and e.problem is None else content_version(e))
        for doc_id, e in entries.items()
    }
    new = sorted(k for k in shas if k not in registered)
    changed = sorted(k for k, sha in shas.items() if k in registered and known_shas.get(k) != sha)
    return CorpusPlan(new, changed, shas)


def recorded_shas(warehouse: str, keys: list[str] | set[str]) -> dict[str, str]:
    """doc_id → sha256 recorded in the materialized ``source_documents`` partition.

    Documents without a file, or whose file was an unreadable-document row
    (empty sha256), are left out: to the planner they are "not materialized".
    """
    out: dict[str, str] = {}
    for key in keys:
        try:
            path = partition_path(warehouse, "source_documents", key)
            with path.open("rb") as fh:
                col = pq.read_table(fh, columns=["sha256"]).column("sha256").to_pylist()
        except (InvalidPartitionKey, OSError, KeyError, ValueError):  # no usable file: "not materialized"
            continue
        if col and col[0]:
            out[key] = str(col[0])
    return out


def register_partitions(instance: DagsterInstance, keys: list[str] | set[str], attempts: int = 8) -> list[str]:
    """Add the missing ``documents`` partitions; return every registered key in partition order.

    Idempotent under concurrency: Dagster's add is read-then-insert, so two processes
    that meet the same new document race to a UNIQUE violation; the loser reads again
    and adds what is still missing.
    """
    name = documents_partitions.name
    wanted = list(dict.fromkeys(keys))
    for attempt in range(attempts):
        existing = instance.get_dynamic_partitions(name)
        have = set(existing)
        new = [k for k in wanted if k not in have]
        if not new:
            return list(existing)
        try:
            instance.add_dynamic_partitions(name, new)
        except IntegrityError:
            if attempt == attempts - 1:
                raise
            time.sleep(0.02 * (attempt + 1))
            continue
        return list(instance.get_dynamic_partitions(name))
    raise AssertionError("unreachable")


def contiguous_ranges(keys: list[str], ordered: list[str], max_size: int) -> list[tuple[str, str]]:
    """Group ``keys`` into (first, last) ranges of consecutive partitions in ``ordered``.

    A range never holds a partition that is not in ``keys``, and holds at most
    ``max_size`` partitions: one run per range keeps backfills cheap.
    """
    wanted = set(keys)
    out: list[tuple[str, str]] = []
    run: list[str] = []
    for k in ordered:
        if k in wanted and len(run) < max_size:
            run.append(k)
            continue
        if run:
            out.append((run[0], run[-1]))
            run = []
        if k in wanted:
            run.append(k)
    if run:
        out.append((run[0], run[-1]))
    return out


def encode_cursor(shas: dict[str, str]) -> str:
    return json.dumps(shas, sort_keys=True, separators=(",", ":"))


def decode_cursor(cursor: str | None) -> dict[str, str]:
    if not cursor:
        return {}
    try:
        data = json.loads(cursor)
    except json.JSONDecodeError:
        return {}
    return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}
