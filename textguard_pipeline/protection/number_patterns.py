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

from .vocabularies import vocabulary
from .vocabulary import Vocabulary

_CONTEXT_WINDOW = 50
_NAME_REACH = 60  # a setting's name ends at most this far before its value
_DIGIT = re.compile(r"\d")
_NUM = r"(?:(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|\.\d+)"
_SCI = rf"{_NUM}(?:[eE][-+−]?\d+)?(?:\s*[×x]\s*10\s*\^?\s*\{{?[-−]?\d+\}}?)?"
_PCT = r"\s?\\?%(?!\d)"  # not "%1 %2" (batch-file arguments)
_DASH = r"[-–—]"
# units an error bar or a setting's value may carry ("414 μs ± 309 ns", "--max-pack-size=8g")
_UNIT = (
    r"(?:[kMGTmµμnp]?(?:s|Hz|B|W|V|J|m|g)|min|h|hr|hrs|sec|secs|days?|dB|px|°C?|kg|cm|mm|km|[KMGT]iB"
    r"|it/s|fps|FPS|pp|pts?|points?)(?![\w/])"
)
_VALUE_TAIL = r"(?![-/:]?\w|\.\d|[>&|]|\s*[-+*/^×]\s*[\w(])"  # not a date, path, fraction, redirection, sum


def _alt(words) -> str:
    return "|".join(sorted(dict.fromkeys(words), key=lambda w: (-len(w), w)))


@dataclass(frozen=True)
class NumberPatterns:
    always: re.Pattern
    context: re.Pattern
    metric_words: re.Pattern
    values: re.Pattern
    name_before: re.Pattern
    identifier_before: re.Pattern
    count_after: re.Pattern


# A value assigned to an identifier, as code and command lines write settings: "imgsz=640", "lr0 = 0.01",
# "`rank`=2", 'config["seed"] = 123', "max_new_tokens: 256", "--batch-size 32", "--depth=0", and in prose
# a snake_case name with a linking word ("`retention_ratio` is 0.2", "sets n_jobs to 1"). A single letter is
# a math variable ("x = 2", "t=1"), not a setting.
_IDENTIFIER_BEFORE = re.compile(
    r"(?:(?<![\w-])--(?P<flag>[A-Za-z][\w-]*)(?:=|\s+)"
    r"|(?<![\w-])(?P<name>[A-Za-z][A-Za-z0-9]*(?:[_-][A-Za-z0-9]+)+|[A-Za-z][A-Za-z0-9]+)[`'\"\]]*\s*=\s*"
    r"|(?<![\w-])(?P<key>[A-Za-z]\w*_\w+|(?<=[\"'`])[A-Za-z]\w+(?=[\"'`]))[`'\"]*\s?:\s*"
    r"|(?<![\w-])(?P<snake>[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+)[`'\"]*"
    r"\s+(?:is|was|of|to|set\s+to|equal\s+to|equals|=)\s+)[`'\"]*\Z"
)
# names whose numbers are not settings' values: versions, ports, hosts, process ids, positions, dates
_NOT_SETTING = re.compile(
    r"(?i)(?:version|^v$|(?:^|[_-])(?:ver|port|ports|host|ip|addr|address|inspect|pid|line|lineno|year|month|day"
    r"|date|page|section|chapter|commit|revision|rev)$)"
)


def _compile(v: Vocabulary) -> NumberPatterns:
    to = rf"(?:\s*(?:--|{_DASH})\s*|\s+(?:{_alt(v.range_words)})\s+)"  # LaTeX writes the en dash "--"
    stat = _alt(re.escape(s) for s in v.stat_symbols)
    always = (
        # ranges that end in a percentage (shared or repeated unit) and ± expressions, before their parts
        rf"(?P<range>(?<![\w.,\-–])\d+(?:\.\d+)?(?:{_PCT})?{to}\d+(?:\.\d+)?{_PCT})"
        # value ± error is one span, with the units of both ("85.2 ± 1.3%", "414 μs ± 309 ns")
        rf"|(?P<pm>(?<![\w.,])-?{_NUM}(?:{_PCT}|\s?{_UNIT})?\s*(?:±|\\pm\b|\+/-|\+-)\s*{_NUM}"
        rf"(?:{_PCT}|\s?{_UNIT})?)"
        # percentages (LaTeX writes 98\%), statistics "p < 0.05", ratios "1.5x" / "224×224", 1,000,000
        rf"|(?P<pct>(?<![\w.,])\d+(?:\.\d+)?{_PCT})"
        rf"|(?P<stat>(?<![\w\\])(?:{stat})\s*(?:<=|>=|[<>=≤≥])\s*-?\d*\.?\d+(?:[eE]-?\d+)?"
        r"(?![\^*/\w])(?!\s*[-+*/^]\s*[\w(]))"
        r"|(?P<ratio>(?<![\w.])(?!0[xX])\d+(?:\.\d+)?\s?[x×]\s?\d+(?:\.\d+)?(?![\w.])"
        r"|(?<![\w.])\d+(?:\.\d+)?[x×](?![\w]))"
        r"|(?P<big>(?<![\w.,])\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\d]|,\d))"
    )
    # decimals "0.89", their ranges "0.85–0.92", colon ratios "3:1": only near a metric word (E6)
    context = (
        rf"(?P<range>(?<![\d.,])\d+\.\d+{to}\d+\.\d+(?![\d.]|\.\d))"
        rf"|(?P<dec>(?<![\d.,/])\d+\.\d+(?![\d.]|\.\d))|(?P<colon>(?<![\w.:@])\d+:\d+(?![\w:]|\.\d))"
    )
    one = rf"-?{_SCI}(?:_\d{{3}})*(?:[kKMB](?![\w])|{_UNIT}|[kmgt](?![\w]))?(?:{_PCT})?"
    value = rf"{one}(?:{to}{one})?|\d+:\d+(?![\w:])"
    link = rf"(?:\s*(?:{_alt(v.parameter_links)}))?"
    # names are also written as identifiers ("weight_decay=1e-4") and values quoted ("``1e-3``")
    names = _alt(v.parameters).replace(r"[\s-]+", r"[\s_-]+")
    return NumberPatterns(
        always=re.compile(always),
        context=re.compile(context),
        metric_words=re.compile(rf"(?<![\w])(?:{_alt(v.metric_words)})(?![\w])", re.IGNORECASE),
        # a setting's value is found from the number: its name before it, or a count noun after it
        values=re.compile(rf"(?<![\w.])(?:{value}){_VALUE_TAIL}"),
        name_before=re.compile(rf"(?<![\w\-])(?i:{names})(?![\w\-]){link}\s*[:=]?\s*[`'\"]*\Z"),
        identifier_before=_IDENTIFIER_BEFORE,
        count_after=re.compile(rf"[ \t\u00a0]+(?:{_alt(v.count_nouns)})(?![\w\-])"),  # same line, lower case
    )


