"""On-disk JSON caches: one file per key, written atomically, checked on read, one request per key at a time.

Every cache of answers the project pays or waits for is a :class:`JsonCache` — the HTTP response cache of the
LLM passes (:class:`ResponseCache`, used by :mod:`.http`) and the Wikidata cache (``meanings/wikidata.py``):

* an entry is ``<dir>/<key[:2]>/<key>.json``, written to a temporary sibling and renamed;
* an entry that is unreadable, not a JSON object, or of the wrong shape for its cache (the cache's ``check``)
  is a miss, named with its path in a warning, and the next answer replaces it;
* :meth:`JsonCache.exclusive` holds a key against every other thread of this process and every other process
  sharing the directory (a lock file per key, ``<key>.lock``, ``fcntl.flock``): identical requests in flight
  wait for the first one's answer instead of paying again;
* :meth:`JsonCache.check_writable` finds an unwritable directory before anything is paid for.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import logging
import os
import threading
import uuid
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping

from .atomic import write_text_atomic

log = logging.getLogger(__name__)

#: why an entry has the wrong shape for its cache, or None when it is fine
Check = Callable[[dict[str, Any]], str | None]


class CacheUnwritable(OSError):
    """The cache directory cannot be created or written; the message names it and the setting to change."""


def content_key(value: Any) -> str:
    """SHA-256 of ``value`` as canonical JSON (sorted keys, no spaces)."""
    canon = json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canon.encode("utf-8")).hexdigest()


class JsonCache:
    """One JSON object per key under ``directory`` (see the module docstring).

    ``name`` names the cache in warnings ("response cache"); ``setting`` is the variable that moves it, named
    when the directory cannot be written; ``check`` says why an entry has the wrong shape (None: it is fine).
    """

    def __init__(self, directory: str | os.PathLike[str], name: str, setting: str, check: Check | None = None) -> None:
        self.dir = Path(directory)
        self.name = name
        self.setting = setting
        self._check = check

    def path(self, key: str) -> Path:
        return self.dir / key[:2] / f"{key}.json"

    def get(self, key: str) -> dict[str, Any] | None:
        """The entry of ``key``; None when there is none, or it is damaged or of the wrong shape (a miss, named
        in a warning)."""
        path = self.path(key)
        try:
            entry = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return None
        except (OSError, ValueError) as exc:
            return self.bad_entry(path, f"unreadable: {type(exc).__name__}")
        if not isinstance(entry, dict):
            return self.bad_entry(path, f"a JSON {type(entry).__name__}, not an object")
        why = self._check(entry) if self._check else None
        return self.bad_entry(path, why) if why else entry

    def bad_entry(self, path: Path, why: str) -> None:
        """Name an unusable entry in a warning; returns None (a miss)."""
        log.warning("%s entry %s is %s: treated as a miss", self.name, path, why)
        return None

    def put(self, key: str, entry: Mapping[str, Any]) -> None:
        path = self.path(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        write_text_atomic(path, json.dumps(entry, ensure_ascii=False))

    def check_writable(self) -> None:
        """Raise :class:`CacheUnwritable` unless the directory can be created and written (before anything is
        paid for: an answer that cannot be stored is paid again on every run)."""
        probe = self.dir / f".write-probe.{os.getpid()}.{uuid.uuid4().hex}"
        try:
            self.dir.mkdir(parents=True, exist_ok=True)
            probe.write_bytes(b"")
            probe.unlink()
        except OSError as exc:
            raise CacheUnwritable(
                f"the {self.name} directory {self.dir} is not writable ({exc.strerror or exc}): fix it or set "
                f"{self.setting} elsewhere"
            ) from None

    @contextmanager
    def exclusive(self, key: str) -> Iterator[None]:
        """Hold ``key`` against every other thread of this process and every other process (a lock file per
        key): look the entry up again inside, the holder before may have stored it meanwhile."""
        with _KEY_LOCKS.hold(f"{self.dir}\0{key}"):
            path = self.path(key).with_suffix(".lock")
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                fh = open(path, "a+b")
            except OSError:  # no lock file: in-process de-duplication only
                yield
                return
            try:
                fcntl.flock(fh, fcntl.LOCK_EX)
                yield
            finally:
                fh.close()  # releases the lock; the small file stays (unlinking it would race another locker)


def _response_shape(entry: dict[str, Any]) -> str | None:
    status, text, headers = entry.get("status"), entry.get("text"), entry.get("headers")
    if not isinstance(status, int) or isinstance(status, bool) or not isinstance(text, str):
        return "no integer 'status' and string 'text'"
    if headers is not None and not (isinstance(headers, dict) and all(isinstance(v, str) for v in headers.values())):
        return "'headers' is not an object of strings"
    return None


class ResponseCache(JsonCache):
    """HTTP answers (``status``, ``text``, ``headers``) keyed by a SHA-256 of the whole request."""

    def __init__(self, directory: str | os.PathLike[str]):
        super().__init__(
            directory, "response cache", "TEXTGUARD_LLM_CACHE_DIR (or TEXTGUARD_LLM_CACHE=off)", _response_shape
        )

    @staticmethod
    def key(method: str, url: str, params: Mapping[str, Any] | None, body: Any) -> str:
        return content_key({"method": method.upper(), "url": url, "params": dict(params or {}), "body": body})


class _KeyLocks:
    """One lock per cache key in this process (removed when nobody holds or waits for it)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._locks: dict[str, list[Any]] = {}

    @contextmanager
    def hold(self, key: str) -> Iterator[None]:
        with self._lock:
            slot = self._locks.setdefault(key, [threading.Lock(), 0])
            slot[1] += 1
        try:
            with slot[0]:
                yield
        finally:
            with self._lock:
                slot[1] -= 1
                if not slot[1]:
                    self._locks.pop(key, None)


_KEY_LOCKS = _KeyLocks()
