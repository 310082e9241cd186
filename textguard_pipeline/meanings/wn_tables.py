"""WordNet's synset tables read in bulk, once per machine (issue 50): the cold path of ``resolved_meanings``
as lookups.

What the per-lemma passes read of a synset — its lemmas, definition, examples, lexicographer file and its
relations in wn's order — cost one to five SQLite queries each through wn's API (≈ 1.2 parses of CPU for a
process's first document on unseen words: Lesk signatures, the structural-noun and sense-domain hypernym
climbs, the idiom list). :func:`tables_for` reads them with six queries into arrays (≈ 2 s for WordNet 3.0),
keeps them beside the database as ``wn-tables-<tag>.pickle`` (written to a temporary name, then renamed; the
tag hashes the lexicon's specifier, wn's version and :data:`FORMAT`; the file records the database's size and
modification time and is rebuilt when they differ or it cannot be read), and loads them once per process.

Every answer equals wn's own (``textguard_pipeline_tests/meanings/test_wn_tables.py`` compares them): members
by ``synset_rank``, an entry's lemma its rank-0 form, relations in the order wn's query returns them (the
relation rows' order), duplicates dropped as wn drops them. Word-level searches (Morphy, normalisation) stay
wn's. :func:`tables_for` is None — callers then ask wn as before — for a lexicon test double, a wordnet of
several lexicons or with expand lexicons, or a database that cannot be read.
"""

from __future__ import annotations

import hashlib
import logging
import pickle
from collections import deque
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterator, Sequence

import numpy as np

from ..lib.atomic import write_bytes_atomic

log = logging.getLogger(__name__)

#: bumped when what the file holds or how it is read changes
FORMAT = 2


class WnTables:
    """One lexicon's synsets as arrays: synset index ``i`` ↔ ``ids[i]``; members, relations and examples
    as CSR slices (``*_ptr[i]:*_ptr[i + 1]``)."""

    def __init__(self, data: dict):
        self.ids: list[str] = data["ids"]
        self.index = {sid: i for i, sid in enumerate(self.ids)}
        self._pos: str = data["pos"]
        self._lexfile = data["lexfile"]  # int16 codes into lexfile_names, -1: none
        self._lexfile_names: list[str] = data["lexfile_names"]
        self._definitions: list[str | None] = data["definitions"]
        self._ex_ptr, self._examples = data["ex_ptr"], data["examples"]
        self._m_ptr, self._m_lemma = data["m_ptr"], data["m_lemma"]  # member lemma codes into lemma_names
        self._lemma_names: list[str] = data["lemma_names"]
        self._r_ptr, self._r_type, self._r_target = data["r_ptr"], data["r_type"], data["r_target"]
        self._type_names: list[str] = data["type_names"]
        self._type_codes = {name: i for i, name in enumerate(self._type_names)}
        #: part of speech → lemmas of two or more words (the idiom list reads adverbs and adjectives)
        self.multiword: dict[str, list[str]] = data["multiword"]
        #: entries, their forms and senses (:mod:`.wn_words`); None when wn's order could not be reproduced
        self.words: dict | None = data["words"]

    def __contains__(self, sid: str) -> bool:
        return sid in self.index

    def pos(self, sid: str) -> str:
        return self._pos[self.index[sid]]

    def lexfile(self, sid: str) -> str | None:
        code = int(self._lexfile[self.index[sid]])
        return None if code < 0 else self._lexfile_names[code]

    def definition(self, sid: str) -> str | None:
        """The first definition, as ``Synset.definition()``."""
        return self._definitions[self.index[sid]]

    def examples(self, sid: str) -> list[str]:
        i = self.index[sid]
        return self._examples[self._ex_ptr[i] : self._ex_ptr[i + 1]]

    def lemmas(self, sid: str) -> list[str]:
        """Members' lemmas, as ``Synset.lemmas()``."""
        i = self.index[sid]
        names = self._lemma_names
        return [names[k] for k in self._m_lemma[self._m_ptr[i] : self._m_ptr[i + 1]].tolist()]

    def _rows(self, sid: str, types: Sequence[str]) -> Iterator[tuple[int, int]]:
        i = self.index[sid]
        a, b = int(self._r_ptr[i]), int(self._r_ptr[i + 1])
        wanted = {self._type_codes.get(t, -1) for t in types} if types else None
        for t, target in zip(self._r_type[a:b].tolist(), self._r_target[a:b].tolist()):
            if wanted is None or t in wanted:
                yield t, target

    def relations(self, sid: str, *types: str) -> dict[str, list[str]]:
        """relation name → target ids, as ``Synset.relations(*types)`` (names in first-seen order)."""
        out: dict[str, dict[int, bool]] = {}
        for t, target in self._rows(sid, types):
            out.setdefault(self._type_names[t], {})[target] = True
        return {name: [self.ids[j] for j in targets] for name, targets in out.items()}

    def related(self, sid: str, *types: str) -> list[str]:
        """Target ids without repeats, as ``Synset.get_related(*types)``."""
        return [self.ids[j] for j in dict.fromkeys(target for _t, target in self._rows(sid, types))]

    def hypernyms(self, sid: str) -> list[str]:
        return self.related(sid, "hypernym", "instance_hypernym")

    def closure(self, sid: str, *types: str) -> Iterator[str]:
        """Breadth-first, each synset once, as ``Synset.closure(*types)``."""
        seen: set[str] = set()
        queue = deque(self.related(sid, *types))
        while queue:
            nxt = queue.popleft()
            if nxt not in seen:
                seen.add(nxt)
                yield nxt
                queue.extend(self.related(nxt, *types))


