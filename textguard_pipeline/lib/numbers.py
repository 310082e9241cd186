"""One number reader (issue 44): where a number starts and ends, and its value, by locale.

Shared by protection's number recogniser (a number is one term) and math NER's NUMBER entities (a number is
one entity with one value). Locales:

* ``"en"`` — ``,`` groups thousands (``1,234,567``), ``.`` is the decimal point; ``1,5`` is not one number;
* a decimal-comma language (``fr``, ``pl``, … :data:`DECIMAL_COMMA`) — ``,`` is the decimal mark, ``.`` too
  (technical text writes ``0.5`` in any language); ``de``/``es``/``it``/… also group with ``.`` when the
  grouping is unambiguous (two groups or more, or a decimal comma after: ``1.234.567``, ``1.234,5``);
* ``"auto"`` (language unknown, math NER) — ``,`` followed by exactly three digits groups thousands,
  otherwise it is a decimal comma (``1,234`` → 1234, ``1,5`` → 1.5).

In every locale the thousands may be spaced, SI style: a space, U+00A0 no-break space, U+202F narrow
no-break space or U+2009 thin space (``125 000``, ``1 234,5``); after spaced groups, ``,`` or ``.`` is the
decimal mark. The rule that keeps lists, years and table columns apart:

* the leading group has 1–3 digits and does not start with 0; every later group has exactly 3 digits
  (``2 3``, ``1990 2000``, ``07 123`` are not one number);
* with a plain ASCII space, the whitespace-separated run of digit groups around it must be the number
  itself: ``10 200 300 4`` (a row of a table, a list) is four numbers, ``125 000 people`` one.
  Known limit: a run of three-digit numbers separated by single spaces (``100 200 300``) reads as one.

Several separators that do not form one number (``1.2.3``, ``1,2,3``, ``3.11.2``) are no number at all:
versions and lists, the callers read them otherwise. Ranges: :func:`find_ranges` (``10–20``, ``10 to 20``,
``de 10 à 20``, ``od 10 do 20``); numbers with a magnitude suffix: :func:`read_magnitudes` (``1.2M``, ``350k``).
"""

from __future__ import annotations

import bisect
import math
import re
from dataclasses import dataclass

Value = int | float | str

#: the characters that may space the thousands (space, no-break, narrow no-break, thin)
SPACES = " \u00a0\u202f\u2009"
#: languages whose decimal mark is the comma (protection's language table uses the same set)
DECIMAL_COMMA: frozenset[str] = frozenset({"fr", "pl", "de", "es", "it", "pt", "cs", "sk", "ru", "uk", "nl"})
#: decimal-comma languages that also group with a dot (``1.234.567``)
DOT_GROUPS: frozenset[str] = frozenset({"de", "es", "it", "pt", "nl"})
#: range words per language: (opener or "", joiner) — "from 10 to 20", "10 to 20", "od 10 do 20"
RANGE_WORDS: dict[str, tuple[tuple[str, str], ...]] = {
    "en": (("from", "to"), ("between", "and"), ("", "to")),
    "fr": (("de", "à"), ("entre", "et"), ("", "à")),
    "pl": (("od", "do"), ("między", "a"), ("pomiędzy", "a"), ("", "do")),
}
_INT_MAX_DIGITS = 4000  # beyond Python's int-string limit a value stays a digit string (math_ner/arith.py)

_SPACED = re.compile(rf"(?<![\w.,])[1-9]\d{{0,2}}(?:[{SPACES}]\d{{3}})+(?:[.,]\d+)?(?![\w]|[.,]\d)")
_PLAIN = re.compile(r"(?<![\w.,])(?:\d+(?:[.,]\d+)*|\.\d+)(?![\w]|[.,]\d)")
_START = re.compile(r"(?<![\w.,])(?:\d|\.\d)")
_ROW_BEFORE = re.compile(r"\d(?:[.,]?\d)*[ \t]+\Z")
_ROW_AFTER = re.compile(r"[ \t]+\d")


