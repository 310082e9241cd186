"""``RuleBasedExtractor``: the embedded, offline math NER (English and Polish input, canonical English output).

Recognisers (numbers, number words, lexicon phrases, symbols, contextual symbols, variables) propose
candidates; the longest wins; the frame builders (``frame_rules``) read the resolved entities.
"""

from __future__ import annotations

import re

from ..lib.numbers import read_numbers
from .frame_rules import _SENT_END_RE, _build_frames, _chains, _sentence_start
from .lexicons import (
    _AMBIGUOUS,
    _COPULA_AFTER_RE,
    _LET_BEFORE_RE,
    _LETTER_RE,
    _LEXICON_ANY_RE,
    _LEXICON_RES,
    _LIST_NUM_RE,
    _NEEDS_RIGHT_OPERAND,
    _NUMBER_WORDS,
    _RESULT_CONCEPTS,
    _SYMBOL_RE,
    _SYMBOLS,
    _UNIT_BEFORE_RE,
    _WEAK_EQ,
    _WORD_LETTERS,
    _WORD_RE,
    _ZERO_RE,
    _Cand,
    parse_number_words,
)
from .schemas import NEREntity, NERResult


class RuleBasedExtractor:
    """Embedded, offline math NER for English and Polish (seed 001 entity types and frames)."""

    label = "rule_based"

    def extract(self, text: str) -> NERResult:
        cands = self._strong(text)
        ents = _drop_dangling(text, _resolve(cands))
        ents = _resolve(ents + self._contextual(text, ents))
        ents = self._variables(text, ents)
        for c in ents:  # "zero is the neutral element" → zero_neutral; "1 is the identity of ×" → identity
            if c.canonical == "identity":
                s = _sentence_start(text, c.start)
                m = _SENT_END_RE.search(text, c.end)
                if _ZERO_RE.search(text, s, m.start() if m else len(text)):
                    c.canonical = "zero_neutral"
        entities = [
            NEREntity(
                text=text[c.start : c.end],
                type=c.type,
                start=c.start,
                end=c.end,
                canonical=c.canonical,
                confidence=c.confidence,
            )
            for c in ents
        ]
        frames, unmapped = _build_frames(text, ents)
        return NERResult(entities=entities, frames=frames, unmapped=unmapped)

    # -- recognisers -------------------------------------------------------

    def _strong(self, text: str) -> list[_Cand]:
        out: list[_Cand] = []
        list_nums = {m.start(1) for m in _LIST_NUM_RE.finditer(text)}
        for tok in read_numbers(text, "auto"):  # one number, one value: "125 000", "1 234,5" (lib/numbers.py)
            if tok.start in list_nums:
                continue  # "1. Align digits": a list marker, not a quantity
            out.append(_Cand(tok.start, tok.end, "NUMBER", _fmt(tok.value), 0.99, tok.value))
        out.extend(self._number_words(text))
        first = _LEXICON_ANY_RE.search(text)
        if first is None:
            return out
        for rx, typ, canon, conf in _LEXICON_RES:
            for m in rx.finditer(text, first.start()):  # the look-behind still sees the text before
                out.append(_Cand(m.start(), m.end(), typ, canon, conf))
        return out

    def _number_words(self, text: str) -> list[_Cand]:
        words = [(m.start(), m.end(), m.group(0).lower()) for m in _WORD_RE.finditer(text)]
        out: list[_Cand] = []
        i = 0
        while i < len(words):
            if words[i][2] not in _NUMBER_WORDS:
                i += 1
                continue
            # a run of number words joined by one space or a hyphen ("and" allowed inside)
            j = i + 1
            while (
                j < len(words)
                and text[words[j - 1][1] : words[j][0]] in (" ", "-")
                and (words[j][2] in _NUMBER_WORDS or words[j][2] == "and")
            ):
                j += 1
            run = [w[2] for w in words[i:j]]
            k = 0
            while k < len(run):
                value, n = parse_number_words(run[k:])
                if n == 0:
                    k += 1
                    continue
                s, e = words[i + k][0], words[i + k + n - 1][1]
                out.append(_Cand(s, e, "NUMBER", str(value), 0.9, value))
                k += n
            i = j
        return out

    def _contextual(self, text: str, ents: list[_Cand]) -> list[_Cand]:
        """Symbols between operands; "x" between numbers; copulas meaning "equals"."""
        numeric_end = {c.end: c for c in ents if c.type == "NUMBER"}
        numeric_start = {c.start: c for c in ents if c.type == "NUMBER"}
        taken = bytearray(len(text) + 1)
        for c in ents:
            taken[c.start : c.end] = b"\x01" * (c.end - c.start)

        def inside(p: int) -> bool:
            return taken[p] == 1

        def left_operand(p: int) -> str | None:
            q = p
            while q > 0 and text[q - 1] in " \t$":
                q -= 1
            if q in numeric_end:
                return "num"
            if q > 0 and text[q - 1] in ")]}":
                return "paren"
            unit = _UNIT_BEFORE_RE.search(text, max(0, q - 40), q)
            if unit and unit.start() in numeric_end and unit.end() == q:
                return "num"  # "20 miles + 15 miles": a quantity with its unit
            if _LETTER_RE.match(text, q - 1) if q > 0 else False:
                return "letter"
            return None

        def right_operand(p: int) -> str | None:
            q = p
            while q < len(text) and text[q] in " \t$":
                q += 1
            if q in numeric_start:
                return "num"
            if q < len(text) and text[q] in "([{":
                return "paren"
            if q < len(text) and _LETTER_RE.match(text, q):
                return "letter"
            return None

        out: list[_Cand] = []
        for m in _SYMBOL_RE.finditer(text):
            sym = m.group(0)
            if inside(m.start()):
                continue
            left, right = left_operand(m.start()), right_operand(m.end())
            typ, canon = _SYMBOLS[sym]
            ambiguous = sym in _AMBIGUOUS or sym in "<>"
            if left is None or right is None:
                # an unambiguous symbol needs a number on one side at least ("sum >= 10")
                if not ambiguous and "num" in (left, right):
                    out.append(_Cand(m.start(), m.end(), typ, canon, 0.9))
                continue
            if ambiguous:
                spaced = text[m.start() - 1 : m.start()].isspace() and text[m.end() : m.end() + 1].isspace()
                if "num" not in (left, right):
                    continue
                if (
                    sym == ":"
                    and not spaced
                    and (text[m.start() - 1 : m.start()].isspace() or text[m.end() : m.end() + 1].isspace())
                ):
                    continue  # "jeden: 7" is punctuation; "6 : 2" and "6:2" are division
                out.append(_Cand(m.start(), m.end(), typ, canon, 0.8, weak=not spaced))
            else:
                out.append(_Cand(m.start(), m.end(), typ, canon, 0.99))
        # "3 x 4", "3x4": x as multiplication between two numbers
        for m in re.finditer(r"(?<=[\d\s])[xX](?=[\s\d])", text):
            if not inside(m.start()) and left_operand(m.start()) == "num" and right_operand(m.end()) == "num":
                out.append(_Cand(m.start(), m.end(), "OPERATION", "mul", 0.8))
        # copulas: "3 plus 4 is 7", "Suma 3 i 4 wynosi 7" (wynosi is in the lexicon)
        for m in _WORD_RE.finditer(text):
            w = m.group(0).lower()
            if w not in _WEAK_EQ or inside(m.start()):
                continue
            if left_operand(m.start()) == "num" and right_operand(m.end()) == "num":
                sent_start = _sentence_start(text, m.start())
                before = [c for c in ents if sent_start <= c.start < m.start()]
                if any(
                    c.type == "OPERATION" or (c.type == "CONCEPT" and c.canonical in _RESULT_CONCEPTS) for c in before
                ):
                    out.append(_Cand(m.start(), m.end(), "RELATION", "eq", 0.8))
        # unspaced ambiguous symbols stay only inside an equation (a chain holding a relation)
        in_equation = {
            id(x) for ch in _chains(text, _resolve(ents + out)) if any(x.type == "RELATION" for x in ch) for x in ch
        }
        return [c for c in out if not c.weak or id(c) in in_equation]

    def _variables(self, text: str, ents: list[_Cand]) -> list[_Cand]:
        """Single letters used as unknowns.

        A lone letter is a variable when it touches an operator/relation symbol
        ("x + 3"), or is the operand of a relation word ("n is at least 6",
        "x jest mniejsze od 10"), or follows "let"/"niech"; then its other lone
        occurrences in the text are too. Letters that are words (a, I, i, o, u,
        w, z) count only next to a symbol.
        """
        taken = [(c.start, c.end) for c in ents]
        symbol_edges: set[int] = set()
        relation_edges: set[int] = set()
        for c in ents:
            if c.type in ("OPERATION", "RELATION") and not text[c.start : c.end][:1].isalpha():
                symbol_edges.update((c.start, c.end))
            elif c.type == "RELATION":
                relation_edges.update((c.start, c.end))
        found: dict[int, _Cand] = {}
        lone = [m for m in _LETTER_RE.finditer(text) if not any(s <= m.start() < e for s, e in taken)]
        for m in lone:
            q = m.start()
            while q > 0 and text[q - 1] in " \t$(":
                q -= 1
            r = m.end()
            while r < len(text) and text[r] in " \t$)":
                r += 1
            word_letter = m.group(0).lower() in _WORD_LETTERS
            near_symbol = q in symbol_edges or r in symbol_edges
            near_relation = False
            if not word_letter:
                cop = _COPULA_AFTER_RE.match(text, m.end())
                near_relation = (cop.end() if cop else r) in relation_edges or q in relation_edges
                near_relation = near_relation or bool(_LET_BEFORE_RE.search(text, max(0, m.start() - 12), m.start()))
            if near_symbol or near_relation:
                found[m.start()] = _Cand(m.start(), m.end(), "VARIABLE", m.group(0).lower(), 0.8)
        names = {c.canonical for c in found.values() if c.canonical not in _WORD_LETTERS}
        for m in lone:
            if m.start() not in found and m.group(0).lower() in names:
                found[m.start()] = _Cand(m.start(), m.end(), "VARIABLE", m.group(0).lower(), 0.7)
        return sorted(list(ents) + list(found.values()), key=lambda c: c.start)


