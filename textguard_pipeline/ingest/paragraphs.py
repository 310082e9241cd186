"""Paragraphs where the text has no blank lines, page furniture, and the length limit of a prose chunk.

Text extracted from PDFs, hard-wrapped plain text and nroff output separate paragraphs by line shape, not by
blank lines. :func:`split_prose` finds those paragraph ends inside a prose stretch and cuts what is still too
long at a sentence, clause or word boundary; :func:`furniture_regions` finds running page headers and
footers, page numbers and form feeds. Every pass is linear in the text; cuts only ever fall between
characters, so chunks still tile the document byte for byte.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import Counter
from typing import Sequence

from ..lib.spans import Span
from .markup import find_markup

#: A prose chunk longer than this is cut (at a paragraph end, else a sentence, clause or word boundary).
DEFAULT_CHUNK_CHARS = 4000
#: No prose chunk is longer than this.
DEFAULT_CHUNK_MAX_CHARS = 12000

_LINE = re.compile(r"[^\n]*(?:\n|$)")
#: a line that opens a list item: bullets, "1." "2)" "(a)" "a)" "iv."
_ITEM = re.compile(
    r"[ \t]*(?:[-*+•‣◦▪●–—]|\(?\d{1,3}[.)]|\d{1,3}(?:\.\d{1,3})+\.|\(?[a-z][.)]|\((?:[ivx]{1,5}|[A-Z])\)|[ivx]{1,5}[.)])[ \t]+\S"
)
#: a bullet glyph, which only ever opens an item
_BULLET = re.compile(r"[ \t]*[•‣◦▪●][ \t]+\S")
#: a sentence end, maybe with a footnote mark after it ("called).5"; not "1.5")
_SENTENCE_END = re.compile(r"[.!?…:][\"'”’»)\]]*$|(?<=[^\d\s])[.!?][\"'”’»)\]]*\d{1,2}$")
#: a title's characters: words, numbers and light punctuation (not an ASCII diagram's "START <----+")
_TITLE = re.compile(r"[\w .,:;()'’&/-]*[^\W\d_][\w .,:;()'’&/-]*")
#: a numbered heading ("2. The linear regression model", "3.1 Data")
_NUMBERED_HEADING = re.compile(r"[ \t]*(?:\d{1,2}|[A-Z])(?:\.\d{1,2})*\.?[ \t]+[A-Z][^.!?:]*$")
_PAGE_NUMBER = re.compile(
    r"[ \t\f]*(?:[-–—][ \t]*)?(?:(?:page|p\.|seite|página|pagina|страница)[ \t]*)?"
    r"(?:\d{1,4}|(?=[ivxlcdm])m{0,3}(?:cm|cd|d?c{0,3})(?:xc|xl|l?x{0,3})(?:ix|iv|v?i{0,3}))"
    r"(?:[ \t]*(?:/|of|de|von|из)[ \t]*\d{1,4})?(?:[ \t]*[-–—])?[ \t\f]*(?:\n|$)",
    re.I,
)
_DIGITS = re.compile(r"\d+")
_SPACE = re.compile(r"\s+")
_WORD = re.compile(r"\S+")
_LETTER_WORD = re.compile(r"[^\W\d_]{2,}")


def _lines(text: str, start: int, end: int):
    """(start, end_with_newline) of each line of ``text[start:end]``."""
    pos = start
    while pos < end:
        nl = text.find("\n", pos, end)
        e = end if nl == -1 else nl + 1
        yield pos, e
        pos = e


def usual_width(text: str) -> int:
    """The document's usual line width: the upper quartile of its non-blank line lengths (0 if under 5 lines).
    A counting pass, linear in the text."""
    counts: Counter[int] = Counter()
    for s, e in _lines(text, 0, len(text)):
        n = len(text[s:e].rstrip())
        if n and text[s:e].strip():
            counts[min(n, 2000)] += 1
    total = sum(counts.values())
    if total < 5:
        return 0
    seen, quartile = 0, 0.75 * total
    for n in sorted(counts):
        seen += counts[n]
        if seen >= quartile:
            return n
    return 0


def furniture_regions(text: str) -> list[tuple[int, int]]:
    """Running page headers and footers, page numbers and form feeds: whole lines (a form feed inside a line:
    the form feeds alone). A header or footer is a line that comes back at least three times, mostly at least
    ten lines apart, with its numbers and runs of spaces ignored ("12 Econometric Computing" = "14 Econometric
    Computing"), and looks like one: not a short line in lower case (a wrapped "and the"), words of letters.
    Where form feeds mark the pages, it stands among the first or last three non-blank lines of a page; else
    it has two words of two letters or more and comes back at least half as often as the most frequent one
    (a console output line repeated through a paper, "z test of coefficients:", is neither)."""
    spans: list[tuple[int, int]] = []
    paged = text.count("\f") >= 2
    rows: list[tuple[int, int, str, int, int, int]] = []  # start, end, key, line number, its rank on its page, page
    page_lines: Counter[int] = Counter()  # non-blank lines per page
    page = 0
    letters: list[tuple[int, int, int, int]] = []  # a lone letter read as a roman page number
    for k, (s, e) in enumerate(_lines(text, 0, len(text))):
        lead = len(text[s:e]) - len(text[s:e].lstrip(" \t\f"))
        page += text.count("\f", s, s + lead)  # a form feed before the line's text opens its page
        body = _SPACE.sub(" ", text[s:e].strip())  # layout-mode text pads with runs of spaces
        if body:
            page_lines[page] += 1
            if len(body) <= 120 and _PAGE_NUMBER.fullmatch(text, s, e) and _one_case(body):
                if len(body) == 1 and body.isalpha():  # "v", "x": an arrow or a variable unless at a page edge
                    letters.append((s, e, page_lines[page] - 1, page))
                else:
                    spans.append((s, e))
            elif len(body) <= 120 and not (body[0].islower() and len(body) < 15) and any(c.isalnum() for c in body):
                key = _SPACE.sub(" ", _DIGITS.sub("", body)).strip()  # "2 Title" = "Title 3" = "Title"
                if key:
                    rows.append((s, e, key, k, page_lines[page] - 1, page))
        page += text.count("\f", s + lead, e)
    if paged:
        rows = [r for r in rows if r[4] < 3 or page_lines[r[5]] - r[4] <= 3]
        spans.extend((s, e) for s, e, rank, pg in letters if rank < 3 or page_lines[pg] - rank <= 3)
    seen: dict[str, list[int]] = {}
    for _, _, key, k, _, _ in rows:
        seen.setdefault(key, []).append(k)
    # mostly far apart (two gaps of ten lines or more, and at least half of the gaps): a title page may
    # repeat the running title or the author close by
    running = {
        key
        for key, ks in seen.items()
        if len(ks) >= 3
        and 2 * sum(b - a >= 10 for a, b in zip(ks, ks[1:], strict=False)) >= max(4, len(ks) - 1)
        and len(_LETTER_WORD.findall(key)) >= (1 if paged else 2)
    }
    if not paged and running:
        top = max(len(seen[key]) for key in running)
        # without form feeds, a label or a prompt ("General form:", "You have: _") is not a header
        running = {key for key in running if 2 * len(seen[key]) >= top and (key[-1].isalnum() or key[-1] in ".)]”’\"'")}
    spans.extend((s, e) for s, e, key, *_ in rows if key in running)
    covered = sorted(spans)
    for m in re.finditer(r"\f+", text):
        i = bisect_right(covered, (m.start(), len(text) + 1)) - 1
        if i < 0 or covered[i][1] <= m.start():
            spans.append((m.start(), m.end()))
    return sorted(spans)


def _one_case(body: str) -> bool:
    """A page number's letters are in one case: "xiv", "XIV", not "Cc" (a plot's legend)."""
    letters = [c for c in body if c.isalpha()]
    return not letters or all(c.islower() for c in letters) or all(c.isupper() for c in letters)


def _indent(text: str, s: int, e: int) -> int:
    i = s
    while i < e and text[i] in " \t":
        i += 1
    return i - s


def paragraph_ends(
    text: str, start: int, end: int, width: int, forbidden=(), too_long: int = DEFAULT_CHUNK_CHARS
) -> list[int]:
    """Offsets (line starts) inside ``[start, end)`` where a paragraph ends without a blank line.

    Hard-wrapped text (most lines near the usual ``width``): after a line clearly shorter than the width that
    ends a sentence or is a paragraph's first line (a heading, a one-line paragraph); before a line indented
    deeper than the one before it (not after a list item's first line) and before a line opening a list item.
    Unwrapped text (lines far longer than a screen): each line ending a sentence ends a paragraph. Other
    stretches (one sentence per line, code-like lines) have none. ``forbidden``: sorted ``(s, e)`` spans no
    paragraph end may fall inside (a line end inside inline math)."""
    lines = [(s, e) for s, e in _lines(text, start, end) if text[s:e].strip()]
    if len(lines) < 2 or not width:
        return []
    lens = [len(text[s:e].rstrip()) for s, e in lines]
    body = lens[:-1]
    # hard-wrapped: many lines near the width (one sentence per line has few); a stretch too long for one
    # chunk is read so too, since it must be cut somewhere
    wrapped = sum(1 for n in body if n >= 0.75 * width) >= 0.35 * len(body) or end - start > too_long
    unwrapped = sorted(body)[len(body) // 2] > 200
    if not (wrapped or unwrapped):
        # a heading over a short paragraph: a numbered line, or one centred far deeper than the next
        s0, e0 = lines[0]
        ns, ne = lines[1]
        deeper = _indent(text, s0, e0) >= _indent(text, ns, ne) + 8 and bool(_TITLE.fullmatch(text[s0:e0].strip()))
        heading = _NUMBERED_HEADING.fullmatch(text[s0:e0].rstrip()) or (
            deeper and not _SENTENCE_END.search(text[s0:e0].rstrip())
        )
        opens = text[ns + _indent(text, ns, ne) : ns + _indent(text, ns, ne) + 1].isupper()
        return [ns] if heading and opens and lens[0] < 0.8 * width else []
    short = 0.8 * width
    ends: list[int] = []
    first = True
    in_item = bool(_ITEM.match(text, *lines[0]))  # the current paragraph opened with a list-item marker
    for k in range(len(lines) - 1):
        s, e = lines[k]
        ns, ne = lines[k + 1]
        line = text[s:e].rstrip()
        sentence = bool(_SENTENCE_END.search(line))
        if unwrapped:
            cut = sentence
        else:
            # a short first line (a heading, a one-line paragraph) when a sentence starts after it: display
            # maths and wrapped code read as one piece
            opens = text[ns : ns + _indent(text, ns, ne) + 1][-1:].isupper()
            # short: clearly under the width, or the next line's first word would have fitted on it
            word = _WORD.match(text, ns + _indent(text, ns, ne), ne)
            fits = word is not None and lens[k] + 1 + len(word.group(0)) <= width
            # a marker opens an item after a line that could end a paragraph or inside a list: a wrapped
            # line may start with "+ " (a console continuation), "a." or "xi." (a variable) mid-sentence
            item = bool(_ITEM.match(text, ns, ne)) and (
                in_item or sentence or lens[k] < short or bool(_BULLET.match(text, ns, ne))
            )
            cut = ((lens[k] < short or fits) and (sentence or (first and opens))) or item
            # a deeper next line opens a paragraph, unless it continues a list item's text or is the hanging
            # indent of a paragraph whose full first line runs on (a reference, a definition, a table cell)
            hanging = first and not (lens[k] < short or sentence)
            cut = cut or (_indent(text, ns, ne) > _indent(text, s, e) and not _ITEM.match(text, s, e) and not hanging)
        if cut and forbidden:
            i = bisect_right(forbidden, (ns, len(text) + 1)) - 1
            cut = i < 0 or forbidden[i][1] <= ns
        if cut:
            ends.append(ns)
            in_item = bool(_ITEM.match(text, ns, ne))
        first = cut
    return ends


_BOUNDARIES = (
    re.compile(r"[.!?…][\"'”’»)\]]*\s+(?=[\"'“‘«(\[]?[A-Z0-9À-ÖØ-Þ])"),  # a sentence end
    re.compile(r"[,;:—–][\"'”’»)\]]*\s+"),  # a clause
    re.compile(r"\s+"),  # a word
)


def _outside(spans: list[tuple[int, int]], pos: int) -> bool:
    i = bisect_right(spans, (pos, float("inf"))) - 1
    return i < 0 or spans[i][1] <= pos or spans[i][0] == pos


def _last_boundary(text: str, lo: int, hi: int, spans: list[tuple[int, int]]) -> int | None:
    for pat in _BOUNDARIES:
        best = None
        for m in pat.finditer(text, lo, hi):
            if lo < m.end() <= hi and _outside(spans, m.end()):
                best = m.end()
        if best is not None:
            return best
    return None


def cut_long(text: str, start: int, end: int, soft: int, hard: int, spans: list[tuple[int, int]]) -> list[int]:
    """Cut offsets that keep every piece of ``[start, end)`` within ``soft`` characters where the text has a
    sentence end, else a clause or word boundary, in the piece's second half; failing that, the first word
    boundary up to ``hard``; failing that, ``hard`` itself moved out of any protected span (``spans``: sorted
    placeholders and markup spans never cut)."""
    cuts: list[int] = []
    pos = start
    while end - pos > soft:
        c = _last_boundary(text, pos + soft // 2, pos + soft, spans)
        if c is None:
            c = next((m.end() for m in _SPACE.finditer(text, pos + soft, pos + hard) if _outside(spans, m.end())), None)
        if c is None:
            c = min(pos + hard, end)
            i = bisect_right(spans, (c, float("inf"))) - 1
            if i >= 0 and spans[i][0] < c < spans[i][1]:
                c = spans[i][0] if spans[i][0] > pos else spans[i][1]
        if c >= end:
            break
        cuts.append(c)
        pos = c
    return cuts


_TEX_ARG = re.compile(r"\\[A-Za-z@]+\*?(?:\[[^\[\]\n]{0,200}\])?\{[^{}]{0,500}\}")


def protected_spans(
    text: str, start: int, end: int, fmt: str, markup: Sequence[Span] | None = None
) -> list[tuple[int, int]]:
    """Spans no cut may fall inside: the markup of :func:`.markup.find_markup` (URLs, addresses, inline code,
    roles, commands …; ``markup`` when the caller found it already) and, in LaTeX, a command's ``{…}`` argument
    (``\\emph{…}``: its words are prose, but a cut inside would leave one chunk with an unclosed brace)."""
    found = find_markup(text, fmt, start, end) if markup is None else markup
    out = [(sp.start, sp.end) for sp in found]
    if fmt == "tex":
        out.extend((m.start(), m.end()) for m in _TEX_ARG.finditer(text, start, end))
    return sorted(out)


def split_prose(
    text: str,
    start: int,
    end: int,
    width: int,
    inline: list[tuple[int, int]],
    *,
    fmt: str = "txt",
    by_lines: bool,
    soft: int = DEFAULT_CHUNK_CHARS,
    hard: int = DEFAULT_CHUNK_MAX_CHARS,
    markup: Sequence[Span] | None = None,
) -> list[tuple[int, int]]:
    """``[start, end)`` as prose pieces: at paragraph ends found by line shape (when ``by_lines``, or when the
    stretch is over ``soft``), then what is still over ``soft`` cut by :func:`cut_long`. ``inline``: sorted
    spans that go behind placeholders (never cut); ``markup``: the stretch's markup when already found (no cut
    falls inside a span of it, so each piece's markup is the spans inside the piece)."""
    if end - start <= soft and not by_lines:
        return [(start, end)]
    spans = sorted(inline + protected_spans(text, start, end, fmt, markup))
    cuts = paragraph_ends(text, start, end, width, spans, soft)
    pieces: list[tuple[int, int]] = []
    pos = start
    for c in cuts + [end]:
        if c <= pos:
            continue
        inner = cut_long(text, pos, c, soft, hard, spans) if c - pos > soft else []
        for x in inner + [c]:
            pieces.append((pos, x))
            pos = x
    return pieces
