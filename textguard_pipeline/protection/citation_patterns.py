"""Citation patterns (§4.2 generalised: Unicode names, particles, et al., &/and,
several citations per bracket, page and year suffixes, LaTeX \\cite family)."""

from __future__ import annotations

import re
from typing import Callable


def _char_class(pred: Callable[[str], bool], limit: int = 0x10000) -> str:
    """A regex character class of the BMP code points satisfying ``pred``."""
    parts: list[str] = []
    start = None
    for cp in range(limit + 1):
        ok = cp < limit and pred(chr(cp))
        if ok and start is None:
            start = cp
        elif not ok and start is not None:
            a, b = chr(start), chr(cp - 1)
            parts.append(re.escape(a) if start == cp - 1 else f"{re.escape(a)}-{re.escape(b)}")
            start = None
    return "[" + "".join(parts) + "]"


_UP = _char_class(lambda c: c.isupper() or c.istitle())  # Lu + Lt: É, Ł, Ø, ...
_LET = r"[^\W\d_]"
# Capitalised words that look like surnames before a year but are not.
_STOP = (
    r"January|February|March|April|May|June|July|August|September|October|November|December|"
    r"Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec|Spring|Summer|Autumn|Fall|Winter|"
    r"Section|Sections|Sec|Table|Tables|Figure|Figures|Fig|Figs|Eq|Eqs|Equation|Chapter|Ch|Appendix|"
    r"Page|Pages|Part|Version|Release|Volume|Vol|Issue|Step|Stage|Phase|Level|Since|Until|In|On|At|"
    r"By|From|For|To|Of|The|This|That|These|Those|See|Also|And|Or|But|Copyright|Windows|Python|Java|"
    r"Rev|Update|Edition|Year|Years|Q[1-4]|Note|Example|Draft|Published|Accessed|Retrieved|RFC|ISO|IEEE"
)
_PARTICLE = r"(?:[vV]an|[vV]on|[dD]e|[dD]er|[dD]en|[dD]el|[dD]ella|[dD]i|[dD]a|[dD]u|[dD]os|[dD]as|[lL]e|[lL]a|[tT]er|[tT]en|[aA]l|[eE]l|[bB]in|[iI]bn|[sS]t\.?)"
_NAME = rf"{_UP}(?:{_LET}|['’])*{_LET}"
_SURNAME = rf"(?:{_PARTICLE}\s+){{0,3}}(?!(?:{_STOP})(?!{_LET}))(?:{_NAME})(?:-{_NAME})*"
_ETAL = r"\s+et\s*\.?\s*al(?:\.|(?![\w]))"
_AND = r"(?:\s+and\s+|\s*&\s*|\s+&amp;\s+)"
# Author lists: "Smith", "Smith et al.", "Smith and Jones", "Smith, Jones, and Lee", "Smith & Jones et al."
_AUTH_ANY = rf"{_SURNAME}(?:,\s*{_SURNAME})*(?:,?{_AND}{_SURNAME})?(?:{_ETAL})?"
_AUTH_STRONG = rf"(?:{_SURNAME}(?:,\s*{_SURNAME})*,?{_AND}{_SURNAME}(?:{_ETAL})?|{_SURNAME}{_ETAL})"
# Narrative lists: commas only when an "and" closes the list (keeps "In Paris, Smith (2020)" short).
_AUTH_NARR = rf"(?:{_SURNAME}(?:,\s*{_SURNAME})*,?{_AND}{_SURNAME}(?:{_ETAL})?|{_SURNAME}(?:{_ETAL})?)"
_GIVEN = rf"(?:{_UP}(?:{_LET}+|\.)(?:-{_UP}{_LET}*)?\s+){{1,2}}"
_YEAR = r"(?:1[5-9]\d\d|20\d\d)[a-z]?(?!\d)|n\.\s?d\.|in\s+press|forthcoming"
_YEARS = rf"(?:{_YEAR})(?:\s*,\s*(?:(?:{_YEAR})|[a-z](?![\w.])))*"
_LOC = r"(?:,?\s*(?:pp?|pg|ch|chap|sec|para|fig|§)\.?(?:~|\s)*\d+(?:\s*[-–—]+\s*\d+)?|:\s*\d+(?:\s*[-–]+\s*\d+)?)"
_PREFIX = r"(?:(?:see\s+also|see|e\.\s?g\.|cf\.|i\.\s?e\.|for\s+example|for\s+instance|also|as\s+in|but\s+see)\s*,?\s+)?"
_ITEM = rf"(?:(?:{_GIVEN})?{_AUTH_ANY},\s*{_YEARS}{_LOC}?|(?:{_GIVEN})?{_AUTH_STRONG}\s+{_YEARS}{_LOC}?)"
_ITEMS = rf"{_PREFIX}{_ITEM}(?:\s*[;,]\s*{_PREFIX}{_ITEM})*"
# In a bracket already opened by a full citation, later items may drop the comma ("; Lee 2024a").
_WEAK = rf"(?:{_AUTH_ANY}\s+{_YEARS}{_LOC}?)"
_ITEMS_FULL = rf"{_PREFIX}{_ITEM}(?:\s*[;,]\s*{_PREFIX}(?:{_ITEM}|{_WEAK}))*"