def _drop_dangling(text: str, ents: list[_Cand]) -> list[_Cand]:
    starts = {c.start for c in ents if c.type == "NUMBER"}
    out = []
    for c in ents:
        if text[c.start : c.end].lower() in _NEEDS_RIGHT_OPERAND:
            q = c.end
            while q < len(text) and text[q] in " \t$":
                q += 1
            if q not in starts and not (q < len(text) and (text[q] == "(" or _lone_letter(text, q))):
                continue
        out.append(c)
    return out


def _lone_letter(text: str, q: int) -> bool:
    """A single letter at q that is not followed by another word ("3 times a" yes, "3 times a week" no)."""
    if not _LETTER_RE.match(text, q):
        return False
    m = re.compile(r"\s*[^\W\d_]").match(text, q + 1)
    return m is None


def _fmt(v: int | float | str) -> str:
    if isinstance(v, float):
        return repr(v)
    return str(v)


def _resolve(cands: list[_Cand]) -> list[_Cand]:
    """Non-overlapping candidates: longest first, then the earliest."""
    chosen: list[_Cand] = []
    occupied = bytearray(max((c.end for c in cands), default=0) + 1)
    for c in sorted(cands, key=lambda c: (-(c.end - c.start), c.start, c.weak)):
        if c.end <= c.start or occupied.find(1, c.start, c.end) != -1:
            continue
        chosen.append(c)
        occupied[c.start : c.end] = b"\x01" * (c.end - c.start)
    return sorted(chosen, key=lambda c: c.start)
