"""Number patterns (§5.3 with the E6 context rule, issue 15): percentages and statistics, ranges
with shared or repeated units, ``±`` expressions, and the values of named settings.

Span policy: a value and its unit are one span (``20-45%``, ``12.31 ± 0.40``, ``3e-4``); the name
of a setting stays outside so that it can be translated (``batch size ⟨32⟩``, ``⟨10⟩ epochs``).
The patterns are compiled from a language's :class:`~.vocabulary.Vocabulary` (:func:`patterns`).
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from functools import lru_cache

from .vocabulary import Vocabulary, vocabulary

_CONTEXT_WINDOW = 50
_NAME_REACH = 60  # a setting's name ends at most this far before its value
_DIGIT = re.compile(r"\d")
_NUM = r"(?:(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|\.\d+)"
_SCI = rf"{_NUM}(?:[eE][-+−]?\d+)?(?:\s*[×x]\s*10\s*\^?\s*\{{?[-−]?\d+\}}?)?"
_PCT = r"\s?\\?%(?!\d)"  # not "%1 %2" (batch-file arguments)
_DASH = r"[-–—]"


def _alt(words) -> str:
    return "|".join(sorted(dict.fromkeys(words), key=lambda w: (-len(w), w)))


@dataclass(frozen=True)
class NumberPatterns:
    always: re.Pattern
    context: re.Pattern
    metric_words: re.Pattern
    values: re.Pattern
    name_before: re.Pattern
    count_after: re.Pattern


def _compile(v: Vocabulary) -> NumberPatterns:
    to = rf"(?:\s*{_DASH}\s*|\s+(?:{_alt(v.range_words)})\s+)"
    stat = _alt(re.escape(s) for s in v.stat_symbols)
    always = (
        # ranges that end in a percentage (shared or repeated unit) and ± expressions, before their parts
        rf"(?P<range>(?<![\w.,\-–])\d+(?:\.\d+)?(?:{_PCT})?{to}\d+(?:\.\d+)?{_PCT})"
        rf"|(?P<pm>(?<![\w.,])-?{_NUM}\s*(?:±|\\pm\b|\+/-|\+-)\s*{_NUM}(?:{_PCT})?)"
        # percentages (LaTeX writes 98\%), statistics "p < 0.05", ratios "1.5x" / "224×224", 1,000,000
        rf"|(?P<pct>(?<![\w.,])\d+(?:\.\d+)?{_PCT})"
        rf"|(?P<stat>(?<![\w\\])(?:{stat})\s*(?:<=|>=|[<>=≤≥])\s*-?\d*\.?\d+(?:[eE]-?\d+)?(?![\^*/\w]))"
        r"|(?P<ratio>(?<![\w.])(?!0[xX])\d+(?:\.\d+)?\s?[x×]\s?\d+(?:\.\d+)?(?![\w.])"
        r"|(?<![\w.])\d+(?:\.\d+)?[x×](?![\w]))"
        r"|(?P<big>(?<![\w.,])\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\d]|,\d))"
    )
    # decimals "0.89", their ranges "0.85–0.92", colon ratios "3:1": only near a metric word (E6)
    context = (
        rf"(?P<range>(?<![\d.,])\d+\.\d+{to}\d+\.\d+(?![\d.]|\.\d))"
        r"|(?P<dec>(?<![\d.,])\d+\.\d+(?![\d.]|\.\d))|(?P<colon>(?<![\w.:@])\d+:\d+(?![\w:]|\.\d))"
    )
    value = (
        rf"-?{_SCI}(?:[kKMB](?![\w]))?(?:{_PCT})?(?:{to}-?{_SCI}(?:[kKMB](?![\w]))?(?:{_PCT})?)?"
        r"|\d+:\d+(?![\w:])"
    )
    link = rf"(?:\s*(?:{_alt(v.parameter_links)}))?"
    # names are also written as identifiers ("weight_decay=1e-4") and values quoted ("``1e-3``")
    names = _alt(v.parameters).replace(r"[\s-]+", r"[\s_-]+")
    return NumberPatterns(
        always=re.compile(always),
        context=re.compile(context),
        metric_words=re.compile(rf"(?<![\w])(?:{_alt(v.metric_words)})(?![\w])", re.IGNORECASE),
        # a setting's value is found from the number: its name before it, or a count noun after it
        values=re.compile(rf"(?<![\w.])(?:{value})(?!\w|\.\d)"),
        name_before=re.compile(rf"(?<![\w\-])(?i:{names})(?![\w\-]){link}\s*[:=]?\s*[`'\"]*\Z"),
        count_after=re.compile(rf"[ \t\u00a0]+(?:{_alt(v.count_nouns)})(?![\w\-])"),  # same line, lower case
    )


@lru_cache(maxsize=None)
def patterns(language: str | None = None) -> NumberPatterns:
    """The compiled patterns of ``language`` (English when unknown)."""
    return _compile(vocabulary(language))


def find_numbers(text: str, *, language: str | None = None) -> list[tuple[int, int, str]]:
    """Metric-like number spans ``(start, end, kind)`` (may overlap; the longest wins)."""
    if not _DIGIT.search(text):
        return []
    pat = patterns(language)
    out: list[tuple[int, int, str]] = []
    for m in pat.always.finditer(text):
        out.append((m.start(), m.end(), m.lastgroup or "number"))
    for m in pat.values.finditer(text):
        s, e = m.start(), m.end()
        if pat.name_before.search(text, max(0, s - _NAME_REACH), s) or (
            text[s - 1 : s] not in (",", "-") and pat.count_after.match(text, e)
        ):
            out.append((s, e, "param"))
    ctx = None
    for m in pat.context.finditer(text):
        if ctx is None:
            ctx = [(w.start(), w.end()) for w in pat.metric_words.finditer(text)]
            starts = [s for s, _ in ctx]
        if not ctx:
            break
        lo, hi = m.start() - _CONTEXT_WINDOW, m.end() + _CONTEXT_WINDOW
        i = bisect.bisect_left(starts, lo)
        # a metric word that starts inside the window, or one that starts before it and reaches in
        near = (i < len(ctx) and ctx[i][0] <= hi) or (i > 0 and ctx[i - 1][1] > lo)
        if near:
            out.append((m.start(), m.end(), m.lastgroup or "number"))
    return out
