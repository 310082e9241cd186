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
from dataclasses import dataclass
from pathlib import Path

from dagster import DynamicPartitionsDefinition

from ..ingest.documents import content_version, scan_corpus

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


def plan_corpus(corpus_dir: str | Path, registered: set[str], known_shas: dict[str, str]) -> CorpusPlan:
    """Compare the corpus on disk with registered partitions and last-seen hashes."""
    shas = {doc_id: content_version(e) for doc_id, e in scan_corpus(corpus_dir).items()}
    new = sorted(k for k in shas if k not in registered)
    changed = sorted(k for k, sha in shas.items() if k in registered and known_shas.get(k) != sha)
    return CorpusPlan(new, changed, shas)


def recorded_shas(warehouse: str, keys: list[str] | set[str]) -> dict[str, str]:
    """doc_id → sha256 recorded in the materialized ``source_documents`` partition.

    Documents without a file, or whose file was an unreadable-document row
    (empty sha256), are left out: to the planner they are "not materialized".
    """
    import pyarrow.parquet as pq
    from upath import UPath

    base = UPath(warehouse) / "source_documents"
    out: dict[str, str] = {}
    for key in keys:
        path = base / f"{key}.parquet"
        try:
            with path.open("rb") as fh:
                col = pq.read_table(fh, columns=["sha256"]).column("sha256").to_pylist()
        except (FileNotFoundError, OSError, KeyError, ValueError):
            continue
        if col and col[0]:
            out[key] = str(col[0])
    return out


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
