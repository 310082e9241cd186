"""Block structure of LaTeX, Markdown and plain text: the non-prose regions of a document.

Each ``*_regions(text)`` returns ``(start, end, chunk_type)`` segments for the
structural, math and code blocks (Markdown also pre-splits its prose);
:func:`.chunks._assemble` fills the gaps with prose paragraphs.
"""

from __future__ import annotations

import re
from bisect import bisect_right

from ..lib.text_patterns import TEX_COMMENT_SIGN
from .chunks import (
    _BLANK_RUN,
    ChunkType,
    Segment,
    _fill_prose,
    _find_tex_dollar,
    _line_end,
    _line_start,
    _widen_to_lines,
)
from .console import console_spans
from .displays import display_spans
from .paragraphs import _PAGE_NUMBER, furniture_regions, usual_width
from .rst import rst_code_spans, rst_structure_spans

# ---------------------------------------------------------------------------
# LaTeX

_TEX_MATH_ENVS = {
    "equation",
    "align",
    "gather",
    "multline",
    "eqnarray",
    "displaymath",
    "math",
    "flalign",
    "alignat",
    "dmath",
    "split",
}
_TEX_CODE_ENVS = {"verbatim", "lstlisting", "minted", "Verbatim", "BVerbatim", "alltt", "code"}
_TEX_STRUCT_ENVS = {
    "figure",
    "table",
    "tabular",
    "tabularx",
    "tabulary",
    "longtable",
    "tikzpicture",
    "algorithm",
    "algorithmic",
    "algorithm2e",
    "thebibliography",
    "wrapfigure",
    "subfigure",
    "comment",
    "filecontents",
    "picture",
    "pgfpicture",
    "lstinputlisting",
}
# Commands that make their line structural when they open it.
_TEX_STRUCT_CMDS = {
    "part",
    "chapter",
    "section",
    "subsection",
    "subsubsection",
    "paragraph",
    "subparagraph",
    "title",
    "author",
    "date",
    "maketitle",
    "label",
    "caption",
    "bibliography",
    "bibliographystyle",
    "printbibliography",
    "input",
    "include",
    "includegraphics",
    "tableofcontents",
    "listoffigures",
    "listoftables",
    "newcommand",
    "renewcommand",
    "providecommand",
    "newenvironment",
    "renewenvironment",
    "def",
    "let",
    "usepackage",
    "documentclass",
    "appendix",
    "newpage",
    "clearpage",
    "cleardoublepage",
    "pagebreak",
    "newline",
    "centering",
    "vspace",
    "hspace",
    "vskip",
    "hskip",
    "noindent",
    "setlength",
    "addbibresource",
    "newtheorem",
    "theoremstyle",
    "begin",
    "end",
    "thanks",
    "affiliation",
    "address",
    "email",
    "keywords",
    "frontmatter",
    "mainmatter",
    "backmatter",
    "bibitem",
    "pagestyle",
    "thispagestyle",
    "graphicspath",
    "hypersetup",
    "setcounter",
    "addtocounter",
    "medskip",
    "bigskip",
    "smallskip",
    "item",
}
_TEX_SECTIONING = {"part", "chapter", "section", "subsection", "subsubsection", "paragraph", "subparagraph"}
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


_BEGIN_DOCUMENT = re.compile(r"\\begin\s*\{document\}")
_LINE_SECTIONING = re.compile(r"^[ \t]*\\(?:part|chapter|section|subsection|subsubsection)\*?\s*[\[{]", re.M)
_LINE_ENV_EDGE = re.compile(r"^[ \t]*\\(begin|end)\s*\{([^}\n]*)\}", re.M)


def _body_begin(text: str) -> re.Match | None:
    """The ``\\begin{document}`` that opens the body: the first one outside a comment — unless the text is a
    chapter without a preamble and that one is in a code example: a sectioning command opens a line before it and
    an environment opened at the start of a line is still open around it (an excerpt of a thesis class's manual: taking
    it for the body's start made 13,696 characters of prose one structural chunk). Either sign alone is found in
    real preambles (sectioning inside a definition, a definition's unbalanced ``\\begin``), so both are asked.
    Linear in the text: each line's comment sign is looked for once, the nesting counted once."""
    line, sign, last = -1, -1, 0
    for m in _BEGIN_DOCUMENT.finditer(text):
        if line < 0 or text.find("\n", last, m.start()) != -1:
            line = text.rfind("\n", 0, m.start()) + 1
            c = TEX_COMMENT_SIGN.search(text, line, _line_end(text, line, len(text)))
            sign = c.start() if c else -1
        last = m.start()
        if 0 <= sign < m.start():
            continue
        if not _LINE_SECTIONING.search(text, 0, m.start()):
            return m
        edges = (e for e in _LINE_ENV_EDGE.finditer(text, 0, m.start()) if e.group(2).strip() != "document")
        return m if sum(1 if e.group(1) == "begin" else -1 for e in edges) <= 0 else None
    return None


