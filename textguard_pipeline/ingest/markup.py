"""The markup of a document: what machines read (commands, link targets, code, addresses), found once.

:func:`find_markup` returns the markup of a text as :class:`~..lib.spans.Span` objects whose ``label`` is the
kind; ``parsed_chunks.markup_spans`` holds those of each prose chunk in absolute document offsets
(:func:`attach_markup`), and the slices that read prose take them from there (protection hides the machine-read
ones whole and blanks the rest for NER; the meanings pass blanks them) instead of finding markup again.
Every pattern runs in linear time (no nested quantifier over the same characters). Dagster-free, stdlib only.

Kinds, per format (``tex``, ``md``; ``txt`` also covers reStructuredText, which is read as plain text):

* every format: ``url``, ``email``, ``doi``, ``arxiv``;
* LaTeX: ``latex_ref`` (``\\ref`` family, ``\\label`` with its argument; the reference noun before a ``\\ref``
  goes with it, ``Table~\\ref{t}``, so that no term holding the noun cuts the reference), ``latex_cite``, ``url`` (``\\url{…}``
  and ``\\href{target}``, whose text argument stays prose), ``latex_verb``, ``latex_file`` (``\\includegraphics``,
  ``\\input`` …), ``latex_env`` (``\\begin{…}``/``\\end{…}``), ``latex_command`` (the name of any other command:
  ``\\emph{…}``'s argument stays prose), ``latex_brace``, ``table_sep`` (``&``), ``row_end`` (``\\\\``),
  ``latex_comment``;
* Markdown: ``md_target`` (``](…)`` or ``][label]`` whole), ``md_refdef``, ``md_autolink``, ``md_code``,
  ``html_tag``, ``html_entity``;
* reStructuredText: ``rst_role``, ``rst_target``, ``rst_subst``, ``rst_literal``, ``rst_directive``.
"""

from __future__ import annotations

import bisect
import re
from typing import Iterable, Sequence

from ..lib.placeholders import PLACEHOLDER_RE
from ..lib.spans import Span

#: trailing characters that end a sentence rather than an address
_TRAIL = ".,;:!?'\""

_URL = re.compile(
    r"(?:https?|ftp)://(?:\([^\s()<>]*\)|[^\s<>\"'()\[\]{}`|\\])+|(?<![\w./@-])www\.[\w-]+(?:\.[\w-]+)+(?:/(?:\([^\s()<>]*\)|[^\s<>\"'()\[\]{}`|\\])*)?"
)
_EMAIL = re.compile(r"(?<![\w.+-])[A-Za-z0-9][\w.+-]*@[A-Za-z0-9][\w-]*(?:\.[\w-]+)+")
_DOI = re.compile(r"(?:(?<![\w/])doi:[ \t]?|(?<![\w/.]))10\.\d{4,9}/[^\s\"<>{}\[\]`|\\]+", re.I)
_ARXIV = re.compile(
    r"(?<!\w)arXiv:[ \t]?(?:\d{4}\.\d{4,5}|[a-z-]+(?:\.[A-Z]{2})?/\d{7})(?:v\d+)?"
    r"|(?<![\w./])(?:\d{4}\.\d{4,5}|[a-z-]+(?:\.[A-Z]{2})?/\d{7})(?:v\d+)?(?=\s*\[[a-z-]+(?:\.[A-Z]{2})?\])",
    re.I,
)

#: the nouns a reader writes before a reference number ("Table 2", "Eq. (4)", "§ 3"); protection's
#: cross-references read the same list (``protection.recognizers.markup_forms``)
REFERENCE_NOUNS = (
    r"[Tt]ables?|[Tt]ab\.|[Ff]igures?|[Ff]igs?\.|[Ee]quations?|[Ee]qs?\.|[Ss]ections?|[Ss]ecs?\.|[Ss]ect\.|"
    r"[Cc]hapters?|[Cc]h\.|[Aa]ppendi(?:x|ces)|[Aa]lgorithms?|[Aa]lg\.|[Ll]istings?|[Tt]heorems?|[Ll]emmas?|"
    r"[Dd]efinitions?|[Cc]orollar(?:y|ies)|[Pp]ropositions?|[Ee]xamples?|[Rr]emarks?|[Ff]ootnotes?|[Ll]ines?|"
    r"[Pp]ages?|pp?\."
)
#: a reference noun right before a ``\ref`` (searched only in the few characters before one)
_NOUN_BEFORE = re.compile(r"(?<![\w\\])(?:" + REFERENCE_NOUNS + r"|§§?|\\S)(?:[ \t\u00a0~]|\\,|\\ )*\Z")
_OPT = r"(?:\[[^\]\n]{0,200}\])*"  # optional arguments, no nesting
_ARG = r"\{[^{}]{0,500}\}"  # one braced argument without nested braces
_TEX = [
    (re.compile(r"(?<!\\)%[^\n]*"), "latex_comment"),
    (re.compile(r"\\(?:ref|eqref|autoref|cref|Cref|vref|pageref|nameref|subref|label)\*?" + _OPT + _ARG), "latex_ref"),
    (re.compile(r"\\(?:[a-zA-Z]*cite[a-zA-Z]*|citet|citep)\*?" + _OPT + _ARG), "latex_cite"),
    (re.compile(r"\\(?:url|nolinkurl|href)\*?" + _ARG), "url"),
    (re.compile(r"\\verb\*?([^A-Za-z\s*])[^\n]*?\1"), "latex_verb"),
    (re.compile(r"\\(?:lstinline|mintinline|texttt)\*?" + _OPT + r"(?:\{[^{}\n]*\}){1,2}"), "latex_verb"),
    (
        re.compile(
            r"\\(?:includegraphics|input|include|bibliography|bibliographystyle|usepackage|documentclass|"
            r"graphicspath|addbibresource|lstinputlisting|inputminted)\*?" + _OPT + _ARG
        ),
        "latex_file",
    ),
    (re.compile(r"\\(?:begin|end)\{[^{}\n]{1,80}\}" + _OPT), "latex_env"),
    (re.compile(r"\\\\\*?(?:\[[^\]\n]{0,40}\])?"), "row_end"),
    (re.compile(r"\\[A-Za-z@]+\*?"), "latex_command"),
    (re.compile(r"(?<!\\)&"), "table_sep"),
    (re.compile(r"(?<!\\)[{}]"), "latex_brace"),
]

