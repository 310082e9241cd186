"""Code inside plain text written in reStructuredText (READMEs, Sphinx sources, Sphinx's text output).

A ``.txt`` or ``.rst`` file is read as plain text, where a literal block or a doctest was a prose paragraph: its
``[0]`` became a citation, its names became index terms, and the LLM was asked to rewrite it. These blocks are
code chunks instead (:func:`.regions._txt_regions`). Stdlib only.
"""

from __future__ import annotations

import re
from typing import Sequence

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
    a paragraph that ends in "::" or after a code directive, and doctest blocks (">>> " up to a blank line).
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
            j = i
            while j + 1 < len(lines) and lines[j + 1].strip():
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
