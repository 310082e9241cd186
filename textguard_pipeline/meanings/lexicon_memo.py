"""The per-lemma WordNet memos on disk (issue 50): candidates, Lesk signatures, word signals, the idiom set and
sense domains are computed once per machine, not once per process.

Each memo of :func:`.senses.lexicon_cache` named in :data:`PERSISTED` is seeded, when a process first asks for
it, from the shards under ``lexicon-memo-<tag>/<name>/`` beside the lexicon database; :func:`flush` (called
once per resolved document) writes what the process added since as one more shard, to a temporary name then
renamed (a reader never sees half a file; concurrent workers each add their own), and many shards are merged
into one on load. The tag hashes the lexicons' specifiers, wn's version and the source of the modules that
compute the values, so an edit of that code or another lexicon never reads old answers; shards older than the
database are ignored. The shards are pickles: they are read only from the data directory this process writes.
Best effort throughout: an unwritable folder or a damaged shard means computing again, never an error.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import time
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..lib.atomic import write_bytes_atomic
from . import wn_memo

#: the lexicon memos worth keeping across processes (each costs wn queries per key; all pickle)
PERSISTED = frozenset({"candidates", "lesk_signatures:12", "word_signals", "idioms", "sense_domains"})
#: the modules whose code computes the persisted values (their source is part of the tag)
_SOURCES = (
    "senses.py",
    "gloss_stats.py",
    "signals.py",
    "candidates.py",
    "domains.py",
    "wordnet_install.py",
    "wn_tables.py",
    "wn_words.py",  # candidates and word signals search forms through it
    "forms.py",  # adds the idiom ends to the "idioms" memo
)
MEMO_FORMAT = 1
#: shards of one memo beyond which loading merges them into one
MAX_SHARDS = 32


@lru_cache(maxsize=1)
def _code_tag() -> str:
    h = hashlib.sha1(f"{MEMO_FORMAT}".encode())
    here = Path(__file__).resolve().parent
    for name in _SOURCES:
        h.update((here / name).read_bytes())
    try:
        import wn  # lazy: wn opens its database on use

        h.update(str(getattr(wn, "__version__", "")).encode())
    except ImportError:
        pass
    return h.hexdigest()[:12]


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def sidecar_folder(wnet: Any, prefix: str, salt: str) -> tuple[Path | None, Path | None]:
    """``(folder, database)`` of a cache kept beside the lexicon database, named by its lexicons and ``salt``;
    ``(None, None)`` where there is no database (a lexicon test double): the caller then keeps memory only."""
    try:
        import wn  # lazy: wn opens its database on use

        specs = "|".join(lex.specifier() for lex in wnet.lexicons())
        db = Path(wn.config.database_path)
        tag = hashlib.sha1(f"{salt}|{specs}".encode()).hexdigest()[:12]
        return (db.with_name(f"{prefix}-{tag}"), db) if db.is_file() else (None, None)
    except Exception:  # noqa: BLE001 - no lexicon database (a test double): memory only
        return None, None


class LexiconMemo:
    """The shards of one lexicon's memos (``folder`` None: memory only, e.g. a lexicon test double)."""

    def __init__(self, folder: Path | None, database: Path | None = None):
        self.folder = folder
        self.database = database

    @classmethod
    def for_lexicon(cls, wnet: Any) -> "LexiconMemo":
        return cls(*sidecar_folder(wnet, "lexicon-memo", _code_tag()))

    def _dir(self, name: str) -> Path | None:
        return None if self.folder is None else self.folder / name.replace(":", "-")

    def load(self, name: str) -> dict:
        folder = self._dir(name)
        if folder is None or not folder.is_dir():
            return {}
        fresh_after = _mtime(self.database) if self.database is not None else 0.0
        every = sorted(folder.glob("*.pickle"))
        out: dict = {}
        for path in (p for p in every if _mtime(p) >= fresh_after):
            try:
                with path.open("rb") as fh:
                    part = pickle.load(fh)
            except Exception:  # noqa: BLE001 - removed by a merge meanwhile, damaged, or of an older class
                continue
            if isinstance(part, dict):
                out.update(part)
        if len(every) > MAX_SHARDS and self.save(name, out):  # the stale and damaged ones go too
            for path in every:
                path.unlink(missing_ok=True)
        return out

    def save(self, name: str, entries: dict) -> bool:
        folder = self._dir(name)
        if folder is None or not entries:
            return False
        try:
            folder.mkdir(parents=True, exist_ok=True)
            data = pickle.dumps(dict(entries), protocol=pickle.HIGHEST_PROTOCOL)
            write_bytes_atomic(folder / f"{time.time_ns()}-{os.getpid()}-{len(entries)}.pickle", data)
            return True
        except (OSError, pickle.PicklingError, TypeError, AttributeError):
            return False


#: id(wnet) → (wnet, its memo); the wnet is held so that its id is never reused
_MEMOS: dict[int, tuple[Any, LexiconMemo]] = {}


def memo_for(wnet: Any) -> LexiconMemo:
    hit = _MEMOS.get(id(wnet))
    if hit is None or hit[0] is not wnet:
        hit = _MEMOS[id(wnet)] = (wnet, LexiconMemo.for_lexicon(wnet))
    return hit[1]


def seed(wnet: Any, name: str, cache: dict) -> None:
    """Fill a new memo of ``wnet`` from disk (only those in :data:`PERSISTED`); remember what it held. Also turns
    on :mod:`.wn_memo`: what the lexicon memos compute asks wn for the same synsets' lemmas again and again."""
    wn_memo.install()
    if name not in PERSISTED:
        return
    cache.update(memo_for(wnet).load(name))
    cache.persisted = set(cache)  # type: ignore[attr-defined] - the memo is a dict subclass


def flush(wnet: Any, caches: dict[str, dict]) -> None:
    """Write what each persisted memo gained since it was seeded or last flushed (one shard per memo)."""
    memo = None
    for name, cache in caches.items():
        known = getattr(cache, "persisted", None)
        if known is None:
            continue
        new = {k: v for k, v in list(cache.items()) if k not in known}
        if new:
            memo = memo or memo_for(wnet)
            memo.save(name, new)
            known.update(new)
