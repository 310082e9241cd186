"""Where a run writes, checked before any work: a report that ran for an hour and then found ``--out`` to be a
file, or ``DAGSTER_HOME`` on a full disk, lost the hour. Dagster-free."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

#: a folder with less free space than this is refused up front: full, not merely small (a disk that fills
#: during the run is still named per document in the report)
MIN_FREE_BYTES = 64 * 1024


class Refused(Exception):
    """A command refused before (or instead of) doing its work; the message says why and what to do."""


class UnusablePath(Refused):
    """A folder a run must write to cannot be written (names the folder and what it is for)."""


class LockBusy(Refused):
    """The instance lock stayed held longer than the configured wait (names the holder)."""


def check_writable_dir(path: str | os.PathLike[str], what: str, min_free: int = MIN_FREE_BYTES) -> Path:
    """``path`` as a folder this process can write to, with ``min_free`` bytes free; created when missing."""
    p = Path(path)
    if p.exists() and not p.is_dir():
        raise UnusablePath(f"{what} {p} is not a folder (a file is in the way)")
    try:
        p.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(dir=p, prefix=".textguard-probe.")
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        raise UnusablePath(f"{what} {p} cannot be written: {exc.strerror or exc}") from None
    free = shutil.disk_usage(p).free
    if free < min_free:
        raise UnusablePath(f"{what} {p} has only {free // 1024:,} KiB free (at least {min_free // 1024:,} KiB needed)")
    return p


def check_run_paths(home: str, warehouse: str, out: str | None = None, caches: dict[str, str] | None = None) -> None:
    """The instance folder, a local warehouse, the report folder and the response caches the run will write
    (``caches``: what each is for → its folder; an answer that cannot be stored is paid again on every run),
    before any work."""
    check_writable_dir(home, "the Dagster instance folder (DAGSTER_HOME)")
    if "://" not in warehouse or warehouse.startswith("file://"):
        check_writable_dir(warehouse.removeprefix("file://"), "the warehouse (TEXTGUARD_WAREHOUSE / --warehouse)")
    if out:
        check_writable_dir(out, "the report folder (--out)")
    for what, folder in (caches or {}).items():
        check_writable_dir(folder, what)
