"""Metric numbers with each chunk's language's conventions (issue 17).

English chunks (and chunks of unknown language) get exactly :class:`NumberRecognizer`'s spans.
Other languages use their metric words for the E6 context rule, and the decimal-comma languages
(:data:`~..languages.DECIMAL_COMMA`) add ``95,3 %``, ``12,5–15 %``, ``0,87 ± 0,02``, ``1 000 000``
(thousands spaced by a space, no-break space or thin space), the language's percent words
(``12,5 pour cent``, ``3,5 proc.``, ``15 procentów``) and, near a metric word, ``0,87``.
"""

from __future__ import annotations

import bisect
import re
from functools import lru_cache

from ..languages import DECIMAL_COMMA
from ..model import Candidate, TextChunk
from ..number_patterns import find_numbers, patterns
from ..vocabularies import vocabulary
from .number import NumberRecognizer

DEFAULT_LANGUAGES = frozenset({None, "en"})
_CONTEXT_WINDOW = 50
_CUT_AT_COMMA = re.compile(r",\d")
_SEP = "[ \u00a0\u202f\u2009]"
_NUM = rf"(?:\d{{1,3}}(?:{_SEP}\d{{3}})+(?!\d)|\d+)(?:,\d+)?"
_PCT = rf"{_SEP}?\\?%"


@lru_cache(maxsize=None)
def _compiled(lang: str) -> tuple[re.Pattern, re.Pattern]:
    """The always-protected and the metric-context patterns of ``lang``; a range is written with a
    dash or the language's range word (``8,5 à 10,5 %``, ``0,69 do 0,77``)."""
    v = vocabulary(lang)
    words = v.range_words
    # "%" or the language's percent word ("12,5 pour cent", "3,5 proc."): one span with its number
    pct = rf"(?:{_PCT}|{_SEP}(?:{'|'.join(v.percent_words)}))" if v.percent_words else _PCT
    stat = "|".join(sorted((re.escape(x) for x in v.stat_symbols), key=len, reverse=True))
    to = r"(?:\s*[-–—]\s*" + "".join(rf"|\s+{re.escape(w)}\s+" for w in words) + ")"
    always = re.compile(
        rf"(?P<pm>(?<![\w.,])-?{_NUM}\s*(?:±|\+/-)\s*{_NUM}(?:{pct})?)"
        rf"|(?P<range>(?<![\w.,\-–]){_NUM}(?:{pct})?{to}{_NUM}{pct})"
        rf"|(?P<pct>(?<![\w.,]){_NUM}{pct})"
        rf"|(?P<big>(?<![\w.,])\d{{1,3}}(?:{_SEP}\d{{3}})+(?:,\d+)?(?!\d|{_SEP}\d|,\d))"
        # statistics with a decimal comma: "p < 0,05", "r = 0,42"
        + (rf"|(?P<stat>(?<![\w\\])(?:{stat})\s*(?:<=|>=|[<>=≤≥])\s*-?\d+,\d+(?![\w]|,\d))" if stat else "")
    )
    context = re.compile(rf"(?P<range>(?<![\d.,])\d+,\d+{to}\d+,\d+(?!\d|,\d))|(?P<dec>(?<![\d.,])\d+,\d+(?!\d|,\d))")
    return always, context


class LanguageNumberRecognizer(NumberRecognizer):
    """:class:`NumberRecognizer` with the chunk's language's conventions (source ``number``)."""

    name = "number"
    priority = 50

    def find_chunk(self, chunk: TextChunk) -> list[Candidate]:
        lang = chunk.language
        if lang in DEFAULT_LANGUAGES:
            return self.find(chunk.text)
        text = chunk.text
        found = find_numbers(text, language=lang)
        if lang in DECIMAL_COMMA:
            # the English rules stop at a decimal comma ("p < 0" of "p < 0,05"): the patterns below take the whole
            found = [c for c in found if not _CUT_AT_COMMA.match(text, c[1])]
            found += [(m.start(), m.end(), m.lastgroup or "number") for m in _compiled(lang)[0].finditer(text)]
            found += [(c.start, c.end, c.label.lower()) for c in self._near_metric_words(text, lang)]
        return self.whole(text, lang, found)

    def _near_metric_words(self, text: str, lang: str) -> list[Candidate]:
        """Decimal-comma numbers within 50 characters of one of the language's metric words (E6)."""
        found = list(_compiled(lang)[1].finditer(text))
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
