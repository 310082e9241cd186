"""sha256 of corpus files, remembered per process by (device, inode, size, mtime), and across processes
through the sensor's cursor (:func:`sha256_since`).

The corpus sensor runs every minute in the code server, a long-lived process; hashing every file
of a 100,000-document corpus on every tick costs seconds of I/O for nothing. A file whose device,
inode, size and modification time (ns) are unchanged is not read again. A rewrite that keeps all
four is possible only by setting the modification time back on purpose (``touch -d``, ``rsync -t``
of a same-size edit); the nightly ``corpus_refresh`` hashes every file for that reason.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

from ..ingest.documents import file_sha256

#: at most this many files remembered per process (≈ 200 bytes each)
MAX_ENTRIES = 500_000

_cache: dict[str, tuple[tuple[int, int, int, int], str]] = {}
_lock = threading.Lock()


def _stamp(st: os.stat_result) -> tuple[int, int, int, int]:
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)


def cached_sha256(path: str | os.PathLike[str]) -> str:
    """``file_sha256(path)``, read again only when the file's identity, size or mtime changed."""
    key = os.fspath(path)
    stamp = _stamp(os.stat(key))
    hit = _cache.get(key)
    if hit is not None and hit[0] == stamp:
        return hit[1]
    sha = file_sha256(Path(key))
    if _stamp(os.stat(key)) == stamp:  # not rewritten while being read: safe to remember
        with _lock:
            if len(_cache) >= MAX_ENTRIES:
                _cache.clear()
            _cache[key] = (stamp, sha)
    return sha


def forget() -> None:
    """Drop every remembered hash (tests)."""
    with _lock:
        _cache.clear()


def file_stamp(path: str | os.PathLike[str]) -> str:
    """A short digest of the file's (device, inode, size, mtime): what :func:`cached_sha256` trusts, as text
    that a sensor cursor can carry from one process to the next."""
    # hash() of a tuple of ints is the same in every process of one Python version (only str and bytes are
    # randomized); another version reads each file once more
    return format(hash(_stamp(os.stat(path))) & 0xFFFF_FFFF_FFFF, "x")


def sha256_since(path: str | os.PathLike[str], previous_sha: str | None, previous_stamp: str | None) -> tuple[str, str]:
    """(sha256, stamp) of ``path``; ``previous_sha`` without reading the file when its stamp is still
    ``previous_stamp``. A restarted code server thus re-reads only what changed, not the whole corpus."""
    stamp = file_stamp(path)
    if previous_sha and previous_stamp == stamp:
        return previous_sha, stamp
    return cached_sha256(path), stamp
