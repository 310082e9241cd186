"""Code inside plain text written in reStructuredText (READMEs, Sphinx sources, Sphinx's text output).

A ``.txt`` or ``.rst`` file is read as plain text, where a literal block or a doctest was a prose paragraph: its
``[0]`` became a citation, its names became index terms, and the LLM was asked to rewrite it. These blocks are
code chunks instead (:func:`.regions._txt_regions`). Stdlib only.
"""

from __future__ import annotations

import re
from typing import Sequence

from .console import prose_like

#: reStructuredText directives whose body is not prose (an admonition's body is)
_RST_CODE_DIRECTIVE = re.compile(
    r"[ \t]*\.\.[ \t]+(?:code|code-block|sourcecode|literalinclude|doctest|testcode|testoutput|testsetup|"
    r"parsed-literal|productionlist|math|highlight|ipython|jupyter-execute|prompt|console|graphviz|raw|"
    r"index|toctree|autosummary|program-output|command-output)::"  # and index entries, file lists
)
_RST_ITEM = re.compile(r"[ \t]*(?:[-*+]|\d+[.)]|#\.)?[ \t]*")
#: a line of code: markup, brackets, "=", a prompt, a comment or an import (prose has ";" and "$") — and fewer than
#: five lower-case words, which a sentence about code has ("preceded by \ are replaced by themselves")
_CODE_LINE = re.compile(r"[{}\[\]<>=|\\]|\(\)|^\s*(?:>>>|\$ |%|#|def |class |import |from \S+ import )")
_PROSE_WORD = re.compile(r"\b[a-z]+\b")


def _mostly_code(block: Sequence[str]) -> bool:
    """More than half of the block's non-blank lines read as code (:data:`_CODE_LINE`)."""
    lines = [b for b in block if b.strip()]
    return 2 * sum(1 for b in lines if _CODE_LINE.search(b) and len(_PROSE_WORD.findall(b)) < 5) > len(lines)


def rst_code_spans(text: str) -> list[tuple[int, int]]:
    """Code inside plain text written in reStructuredText (READMEs, Sphinx sources): the indented block after
    a paragraph that ends in "::" or after a code directive, and doctest blocks (">>> " up to a blank line or a line
    of running text).
    Sphinx's text output ends the paragraph before a literal block in one colon: after one, an indented block is
    code when most of its lines read as code (a block quote or an admonition's prose after "Note:" stays)."""
    lines = text.splitlines(keepends=True)
    starts = [0]
    for ln in lines:
        starts.append(starts[-1] + len(ln))

    def indent(ln: str) -> int:
        return len(ln) - len(ln.lstrip(" \t"))

    spans, i = [], 0
    while i < len(lines):
        ln = lines[i]
        body = ln.strip()
        if body.startswith(">>> "):
            j = i  # up to a blank line, or a line of running text (a PDF's text has no blank line after it)
            while j + 1 < len(lines) and lines[j + 1].strip() and not prose_like(lines[j + 1]):
                j += 1
            spans.append((starts[i], starts[j + 1]))
            i = j + 1
            continue
        before_block = (
            body.endswith(":") and not body.startswith("..") and i + 1 < len(lines) and not lines[i + 1].strip()
        )
        literal = before_block and body.endswith("::")
        if before_block or _RST_CODE_DIRECTIVE.match(ln):
            base, j, last = _RST_ITEM.match(ln).end(), i + 1, None  # a list item's text starts after its marker
            while j < len(lines) and (not lines[j].strip() or indent(lines[j]) > base):
                if lines[j].strip():
                    last = j
                j += 1
            # "::" or a directive always opens code; one colon only before a block that reads as code
            if last is not None and (literal or not before_block or _mostly_code(lines[i + 1 : last + 1])):
                spans.append((starts[i + 1], starts[last + 1]))
                i = last + 1
                continue
        i += 1
    return spans


#: a line of one punctuation character repeated (a title's under- or overline, a transition)
_ADORNMENT = re.compile(r"[ \t]*([!-/:-@\[-`{-~])\1+[ \t]*\r?\n?")
#: an explicit markup line that is structure: a directive (".. note::", ".. |name| image::") or a target
_RST_DIRECTIVE = re.compile(
    r"[ \t]*\.\.[ \t]+(?:\|[^|\n]+\|[ \t]+)?[A-Za-z0-9][\w:+.-]*::(?:[ \t]|$)|[ \t]*\.\.[ \t]+_[^\n]*:"
)
_RST_OPTION = re.compile(r"[ \t]+:[\w-]+:")


def rst_structure_spans(text: str) -> list[tuple[int, int]]:
    """reStructuredText structure written as plain text: section titles (a line of text under, and maybe over,
    an adornment line of one punctuation character at least as long as the text), transitions (an adornment
    line of four or more between blank lines), and directive and target lines (".. note::", ".. versionadded::
    3.4" with the option lines after it, ".. _label:"). The directive's content keeps its own kind."""
    return _scan(text)[0]


def rst_title_spans(text: str) -> list[tuple[int, int]]:
    """The words of each section title :func:`rst_structure_spans` finds (its text line without the indentation
    and trailing blanks): prose inside structure, for the readers that want the title's nouns."""
    return _scan(text)[1]


def _scan(text: str) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    lines = text.splitlines(keepends=True)
    starts = [0]
    for ln in lines:
        starts.append(starts[-1] + len(ln))

    def blank(k: int) -> bool:
        return k < 0 or k >= len(lines) or not lines[k].strip()

    def adornment(k: int) -> str:
        if 0 <= k < len(lines) and _ADORNMENT.fullmatch(lines[k]) and len(lines[k].strip()) >= 2:
            return lines[k].strip()
        return ""

    spans: list[tuple[int, int]] = []
    titles: list[tuple[int, int]] = []
    k = 0
    while k < len(lines):
        body = lines[k].strip()
        under = adornment(k + 1)
        if body and not adornment(k) and under and len(under) >= len(body):
            over = adornment(k - 1)
            first = k - 1 if over and over == under and blank(k - 2) else k
            # an overlined title may be inset; an underlined one starts its line after a blank line
            if first < k or (blank(k - 1) and not lines[k][:1].isspace()):
                spans.append((starts[first], starts[k + 2]))
                lead = starts[k] + len(lines[k]) - len(lines[k].lstrip())
                titles.append((lead, lead + len(body)))
                k += 2
                continue
        if adornment(k) and len(body) >= 4 and blank(k - 1) and blank(k + 1):
            spans.append((starts[k], starts[k + 1]))
        elif _RST_DIRECTIVE.match(lines[k]):
            j = k + 1
            if not _RST_CODE_DIRECTIVE.match(lines[k]):
                while j < len(lines) and _RST_OPTION.match(lines[j]):
                    j += 1
            spans.append((starts[k], starts[j]))
            k = j
            continue
        k += 1
    return spans, titles