_MD = [
    # a link or image target, whole: "](url "title")" (balanced parentheses one deep) or "][label]"
    (
        re.compile(
            r"\]\((?:<[^<>\n]*>|[^()\s]*(?:\([^()\s]*\)[^()\s]*)*)(?:[ \t]+(?:\"[^\"\n]*\"|'[^'\n]*'|\([^()\n]*\)))?"
            r"[ \t]*\)|\]\[[^\[\]\n]{0,200}\]"
        ),
        "md_target",
    ),
    (
        re.compile(
            r"^[ ]{0,3}\[[^\[\]\n]{1,200}\]:[ \t]*\S+(?:[ \t]+(?:\"[^\"\n]*\"|'[^'\n]*'|\([^()\n]*\)))?[ \t]*$",
            re.M,
        ),
        "md_refdef",
    ),
    (re.compile(r"<(?:(?:https?|ftp|mailto):[^<>\s]+|[\w.+-]+@[\w-]+(?:\.[\w-]+)+)>"), "md_autolink"),
    (re.compile(r"(?<!`)(`+)(?!`)[^`]+?(?<!`)\1(?!`)"), "md_code"),
    (re.compile(r"<!--.*?-->|</?[A-Za-z][\w-]*(?:[ \t\n][^<>]{0,300})?/?>", re.S), "html_tag"),
    (re.compile(r"&(?:#\d{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});"), "html_entity"),
]

_RST = [
    (re.compile(r"``(?=\S)[^`\n]*?\S``"), "rst_literal"),
    (re.compile(r"(?<![\w`:]):[A-Za-z][\w.+-]*(?::[A-Za-z][\w.+-]*)?:`[^`\n]+`(?!`)"), "rst_role"),
    (re.compile(r"^[ \t]*\.\.[ \t]+_[^\n]*$|^[ \t]*__[ \t]+\S[^\n]*$", re.M), "rst_target"),
    (re.compile(r"[ \t]<[^<>\s`]+>(?=`__?)|(?<=`)__?(?![\w`])"), "rst_target"),
    (re.compile(r"^[ \t]*\.\.[ \t]+(?:\|[^|\n]+\|[ \t]+)?[\w:-]+::", re.M), "rst_directive"),
    (re.compile(r"(?<![\w|])\|(?=\S)[^|\n]{1,80}(?<=\S)\|(?:__?)?(?![\w|])"), "rst_subst"),
]

_COMMON = [(_URL, "url"), (_EMAIL, "email"), (_DOI, "doi"), (_ARXIV, "arxiv")]
_BY_FORMAT = {"tex": _TEX + _COMMON, "md": _MD + _COMMON, "txt": _RST + _COMMON}
#: kinds whose match may end in sentence punctuation that is not theirs
_TRIMMED = frozenset({"url", "email", "doi"})
#: kinds a reader sees as words (they hold prose); all others are machine-read
MACHINE_KINDS = frozenset(
    {"url", "email", "doi", "arxiv", "latex_ref", "latex_cite", "latex_verb", "latex_file", "md_target",
     "md_refdef", "md_autolink", "md_code", "rst_literal", "rst_target"}
)  # fmt: skip


def _trim(text: str, s: int, e: int) -> int:
    while e > s and text[e - 1] in _TRAIL:
        e -= 1
    # a closing parenthesis the address did not open ("(see https://x.org/a)")
    if e > s and text[e - 1] == ")" and text.count("(", s, e) < text.count(")", s, e):
        e -= 1
    return e


