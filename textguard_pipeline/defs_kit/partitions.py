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
import os
import time
from dataclasses import dataclass, field
from pathlib import Path

import pyarrow.parquet as pq
from dagster import DagsterInstance, DynamicPartitionsDefinition
from sqlalchemy.exc import IntegrityError
from upath import UPath

from ..ingest.documents import content_version, scan_corpus
from .file_hashes import sha256_since
from .io_manager import InvalidPartitionKey, is_local, partition_path

documents_partitions = DynamicPartitionsDefinition(name="documents")


@dataclass(frozen=True)
class CorpusPlan:
    """What a sensor or schedule tick should do for a corpus."""

    new_keys: list[str]
    changed_keys: list[str]
    shas: dict[str, str]
    #: doc_id → file stamp (file_hashes.file_stamp) of the readable documents, when planned with stamps
    stamps: dict[str, str] = field(default_factory=dict)

    @property
    def to_run(self) -> list[str]:
        return sorted(set(self.new_keys) | set(self.changed_keys))


def plan_corpus(
    corpus_dir: str | Path,
    registered: set[str],
    known_shas: dict[str, str],
    hasher=None,
    known_stamps: dict[str, str] | None = None,
) -> CorpusPlan:
    """Compare the corpus on disk with registered partitions and last-seen hashes.

    A readable file's version is ``hasher(path)`` (default: its sha256; the sensor passes a cached one);
    a file that cannot be named or read gets a version derived from its problem, so it is planned too and
    its ``source_documents`` row says why. With ``known_stamps`` (the sensor's cursor), a file whose stamp
    is unchanged keeps its known hash without being read, and the plan carries the new stamps.
    """
    entries = scan_corpus(corpus_dir)
    stamps: dict[str, str] = {}
    if known_stamps is None:
        shas = {doc_id: _version(e, hasher) for doc_id, e in entries.items()}
    else:
        shas = {}
        for doc_id, e in entries.items():
            if e.problem is None:
                try:
                    shas[doc_id], stamps[doc_id] = sha256_since(
                        e.path, known_shas.get(doc_id), known_stamps.get(doc_id)
                    )
                    continue
                except OSError:  # gone or unreadable since the scan
                    pass
            shas[doc_id] = content_version(e)
    new = sorted(k for k in shas if k not in registered)
    changed = sorted(k for k, sha in shas.items() if k in registered and known_shas.get(k) != sha)
    return CorpusPlan(new, changed, shas, stamps)


def _version(entry, hasher) -> str:
    if hasher is not None and entry.problem is None:
        try:
            return hasher(entry.path)
        except OSError:  # gone or unreadable since the scan: the version of its problem, as content_version says
            pass
    return content_version(entry)


def recorded_shas(warehouse: str, keys: list[str] | set[str]) -> dict[str, str]:
    """doc_id → sha256 recorded in the materialized ``source_documents`` partition.

    Documents without a file, or whose file was an unreadable-document row
    (empty sha256), are left out: to the planner they are "not materialized".
    A local warehouse is listed once (100,000 registered documents were 100,000 failed opens); a file
    read before and not replaced since (inode, size, mtime) is not read again in this process.
    """
    present = _listed(warehouse, "source_documents")
    out: dict[str, str] = {}
    for key in keys:
        if present is not None and f"{key}.parquet" not in present:
            continue
        try:
            sha = _recorded_sha(partition_path(warehouse, "source_documents", key))
        except (InvalidPartitionKey, OSError, KeyError, ValueError):  # no usable file: "not materialized"
            continue
        if sha:
            out[key] = sha
    return out


def _listed(warehouse: str, asset: str) -> set[str] | None:
    """File names in a local warehouse's ``asset`` directory; None when not local (then each file is tried)."""
    base = UPath(warehouse)
    if not is_local(base):
        return None
    try:
        with os.scandir(os.path.join(os.fspath(base), asset)) as entries:
            return {e.name for e in entries}
    except FileNotFoundError:
        return set()
    except OSError:
        return None


_recorded: dict[str, tuple[tuple[int, int, int], str]] = {}


def _recorded_sha(path) -> str:
    local = is_local(path)
    if local:
        name = os.fspath(path)
        st = os.stat(name)
        stamp = (st.st_ino, st.st_size, st.st_mtime_ns)  # files are replaced whole (a new inode), never edited
        hit = _recorded.get(name)
        if hit is not None and hit[0] == stamp:
            return hit[1]
    with path.open("rb") as fh:
        col = pq.read_table(fh, columns=["sha256"]).column("sha256").to_pylist()
    sha = str(col[0]) if col and col[0] else ""
    if local:
        if len(_recorded) >= 500_000:
            _recorded.clear()
        _recorded[name] = (stamp, sha)
    return sha


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


def encode_cursor(shas: dict[str, str], stamps: dict[str, str] | None = None) -> str:
    """The sensor's cursor: doc_id → sha256, or ``sha256@stamp`` for a document with a file stamp."""
    stamps = stamps or {}
    data = {k: f"{v}@{stamps[k]}" if k in stamps else v for k, v in shas.items()}
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def read_cursor(cursor: str | None) -> tuple[dict[str, str], dict[str, str]]:
    """(doc_id → sha256, doc_id → file stamp) of a cursor; documents without a stamp are not in the second."""
    if not cursor:
        return {}, {}
    try:
        data = json.loads(cursor)
    except json.JSONDecodeError:
        return {}, {}
    if not isinstance(data, dict):
        return {}, {}
    shas: dict[str, str] = {}
    stamps: dict[str, str] = {}
    for k, v in data.items():
        sha, at, stamp = str(v).partition("@")
        shas[str(k)] = sha
        if at:
            stamps[str(k)] = stamp
    return shas, stamps


def decode_cursor(cursor: str | None) -> dict[str, str]:
    """doc_id → sha256 of a cursor (with or without stamps)."""
    return read_cursor(cursor)[0]
