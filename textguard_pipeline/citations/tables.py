"""The cells of Markdown and LaTeX tables, whose text is prose for citations (``| A | 0.9 [3] |``).

The chunker keeps tables as structural chunks; a citation in a cell is still a citation, and the cell is
its sentence. Stdlib only.
"""

from __future__ import annotations

import re

_MD_ROW = re.compile(r"^[ \t]*\|.*$", re.M)
_MD_RULE = re.compile(r"^[ \t]*\|?[ \t]*:?-{2,}:?[ \t]*(?:\|[ \t]*:?-{2,}:?[ \t]*)*\|?[ \t]*$")
_MD_SEP = re.compile(r"(?<!\\)\|")
_TEX_TABLE = re.compile(r"\\begin\{(?:tabular[xy*]?|longtable|tabulary|supertabular|array|tblr)\}|&[^\n]*\\\\")
_TEX_SEP = re.compile(r"(?<!\\)&|\\\\(?:\[[^\]\n]*\])?|\n")


def table_cells(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """(start, end) of each non-empty cell of the tables in ``text[start:end]``, whitespace trimmed."""
    out: list[tuple[int, int]] = []
    rows = [m for m in _MD_ROW.finditer(text, start, end)]
    if len(rows) >= 2:
        for m in rows:
            if _MD_RULE.fullmatch(m.group(0)):
                continue
            out.extend(_split(text, m.start(), m.end(), _MD_SEP))
    elif _TEX_TABLE.search(text, start, end):
        out.extend(_split(text, start, end, _TEX_SEP))
    return out


def _split(text: str, start: int, end: int, sep: re.Pattern) -> list[tuple[int, int]]:
    cells: list[tuple[int, int]] = []
    pos = start
    for m in [*sep.finditer(text, start, end), None]:
        a, b = pos, (m.start() if m else end)
        while a < b and text[a].isspace():
            a += 1
        while b > a and text[b - 1].isspace():
            b -= 1
        if b > a and "[" in text[a:b]:
            cells.append((a, b))
        if m:
            pos = m.end()
    return cells
