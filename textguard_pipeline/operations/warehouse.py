"""The warehouse as files: orphan temporary files, and files of documents that left the corpus.

Dagster-free. Layout: ``<warehouse>/<asset>/<doc_id>.parquet`` (see defs_kit/io_manager.py);
temporary files are ``.<doc_id>.parquet.<pid>-<hex>.tmp`` next to their target (older
versions wrote ``.<doc_id>.parquet.<hex>.tmp``). Only local warehouses are swept and
listed; for an fsspec URL the functions return nothing (and say so in their docstring).
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from pathlib import Path

from ..lib.processes import process_alive

#: a temporary file older than this whose writer is not a live process here is an orphan
ORPHAN_MIN_AGE_S = 60.0
#: a temporary file older than this is an orphan whoever wrote it (a write takes seconds)
ORPHAN_ANY_AGE_S = 3600.0

_TMP_RE = re.compile(r"^\..+\.parquet\.(?:(\d+)-)?[0-9a-f]{32}\.tmp$")


def is_local(warehouse: str) -> bool:
    return "://" not in warehouse or warehouse.startswith("file://")


def _local(warehouse: str) -> Path:
    return Path(warehouse[len("file://") :] if warehouse.startswith("file://") else warehouse)


def orphan_tmp_files(warehouse: str, now: float | None = None, dead_pids: set[int] = frozenset()) -> list[Path]:
    """Temporary files left by a killed writer (local warehouses only).

    ``dead_pids``: writers known dead on this host (the processes of orphaned runs), whose
    files are orphans at any age; otherwise a file must be old enough that no writer on
    another host sharing the warehouse can still be busy with it.
    """
    if not is_local(warehouse) or not _local(warehouse).is_dir():
        return []
    now = time.time() if now is None else now
    out = []
    for asset_dir in sorted(p for p in _local(warehouse).iterdir() if p.is_dir()):
        for path in sorted(asset_dir.iterdir()):
            m = _TMP_RE.match(path.name)
            if not m:
                continue
            try:
                age = now - path.stat().st_mtime
            except FileNotFoundError:  # renamed into place meanwhile
                continue
            pid = int(m.group(1)) if m.group(1) else None
            writer_gone = pid is None or not process_alive(pid)
            if pid in dead_pids or age >= ORPHAN_ANY_AGE_S or (age >= ORPHAN_MIN_AGE_S and writer_gone):
                out.append(path)
    return out


def remove_files(paths: list[Path]) -> list[Path]:
    """Remove ``paths``; return those actually removed (a file already gone is not an error)."""
    removed = []
    for p in paths:
        try:
            p.unlink()
            removed.append(p)
        except FileNotFoundError:
            continue
    return removed


def warehouse_keys(warehouse: str) -> dict[str, set[str]]:
    """asset directory → the document keys that have a Parquet file (local warehouses only)."""
    if not is_local(warehouse) or not _local(warehouse).is_dir():
        return {}
    out: dict[str, set[str]] = {}
    for asset_dir in sorted(p for p in _local(warehouse).iterdir() if p.is_dir()):
        keys = {
            p.name[: -len(".parquet")]
            for p in asset_dir.iterdir()
            if p.name.endswith(".parquet") and not p.name.startswith(".")
        }
        if keys:
            out[asset_dir.name] = keys
    return out


@dataclass
class Stale:
    """What belongs to documents that are no longer in the corpus."""

    partitions: list[str] = field(default_factory=list)  # registered in the instance
    files: list[Path] = field(default_factory=list)  # Parquet files in the warehouse

    def __bool__(self) -> bool:
        return bool(self.partitions or self.files)

    def documents(self) -> list[str]:
        return sorted(set(self.partitions) | {p.name[: -len(".parquet")] for p in self.files})


def find_stale(warehouse: str, registered: list[str], corpus_keys: set[str], assets: set[str]) -> Stale:
    """Registered partitions, and files of the document-partitioned ``assets``, of documents not in ``corpus_keys``.

    Only the directories of ``assets`` are looked at: anything else in the warehouse is not ours to judge.
    """
    stale = Stale(partitions=sorted(k for k in registered if k not in corpus_keys))
    base = _local(warehouse)
    for asset, keys in warehouse_keys(warehouse).items():
        if asset in assets:
            stale.files += [base / asset / f"{k}.parquet" for k in sorted(keys - corpus_keys)]
    return stale