# --------------------------------------------------------------------------- reading the database


def read_tables(db_path: str, spec: str) -> dict:
    """The tables of lexicon ``spec`` in wn's database, in six queries."""
    from .wordnet_install import read_only  # lazy: wordnet_install imports wn's conversion helpers

    with read_only(db_path) as conn:
        row = conn.execute("SELECT rowid FROM lexicons WHERE specifier = ?", (spec,)).fetchone()
        if row is None:
            raise LookupError(f"lexicon {spec} is not in {db_path}")
        lex = row[0]
        synsets = conn.execute(
            "SELECT ss.rowid, ss.id, ss.pos, lf.name FROM synsets AS ss "
            "LEFT JOIN lexfiles AS lf ON lf.rowid = ss.lexfile_rowid WHERE ss.lexicon_rowid = ? ORDER BY ss.rowid",
            (lex,),
        ).fetchall()
        at = {rowid: i for i, (rowid, *_rest) in enumerate(synsets)}
        lemma_of: dict[int, str] = {}  # entry → its rank-0 form (the first by rank, as get_entry_forms orders)
        for entry, form in conn.execute(
            "SELECT f.entry_rowid, f.form FROM forms AS f JOIN entries AS e ON e.rowid = f.entry_rowid "
            "WHERE e.lexicon_rowid = ? ORDER BY f.entry_rowid, f.rank, f.rowid",
            (lex,),
        ):
            lemma_of.setdefault(entry, form)
        multiword: dict[str, list[str]] = {}
        entries = conn.execute(
            "SELECT rowid, pos FROM entries WHERE lexicon_rowid = ? ORDER BY rowid", (lex,)
        ).fetchall()
        for entry, pos in entries:
            lemma = lemma_of.get(entry)
            if lemma is not None and " " in lemma:
                multiword.setdefault(pos, []).append(lemma)
        forms = conn.execute(
            "SELECT f.entry_rowid, f.form, f.normalized_form FROM forms AS f "
            "JOIN entries AS e ON e.rowid = f.entry_rowid WHERE e.lexicon_rowid = ?",
            (lex,),
        ).fetchall()
        senses = conn.execute(
            "SELECT entry_rowid, id, synset_rowid, entry_rank FROM senses WHERE lexicon_rowid = ? "
            "ORDER BY entry_rowid, entry_rank, rowid",
            (lex,),
        ).fetchall()
        indexed = conn.execute("SELECT count(*) FROM entry_index").fetchone()[0]
        members = conn.execute(
            "SELECT synset_rowid, entry_rowid FROM senses WHERE lexicon_rowid = ? "
            "ORDER BY synset_rowid, synset_rank, rowid",
            (lex,),
        ).fetchall()
        relations = conn.execute(
            "SELECT r.source_rowid, rt.type, r.target_rowid FROM synset_relations AS r "
            "JOIN relation_types AS rt ON rt.rowid = r.type_rowid WHERE r.lexicon_rowid = ? "
            "ORDER BY r.source_rowid, r.rowid",
            (lex,),
        ).fetchall()
        definitions: list[str | None] = [None] * len(synsets)
        for synset, text in conn.execute(
            "SELECT synset_rowid, definition FROM definitions WHERE lexicon_rowid = ? ORDER BY synset_rowid, rowid",
            (lex,),
        ):
            i = at.get(synset)
            if i is not None and definitions[i] is None:
                definitions[i] = text
        examples = conn.execute(
            "SELECT synset_rowid, example FROM synset_examples WHERE lexicon_rowid = ? ORDER BY synset_rowid, rowid",
            (lex,),
        ).fetchall()
    lexfile_names = sorted({name for *_r, name in synsets if name is not None})
    lexfile_code = {name: k for k, name in enumerate(lexfile_names)}
    lemma_names = sorted(set(lemma_of.values()))
    lemma_code = {name: k for k, name in enumerate(lemma_names)}
    m_rows = [(at[s], lemma_code[lemma_of[e]]) for s, e in members if s in at and e in lemma_of]
    type_names = sorted({t for _s, t, _t in relations})
    type_code = {name: k for k, name in enumerate(type_names)}
    r_rows, seen = [], set()
    for s, t, target in relations:
        key = (at.get(s), type_code[t], at.get(target))
        if None not in key and key not in seen:  # wn's SELECT DISTINCT, and targets of this lexicon only
            seen.add(key)
            r_rows.append(key)
    e_rows = [(at[s], text) for s, text in examples if s in at]
    words = _word_tables(entries, lemma_of, lemma_code, forms, senses, at) if not indexed else None
    return {
        "words": words,
        "ids": [sid for _r, sid, *_rest in synsets],
        "pos": "".join(p or "?" for _r, _sid, p, _n in synsets),
        "lexfile": np.array([lexfile_code.get(n, -1) for *_r, n in synsets], dtype=np.int16),
        "lexfile_names": lexfile_names,
        "definitions": definitions,
        "ex_ptr": _ptr([i for i, _x in e_rows], len(synsets)),
        "examples": [text for _i, text in e_rows],
        "m_ptr": _ptr([i for i, _k in m_rows], len(synsets)),
        "m_lemma": np.array([k for _i, k in m_rows], dtype=np.int32),
        "lemma_names": lemma_names,
        "r_ptr": _ptr([i for i, _t, _j in r_rows], len(synsets)),
        "r_type": np.array([t for _i, t, _j in r_rows], dtype=np.int16),
        "r_target": np.array([j for _i, _t, j in r_rows], dtype=np.int32),
        "type_names": type_names,
        "multiword": multiword,
    }


