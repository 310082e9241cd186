"""Chunks and the format-independent half of the chunker.

A :class:`Chunk` is one tile of a document; prose chunks carry their text with
inline math/code (and placeholder-shaped literals) behind placeholders. This
module holds the tiling (`_assemble`) and the inline scanning shared by every
format; the block structure of each format is found in :mod:`.regions`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import StrEnum

from ..lib.placeholders import PLACEHOLDER_RE, make_placeholder, restore_placeholders
from ..lib.spans import OffsetMap


class ChunkType(StrEnum):
    PROSE = "prose"
    STRUCTURAL = "structural"
    MATH_BLOCK = "math_block"
    CODE = "code"


@dataclass(slots=True)
class Chunk:
    """One tile of a document. ``text`` has placeholders for prose chunks."""

    index: int
    chunk_type: str
    start: int
    end: int
    text: str
    math_placeholders: dict[str, str] = field(default_factory=dict)
    #: ISO 639-1 code of the chunk's language, None when undetermined (set by ``ingest.languages``).
    language: str | None = None
    #: the detector's normalised probability for ``language`` (1.0 for an override).
    language_confidence: float | None = None
    #: ``(start, end, kind)`` of the chunk's markup, absolute offsets (prose chunks; set by ``ingest.markup``);
    #: None: not looked for (a chunk built elsewhere)
    markup_spans: list[tuple[int, int, str]] | None = None

    def source_text(self) -> str:
        """The chunk's exact source slice (placeholders restored)."""
        return restore_placeholders(self.text, self.math_placeholders) if self.math_placeholders else self.text

    def offset_map(self) -> OffsetMap:
        """Maps offsets in ``text`` to absolute document offsets."""
        return offset_map_for(self.text, self.math_placeholders, self.start)


def offset_map_for(text: str, mapping: dict[str, str], base: int = 0) -> OffsetMap:
    """OffsetMap of a text whose placeholders in ``mapping`` stand for originals."""
    om = OffsetMap(base=base)
    shift = 0
    for m in PLACEHOLDER_RE.finditer(text):
        original = mapping.get(m.group(0))
        if original is None:
            continue
        s_start = m.start() + shift
        om.add(m.start(), m.end(), s_start, s_start + len(original))
        shift += len(original) - (m.end() - m.start())
    return om


# ---------------------------------------------------------------------------
# Segmentation helpers

Segment = tuple[int, int, str]  # (start, end, chunk_type)

_BLANK_RUN = re.compile(r"\n(?:[ \t\f\v\r]*\n)+")
_LEADING_BLANKS = re.compile(r"(?:[ \t\f\v\r]*\n)+")


def _line_start(text: str, pos: int) -> int:
    return text.rfind("\n", 0, pos) + 1


def _line_end(text: str, pos: int, limit: int) -> int:
    """Offset just after the newline ending the line containing pos (or limit)."""
    nl = text.find("\n", pos, limit)
    return limit if nl == -1 else nl + 1


def _widen_to_lines(text: str, start: int, end: int, floor: int, limit: int) -> tuple[int, int]:
    """Take in the rest of the line on either side when it is only whitespace."""
    ls = max(_line_start(text, start), floor)
    if text[ls:start].strip() == "":
        start = ls
    le = _line_end(text, end, limit) if end < limit else limit
    if end > 0 and text[end - 1] == "\n":
        le = end
    if text[end:le].strip() == "":
        end = le
    return start, end


def _fill_prose(text: str, start: int, end: int, out: list[Segment]) -> None:
    """Split ``[start, end)`` into prose paragraphs at blank lines.

    Leading blank lines become a whitespace-only segment, which ``_assemble``
    hands to the chunk before, so a paragraph starts at its first word.
    """
    pos = start
    lead = _LEADING_BLANKS.match(text, start, end)
    if lead and lead.end() > start:
        out.append((start, lead.end(), ChunkType.PROSE))
        pos = lead.end()
    for m in _BLANK_RUN.finditer(text, pos, end):
        cut = m.end()
        if cut > pos:
            out.append((pos, cut, ChunkType.PROSE))
            pos = cut
    if pos < end:
        out.append((pos, end, ChunkType.PROSE))


def _assemble(text: str, regions: list[Segment]) -> list[Segment]:
    """Tile the text: regions as given, prose paragraphs in between."""
    segs: list[Segment] = []
    pos = 0
    for s, e, t in regions:
        if s > pos:
            _fill_prose(text, pos, s, segs)
        if e > s:
            segs.append((s, e, t))
        pos = max(pos, e)
    if pos < len(text):
        _fill_prose(text, pos, len(text), segs)
    # Attach whitespace-only segments to their neighbour; merge adjacent same-type non-prose.
    merged: list[Segment] = []
    for s, e, t in segs:
        if text[s:e].strip() == "" and t == ChunkType.PROSE:
            if merged:
                ps, _, pt = merged[-1]
                merged[-1] = (ps, e, pt)
                continue
            t = ChunkType.STRUCTURAL if e < len(text) else ChunkType.PROSE
        merged.append((s, e, t))
    # A leading whitespace-only structural segment joins the next chunk.
    if len(merged) > 1 and text[merged[0][0] : merged[0][1]].strip() == "":
        s0 = merged[0][0]
        _, e1, t1 = merged[1]
        merged[1:2] = []
        merged[0] = (s0, e1, t1)
    return merged