def find_markup(text: str, fmt: str, start: int = 0, end: int | None = None) -> list[Span]:
    """The markup of ``text[start:end]`` in format ``fmt`` (``tex``, ``md``, ``txt``): sorted, disjoint spans
    with absolute offsets into ``text`` and the kind as ``label``. Where matches overlap, the one starting first
    wins, and the longer one of two that start together (``\\url{…}`` over the URL inside it)."""
    end = len(text) if end is None else end
    patterns = _BY_FORMAT.get(fmt, _RST + _COMMON)
    found: list[tuple[int, int, str]] = []
    for rank, (pat, kind) in enumerate(patterns):
        for m in pat.finditer(text, start, end):
            s, e = m.start(), m.end()
            if kind in _TRIMMED:
                e = _trim(text, s, e)
            elif kind == "latex_ref" and text[s + 1 : s + 6] != "label":
                noun = _NOUN_BEFORE.search(text, max(start, s - 24), s)
                s = noun.start() if noun else s
            if e > s:
                found.append((s, -e, kind, rank))  # type: ignore[arg-type]
    found.sort(key=lambda t: (t[0], t[1], t[3]))
    out: list[Span] = []
    last = start
    for s, neg_e, kind, _ in found:  # type: ignore[misc]
        if s >= last:
            out.append(Span(s, -neg_e, text[s:-neg_e], kind))
            last = -neg_e
    return out


def addresses(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The URLs in ``text[start:end]`` (trimmed as :func:`find_markup` trims them)."""
    return [(m.start(), _trim(text, m.start(), m.end())) for m in _URL.finditer(text, start, end)]


def spans_within(found: Sequence[Span], start: int, end: int) -> list[tuple[int, int, str]]:
    """``(start, end, kind)`` of the spans of ``found`` (sorted, from :func:`find_markup`) inside ``[start, end)``."""
    i = bisect.bisect_left(found, start, key=lambda sp: sp.start)
    out = []
    while i < len(found) and found[i].start < end:
        if found[i].end <= end:
            out.append((found[i].start, found[i].end, found[i].label))
        i += 1
    return out


def attach_markup(text: str, fmt: str, chunks: Iterable) -> None:
    """Set each prose chunk's ``markup_spans`` to the ``(start, end, kind)`` of its markup (absolute offsets)."""
    for c in chunks:
        if str(c.chunk_type) == "prose":
            c.markup_spans = [(sp.start, sp.end, sp.label) for sp in find_markup(text, fmt, c.start, c.end)]


def chunk_text_ranges(
    chunk_text: str, mapping: dict[str, str], base: int, spans: Sequence[tuple[int, int, str]]
) -> list[tuple[int, int, str]]:
    """``spans`` (absolute offsets) as ranges of ``chunk_text``, whose placeholders in ``mapping`` stand for
    source text: a span that begins or ends inside a placeholder's original takes the whole placeholder in."""
    if not spans:
        return []
    if not mapping:
        return [(s - base, e - base, k) for s, e, k in spans]
    # (source start, source end, text start, text end) of each placeholder, in order
    reps: list[tuple[int, int, int, int]] = []
    shift = 0
    for m in PLACEHOLDER_RE.finditer(chunk_text):
        original = mapping.get(m.group(0))
        if original is None:
            continue
        s0 = m.start() + shift
        reps.append((s0, s0 + len(original), m.start(), m.end()))
        shift += len(original) - (m.end() - m.start())

    out: list[tuple[int, int, str]] = []
    i = 0
    for s, e, k in spans:
        s, e = s - base, e - base
        while i < len(reps) and reps[i][1] <= s:
            i += 1
        a = _to_text(reps, i, s, True)
        j = i
        while j < len(reps) and reps[j][1] < e:
            j += 1
        b = _to_text(reps, j, e, False)
        if b > a:
            out.append((a, b, k))
    return out


def _to_text(reps: list[tuple[int, int, int, int]], i: int, pos: int, is_start: bool) -> int:
    """Text offset of source offset ``pos``; ``reps[i]`` is the first placeholder not wholly before it."""
    if i < len(reps):
        s0, e0, t0, t1 = reps[i]
        if s0 < pos < e0:
            return t0 if is_start else t1
        if pos <= s0:
            prev = reps[i - 1] if i > 0 else None
            return pos if prev is None else prev[3] + (pos - prev[1])
        return t1 + (pos - e0)
    prev = reps[-1] if reps else None
    return pos if prev is None else prev[3] + (pos - prev[1])


def blank(text: str, ranges: Iterable[tuple[int, int, str]] | Iterable[tuple[int, int]]) -> str:
    """``text`` with ``ranges`` blanked (spaces; line breaks kept), same length, so offsets stay valid."""
    parts: list[str] = []
    pos = 0
    for r in sorted(ranges):
        s, e = max(r[0], pos), r[1]
        if e <= s:
            continue
        parts.append(text[pos:s])
        parts.append(_NOT_NEWLINE.sub(" ", text[s:e]))
        pos = e
    if not parts:
        return text
    parts.append(text[pos:])
    return "".join(parts)


_NOT_NEWLINE = re.compile(r"[^\n]")


def markup_in_text(chunk) -> list[tuple[int, int, str]] | None:
    """A chunk's ``markup_spans`` in offsets of its ``text`` (None when its markup was never looked for)."""
    spans = getattr(chunk, "markup_spans", None)
    if spans is None:
        return None
    return chunk_text_ranges(chunk.text, chunk.math_placeholders, chunk.start, spans)
