"""wn's word searches — ``words``, ``senses``, ``synsets`` of a form — answered from the bulk tables (issue 50).

wn answers ``Wordnet.words(form, pos)`` with its lemmatizer's candidate forms, one query per part of speech
that matches any form of an entry (or its normalised spelling), then again with the normalised forms if none
matched; every answer then costs more queries per word (its lemma, its senses, a sense's synset and rank).
:func:`word_view` does the same search on :mod:`.wn_tables`' form index with the wordnet's own lemmatizer and
normaliser, and returns light words, senses and synsets that carry what the meanings passes read (a word's
lemma and senses; a sense's id, rank, word and synset; a synset's id, part of speech, definition, lemmas,
lexicographer file and closure). Orders are wn's: entries by row, senses by (part of speech, rank), synsets by
(part of speech, rank). Where that order is not determined — a search that finds two entries of one part of
speech, whose senses SQLite may return in either order — the view asks wn itself, as it does for a wordnet
without tables (:func:`word_view` then returns the wordnet unchanged).
"""

from __future__ import annotations

from bisect import bisect_left
from typing import Any, Iterable, Iterator

from .wn_tables import WnTables, tables_for


class _Synset:
    __slots__ = ("_t", "id", "pos")

    def __init__(self, tables: WnTables, i: int):
        self._t, self.id, self.pos = tables, tables.ids[i], tables._pos[i]

    def definition(self) -> str | None:
        return self._t.definition(self.id)

    def lemmas(self) -> list[str]:
        return self._t.lemmas(self.id)

    def lexfile(self) -> str | None:
        return self._t.lexfile(self.id)

    def closure(self, *types: str) -> Iterator["_Synset"]:
        return (_Synset(self._t, self._t.index[sid]) for sid in self._t.closure(self.id, *types))

    def get_related(self, *types: str) -> list["_Synset"]:
        return [_Synset(self._t, self._t.index[sid]) for sid in self._t.related(self.id, *types)]

    def hypernyms(self) -> list["_Synset"]:
        return self.get_related("hypernym", "instance_hypernym")


class _Word:
    __slots__ = ("_v", "_e", "pos")

    def __init__(self, view: "WnView", entry: int):
        self._v, self._e, self.pos = view, entry, view._w["entry_pos"][entry]

    def lemma(self) -> str:
        return self._v._t._lemma_names[int(self._v._w["entry_lemma"][self._e])]

    def senses(self) -> list["_Sense"]:
        ptr = self._v._w["sense_ptr"]
        return [_Sense(self._v, k, self._e) for k in range(int(ptr[self._e]), int(ptr[self._e + 1]))]


class _Sense:
    __slots__ = ("_v", "_k", "_e")

    def __init__(self, view: "WnView", k: int, entry: int):
        self._v, self._k, self._e = view, k, entry

    @property
    def id(self) -> str:
        return self._v._w["sense_ids"][self._k]

    @property
    def entry_rank(self) -> int | None:
        """The sense's rank for its word (wn's ``get_sense_n``)."""
        rank = int(self._v._w["sense_rank"][self._k])
        return None if rank < 0 else rank

    def synset(self) -> _Synset:
        return _Synset(self._v._t, int(self._v._w["sense_synset"][self._k]))

    def word(self) -> _Word:
        return _Word(self._v, self._e)