def patterns(language: str | None = None) -> NumberPatterns:
    """The compiled patterns of ``language`` (English when unknown)."""
    return _compiled(vocabulary(language))  # languages that share tables share one compilation


_compiled = lru_cache(maxsize=None)(_compile)


def find_numbers(text: str, *, language: str | None = None) -> list[tuple[int, int, str]]:
    """Metric-like number spans ``(start, end, kind)`` (may overlap; the longest wins)."""
    if not _DIGIT.search(text):
        return []
    pat = patterns(language)
    out: list[tuple[int, int, str]] = []
    for m in pat.always.finditer(text):
        kind = m.lastgroup or "number"
        if kind == "stat" and _OPERAND_BEFORE.search(text, max(0, m.start() - 2), m.start()):
            continue  # "max_l * p > 1" is arithmetic, not a statistic
        out.append((_signed(text, m.start()) if kind == "pct" else m.start(), m.end(), kind))
    for m in pat.values.finditer(text):
        s, e = m.start(), m.end()
        if (
            pat.name_before.search(text, max(0, s - _NAME_REACH), s)
            or _assigned(pat, text, s)
            or (text[s - 1 : s] not in (",", "-") and pat.count_after.match(text, e))
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
        if near and not _in_reference(text, m.start()):
            kind = m.lastgroup or "number"
            out.append((_signed(text, m.start()) if kind == "dec" else m.start(), m.end(), kind))
    return out


def _assigned(pat: NumberPatterns, text: str, s: int) -> bool:
    """Is the value at ``s`` assigned to an identifier that names a setting (not a version, port, …)?"""
    if s == 0 or text[s - 1] not in " =:\t`'\"":
        return False
    lo = max(0, s - _NAME_REACH)
    last = text[lo:s].rstrip(" \t`'\"")[-1:]
    if last not in ("=", ":") and "--" not in text[lo:s] and "_" not in text[lo:s]:
        return False  # no assignment, option or snake_case name can end here (most numbers in prose)
    m = pat.identifier_before.search(text, lo, s)
    if m is None:
        return False
    name = m.group("flag") or m.group("name") or m.group("key") or m.group("snake")
    return _NOT_SETTING.search(name) is None


# a sign that belongs to the value ("+20%", "-0.2"): attached, and not the minus of "x-1" or "3)-2"
# (checked on the few matches rather than tried at every position of the text by the patterns)
_SIGNS = "+-−"
_NO_SIGN_AFTER = re.compile(r"[\w.,)\]}+\-–—]")  # not the second dash of "97--98%"
_OPERAND_BEFORE = re.compile(r"[*/+^]\s?\Z")


def _signed(text: str, s: int) -> int:
    """``s``, or ``s - 1`` when a sign is attached to the number starting at ``s``."""
    if s and text[s - 1] in _SIGNS and (s == 1 or not _NO_SIGN_AFTER.match(text, s - 2)):
        return s - 1
    return s


_REFERENCE_BEFORE = re.compile(r"(?:https?://\S*|doi:\S*|arXiv:\s*|(?i:version\w*)[:\s]*)\Z")


def _in_reference(text: str, s: int) -> bool:
    """A decimal in a URL, DOI or arXiv id ("papers/1910.07467"), or after the word version ("versionchanged:: 1.10";
    "Model v3.2 achieves accuracy" stays a metric, seed A2)."""
    return _REFERENCE_BEFORE.search(text, max(0, s - 80), s) is not None