def _word_tables(entries, lemma_of, lemma_code, forms, senses, at) -> dict | None:
    """Entries (rowid order), the forms that find them, their senses by rank: what a word search reads. None
    when an entry has no lemma or two senses share a rank (wn's order would then be SQLite's to choose)."""
    number = {rowid: k for k, (rowid, _pos) in enumerate(entries)}
    if any(rowid not in lemma_of for rowid, _pos in entries):
        return None
    by_key: dict[str, set[int]] = {}
    for entry, form, normalized in forms:
        for key in (form, normalized):
            if key is not None:
                by_key.setdefault(key, set()).add(number[entry])
    keys = sorted(by_key)
    rows = [(number[e], sid, at.get(ss), rank) for e, sid, ss, rank in senses if e in number]
    if any(ss is None for _e, _sid, ss, _rank in rows) or len({(e, r) for e, _s, _ss, r in rows}) < len(rows):
        return None
    return {
        "entry_pos": "".join(pos for _rowid, pos in entries),
        "entry_lemma": np.array([lemma_code[lemma_of[rowid]] for rowid, _pos in entries], dtype=np.int32),
        "form_keys": keys,
        "form_ptr": np.concatenate([[0], np.cumsum([len(by_key[k]) for k in keys])]).astype(np.int64),
        "form_entries": np.array([e for k in keys for e in sorted(by_key[k])], dtype=np.int32),
        "sense_ptr": _ptr([e for e, *_r in rows], len(entries)),
        "sense_ids": [sid for _e, sid, _ss, _r in rows],
        "sense_synset": np.array([ss for _e, _sid, ss, _r in rows], dtype=np.int32),
        "sense_rank": np.array([-1 if r is None else r for *_x, r in rows], dtype=np.int32),
    }


