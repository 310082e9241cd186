"""Metric numbers with each chunk's language's conventions (issue 17).

English chunks (and chunks of unknown language) get exactly :class:`NumberRecognizer`'s spans.
Other languages use their metric words for the E6 context rule, and the decimal-comma languages
(:data:`~..languages.DECIMAL_COMMA`) add ``95,3 %``, ``12,5–15 %``, ``0,87 ± 0,02``, ``1 000 000``
(thousands spaced by a space, no-break space or thin space) and, near a metric word, ``0,87``.
"""

from __future__ import annotations

import bisect
import re

from ..languages import DECIMAL_COMMA
from ..model import Candidate, TextChunk
from ..number_patterns import find_numbers, patterns
from .number import NumberRecognizer

DEFAULT_LANGUAGES = frozenset({None, "en"})
_CONTEXT_WINDOW = 50
_SEP = "[ \u00a0\u202f\u2009]"
_NUM = rf"(?:\d{{1,3}}(?:{_SEP}\d{{3}})+(?!\d)|\d+)(?:,\d+)?"
_PCT = rf"{_SEP}?\\?%"
_ALWAYS = re.compile(
    rf"(?P<pm>(?<![\w.,])-?{_NUM}\s*(?:±|\+/-)\s*{_NUM}(?:{_PCT})?)"
    rf"|(?P<range>(?<![\w.,\-–]){_NUM}(?:{_PCT})?\s*[-–—]\s*{_NUM}{_PCT})"
    rf"|(?P<pct>(?<![\w.,]){_NUM}{_PCT})"
    rf"|(?P<big>(?<![\w.,])\d{{1,3}}(?:{_SEP}\d{{3}})+(?:,\d+)?(?!\d|{_SEP}\d|,\d))"
)
_CONTEXT = re.compile(
    r"(?P<range>(?<![\d.,])\d+,\d+\s*[-–—]\s*\d+,\d+(?![\d,]|,\d))"
    r"|(?P<dec>(?<![\d.,])\d+,\d+(?![\d,]|,\d))"
)


class LanguageNumberRecognizer(NumberRecognizer):
    """:class:`NumberRecognizer` with the chunk's language's conventions (source ``number``)."""

    name = "number"
    priority = 50

    def find_chunk(self, chunk: TextChunk) -> list[Candidate]:
        lang = chunk.language
        if lang in DEFAULT_LANGUAGES:
            return self.find(chunk.text)
        text = chunk.text
        out = [Candidate(s, e, self.name, kind.upper()) for s, e, kind in find_numbers(text, language=lang)]
        if lang in DECIMAL_COMMA:
            out += [
                Candidate(m.start(), m.end(), self.name, (m.lastgroup or "number").upper())
                for m in _ALWAYS.finditer(text)
            ]
            out += self._near_metric_words(text, lang)
        return out

    def _near_metric_words(self, text: str, lang: str) -> list[Candidate]:
        """Decimal-comma numbers within 50 characters of one of the language's metric words (E6)."""
        found = list(_CONTEXT.finditer(text))
        if not found:
            return []
        ctx = [(w.start(), w.end()) for w in patterns(lang).metric_words.finditer(text)]
        starts = [s for s, _ in ctx]
        out = []
        for m in found:
            lo, hi = m.start() - _CONTEXT_WINDOW, m.end() + _CONTEXT_WINDOW
            i = bisect.bisect_left(starts, lo)
            if (i < len(ctx) and ctx[i][0] <= hi) or (i > 0 and ctx[i - 1][1] > lo):
                out.append(Candidate(m.start(), m.end(), self.name, (m.lastgroup or "number").upper()))
        return out