def _tex_regions(text: str) -> list[Segment]:
    n = len(text)
    regions: list[Segment] = []
    body_start, body_end = 0, n
    m = _body_begin(text)
    if m:
        body_start = (
            _line_end(text, m.end(), n) if text[m.end() : _line_end(text, m.end(), n)].strip() == "" else m.end()
        )
        regions.append((0, body_start, ChunkType.STRUCTURAL))
        e = re.search(r"\\end\s*\{document\}", text[body_start:])
        if e:
            body_end = _line_start(text, body_start + e.start())
            if text[body_end : body_start + e.start()].strip() != "":
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
        nxt = text[j + 1 : j + 2]
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
                        t = (
                            ChunkType.MATH_BLOCK
                            if base in _TEX_MATH_ENVS
                            else ChunkType.CODE
                            if base in _TEX_CODE_ENVS
                            else ChunkType.STRUCTURAL
                        )
                        i = add(j, close, t)
                        continue
                # Other environments: the \begin line is structural, the body is parsed.
                at_line_start = text[max(_line_start(text, j), floor) : j].strip() == ""
                if at_line_start:
                    i = add(j, _skip_args(text, bm.end(), body_end), ChunkType.STRUCTURAL)
                else:
                    i = bm.end()
                continue
        if name in _TEX_SECTIONING:
            # sectioning is structure wherever it starts: mid-line, or with text after it on its line
            # (\paragraph{Title} Text…), it splits the prose around it
            i = add(j, _skip_args(text, cm.end(), body_end), ChunkType.STRUCTURAL)
            continue
        if name in _TEX_STRUCT_CMDS and name != "item":
            at_line_start = text[max(_line_start(text, j), floor) : j].strip() == ""
            if at_line_start:
                e = _skip_args(text, cm.end(), body_end)
                # Only when the command fills its line; otherwise it is inline in prose.
                if text[e : _line_end(text, e, body_end)].strip() == "" or name in ("begin", "end"):
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
            if lines[q][2] in (fence, "..."):
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
            closing = r"^ {0,3}" + re.escape(fence[0]) + "{" + str(len(fence)) + r",}[ \t]*$"
            while q < L and not re.match(closing, lines[q][2]):
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
            if (
                nxt.strip() == ""
                or _MD_FENCE.match(nxt)
                or _MD_ATX.match(nxt)
                or _MD_HR.match(nxt)
                or (_MD_HTML.match(nxt) and not is_list)
                or nxt.lstrip().startswith("$$")
            ):
                break
            q += 1
        _fill_prose(text, s, lines[q][1], regions)
        k, prev_blank, prev_list = q + 1, False, is_list or (prev_list and line.startswith((" ", "\t")))
    return regions


# ---------------------------------------------------------------------------
# Plain text


def _txt_regions(text: str) -> list[Segment]:
    # Page furniture (form feeds, page numbers, running headers and footers) is structural. Plain text is
    # often reStructuredText, whose titles, transitions and directive lines are structural, its literal blocks
    # and doctests code; a code block wins over structure inside it (a page break in a code block stays there).
    # Console transcripts (a PDF's R or Python session) are code too, split around the page furniture in them.
    furniture = furniture_regions(text)
    rst = rst_structure_spans(text)
    console = console_spans(text, usual_width(text), skip=furniture, stops=rst)
    code: list[Segment] = []
    for a, b in sorted(rst_code_spans(text) + console):
        if code and a < code[-1][1]:
            code[-1] = (code[-1][0], max(b, code[-1][1]), ChunkType.CODE)
        else:
            code.append((a, b, ChunkType.CODE))
    pages = [(a, b, ChunkType.STRUCTURAL) for a, b in furniture + rst]
    # display maths and tables (a PDF's text) where nothing above is: code or structure inside one wins
    numbers = [(a, b) for a, b in furniture if _PAGE_NUMBER.fullmatch(text, a, b)]
    found = display_spans(text, skip=furniture, joins=numbers)
    if found:  # a lone number inside a display is a fraction's, not a page's
        inside, lone = sorted((a, b) for a, b, _ in found), set(numbers)
        pages = [(a, b, t) for a, b, t in pages if not ((a, b) in lone and _overlaps(inside, a, b))]
    taken = sorted((a, b) for a, b, _ in code + pages)
    displays = [
        (x, y, ChunkType.MATH_BLOCK if kind == "math" else ChunkType.STRUCTURAL)
        for a, b, kind in found
        for x, y in _outside(taken, a, b)
        if text[x:y].strip()
    ]
    out: list[Segment] = []
    for seg in sorted(code + pages + displays, key=lambda r: (r[0], -r[1])):
        if not out or seg[0] >= out[-1][1]:
            out.append(seg)
    return out


def _overlaps(spans: list[tuple[int, int]], a: int, b: int) -> bool:
    """Whether ``[a, b)`` overlaps one of the sorted, disjoint ``spans``."""
    i = bisect_right(spans, (b, b)) - 1
    return i >= 0 and spans[i][1] > a


def _outside(spans: list[tuple[int, int]], a: int, b: int) -> list[tuple[int, int]]:
    """The parts of ``[a, b)`` outside the sorted, disjoint ``spans``."""
    out, pos = [], a
    for s, e in spans[max(0, bisect_right(spans, (a, a)) - 1) :]:
        if s >= b:
            break
        if e > pos:
            if s > pos:
                out.append((pos, s))
            pos = max(pos, e)
    if pos < b:
        out.append((pos, b))
    return out