class WnView:
    """``wnet``'s word searches on the tables; whatever else is asked goes to ``wnet``."""

    def __init__(self, wnet: Any, tables: WnTables):
        self.wnet, self._t = wnet, tables
        self._w: dict = tables.words  # type: ignore[assignment] - checked by word_view
        self._keys: list[str] = self._w["form_keys"]

    def __getattr__(self, name: str) -> Any:
        return getattr(self.wnet, name)

    def _entries(self, keys: Iterable[str], pos: str | None) -> list[int]:
        """Entries with a form or normalised form among ``keys`` (and part of speech ``pos``), by row."""
        found: set[int] = set()
        ptr, entries = self._w["form_ptr"], self._w["form_entries"]
        for key in keys:
            i = bisect_left(self._keys, key)
            if i < len(self._keys) and self._keys[i] == key:
                found.update(entries[ptr[i] : ptr[i + 1]].tolist())
        if pos:
            found = {e for e in found if self._w["entry_pos"][e] == pos}
        return sorted(found)

    def _search(self, form: str, pos: str | None, query) -> list | None:
        """wn's ``_query_with_forms``: ``query(keys, pos)`` per part of speech the lemmatizer proposes, then with
        the normalised forms if nothing was found; None where a query's order is not determined."""
        lemmatize = self.wnet.lemmatizer
        forms = (lemmatize(form, pos) if lemmatize else {}) or {pos: {form}}
        results = [query(fs, p) for p, fs in forms.items()]
        normalize = self.wnet._normalizer
        if normalize and not any(results) and None not in results:
            results = [query([normalize(f) for f in fs], p) for p, fs in forms.items()]
        return None if None in results else [x for r in results for x in r]

    def _ranked(self, rows: list[tuple]) -> list | None:
        """The last items of ``rows`` ordered by the rest (wn's ORDER BY), or None on a tie (SQLite's order)."""
        if len({r[:-1] for r in rows}) < len(rows):
            return None
        return [r[-1] for r in sorted(rows, key=lambda r: r[:-1])]

    def _senses(self, keys, p: str | None) -> list | None:
        pos_of, ptr, rank = self._w["entry_pos"], self._w["sense_ptr"], self._w["sense_rank"]
        rows = [
            (pos_of[e], int(rank[k]), (k, e))
            for e in self._entries(keys, p)
            for k in range(int(ptr[e]), int(ptr[e + 1]))
        ]
        return self._ranked(rows)

    def _synsets(self, keys, p: str | None) -> list | None:
        ptr, rank, synset = self._w["sense_ptr"], self._w["sense_rank"], self._w["sense_synset"]
        rows = [
            (self._t._pos[int(synset[k])], int(rank[k]), int(synset[k]))
            for e in self._entries(keys, None)  # find_synsets filters the synsets' part of speech, not the entries'
            for k in range(int(ptr[e]), int(ptr[e + 1]))
        ]
        rows = [r for r in rows if not p or r[0] == p]
        if len({r[-1] for r in rows}) < len(rows):  # one synset by two senses: which rank orders it is SQLite's
            return None
        return self._ranked(rows)

    def words(self, form: str | None = None, pos: str | None = None) -> list:
        found = None if form is None else self._search(form, pos, self._entries)
        if found is None:
            return self.wnet.words(form, pos)
        return [_Word(self, e) for e in dict.fromkeys(found)]

    def senses(self, form: str | None = None, pos: str | None = None) -> list:
        found = None if form is None else self._search(form, pos, self._senses)
        if found is None:
            return self.wnet.senses(form, pos)
        return [_Sense(self, k, e) for k, e in dict.fromkeys(found)]

    def synsets(self, form: str | None = None, pos: str | None = None) -> list:
        found = None if form is None else self._search(form, pos, self._synsets)
        if found is None:
            return self.wnet.synsets(form, pos)
        return [_Synset(self._t, i) for i in dict.fromkeys(found)]


#: id(wnet) → (wnet, its view or the wnet itself)
_VIEWS: dict[int, tuple[Any, Any]] = {}


def word_view(wnet: Any) -> Any:
    """``wnet`` with its word searches answered from the tables, or ``wnet`` itself where there are none or its
    search is not wn's default one (all forms searched, a normaliser)."""
    hit = _VIEWS.get(id(wnet))
    if hit is not None and hit[0] is wnet:
        return hit[1]
    view = wnet
    tables = tables_for(wnet)
    if (
        tables is not None
        and tables.words is not None
        and getattr(wnet, "_search_all_forms", None) is True
        and hasattr(wnet, "_normalizer")
        and hasattr(wnet, "lemmatizer")
    ):
        view = WnView(wnet, tables)
    _VIEWS[id(wnet)] = (wnet, view)
    return view


def clear() -> None:
    _VIEWS.clear()
