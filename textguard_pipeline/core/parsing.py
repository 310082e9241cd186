"""Lossless chunker for LaTeX, Markdown and plain text.

``parse_document(text, fmt)`` returns chunks whose ``[start, end)`` ranges tile
the document exactly. Non-prose chunks (``structural``, ``math_block``,
``code``) carry the source slice verbatim. Prose chunks carry the slice with
inline constructs behind placeholders, listed in ``math_placeholders``
(placeholder → original):

* ``⟨MATH_NNN⟩`` inline math (``$..$``, ``\\(..\\)``, inline ``$$..$$`` in Markdown);
* ``⟨CODE_NNN⟩`` inline Markdown code spans (their own namespace, so code is
  never mistaken for math and both restore the same way);
* ``⟨LIT_NNN⟩`` source text that already looks like a placeholder (e.g. a
  literal ``⟨TERM_001⟩``), so that restoration stays exact (seed 000, E9/E11).

Restoring the placeholders of a prose chunk gives ``source[start:end]``.
Whitespace-only gaps (blank lines) are attached to the chunk before them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import StrEnum

from .placeholders import PLACEHOLDER_RE, make_placeholder, restore_placeholders
from .spans import OffsetMap


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
    if len(merged) > 1 and text[merged[0][0]:merged[0][1]].strip() == "":
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


# ---------------------------------------------------------------------------
# LaTeX

_TEX_MATH_ENVS = {
    "equation", "align", "gather", "multline", "eqnarray", "displaymath", "math",
    "flalign", "alignat", "dmath", "split",
}
_TEX_CODE_ENVS = {"verbatim", "lstlisting", "minted", "Verbatim", "BVerbatim", "alltt", "code"}
_TEX_STRUCT_ENVS = {
    "figure", "table", "tabular", "tabularx", "tabulary", "longtable", "tikzpicture",
    "algorithm", "algorithmic", "algorithm2e", "thebibliography", "wrapfigure", "subfigure",
    "comment", "filecontents", "picture", "pgfpicture", "lstinputlisting",
}
# Commands that make their line structural when they open it.
_TEX_STRUCT_CMDS = {
    "part", "chapter", "section", "subsection", "subsubsection", "paragraph", "subparagraph",
    "title", "author", "date", "maketitle", "label", "caption", "bibliography", "bibliographystyle",
    "printbibliography", "input", "include", "includegraphics", "tableofcontents", "listoffigures",
    "listoftables", "newcommand", "renewcommand", "providecommand", "newenvironment", "renewenvironment",
    "def", "let", "usepackage", "documentclass", "appendix", "newpage", "clearpage", "cleardoublepage",
    "pagebreak", "newline", "centering", "vspace", "hspace", "vskip", "hskip", "noindent", "setlength",
    "addbibresource", "newtheorem", "theoremstyle", "begin", "end", "thanks", "affiliation",
    "address", "email", "keywords", "frontmatter", "mainmatter", "backmatter", "bibitem",
    "pagestyle", "thispagestyle", "graphicspath", "hypersetup", "setcounter", "addtocounter",
    "medskip", "bigskip", "smallskip", "item",
}
_TEX_CMD = re.compile(r"\\([A-Za-z@]+)\*?")
_TEX_BEGIN = re.compile(r"\\begin\s*\{([^{}\n]{1,64})\}")
_TEX_SPECIAL = re.compile(r"[\\%$]")


def _skip_args(text: str, pos: int, limit: int) -> int:
    """Skip optional ``[..]`` and ``{..}`` arguments (balanced) starting at pos."""
    i = pos
    while i < limit:
        while i < limit and text[i] in " \t":
            i += 1
        if i < limit and text[i] in "[{":
            close = _balanced(text, i, limit)
            if close == -1:
                return i
            i = close
        else:
            return i
    return i


def _balanced(text: str, pos: int, limit: int) -> int:
    """End (exclusive) of the bracket group opening at pos, or -1."""
    open_c = text[pos]
    close_c = "]" if open_c == "[" else "}"
    depth = 0
    i = pos
    while i < limit:
        c = text[i]
        if c == "\\":
            i += 2
            continue
        if c == open_c:
            depth += 1
        elif c == close_c:
            depth -= 1
            if depth == 0:
                return i + 1
        elif c == "\n" and open_c == "[" and _BLANK_RUN.match(text, i):
            return -1
        i += 1
    return -1


def _find_env_end(text: str, name: str, pos: int, limit: int) -> int:
    """End (exclusive) of the ``\\end{name}`` closing the env whose body starts at pos."""
    pat = re.compile(r"\\(begin|end)\s*\{" + re.escape(name) + r"\}")
    depth = 1
    for m in pat.finditer(text, pos, limit):
        depth += 1 if m.group(1) == "begin" else -1
        if depth == 0:
            return m.end()
    return -1


def _tex_regions(text: str) -> list[Segment]:
    n = len(text)
    regions: list[Segment] = []
    body_start, body_end = 0, n
    m = re.search(r"\\begin\s*\{document\}", text)
    if m:
        body_start = _line_end(text, m.end(), n) if text[m.end():_line_end(text, m.end(), n)].strip() == "" else m.end()
        regions.append((0, body_start, ChunkType.STRUCTURAL))
        e = re.search(r"\\end\s*\{document\}", text[body_start:])
        if e:
            body_end = _line_start(text, body_start + e.start())
            if text[body_end:body_start + e.start()].strip() != "":
                body_end = body_start + e.start()
    floor = body_start

    def add(s: int, e: int, t: str) -> int:
        nonlocal floor
        s, e = _widen_to_lines(text, s, e, floor, body_end)
        s = max(s, floor)
        regions.append((s, e, t))
        floor = e
        return e

    i = body_start
    while i < body_end:
        m = _TEX_SPECIAL.search(text, i, body_end)
        if m is None:
            break
        j = m.start()
        c = text[j]
        if c == "%":
            eol = _line_end(text, j, body_end)
            ls = max(_line_start(text, j), floor)
            if text[ls:j].strip() == "":
                i = add(ls, eol, ChunkType.STRUCTURAL)
            else:
                i = eol
            continue
        if c == "$":
            if text.startswith("$$", j):
                close = text.find("$$", j + 2, body_end)
                if close != -1:
                    i = add(j, close + 2, ChunkType.MATH_BLOCK)
                else:
                    i = j + 2
                continue
            close = _find_tex_dollar(text, j + 1, body_end)
            i = close + 1 if close != -1 else j + 1
            continue
        # backslash
        nxt = text[j + 1:j + 2]
        if nxt == "[":
            close = text.find("\\]", j + 2, body_end)
            i = add(j, close + 2, ChunkType.MATH_BLOCK) if close != -1 else j + 2
            continue
        if nxt == "(":
            close = text.find("\\)", j + 2, body_end)
            i = close + 2 if close != -1 else j + 2
            continue
        cm = _TEX_CMD.match(text, j)
        if cm is None:
            i = j + 2
            continue
        name = cm.group(1)
        if name == "begin":
            bm = _TEX_BEGIN.match(text, j)
            if bm:
                env = bm.group(1).strip()
                base = env.rstrip("*")
                if base in _TEX_MATH_ENVS or base in _TEX_CODE_ENVS or base in _TEX_STRUCT_ENVS:
                    close = _find_env_end(text, env, bm.end(), body_end)
                    if close != -1:
                        t = (ChunkType.MATH_BLOCK if base in _TEX_MATH_ENVS
                             else ChunkType.CODE if base in _TEX_CODE_ENVS else ChunkType.STRUCTURAL)
                        i = add(j, close, t)
                        continue
                # Other environments: the \begin line is structural, the body is parsed.
                at_line_start = text[max(_line_start(text, j), floor):j].strip() == ""
                if at_line_start:
                    i = add(j, _skip_args(text, bm.end(), body_end), ChunkType.STRUCTURAL)
                else:
                    i = bm.end()
                continue
        if name in _TEX_STRUCT_CMDS and name != "item":
            at_line_start = text[max(_line_start(text, j), floor):j].strip() == ""
            if at_line_start:
                e = _skip_args(text, cm.end(), body_end)
                # Only when the command fills its line; otherwise it is inline in prose.
                if text[e:_line_end(text, e, body_end)].strip() == "" or name in ("begin", "end"):
                    i = add(j, e, ChunkType.STRUCTURAL)
                    continue
        i = cm.end()
    if body_end < n:
        regions.append((body_end, n, ChunkType.STRUCTURAL))
    return regions


# ---------------------------------------------------------------------------
# Markdown

_MD_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_MD_ATX = re.compile(r"^ {0,3}#{1,6}(?:[ \t]|$)")
_MD_SETEXT = re.compile(r"^ {0,3}(?:=+|-+)[ \t]*$")
_MD_HR = re.compile(r"^ {0,3}(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,})$")
_MD_HTML = re.compile(r"^ {0,3}<(?:!--|/?[A-Za-z][A-Za-z0-9-]*(?:[\s/>]|$)|\?|![A-Z])")
_MD_LINKDEF = re.compile(r"^ {0,3}\[[^\]\n]+\]:\s*\S")
_MD_TABLE_DELIM = re.compile(r"^ {0,3}\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?\s*$")
_MD_LIST = re.compile(r"^ {0,3}(?:[-+*]|\d{1,9}[.)])[ \t]")
# List items at any depth, including pandoc's lettered and roman markers ("a.", "iv)"):
# indented text after them is a continuation, not an indented code block.
_MD_LIST_ANY = re.compile(r"^[ \t]*(?:[-+*]|\d{1,9}[.)]|[A-Za-z][.)]|[ivxlcdmIVXLCDM]{1,6}[.)])[ \t]")


def _md_regions(text: str) -> list[Segment]:
    lines: list[tuple[int, int, str]] = []  # (start, end_with_newline, content_without_newline)
    pos = 0
    n = len(text)
    while pos < n:
        e = text.find("\n", pos)
        e = n if e == -1 else e + 1
        lines.append((pos, e, text[pos:e].rstrip("\n").rstrip("\r")))
        pos = e
    regions: list[Segment] = []
    k = 0
    L = len(lines)

    def blank(idx: int) -> bool:
        return lines[idx][2].strip() == ""

    # Front matter
    if L and lines[0][2] in ("---", "+++"):
        fence = lines[0][2]
        for q in range(1, L):
            if lines[q][2] in (fence, "...") :
                regions.append((0, lines[q][1], ChunkType.STRUCTURAL))
                k = q + 1
                break
    prev_blank = True
    prev_list = False
    while k < L:
        s, e, line = lines[k]
        if line.strip() == "":
            prev_blank = True
            k += 1
            continue
        fm = _MD_FENCE.match(line)
        if fm:
            fence = fm.group(1)
            q = k + 1
            while q < L and not re.match(r"^ {0,3}" + re.escape(fence[0]) + "{" + str(len(fence)) + r",}[ \t]*$", lines[q][2]):
                q += 1
            end_idx = min(q, L - 1)
            regions.append((s, lines[end_idx][1], ChunkType.CODE))
            k, prev_blank, prev_list = end_idx + 1, False, False
            continue
        if prev_blank and not prev_list and (line.startswith("    ") or line.startswith("\t")):
            q = k
            while q + 1 < L and (blank(q + 1) or lines[q + 1][2].startswith(("    ", "\t"))):
                q += 1
            while q > k and blank(q):
                q -= 1
            regions.append((s, lines[q][1], ChunkType.CODE))
            k, prev_blank = q + 1, False
            continue
        if line.lstrip().startswith("$$"):
            rest = line.lstrip()[2:]
            if "$$" in rest:
                if line.strip().endswith("$$") and line.strip() != "$$":
                    regions.append((s, e, ChunkType.MATH_BLOCK))
                    k, prev_blank = k + 1, False
                    continue
            else:
                q = k + 1
                while q < L and "$$" not in lines[q][2]:
                    q += 1
                if q < L:
                    regions.append((s, lines[q][1], ChunkType.MATH_BLOCK))
                    k, prev_blank = q + 1, False
                    continue
        if _MD_ATX.match(line) or _MD_HR.match(line) or _MD_LINKDEF.match(line):
            regions.append((s, e, ChunkType.STRUCTURAL))
            k, prev_blank, prev_list = k + 1, False, False
            continue
        if _MD_HTML.match(line):
            q = k
            if line.lstrip().startswith("<!--"):
                while q < L and "-->" not in lines[q][2]:
                    q += 1
                q = min(q, L - 1)
            else:
                while q + 1 < L and not blank(q + 1):
                    q += 1
            regions.append((s, lines[q][1], ChunkType.STRUCTURAL))
            k, prev_blank = q + 1, False
            continue
        if "|" in line and k + 1 < L and _MD_TABLE_DELIM.match(lines[k + 1][2]) and "-" in lines[k + 1][2]:
            q = k + 1
            while q + 1 < L and "|" in lines[q + 1][2] and not blank(q + 1):
                q += 1
            regions.append((s, lines[q][1], ChunkType.STRUCTURAL))
            k, prev_blank = q + 1, False
            continue
        if k + 1 < L and _MD_SETEXT.match(lines[k + 1][2]) and prev_blank and not _MD_LIST.match(line):
            regions.append((s, lines[k + 1][1], ChunkType.STRUCTURAL))
            k, prev_blank = k + 2, False
            continue
        # Prose paragraph: until a blank line or the start of another block.
        is_list = bool(_MD_LIST_ANY.match(line))
        q = k
        while q + 1 < L:
            nxt = lines[q + 1][2]
            if nxt.strip() == "" or _MD_FENCE.match(nxt) or _MD_ATX.match(nxt) or _MD_HR.match(nxt) \
                    or (_MD_HTML.match(nxt) and not is_list) or nxt.lstrip().startswith("$$"):
                break
            q += 1
        _fill_prose(text, s, lines[q][1], regions)
        k, prev_blank, prev_list = q + 1, False, is_list or (prev_list and line.startswith((" ", "\t")))
    return regions


# ---------------------------------------------------------------------------
# Plain text

def _txt_regions(text: str) -> list[Segment]:
    # Lines made only of form feeds and spaces are page breaks: structural.
    return [(m.start(), m.end(), ChunkType.STRUCTURAL)
            for m in re.finditer(r"^[ \t]*\f[ \t\f]*(?:\n|$)", text, re.M)]


# ---------------------------------------------------------------------------

def parse_document(text: str, fmt: str) -> list[Chunk]:
    """Chunks of ``text`` (format ``tex``, ``md`` or ``txt``) tiling it exactly."""
    if fmt not in ("tex", "md", "txt"):
        raise ValueError(f"unsupported format {fmt!r}; expected tex, md or txt")
    if not text:
        return []
    regions = {"tex": _tex_regions, "md": _md_regions, "txt": _txt_regions}[fmt](text)
    regions = [r for r in regions if r[1] > r[0]]
    # Markdown prose regions come pre-split; keep region order and types as given.
    segs = _assemble(text, regions)
    chunks: list[Chunk] = []
    for idx, (s, e, t) in enumerate(segs):
        if t == ChunkType.PROSE:
            chunks.append(_prose_chunk(idx, text, s, e, fmt))
        else:
            chunks.append(Chunk(idx, str(t), s, e, text[s:e], {}))
    return chunks