_BRACKETED_FULL = re.compile(rf"\s*{_ITEMS_FULL}\s*")
_ITEMS_RE = re.compile(rf"(?<!{_LET}){_ITEMS}")
_BRACKETS = re.compile(r"\((?P<p>[^()]{3,400})\)|\[(?P<b>[^\[\]]{3,400})\]")
# Narrative citations are found from their year group backwards: a regex that starts at every
# capitalised word and runs to the end of an author list is quadratic on a long list of names
# (issue 14: a 69 KB comma-separated list took a minute). The author list must end right before
# the year group and start within _NARR_REACH characters of it.
_NARR_YEAR_GROUP = re.compile(rf"\(\s*{_PREFIX}{_YEARS}{_LOC}?\s*\)|\[\s*{_YEARS}{_LOC}?\s*\]")
_NARR_AUTHORS = re.compile(rf"(?<![\w\-']){_AUTH_NARR}")
_WORD_START = re.compile(r"(?<![\w\-'])[^\W\d_]")
_NARR_REACH = 400
_ETAL_FREE = re.compile(rf"(?<![\w\-']){_SURNAME}{_ETAL},?\s+{_YEARS}")
_LATEX_CITE = re.compile(r"\\[A-Za-z]*cite[A-Za-z]*\*?(?:\s*\[[^\[\]{}]*\]){0,2}\s*\{[^{}]*\}")
_PANDOC_KEY = r"-?@[A-Za-z0-9_][\w:.#$%&+?<>~/-]*"
_PANDOC = re.compile(  # a key follows "[", "(", ";" or a space (not `@x`, not an e-mail)
    rf"\[[^\[\]@\n]{{0,60}}?(?<![^\s\[;]){_PANDOC_KEY}[^\[\]@;\n]{{0,60}}(?:;[^\[\]@;\n]{{0,60}}?(?<![^\s\[;]){_PANDOC_KEY}[^\[\]@;\n]{{0,60}})*\]"
    rf"|\((?<![\w.])(?:{_PANDOC_KEY})(?:;\s*{_PANDOC_KEY})*\)"
)
_YEAR_ONLY = re.compile(r"\[(?:1[5-9]\d\d|20\d\d)[a-z]?(?:\s*[;,]\s*(?:1[5-9]\d\d|20\d\d)[a-z]?)*\]")


def find_citations(text: str, *, year_only: bool = False) -> list[tuple[int, int, str]]:
    """Citation spans ``(start, end, kind)`` in ``text`` (may overlap; caller resolves).

    Kinds: ``latex`` (``\\cite`` family), ``pandoc`` (``[@key]``), ``bracket``
    (a bracket whose whole content is author-year citations, brackets
    included), ``author_year`` (citations inside a longer bracket, or
    ``Smith et al. 2020`` in running text), ``narrative`` (``Smith (2024)``),
    ``year`` (``[2024]``, only with ``year_only``).
    """
    out: list[tuple[int, int, str]] = []
    for m in _LATEX_CITE.finditer(text):
        out.append((m.start(), m.end(), "latex"))
    if "@" in text:
        for m in _PANDOC.finditer(text):
            out.append((m.start(), m.end(), "pandoc"))
    for m in _BRACKETS.finditer(text):
        group = "p" if m.group("p") is not None else "b"
        cs, ce = m.start(group), m.end(group)
        if "\n\n" in text[cs:ce] or not any(ch.isdigit() for ch in text[cs:ce]):
            continue
        if _BRACKETED_FULL.fullmatch(text, cs, ce):
            out.append((m.start(), m.end(), "bracket"))
        else:
            for im in _ITEMS_RE.finditer(text, cs, ce):
                out.append((im.start(), _rstrip(text, im.start(), im.end()), "author_year"))
    out.extend(_narratives(text))
    for m in _ETAL_FREE.finditer(text):
        out.append((m.start(), m.end(), "author_year"))
    if year_only:
        for m in _YEAR_ONLY.finditer(text):
            out.append((m.start(), m.end(), "year"))
    return out


def _narratives(text: str) -> list[tuple[int, int, str]]:
    """``Author (Year)`` spans: for each year group, the leftmost author list that ends right before it
    (linear: each group looks back at most ``_NARR_REACH`` characters)."""
    out: list[tuple[int, int, str]] = []
    floor = 0  # an author list never spans a bracket, so it starts after the previous year group
    for g in _NARR_YEAR_GROUP.finditer(text):
        end = _rstrip(text, floor, g.start())
        for w in _WORD_START.finditer(text, max(floor, end - _NARR_REACH), end):
            if _NARR_AUTHORS.fullmatch(text, w.start(), end):
                out.append((w.start(), g.end(), "narrative"))
                break
        floor = g.end()
    return out


def _rstrip(text: str, start: int, end: int) -> int:
    while end > start and text[end - 1].isspace():
        end -= 1
    return end