@dataclass(frozen=True)
class NumberToken:
    start: int
    end: int
    text: str
    value: Value
    grouped: bool  # written with thousands separators


def locale_for(language: str | None, default: str = "en") -> str:
    """The reader's locale for a chunk language (``default`` when unknown)."""
    if language is None:
        return default
    return language if language in DECIMAL_COMMA or language == "auto" else "en"


def read_numbers(text: str, locale: str = "en") -> list[NumberToken]:
    """Every number of ``text`` as one token, left to right."""
    out: list[NumberToken] = []
    pos = 0
    while True:
        m = _START.search(text, pos)
        if m is None:
            return out
        s = m.start()
        tok = _spaced(text, s) or _plain(text, s, locale)
        if tok is None:
            # a version or a list ("1.2.3"): skip the whole run of digits and separators
            run = re.compile(r"[\d.,]+").match(text, s)
            pos = run.end() if run else s + 1
            continue
        out.append(tok)
        pos = tok.end


def _spaced(text: str, s: int) -> NumberToken | None:
    m = _SPACED.match(text, s)
    if m is None:
        return None
    raw = m.group(0)
    if " " in raw and (_ROW_BEFORE.search(text, max(0, s - 40), s) or _ROW_AFTER.match(text, m.end())):
        return None  # a row of numbers (a table line, a list), not one spaced number
    body = re.sub(f"[{SPACES}]", "", raw)
    digits, dec = (re.split(r"[.,]", body) + [""])[:2]
    return NumberToken(s, m.end(), raw, _value(digits, dec), True)


def _plain(text: str, s: int, locale: str) -> NumberToken | None:
    m = _PLAIN.match(text, s)
    if m is None:
        return None
    raw = m.group(0)
    parsed = parse_number(raw, locale)
    if parsed is None:
        return None
    value, grouped = parsed
    return NumberToken(s, m.end(), raw, value, grouped)


def parse_number(raw: str, locale: str = "en") -> tuple[Value, bool] | None:
    """(value, grouped) of one number written without spaces, or None when it is not one number."""
    seps = re.findall(r"[.,]", raw)
    if not seps:
        return _value(raw, ""), False
    if raw.startswith("."):
        return (_value("0", raw[1:]), False) if len(seps) == 1 else None
    groups = re.split(r"[.,]", raw)
    if len(set(seps)) == 2:
        # both marks: the last one is the decimal mark, the other groups thousands ("1,234.5", "1.234,5")
        grp, dec = seps[0], seps[-1]
        if seps.count(dec) != 1 or seps[-1] == grp or not _groups_ok(groups[:-1]):
            return None
        return _value("".join(groups[:-1]), groups[-1]), True
    mark = seps[0]
    thousands = _groups_ok(groups)
    if mark == ",":
        if locale == "en" or (locale == "auto" and thousands):
            return (_value("".join(groups), ""), True) if thousands else None
        return (_value(groups[0], groups[1]), False) if len(groups) == 2 else None
    # the dot
    if locale in DOT_GROUPS and thousands and len(groups) > 2:
        return _value("".join(groups), ""), True
    return (_value(groups[0], groups[1]), False) if len(groups) == 2 else None


def _groups_ok(groups: list[str]) -> bool:
    lead = groups[0]
    return len(groups) >= 2 and 1 <= len(lead) <= 3 and lead[0] != "0" and all(len(g) == 3 for g in groups[1:])


def _value(digits: str, decimals: str) -> Value:
    if not decimals:
        return int(digits) if len(digits) <= _INT_MAX_DIGITS else (digits.lstrip("0") or "0")
    v = float(f"{digits}.{decimals}")
    return v if math.isfinite(v) else f"{digits}.{decimals}"


