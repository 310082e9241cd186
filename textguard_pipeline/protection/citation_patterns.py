"""Citation patterns (§4.2 generalised, issue 15): LaTeX ``\\cite`` family, pandoc ``[@key]``,
author–year with and without a comma, locators, prefixes, ``;`` groups and narrative forms.

The regular expressions are compiled from a language's :class:`~.vocabulary.Vocabulary`
(:func:`patterns`). Every pattern runs in linear time: brackets are bounded (400 chars),
and narrative forms are found from their year backwards (an author list never spans a
bracket; the look-back is bounded), see issue 14.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, Iterable

from .regex_parts import Parts
from .vocabularies import vocabulary
from .vocabulary import Vocabulary


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
# a hyphen at a line end inside a name is PDF text's hyphenated break ("Zei-\nleis"), kept as it stands
_BREAK = r"-\r?\n[ \t]*"
_REACH = 400  # the longest author list a narrative look-back reads (characters)
_BARE_REACH = 120


def _alt(words: Iterable[str]) -> str:
    """One alternation, longest first, duplicates dropped (words may be regex fragments)."""
    return "|".join(sorted(dict.fromkeys(words), key=lambda w: (-len(w), w)))


@dataclass(frozen=True)
class CitationPatterns:
    bracketed_full: re.Pattern
    items: re.Pattern
    brackets: re.Pattern
    narr_year_group: re.Pattern
    narr_authors: re.Pattern
    narr_authors_strong: re.Pattern
    bare_year: re.Pattern
    bare_authors: re.Pattern
    etal_free: re.Pattern
    word_start: re.Pattern
    maybe_year: re.Pattern
    not_before_bare: frozenset[str]
    determiners: frozenset[str]
    cited_nouns: frozenset[str]
    venue_heads: frozenset[str]
    locator_words: frozenset[str]


def _compile(v: Vocabulary) -> CitationPatterns:
    # Each named piece is a part (regex_parts): re parses it once, not at each of its ≈ 100 places.
    parts = Parts()
    part = parts.part
    up = part(_UP)
    low = part(rf"(?:(?!{up}){_LET})")
    # and writes an accent of old TeX fonts as a spacing mark of its own ("Kr¨amer")
    name_any = part(rf"{up}(?:{_LET}|['’¨´ˆ˜ˇ˘˚˝¸]|{_BREAK}(?={_LET}))*{_LET}")
    # A plain surname for the comma-less forms: capitalised, then lower case ("CoNLL", "NASA" are not),
    # with the usual inner capitals (McDonald, LeCun, O'Neil).
    name_plain = part(
        rf"(?:Mc|Mac|O['’]|D['’]|De|Der|Di|Du|Le|La|Van|Von)?{up}{low}+(?:{_BREAK}{low}+)?(?:['’]{low}+)?"
    )
    etal_tail = r"(?:\.|(?![\w]))"
    # PDF layout text glues a short word to the name after it ("proposed byMullahy(1986)"): a name may start there
    glued = part(
        r"(?:(?<=(?<![\w])of)|(?<=(?<![\w])by)|(?<=(?<![\w])in)|(?<=(?<![\w])see)|(?<=(?<![\w])from))"
        rf"(?={up}{low})"
    )
    stop = part(_alt(v.not_surnames))
    stop_weak = part(_alt((*v.not_surnames, *v.not_surnames_weak)))
    particle = part("(?:" + "|".join(f"[{p[0]}{p[0].upper()}]{p[1:]}" for p in v.particles) + ")")

    def surname(stops: str, name: str) -> str:
        return part(rf"(?:{particle}\s+){{0,3}}(?!(?:{stops})(?!{_LET}))(?:{name})(?:-{name})*")

    s_any, s_weak = surname(stop, name_any), surname(stop_weak, name_plain)
    etal = part(rf"\s+(?:{_alt(v.et_al)}){etal_tail}")
    ands = []
    for c in v.conjunctions:
        ands.append(rf"\s+{re.escape(c)}\s+" if c.isalpha() or len(c) > 1 else rf"\s*{re.escape(c)}\s*")
    and_ = part("(?:" + "|".join(ands) + ")")

    def authors(s: str) -> str:  # "Smith", "Smith et al.", "Smith and Jones", "Smith, Jones, and Lee"
        return part(rf"{s}(?:,\s*{s})*(?:,?{and_}{s})?(?:{etal})?")

    auth_any, auth_weak = authors(s_any), authors(s_weak)
    auth_strong = part(rf"(?:{s_any}(?:,\s*{s_any})*,?{and_}{s_any}(?:{etal})?|{s_any}{etal})")
    # narrative lists: commas only when an "and" closes the list (keeps "In Paris, Smith (2020)" short)
    auth_narr = part(rf"(?:{s_any}(?:,\s*{s_any})*,?{and_}{s_any}(?:{etal})?|{s_any}(?:{etal})?)")
    # a comma list only when and/& closes it
    auth_bare = part(rf"(?:{s_weak}(?:,\s*{s_weak})*,?{and_}{s_weak}|{s_weak})")
    given = part(rf"(?:{up}(?:{_LET}+|\.)(?:-{up}{_LET}*)?\s+){{1,2}}")
    year = part(rf"(?:1[5-9]\d\d|20\d\d)[a-z]?(?!\d)|{_alt(v.year_words)}")
    years = part(rf"(?:{year})(?:\s*,\s*(?:(?:{year})|[a-z](?![\w.])))*")
    locnum = part(r"(?:[A-Z]?\d+[a-z]?(?:\.\d+)*|[ivxlcIVXLC]+(?![\w]))")
    locword = part(rf"(?i:{_alt(re.escape(w) for w in v.locators)})(?![^\W\d_])\.?")
    loc = part(
        rf"(?:\s*,?\s*{locword}(?:~|\s)*{locnum}(?:\s*[-–—]+\s*{locnum})?(?:\s*(?:,|and|&)\s*{locnum}(?![\w]))*"
        r"|\s*:\s*\d+(?:\s*[-–]+\s*\d+)?"
        # a bare page after the year, last in its item: "(Name 1990, 338)", "( Name 2017,15.26)"
        rf"|\s*,\s*{locnum}(?:\s*[-–—]+\s*{locnum})?(?=\s*(?:[;)\]]|$)))"
    )
    locs = part(rf"(?:{loc}){{0,3}}")
    suffix = part(rf"(?:,?\s*(?:{_alt(v.suffixes)}))?") if v.suffixes else ""
    # a prefix ends with a space, or PDF text glues it to the name ("(seeMullahy1986)", "(e.g.Smith 2001; …)")
    prefix = part(rf"(?:(?:{_alt(v.prefixes)})(?:\s*,?\s+|(?={up}{low}))){{0,2}}")
    # a journal before the year of a narrative citation: "Mancl and DeRouen (Biometrics, 2001)", "(Phys. Rev. D, 2019)"
    word = part(rf"(?!(?:{_alt(v.not_venues) or '(?!)'})(?!{_LET})){up}[\w.&'’-]*")
    venue = part(rf"{word}(?:\s+(?:of|and|&|{word})){{0,4}}")
    # PDF text glues a name to its year ("(Mullahy1986)") and puts spaces before a comma ("Name 2017 , 15")
    item = part(rf"(?:(?:{given})?{auth_any}\s*,\s*{years}{locs}|(?:{given})?{auth_strong}\s*{years}{locs})")
    weak = part(rf"(?:(?:{given})?{auth_weak}\s*{years}{locs})")
    items = part(rf"{prefix}{item}(?:\s*[;,]\s*{prefix}{item})*")
    # an organisation or journal as the author of a whole bracket: "(American Psychological Association, 2020)",
    # "(Biometrics, 2001)"; its words may be ones refused as surnames elsewhere (Association, University …)
    org = part(
        rf"(?:[Tt]he\s+)?{word}(?:\s+(?:of|for|and|&|on|the|{word})){{0,6}}(?:\s+\([A-Z]{{2,}}\))?,\s*{years}{locs}"
    )
    any_item = part(rf"(?:{item}|{weak}|{org})")
    items_full = part(rf"{prefix}{any_item}{suffix}(?:\s*[;,]\s*{prefix}{any_item}{suffix})*")
    compile_ = parts.compile
    return CitationPatterns(
        bracketed_full=compile_(rf"\s*{items_full}\s*"),
        items=compile_(rf"(?<!{_LET}){items}"),
        brackets=re.compile(r"\((?P<p>[^()]{3,400})\)|\[(?P<b>[^\[\]]{3,400})\]"),
        narr_year_group=compile_(
            rf"\(\s*{prefix}(?P<venue>{venue},\s*)?{years}{locs}{suffix}\s*\)|\[\s*{years}{locs}\s*\]"
        ),
        narr_authors=compile_(rf"(?<![\w\-']){auth_narr}|{glued}{auth_narr}"),
        narr_authors_strong=compile_(rf"(?<![\w\-'])(?:{given})?{auth_strong}"),
        # a bare year in running text: not part of a date, range, version, quantity or longer number
        bare_year=re.compile(r"(?<![\w.\-/–:,])(?:1[6-9]\d\d|20\d\d)(?:[a-z](?:,[a-z])*)?(?![\w%‰'’]|[-–/.,:]\d)"),
        bare_authors=compile_(rf"(?<![\w\-'’.]){auth_bare}"),
        etal_free=compile_(rf"(?<![\w\-']){s_any}{etal},?\s+{years}"),
        word_start=compile_(rf"(?<![\w\-'’])[^\W\d_]|{glued}"),
        maybe_year=re.compile(rf"\d|{_alt(v.year_words)}"),
        not_before_bare=frozenset((*v.openers, *(w for w in v.not_surnames if w.isalpha()))),
        determiners=frozenset(v.determiners),
        cited_nouns=frozenset(v.cited_nouns),
        venue_heads=frozenset(v.venue_heads),
        locator_words=frozenset(w.lower() for w in v.locators),
    )


def patterns(language: str | None = None) -> CitationPatterns:
    """The compiled patterns of ``language`` (English when unknown)."""
    return _compiled(vocabulary(language))  # languages that share tables share one compilation


_compiled = lru_cache(maxsize=None)(_compile)


_LATEX_CITE = re.compile(r"\\[A-Za-z]*cite[A-Za-z]*\*?(?:\s*\[[^\[\]{}]*\]){0,2}\s*\{[^{}]*\}")
_PANDOC_KEY = r"-?@[A-Za-z0-9_][\w:.#$%&+?<>~/-]*"
_PANDOC = re.compile(  # a key follows "[", "(", ";" or a space (not `@x`, not an e-mail)
    rf"\[[^\[\]@\n]{{0,60}}?(?<![^\s\[;]){_PANDOC_KEY}[^\[\]@;\n]{{0,60}}"
    rf"(?:;[^\[\]@;\n]{{0,60}}?(?<![^\s\[;]){_PANDOC_KEY}[^\[\]@;\n]{{0,60}})*\]"
    rf"|\((?<![\w.])(?:{_PANDOC_KEY})(?:;\s*{_PANDOC_KEY})*\)"
)
_YEAR_ONLY = re.compile(r"\[(?:1[5-9]\d\d|20\d\d)[a-z]?(?:\s*[;,]\s*(?:1[5-9]\d\d|20\d\d)[a-z]?)*\]")
_PREV_WORD = re.compile(r"([^\W\d_][\w'’.-]*|\d[\w.]*)\s*$")


def find_citations(text: str, *, year_only: bool = False, language: str | None = None) -> list[tuple[int, int, str]]:
    """Citation spans ``(start, end, kind)`` in ``text`` (may overlap; caller resolves).

    Kinds: ``latex`` (``\\cite`` family), ``pandoc`` (``[@key]``), ``bracket``
    (a bracket whose whole content is author-year citations, brackets
    included), ``author_year`` (citations inside a longer bracket, or
    ``Smith et al. 2020`` in running text), ``narrative`` (``Smith (2024)``,
    ``Novak (2015, table 2)``, ``Novak 2015``), ``year`` (``[2024]``, only with ``year_only``).
    """
    pat = patterns(language)
    out: list[tuple[int, int, str]] = []
    for m in _LATEX_CITE.finditer(text):
        out.append((m.start(), m.end(), "latex"))
    if "@" in text:
        for m in _PANDOC.finditer(text):
            out.append((m.start(), m.end(), "pandoc"))
    if year_only:
        for m in _YEAR_ONLY.finditer(text):
            out.append((m.start(), m.end(), "year"))
    if pat.maybe_year.search(text) is None:  # every author–year form needs a year
        return out
    for m in pat.brackets.finditer(text):
        group = "p" if m.group("p") is not None else "b"
        cs, ce = m.start(group), m.end(group)
        if "\n\n" in text[cs:ce] or pat.maybe_year.search(text, cs, ce) is None:  # a year, or "n.d.", "in press"
            continue
        if pat.bracketed_full.fullmatch(text, cs, ce):
            out.append((m.start(), m.end(), "bracket"))
        else:
            for im in pat.items.finditer(text, cs, ce):
                out.append((im.start(), _rstrip(text, im.start(), im.end()), "author_year"))
    out.extend(_narratives(text, pat))
    out.extend(_bare_narratives(text, pat))
    for m in pat.etal_free.finditer(text):
        out.append((m.start(), m.end(), "author_year"))
    return out


def _narratives(text: str, pat: CitationPatterns) -> list[tuple[int, int, str]]:
    """``Author (Year)`` spans: for each year group, the leftmost author list that ends right before it
    (linear: each group looks back at most ``_REACH`` characters, never past the previous group)."""
    out: list[tuple[int, int, str]] = []
    floor = 0
    for g in pat.narr_year_group.finditer(text):
        end = _rstrip(text, floor, g.start())
        # with a journal in the bracket, only a list that is plainly authors ("A and B", "A et al.") qualifies:
        # not "Paris (France, 2020)"
        names = pat.narr_authors_strong if g.group("venue") else pat.narr_authors
        for w in pat.word_start.finditer(text, max(floor, end - _REACH), end):
            if names.fullmatch(text, w.start(), end):
                out.append((w.start(), g.end(), "narrative"))
                break
        floor = g.end()
    return out


def _bare_narratives(text: str, pat: CitationPatterns) -> list[tuple[int, int, str]]:
    """``Novak 2015`` / ``Novak and Lee 2015a`` in running text, with the look-alike guards:
    no stop word (months, Windows, Expo, Room …), no capitalised word or determiner right before
    the name ("Visual Studio 2019", "the Expo 2005"), no capitalised word right after the year
    ("Windows 2000 Server"), not between commas as in an address ("…, Sydney 2000, Australia")."""
    out: list[tuple[int, int, str]] = []
    floor = 0
    for y in pat.bare_year.finditer(text):
        ys = y.start()
        end = _rstrip(text, floor, ys)
        if end == ys or "\n\n" in text[end:ys]:
            floor = y.end()
            continue
        for w in pat.word_start.finditer(text, max(floor, end - _BARE_REACH), end):
            if pat.bare_authors.fullmatch(text, w.start(), end):  # the leftmost author list, guarded
                if _bare_context_ok(text, w.start(), end, y.end(), pat):
                    out.append((w.start(), y.end(), "narrative"))
                break
        floor = y.end()
    return out


def _bare_context_ok(text: str, start: int, names_end: int, end: int, pat: CitationPatterns) -> bool:
    before = text[max(0, start - 40) : start]
    if pat.venue_heads & set(re.findall(r"[^\W\d_]+", before)[-3:]):
        return False  # "Proceedings of Eurocrypt 2001"
    prev = _PREV_WORD.search(before)
    if prev is not None:
        word = prev.group(1)
        if word[0].isdigit():
            return False
        after_words = re.findall(r"[^\W\d_]+", text[end : end + 40])[:2]
        if (
            word.lower() in pat.determiners
            and " " not in text[start:names_end].strip()
            and not any(w.lower() in pat.cited_nouns for w in after_words)
        ):
            return False  # "the Expo 2005"; not "the Einasto 1965 profile", "the Diemer & Joyce 2019 model"
        if word[0].isupper() and word.rstrip(".") not in pat.not_before_bare:
            return False  # part of a longer proper name
    after = text[end : end + 40]
    nxt = after.lstrip(" \t")
    if nxt[:1].isupper() and not after.startswith(("\n", "\r")):
        first = re.match(r"[^\W\d_]+", nxt)
        if first is None or first.group(0).lower() not in pat.locator_words:
            return False  # "Windows 2000 Server"; not "Linder 2003 Equation 5"
    prev_char = before.rstrip()[-1:] if before.strip() else ""
    if prev_char == "," and (not nxt or nxt[0] in ",\n\r" or nxt.startswith(("(", "["))):
        return False  # an address line: "…, Sydney 2000, Australia"
    return True


def _rstrip(text: str, start: int, end: int) -> int:
    while end > start and text[end - 1].isspace():
        end -= 1
    return end