def _ptr(rows: list[int], n: int) -> np.ndarray:
    """CSR offsets of rows sorted by synset index."""
    counts = np.bincount(np.asarray(rows, dtype=np.int64), minlength=n) if rows else np.zeros(n, dtype=np.int64)
    return np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)


# --------------------------------------------------------------------------- the sidecar


def _wn_version() -> str:
    try:
        import wn  # lazy: wn opens its database on use

        return str(getattr(wn, "__version__", ""))
    except ImportError:
        return ""


def sidecar_path(db_path: str, spec: str) -> Path:
    tag = hashlib.sha1(f"{FORMAT}|{spec}|{_wn_version()}".encode()).hexdigest()[:12]
    return Path(db_path).with_name(f"wn-tables-{tag}.pickle")


def identity(db: Path) -> tuple[int, int]:
    st = db.stat()
    return st.st_size, st.st_mtime_ns


@lru_cache(maxsize=4)
def load_tables(db_path: str, spec: str, identity: tuple[int, int]) -> WnTables:
    """The tables of ``spec``: from the sidecar when it was written for this database, else read and written."""
    path = sidecar_path(db_path, spec)
    try:
        with path.open("rb") as fh:
            stored = pickle.load(fh)
        if stored.get("format") == FORMAT and stored.get("spec") == spec and stored.get("database") == identity:
            return WnTables(stored["tables"])
    except FileNotFoundError:
        pass
    except Exception as exc:  # noqa: BLE001 - damaged or half-copied: read the database again
        log.info("wn tables %s unreadable (%s): rebuilding", path.name, exc)
    data = read_tables(db_path, spec)
    blob = {"format": FORMAT, "spec": spec, "database": identity, "tables": data}
    try:  # best effort: a read-only data directory means reading the database once per process
        write_bytes_atomic(path, pickle.dumps(blob, protocol=pickle.HIGHEST_PROTOCOL))
    except OSError as exc:
        log.info("wn tables not kept (%s)", exc)
    return WnTables(data)


#: id(wnet) → (wnet, its tables or None); the wnet is held so that its id is never reused
_FOR: dict[int, tuple[Any, WnTables | None]] = {}


def tables_for(wnet: Any) -> WnTables | None:
    """``wnet``'s tables, or None where its answers must come from wn (see the module docstring)."""
    hit = _FOR.get(id(wnet))
    if hit is not None and hit[0] is wnet:
        return hit[1]
    tables = None
    try:
        from .wordnet_install import lexicon_database  # lazy: wordnet_install imports wn's conversion helpers

        db_path, specs = lexicon_database(wnet)
        db = Path(db_path)
        if len(specs) == 1 and not wnet.expanded_lexicons() and db.is_file():
            tables = load_tables(db_path, specs[0], identity(db))
    except Exception as exc:  # noqa: BLE001 - a test double, or a database we cannot read: wn answers
        log.debug("wn tables unavailable: %s", exc)
        tables = None
    _FOR[id(wnet)] = (wnet, tables)
    return tables


def clear() -> None:
    """Forget the loaded tables (tests that replace a database)."""
    _FOR.clear()
    load_tables.cache_clear()


def gloss_texts(wnet: Any, sid: str, relations: Sequence[str], max_related: int) -> tuple[str, list[str]] | None:
    """A Lesk signature's texts: (the synset's definition, examples and lemmas; the definition and lemmas of
    its first ``max_related`` relatives by ``relations``, in wn's order); None when ``wnet`` has no such synset."""
    tables = tables_for(wnet)
    if tables is not None and sid in tables:
        own = " ".join([tables.definition(sid) or "", *tables.examples(sid), *tables.lemmas(sid)])
        related: list[str] = []
        for _rel, targets in tables.relations(sid, *relations).items():
            for t in targets[: max(0, max_related - len(related))]:
                related.append(" ".join([tables.definition(t) or "", *tables.lemmas(t)]))
        return own, related
    try:
        ss = wnet.synset(sid)
    except Exception:  # noqa: BLE001 - an id of another lexicon (or Wikidata's)
        return None
    own = " ".join([ss.definition() or "", *ss.examples(), *ss.lemmas()])
    related = []
    for _rel, targets in ss.relations(*relations).items():
        for t in targets[: max(0, max_related - len(related))]:
            related.append(" ".join([t.definition() or "", *t.lemmas()]))
    return own, related