def widen(start: int, end: int, tokens: list[NumberToken]) -> tuple[int, int]:
    """``[start, end)`` widened so that it cuts no number of ``tokens`` (sorted, from :func:`read_numbers`)."""
    i = bisect.bisect_right([t.start for t in tokens], start) - 1
    if 0 <= i < len(tokens) and tokens[i].start < start < tokens[i].end:
        start = tokens[i].start
    j = bisect.bisect_left([t.start for t in tokens], end) - 1
    if 0 <= j < len(tokens) and tokens[j].start < end < tokens[j].end:
        end = tokens[j].end
    return start, end


#: magnitude suffixes written right after a number ("1.2M", "350k", "7B"; "2.5 bn" may take a space)
MAGNITUDES: dict[str, int] = {"k": 10**3, "K": 10**3, "M": 10**6, "B": 10**9, "T": 10**12, "bn": 10**9, "mn": 10**6}
# a digit first (the scan skips to digits); what may stand before the number is checked by hand
_MAGNITUDE = re.compile(r"\d+(?:[.,]\d+)*(?:(?P<one>[kKMBT])(?![\w-])|[ \t]?(?P<word>bn|mn)(?!\w))")


def read_magnitudes(text: str, locale: str = "en") -> list[NumberToken]:
    """Every number with a magnitude suffix (:data:`MAGNITUDES`) as one token, suffix included, valued
    (``1.2M`` → 1200000.0). The number is read as :func:`parse_number` reads one in ``locale`` (``1,5M`` is one
    in French, not in English); one glued to a word, a dot, a comma or a dash before it is none (``A100k``)."""
    out: list[NumberToken] = []
    for m in _MAGNITUDE.finditer(text):
        s = m.start()
        if s and (text[s - 1].isalnum() or text[s - 1] in "_.,-"):
            continue
        suffix = m.group("one") or m.group("word")
        raw = text[s : m.end()]
        parsed = parse_number(raw[: len(raw) - len(suffix)].rstrip(" \t"), locale)
        if parsed is None:
            continue
        value, grouped = parsed
        if not isinstance(value, str):
            value = value * MAGNITUDES[suffix]
        out.append(NumberToken(s, m.end(), raw, value, grouped))
    return out


@dataclass(frozen=True)
class NumberRange:
    start: int
    end: int
    low: NumberToken
    high: NumberToken


_DASH_JOIN = re.compile(r"\s*(?:--|[-–—])\s*")
_OPENER = re.compile(r"(?<!\w)(\w+)\s+\Z")


def find_ranges(text: str, language: str | None = None) -> list[NumberRange]:
    """Two numbers joined by a dash or the language's range words (``10–20``, ``5 to 10``, ``od 3 do 5``,
    ``between 2 and 4``: a joiner that needs an opener counts only with it).

    The span starts at the opener when there is one; without an opener the first number must be the lower
    (``3 to 5``, ``2019–2020``; not ``20-5``, a subtraction)."""
    pairs = RANGE_WORDS.get(language or "en", RANGE_WORDS["en"])
    toks = read_numbers(text, locale_for(language))
    out: list[NumberRange] = []
    for a, b in zip(toks, toks[1:]):
        if out and out[-1].high is a:
            continue
        middle = text[a.end : b.start]
        o = _OPENER.search(text, max(0, a.start - 12), a.start)
        opener = o.group(1).lower() if o else ""
        if _DASH_JOIN.fullmatch(middle):
            ok = (opener, "-") if any(op == opener and op for op, _ in pairs) else ("", "-")
        elif middle[:1].isspace() and middle[-1:].isspace() and middle.strip():
            word = middle.strip().lower()
            ok = (opener, word) if (opener, word) in pairs else ("", word) if ("", word) in pairs else None
        else:
            ok = None
        if ok is None or (not ok[0] and not _lower(a.value, b.value)):
            continue
        out.append(NumberRange(o.start(1) if ok[0] else a.start, b.end, a, b))
    return out


def _lower(a: Value, b: Value) -> bool:
    try:
        return float(a) < float(b)
    except (TypeError, ValueError):
        return False
