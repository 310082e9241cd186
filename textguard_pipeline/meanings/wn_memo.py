"""Per-process memos of wn's lemma lookups (issue 50): the same answers, asked of SQLite once.

wn answers ``Word.lemma()`` with three queries (the word's forms, then the first form's pronunciations and
tags) and ``Synset.lemmas()`` with one query for the members plus one per member for its word and three for
its lemma. The passes of ``resolved_meanings`` ask for the same synsets' lemmas again and again — every
hypernym closure (structural terms, head meanings, sense domains) climbs through the same few hundred
ancestors, every Lesk signature reads its relatives' lemmas — so with cold per-lemma memos these queries were
≈ 0.9 of a spaCy parse of the text (the issue's profile, 150,000 characters).

:func:`install` wraps the two methods, for plain strings only (``data=False``), with a memo keyed by the
database file, the element's lexicon and lexicon configuration (all that wn's own query reads besides the
id) and the id; and the queries behind a synset's relations, definitions and members and a sense's word,
keyed by the database file and their arguments. A lexicon in the database is never edited in place
(installing another lexicon adds one with another specifier, in that or another data folder), so an answer
once read stays true for the process.
"""

from __future__ import annotations

import logging
from typing import Any

log = logging.getLogger(__name__)

#: entries per memo before it is emptied (a cheap bound on memory; ≈ 100 bytes each)
LIMIT = 500_000

_WORD_LEMMAS: dict[tuple, str] = {}
_SYNSET_LEMMAS: dict[tuple, tuple[str, ...]] = {}
#: query name → its memo (rows as a tuple)
_QUERIES: dict[str, dict[tuple, tuple]] = {}
#: wn's queries that ``wn._core`` calls per synset or sense, and whether each returns a list (else an iterator)
_MEMOISED_QUERIES = {"get_synset_relations": False, "get_definitions": True, "get_synset_members": False}
_installed = False
#: wn's own functions, as they were before :func:`install` (tests compare against them)
ORIGINALS: dict[str, Any] = {}


def _database() -> str:
    import wn  # lazy: wn opens its database on use

    return str(wn.config.database_path)


def _store(memo: dict, key: tuple, value: Any) -> None:
    if len(memo) >= LIMIT:
        memo.clear()
    memo[key] = value


def _frozen(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


def _memoised_query(query, name: str, as_list: bool):
    memo = _QUERIES.setdefault(name, {})

    def wrapped(*args, **kwargs):
        key = (_database(), *map(_frozen, args), *sorted((k, _frozen(v)) for k, v in kwargs.items()))
        hit = memo.get(key)
        if hit is None:
            hit = tuple(query(*args, **kwargs))
            _store(memo, key, hit)
        return list(hit) if as_list else iter(hit)

    wrapped.__doc__ = query.__doc__
    return wrapped


def _internals_known(core: Any) -> bool:
    names = ("find_entries", *_MEMOISED_QUERIES)
    classes = (getattr(core, "Word", None), getattr(core, "Synset", None))
    return all(callable(getattr(core, n, None)) for n in names) and all(
        callable(getattr(cls, m, None)) for cls, m in zip(classes, ("lemma", "lemmas"))
    )


def install() -> None:
    """Memoise ``wn.Word.lemma`` and ``wn.Synset.lemmas`` (string answers) in this process; idempotent."""
    global _installed
    if _installed:
        return
    from wn import _core  # lazy: wn opens its database on use

    # wn's internals (read against wn 1.1): under a wn that names them otherwise nothing is memoised and wn
    # answers as usual — slower, never wrong, never a crash of the asset
    if not _internals_known(_core):
        import wn  # lazy: only to name the version in the warning

        log.warning("wn %s: its lookups are not memoised (its internal names differ)", wn.__version__)
        _installed = True
        return
    word_lemma, synset_lemmas = _core.Word.lemma, _core.Synset.lemmas
    ORIGINALS.update({"Word.lemma": word_lemma, "Synset.lemmas": synset_lemmas, "find_entries": _core.find_entries})
    ORIGINALS.update({name: getattr(_core, name) for name in _MEMOISED_QUERIES})

    def lemma(self, *, data: bool = False):
        if data:
            return word_lemma(self, data=True)
        key = (_database(), getattr(self, "_lexicon", None), getattr(self, "_lexconf", None), self.id)
        hit = _WORD_LEMMAS.get(key)
        if hit is None:
            hit = word_lemma(self)
            _store(_WORD_LEMMAS, key, hit)
        return hit

    def lemmas(self, *, data: bool = False):
        if data:
            return synset_lemmas(self, data=True)
        key = (_database(), getattr(self, "_lexicon", None), getattr(self, "_lexconf", None), self.id)
        hit = _SYNSET_LEMMAS.get(key)
        if hit is None:
            hit = tuple(synset_lemmas(self))
            _store(_SYNSET_LEMMAS, key, hit)
        return list(hit)  # a fresh list each time, as wn gives: callers may change it

    find_entries = _core.find_entries  # Sense.word() asks it for one entry by id; words(form) goes elsewhere
    find_entry = _memoised_query(find_entries, "find_entries", as_list=False)

    def entries(*args, **kwargs):
        return find_entry(*args, **kwargs) if kwargs.get("id") and not args else find_entries(*args, **kwargs)

    lemma.__doc__, lemmas.__doc__ = word_lemma.__doc__, synset_lemmas.__doc__
    _core.Word.lemma, _core.Synset.lemmas = lemma, lemmas
    for name, as_list in _MEMOISED_QUERIES.items():
        setattr(_core, name, _memoised_query(getattr(_core, name), name, as_list))
    _core.find_entries = entries
    _installed = True


def clear() -> None:
    """Forget every memoised answer (tests that rewrite a database in place)."""
    _WORD_LEMMAS.clear()
    _SYNSET_LEMMAS.clear()
    for memo in _QUERIES.values():
        memo.clear()
