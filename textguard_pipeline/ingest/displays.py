"""Display maths and tables in plain text: runs of lines that do not read as running text.

A PDF's text writes a display equation as lines of symbols, letters and debris of sub- and superscripts
(``yi = x¦ i ´ + ui   (i = 1, . . . , n),   (1)``) and a table as rows of short cells, and the paragraph rules
(:mod:`.paragraphs`) read each such line as a short paragraph: 1–6 prose chunks per display, sent to the model.
:func:`display_spans` finds them for :func:`.regions._txt_regions`, which makes maths ``math_block`` and tables
``structural`` chunks, the kinds their LaTeX sources have. A line with words stays text: a reference entry, a
table-of-contents line (dot leaders), a heading (``A. R code``). Stdlib only; one pass over the lines.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from typing import Sequence

#: a word of running text: three letters or more (combining accents too), hyphen or apostrophe inside, quotes,
#: brackets and punctuation around
_L = r"(?:[^\W\d_][\u0300-\u036f]*)"
_WORD = re.compile(r"[(\[\"'“‘]*" + _L + r"{3,}(?:['’-]" + _L + r"+)*[)\]\"'”’]*[,.;:!?]?[)\]\"'”’]*")
#: names that stand in maths, not in sentences
_MATH_NAMES = {
    "exp", "log", "max", "min", "sup", "inf", "lim", "sin", "cos", "tan", "det", "arg", "var", "cov", "diag",
    "argmax", "argmin", "logit", "probit", "cor", "tanh", "sinh", "cosh", "mod", "rank", "sgn", "sign",
}  # fmt: skip
#: an address or identifier a reference entry wraps onto a line of its own: read as a word
_ADDRESS = re.compile(r"(?:https?://|www\.|doi:|10\.\d{4,}/|\S+@\S+\.)", re.I)
#: an equation number at the line end, not glued to a letter: "(3)", "(2.1)", "(A.4)", "(3a)" (not a manual
#: page's section: "perlxs(1)")
_EQ_NUMBER = re.compile(r"(?<![^\W\d_])\((?:[A-Z]\.?)?\d{1,3}(?:\.\d{1,3})?[a-z]?\)[ \t]*$")
#: signs of maths: relations and operators, Greek, combining and spacing accents, sub- and superscripts,
#: mathematical letters, and the debris of symbol fonts (¦ ´ for ⊤ β in pdftotext)
_MATH_SIGN = re.compile(
    r"[=+≠≈≡∼≃≤≥≪≫±∓×·÷∑∏∫∮∂∇√∞∈∉∋⊂⊃⊆⊇∪∩∧∨¬∀∃→←↔⇒⇐⇔↦−∗⋅⊤⊥′″"
    r"\u0370-\u03ff\u0300-\u036f\u02b0-\u02ff\u00b4\u00a6\u00af\u00a8\u2070-\u209f\U0001d400-\U0001d7ff]"
)
#: code signs: a line with these is not maths (an RFC's struct, a program)
_CODE_SIGN = re.compile(
    r"[{}]|;[ \t]*$|\\[A-Za-z@]|%$|\b0x[0-9a-fA-F]|\w_\w|//|/\*|::|\w\(\)|^@\w|</?[a-z]+[ >]"
    r"|(['\"])[^'\"\n]*\1|\blambda\b|`|(?:^|\s)--?[A-Za-z][\w-]*=|\w/[\w.-]+/"
)  # and quoted strings, decorators, HTML tags, backquotes, option flags (--prefix=), file paths (a/b/c)
#: a number, as a table cell has it: "0.52", "-1.2e-3", "(0.04)", "12%", "1,234", "***"
_NUMBER = re.compile(r"[(\[]?[-−+]?(?:\d[\d,]*(?:\.\d+)?|\.\d+)(?:e[-−+]?\d+)?%?[)\]]?\**|[-−–—*·.]{1,3}")
#: a dot leader (a table of contents): such a line is text
_LEADER = re.compile(r"(?:\.[ \t]?){4,}|…{2,}")
#: a section number alone ("A.1", "3.2.") or a list marker: a heading's, not maths
_SECTION = re.compile(r"[ \t]*(?:[A-Z]|[1-9]\d{0,2})(?:\.[1-9]\d{0,2})*\.?[ \t]*(?:\n|$)")
#: a plot's label: a word or three, no punctuation of a sentence or of code, no caption ("Figure 2:"), no section
#: number
_LABEL = re.compile(r"(?!(?:Figure|Fig\.|Table)\b)(?![A-Z]?\d)[^\s.!?:;,()=>$]+(?:[ \t]+[^\s.!?:;,()=>$]+){0,2}")
#: a section number, then a word: a heading's or a contents line's start
_CONTENTS = re.compile(r"(?:[A-Z]|\d{1,3})(?:\.\d{1,3})*\.?[ \t]+[^\W\d_]{2,}")


def _words(line: str) -> int:
    n = 0
    for tok in line.split():
        if _ADDRESS.search(tok):
            n += 1
        elif _WORD.fullmatch(tok):
            core = re.sub(r"[^\w]", "", tok).lower()
            n += core not in _MATH_NAMES
    return n


def _cells(line: str) -> list[str]:
    return [c for c in re.split(r"[ \t]{2,}", line.strip()) if c]


def _short(cell: str) -> bool:
    """A table cell of a word or two (not a list marker, not a sentence two spaces before the next one)."""
    return bool(_NUMBER.fullmatch(cell)) or (len(cell) >= 2 and len(cell.split()) <= 2 and cell[-1] not in ".!?:")


def _cell_starts(line: str) -> list[int]:
    return [m.end() for m in re.finditer(r"^[ \t]*(?=\S)|[ \t]{2,}(?=\S)", line)]


def line_kind(line: str, padded: bool = False) -> str:
    """``"number"``: an equation number alone, ``"filler"``: a line without a letter or digit (both go with
    a display around them, neither makes one); ``"math"``: a line of a display equation (no word of running text, signs of maths, no code signs, or an
    equation number at its end); ``"row"``: a table row (three cells or more set apart by runs of spaces, most of
    them numbers or a word or two; or, where the text has no such runs, mostly numbers); ``""``: anything else."""
    body = line.strip()
    if _EQ_NUMBER.fullmatch(body):
        return "number"  # an equation number on a line of its own goes with the display around it
    if body and not any(c.isalnum() for c in body):
        return "filler"  # a bracket's or a rule's pieces (symbol fonts come out as control characters)
    if not body or _LEADER.search(body) or _SECTION.fullmatch(body):
        return ""
    words = _words(body)
    tokens = body.split()
    numbers = sum(1 for t in tokens if _NUMBER.fullmatch(t))
    cells = _cells(body)
    code = bool(_CODE_SIGN.search(body))
    ascii_art = "|" in body and "||" not in body  # an RFC's table or figure: left as it is
    # a row of numbers (an estimate table, R output): a label and two numbers or more
    contents = bool(_CONTENTS.match(body))  # "3 Usage 2": a contents line without leaders
    if numbers == len(tokens) and "." in body and any(c.isdigit() for c in body):
        return "row"  # numbers alone, one a decimal: a plot's axis ("0.00 0.02 0.04", "3.5")
    if (
        not (ascii_art or contents)
        and numbers >= 2
        and numbers >= 0.6 * len(tokens)
        and words <= 1
        and tokens[0][-1] != ":"
    ):
        return "row"
    eq = bool(_EQ_NUMBER.search(body))
    if (
        not code
        and words == 0
        and (
            _MATH_SIGN.search(body)
            or eq
            or len(tokens) >= 2
            and all(len(t) == 1 or len(t) == 2 and t.isalpha() and t.islower() for t in tokens)
        )
    ):
        return "math"  # (tokens of a letter or two: a fraction's denominators "n   n")
    if not code and eq and words <= 2 and _MATH_SIGN.search(body):
        return "math"
    if ascii_art or len(cells) < 3 or re.search(r"[{};]", body):  # identifiers (fm_pois) may name a column
        return ""
    # cells set apart by runs of spaces, a word or two at most (layout-mode text pads justified prose too, but
    # prose is mostly words)
    if words <= 2 and 2 * words < len(tokens):
        return "row"
    # where prose is not padded, a row of a table with a text column: most cells a word or two, text at the end
    if not padded and sum(_short(c) for c in cells[:-1]) >= max(2, len(cells) - 2):
        return "row"
    return ""


def display_spans(
    text: str, skip: Sequence[tuple[int, int]] = (), joins: Sequence[tuple[int, int]] = ()
) -> list[tuple[int, int, str]]:
    """``(start, end, kind)`` of the displays in ``text``: runs of :func:`line_kind` lines (blank lines inside
    taken in), whole lines, ``kind`` ``"math"`` when at least half of the run's lines read as maths, else
    ``"table"``. A run is a display when it has two such lines or more, or one with an equation number, or one
    between blank lines; a single line inside a paragraph (``as y = Xβ + u.``) stays prose. ``skip``: sorted
    spans (page furniture) that end a run and are left out, except those in ``joins`` (lone numbers read as page
    numbers, which inside a run are a fraction's digits) when a run goes on after them."""
    skip, joins = sorted(skip), set(joins)
    # layout-mode text pads justified prose with runs of spaces: there, cells are not columns
    body_lines = [ln for ln in text.splitlines() if ln.strip()]
    padded = 10 * sum(1 for ln in body_lines if len(_cells(ln)) >= 3) > 3 * max(1, len(body_lines))
    columns: set[int] = set()  # where the cells of the run's rows start
    out: list[tuple[int, int, str]] = []
    run: list[tuple[int, int, str]] = []  # (start, end, kind) of the run's non-blank lines
    blank_before = prev_blank = True  # a blank line (or furniture, or the text's start) before the run / line

    def close(blank_after: bool) -> None:
        while run and run[-1][2] == "joined":
            run.pop()
        kinds = [k for _, _, k in run if k in ("math", "row")]
        numbered = any(k == "number" or _EQ_NUMBER.search(text, a, b) for a, b, k in run)
        if len(kinds) >= 2 or kinds and (numbered or blank_before and blank_after):
            math = 2 * kinds.count("math") >= len(kinds)
            out.append((run[0][0], run[-1][1], "math" if math else "table"))
        run.clear()
        columns.clear()

    pos, n = 0, len(text)
    while pos < n:
        nl = text.find("\n", pos)
        e = n if nl == -1 else nl + 1
        i = bisect_right(skip, (e, 0)) - 1
        if i >= 0 and skip[i][1] > pos:  # page furniture ends a run, a lone number may go on with it
            if run and skip[i] in joins:
                run.append((pos, e, "joined"))
            else:
                if run:
                    close(True)
                prev_blank = True
        elif not text[pos:e].strip():
            prev_blank = True
        else:
            line = text[pos:e]
            kind = line_kind(line, padded)
            if kind == "row" and len(line) <= 400:  # (a bounded set: the continuation test stays linear)
                columns.update(_cell_starts(line.expandtabs(8)))
            elif not kind and run and columns and not prev_blank:
                # a table cell's text wrapped onto a line of its own, set in a column of the rows above
                lead = _cell_starts(line.expandtabs(8))[0]
                if lead > min(columns) + 4 and any(abs(lead - c) <= 1 for c in columns):
                    kind = "filler"
            if not kind and run and (_LABEL.fullmatch(line.strip()) or "." in line and _SECTION.fullmatch(line)):
                kind = "joined"  # a plot's label or tick ("2.5") between its axes: kept only when the run goes on
            if kind:
                if not run:
                    blank_before = prev_blank
                run.append((pos, e, kind))
            elif run:
                close(prev_blank)
            prev_blank = False
        pos = e
    if run:
        close(True)
    return out