# ---------------------------------------------------------------------------
# Inline scanning (placeholders inside prose)

_TEX_INLINE = re.compile(r"\\[\\$%()\[\]{}]|\\.|%|\$|⟨")
_MD_INLINE = re.compile(r"\\[\\`$*_{}\[\]()#+\-.!|<>~]|`+|\$\$|\$|\\\(|⟨")
_TXT_INLINE = re.compile(r"⟨")


def _inline_spans(text: str, start: int, end: int, fmt: str) -> list[tuple[int, int, str]]:
    """(start, end, namespace) of inline constructs to put behind placeholders."""
    out: list[tuple[int, int, str]] = []
    pat = {"tex": _TEX_INLINE, "md": _MD_INLINE}.get(fmt, _TXT_INLINE)
    i = start
    while i < end:
        m = pat.search(text, i, end)
        if m is None:
            break
        j, tok = m.start(), m.group(0)
        if tok == "⟨":
            i = j + 1
            continue
        if fmt == "tex":
            if tok == "\\(":
                close = text.find("\\)", j + 2, end)
                if close != -1:
                    out.append((j, close + 2, "MATH"))
                    i = close + 2
                    continue
                i = j + 2
            elif tok == "%":
                i = _line_end(text, j, end)
            elif tok == "$":
                close = _find_tex_dollar(text, j + 1, end)
                if close != -1 and close > j + 1:
                    out.append((j, close + 1, "MATH"))
                    i = close + 1
                else:
                    i = j + 1
            else:
                i = m.end()
            continue
        # Markdown
        if tok.startswith("`"):
            n = len(tok)
            close = _find_backtick_run(text, m.end(), end, n)
            if close != -1:
                out.append((j, close + n, "CODE"))
                i = close + n
            else:
                i = m.end()
        elif tok == "$$":
            close = text.find("$$", j + 2, end)
            if close != -1 and close > j + 2:
                out.append((j, close + 2, "MATH"))
                i = close + 2
            else:
                i = j + 2
        elif tok == "$":
            close = _find_md_dollar(text, j, end)
            if close != -1:
                out.append((j, close + 1, "MATH"))
                i = close + 1
            else:
                i = j + 1
        elif tok == "\\(":
            close = text.find("\\)", j + 2, end)
            if close != -1:
                out.append((j, close + 2, "MATH"))
                i = close + 2
            else:
                i = j + 2
        else:
            i = m.end()
    return _with_literals(text, start, end, out)


def _with_literals(text: str, start: int, end: int, spans: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """Add LIT spans for placeholder-shaped source text outside other spans."""
    out: list[tuple[int, int, str]] = []
    pos = start
    for s, e, ns in spans + [(end, end, "")]:
        for lm in PLACEHOLDER_RE.finditer(text, pos, s):
            out.append((lm.start(), lm.end(), "LIT"))
        if ns:
            out.append((s, e, ns))
        pos = e
    return out


def _find_tex_dollar(text: str, pos: int, end: int) -> int:
    """Closing unescaped ``$`` of inline TeX math, within the paragraph."""
    i = pos
    while i < end:
        c = text[i]
        if c == "\\":
            i += 2
            continue
        if c == "$":
            return i
        if c == "\n" and _BLANK_RUN.match(text, i):
            return -1
        i += 1
    return -1


def _find_md_dollar(text: str, j: int, end: int) -> int:
    """Pandoc's rule: ``$`` not followed by space opens; closing ``$`` has no
    space before it and no digit after it. So "$5 and $10" is not math."""
    if j + 1 >= end or text[j + 1] in " \t\n\r$":
        return -1
    i = j + 1
    while i < end:
        c = text[i]
        if c == "\\":
            i += 2
            continue
        if c == "\n" and _BLANK_RUN.match(text, i):
            return -1
        if c == "$" and text[i - 1] not in " \t\n\r" and not (i + 1 < len(text) and text[i + 1].isdigit()):
            return i
        i += 1
    return -1


def _find_backtick_run(text: str, pos: int, end: int, n: int) -> int:
    for m in re.finditer(r"`+", text[pos:end]):
        if len(m.group(0)) == n:
            return pos + m.start()
    return -1


def _prose_chunk(index: int, text: str, start: int, end: int, fmt: str) -> Chunk:
    spans = _inline_spans(text, start, end, fmt)
    if not spans:
        return Chunk(index, ChunkType.PROSE, start, end, text[start:end], {})
    counters: dict[str, int] = {}
    mapping: dict[str, str] = {}
    parts: list[str] = []
    pos = start
    for s, e, ns in spans:
        parts.append(text[pos:s])
        n = counters.get(ns, 0)
        counters[ns] = n + 1
        ph = make_placeholder(ns, n)
        mapping[ph] = text[s:e]
        parts.append(ph)
        pos = e
    parts.append(text[pos:end])
    return Chunk(index, ChunkType.PROSE, start, end, "".join(parts), mapping)
