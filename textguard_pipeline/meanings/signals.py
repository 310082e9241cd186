"""Cached WordNet signals the embedded detector's exclusion rules read: polysemy, generic nouns, multi-word
lemmas, common words, words in capitals and structural terms (parts of a written work)."""

from __future__ import annotations

from typing import Any

from .senses import gloss_stats, is_generic_noun, is_multiword_lemma, lexicon_cache, sense_count
from .wn_tables import WnTables, tables_for
from .wn_words import word_view

#: An all-capitals word is the common word in capitals when ≥ this share of WordNet glosses use it (≈ 12 of 117,659).
SHOUTED_MIN_GLOSS_SHARE = 1e-4


class WordSignals:
    """Cached WordNet signals used by the exclusions."""

    def __init__(self, wnet: Any):
        self.wnet = wnet
        self._view = word_view(wnet)  # wn's word searches on the bulk tables, where there are
        self._is_generic = is_generic_noun
        self._is_mwe = is_multiword_lemma
        self._senses = sense_count
        self._cache: dict[tuple, Any] = lexicon_cache(wnet, "word_signals")

    def _memo(self, key: tuple, fn):
        try:
            return self._cache[key]
        except KeyError:
            v = self._cache[key] = fn()
            return v

    def senses(self, lemma: str, pos: str) -> int:
        return self._memo(("s", lemma, pos), lambda: self._senses(self.wnet, lemma, pos))

    def is_lemma(self, word: str, pos: str = "n") -> bool:
        """``word`` is itself a WordNet lemma (so "data" stays "data", not spaCy's "datum")."""

        def judge() -> bool:
            try:
                return any(w.lemma().lower() == word for w in self._view.words(word, pos=pos))
            except Exception:
                return False

        return self._memo(("l", word, pos), judge)

    def noun_base(self, word: str) -> str:
        """``word`` when it is a noun lemma or no noun, else WordNet's lower-case base form ("sponsors" → sponsor)."""

        def judge() -> str:
            try:
                bases = [w.lemma() for w in self._view.words(word, pos="n")]
            except Exception:
                return word
            low = [b for b in bases if b.islower()]
            return word if not low or any(b.lower() == word for b in bases) else low[0]

        return self._memo(("b", word), judge)

    def idiom(self, phrase: str) -> bool:
        """WordNet has ``phrase`` as an adverb or adjective and not as a noun ("on the other hand", "for example",
        "at hand"): the noun inside it names nothing."""
        cache = lexicon_cache(self.wnet, "idioms")  # one pass over the lexicon per process, then set lookups
        if "all" not in cache:
            tables = tables_for(self.wnet)
            try:
                if tables is not None:  # read in bulk: wn asks three queries per word
                    words = [w for pos in ("r", "a", "s") for w in tables.multiword.get(pos, ())]
                else:
                    words = [w.lemma() for pos in ("r", "a", "s") for w in self.wnet.words(pos=pos)]
            except Exception:
                words = []
            cache["all"] = frozenset(w.lower() for w in words if " " in w)
        return phrase in cache["all"] and not self.senses(phrase, "n")

    def common_word(self, word: str) -> bool:
        """WordNet has ``word`` (or its base form) as a lower-case lemma: a common word, not a name."""

        def judge() -> bool:
            try:
                return any(w.lemma().islower() for w in self._view.words(word))
            except Exception:
                return False

        return self._memo(("c", word), judge)

    def shouted(self, word: str) -> str | None:
        """An all-capitals common word ("NOTE", "USERS") → its lower-case noun lemma; None for an acronym: a word
        WordNet spells in capitals (CAT, RAM, URL) or one whose lower-case form few glosses use (BLEU, GNU, GIT)."""

        def judge() -> str | None:
            if not (word.isupper() and word.isalpha() and len(word) >= 3):
                return None
            try:
                if any(w.lemma() == word for w in self._view.words(word)):
                    return None
                nouns = [w.lemma() for w in self._view.words(word.lower(), pos="n") if w.lemma().islower()]
            except Exception:
                return None
            return nouns[0] if nouns and gloss_stats(self.wnet).frequency(nouns[0]) >= SHOUTED_MIN_GLOSS_SHARE else None

        return self._memo(("u", word), judge)

    def generic(self, lemma: str) -> bool:
        return self._memo(("g", lemma), lambda: bool(self._is_generic(self.wnet, lemma)))

    def mwe(self, phrase: str) -> bool:
        return self._memo(("m", phrase), lambda: bool(self._is_mwe(self.wnet, phrase)))

    def structural(self, lemma: str) -> bool:
        """A part of a written work (chapter, section, appendix, figure, conclusion): the first
        noun sense is a direct "piece of writing" or descends from "section"/"matter"/"nontextual matter", or one of the
        first three senses is a kind of "section"/"subdivision" — read from WordNet's hypernyms."""

        def hits(synset, roots: set[str]) -> bool:
            for n, hyper in enumerate(synset.closure("hypernym")):
                if n > 12:
                    return False
                # "matter" of a book, not physical matter: the root must be a communication synset.
                if roots & set(hyper.lemmas()) and hyper.lexfile() in (None, "noun.communication"):
                    return True
            return False

        def judge() -> bool:
            try:
                synsets = self._view.synsets(lemma, pos="n")
            except Exception:
                return False
            if not synsets:
                return False
            tables = tables_for(self.wnet)
            if tables is not None and all(s.id in tables for s in synsets[:3]):
                return _structural(tables, [s.id for s in synsets[:3]])
            first = synsets[0]
            if hits(first, _STRUCTURAL_ROOTS) or any("piece of writing" in h.lemmas() for h in first.hypernyms()):
                return True
            return any(hits(s, _PART_ROOTS) for s in synsets[1:3])

        return self._memo(("struct", lemma), judge)


_STRUCTURAL_ROOTS = {"section", "subdivision", "nontextual matter", "matter"}
_PART_ROOTS = {"section", "subdivision"}


def _structural(tables: WnTables, senses: list[str]) -> bool:
    """:meth:`WordSignals.structural` on the bulk tables (the same walk, no query): ``senses`` are the first
    three noun senses."""

    def hits(sid: str, roots: set[str]) -> bool:
        for n, hyper in enumerate(tables.closure(sid, "hypernym")):
            if n > 12:
                return False
            if roots & set(tables.lemmas(hyper)) and tables.lexfile(hyper) in (None, "noun.communication"):
                return True
        return False

    first = senses[0]
    if hits(first, _STRUCTURAL_ROOTS) or any("piece of writing" in tables.lemmas(h) for h in tables.hypernyms(first)):
        return True
    return any(hits(s, _PART_ROOTS) for s in senses[1:3])
