"""Pass 1 — the Mention type, Stage B location, labels and markup masking (seed 003;
index types ``subject`` and ``author``).

The detectors (:mod:`.detector`, :mod:`.stage_a`) produce :class:`Mention` objects with absolute, exact ranges:

* :class:`EmbeddedDetector` (default, offline): spaCy noun chunks and PERSON
  entities, plus WordNet multi-word lemmas. The seed's exclusions (common
  verbs, generic nouns, everyday words, structural terms) come from signals —
  part of speech, spaCy's stop list, WordNet polysemy (a frequency proxy),
  WordNet's generic-noun test and hypernyms — not from long hand lists.
* :class:`LLMMentionDetector`: the seed's Stage A prompt over pages with
  explicit ``pageText``; each mention is validated
  (``pageText[charStart:charEnd] == textQuote``), re-anchored to an exact
  occurrence near the offset, or the window is retried once with a stricter
  prompt. Sliding windows carry one *primary* page plus context pages; only
  mentions on the primary page are kept, so none is created twice. Mentions
  crossing a page boundary are split or rejected (``boundary="split"|"reject"``).

Stage B (:func:`locate_mentions`) places each mention in the document: page
(form feeds delimit pages), line, column, chunk index and chunk-relative
offsets — our "text atoms" are chunks and lines — and re-checks every range
with :func:`core.spans.check_char_ranges`, so no wrong range is ever stored.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Sequence

from ..ingest.parsing import Chunk
from ..ingest.rst import rst_title_spans
from ..lib.placeholders import PLACEHOLDER_RE
from ..lib.spans import check_char_ranges
from ..lib.text_patterns import TEX_COMMENT_SIGN, URL_RE

INDEX_TYPES = ("subject", "author")
STAGE_A_PROMPT_VERSION = "stage-a/2024-02-v1"
BOUNDARY_POLICIES = ("split", "reject")


class MentionRangeError(ValueError):
    """A mention whose quote is not ``text[start:end]`` reached Stage B (a bug, never stored)."""


class MentionDetectionError(RuntimeError):
    """The LLM detector could not produce a valid answer for a window (after the retry)."""


@dataclass(slots=True)
class Mention:
    """One mention: ``text == document[start:end]``; location filled by Stage B."""

    start: int
    end: int
    text: str
    index_type: str
    label: str
    detector: str
    lookup: str = ""  # the form used to look meanings up (lemmatized)
    pos: str | None = None  # WordNet part of speech hint
    context: str = ""
    validation_status: str = "valid"  # valid | reanchored | retried | split
    page: int = 0
    line: int = 0
    column: int = 0
    chunk_index: int = -1
    chunk_start: int = -1
    chunk_end: int = -1


# ---------------------------------------------------------------------------
# Stage B: location


@dataclass(frozen=True, slots=True)
class Location:
    page: int
    line: int
    column: int
    chunk_index: int
    chunk_start: int
    chunk_end: int


class TextLayout:
    """Pages (form feeds), lines and chunks of one document, for locating offsets."""

    def __init__(self, text: str, chunks: Sequence[Chunk] = ()):
        self.text = text
        self.line_starts = [0] + [m.end() for m in re.finditer("\n", text)]
        # A form feed ends its page (it belongs to the page before it).
        self.page_starts = [0] + [m.end() for m in re.finditer("\f", text) if m.end() < len(text)]
        self.chunks = sorted(chunks, key=lambda c: c.start)
        self.chunk_starts = [c.start for c in self.chunks]

    def page_ranges(self) -> list[tuple[int, int]]:
        ends = self.page_starts[1:] + [len(self.text)]
        return list(zip(self.page_starts, ends))

    def page_of(self, pos: int) -> int:
        return bisect.bisect_right(self.page_starts, pos)

    def locate(self, start: int, end: int) -> Location:
        line = bisect.bisect_right(self.line_starts, start)
        column = start - self.line_starts[line - 1]
        ci, cs, ce = -1, -1, -1
        if self.chunks:
            k = bisect.bisect_right(self.chunk_starts, start) - 1
            if k >= 0:
                c = self.chunks[k]
                ci, cs, ce = c.index, start - c.start, end - c.start
        return Location(self.page_of(start), line, column, ci, cs, ce)

    def context(self, start: int, end: int, width: int = 250) -> str:
        return self.text[max(0, start - width) : end + width]


def locate_mentions(mentions: Iterable[Mention], layout: TextLayout) -> list[Mention]:
    """Stage B: validate every range against the document and fill page/line/chunk.

    Raises MentionRangeError on any wrong range: detectors build quotes from the
    document, so a mismatch is a bug that must not reach the warehouse.
    """
    ms = list(mentions)
    bad = check_char_ranges([{"start": m.start, "end": m.end, "text": m.text} for m in ms], layout.text, limit=5)
    if bad:
        raise MentionRangeError("mentions with wrong ranges: " + "; ".join(str(v.as_dict()) for v in bad))
    for m in ms:
        loc = layout.locate(m.start, m.end)
        m.page, m.line, m.column = loc.page, loc.line, loc.column
        m.chunk_index, m.chunk_start, m.chunk_end = loc.chunk_index, loc.chunk_start, loc.chunk_end
        if not m.context:
            m.context = layout.context(m.start, m.end)
    ms.sort(key=lambda m: (m.start, m.end, m.index_type))
    return ms


# ---------------------------------------------------------------------------
# Labels


_PARTICLES = {
    "van",
    "von",
    "de",
    "der",
    "den",
    "da",
    "di",
    "du",
    "la",
    "le",
    "del",
    "della",
    "bin",
    "ibn",
    "al",
    "ten",
    "ter",
}
_SUFFIXES = {"jr", "jr.", "sr", "sr.", "ii", "iii", "iv"}
_WS = re.compile(r"\s+")


def author_label(name: str) -> str:
    """``"Thomas Aquinas"`` → ``"Aquinas, Thomas"``; particles stay with the surname
    (``"Ludwig van Beethoven"`` → ``"van Beethoven, Ludwig"``); one word stays as it is."""
    words = _WS.sub(" ", name).strip().split(" ")
    if "," in name or len(words) < 2:
        return " ".join(words)
    suffix = []
    while len(words) > 2 and words[-1].lower().rstrip(",") in _SUFFIXES:
        suffix.insert(0, words.pop())
    i = len(words) - 1
    while i > 1 and words[i - 1].lower() in _PARTICLES:
        i -= 1
    last, first = " ".join(words[i:]), " ".join(words[:i])
    return f"{last}, {first}" + (f", {' '.join(suffix)}" if suffix else "")


# ---------------------------------------------------------------------------
# Markup masking (same length, so offsets stay valid for analysis)

_MASK_COMMON = [
    PLACEHOLDER_RE,
    URL_RE,
    re.compile(r"<[^<>\n]{1,200}>"),  # HTML tags
    # an identifier ("smart_open", "brevity\_penalty"): Markdown's and LaTeX's blanked underscore left its words
    re.compile(r"(?<![\w\\-])[A-Za-z][A-Za-z0-9]*(?:\\?_[A-Za-z0-9]+)+(?![\w-])"),
    # reStructuredText, common in READMEs whatever their file ending: a directive's line (an admonition keeps its
    # text), a link target, a field or option name, a role, a reference ("node-celery_", "Redis_"), a substitution
    re.compile(
        r"^[ \t]*\.\.[ \t]+(?:\|[^|\n]+\|[ \t]+)?"
        r"(?:(?:note|warning|tip|hint|important|caution|attention|danger|error|seealso|admonition)::|[\w-]+::[^\n]*)",
        re.M,
    ),
    re.compile(r"^[ \t]*\.\.[ \t]+_[^:\n]+:", re.M),
    re.compile(r"^[ \t]*:\w[\w -]*:(?=[ \t]|$)", re.M),
    re.compile(r":[\w-]+:(?=`)"),
    # a role that names code (Sphinx's ":func:`len`", ":class:`Field <fields.Field>`"): its text too
    re.compile(
        r":(?:[a-z]+:)?(?:func|meth|class|mod|attr|data|exc|obj|const|envvar|option|program|file|samp|kbd|macro|"
        r"member|var|type|code|command):`[^`\n]*`"
    ),
    re.compile(r"(?<![\w`])[a-z0-9][a-z0-9+]*(?:[-.][a-z0-9+]+)+__?(?!\w)"),  # a package's name: all of it
    re.compile(r"(?<=[\w`])__?(?![\w`])"),  # a name ("Redis_"): its underscores
    re.compile(r"(?<!\S)\|\w[\w -]*\|(?!\S)"),
    # a file path ("/usr/share/omf", "~/.config", "./configure", "debian/source/format"): its parts are not the
    # text's nouns ("share", "source"); "and/or", "TCP/IP" and "w/" stay prose
    re.compile(r"(?<![\w/.~-])(?:~|\.\.?)?/[\w.+-]+(?:/[\w.+-]*)*|(?<![\w/.~-])[\w.+-]+(?:/[\w.+-]+){2,}/?"),
]
_MASK_TEX = [
    re.compile(r"(?<!\\)%[^\n]*"),
    re.compile(
        r"\\(?:cite[a-z]*|ref|eqref|autoref|cref|Cref|label|url|href|input|include|includegraphics|"
        r"begin|end|bibliography[a-z]*|usepackage|documentclass|newcommand|renewcommand|def)\*?"
        r"(?:\[[^\]\n]*\])*(?:\{[^{}]{0,500}\})?"  # a key list may go on after a line break ("\citep{%")
    ),
    # inline code with its arguments: "\mintinline{python}{tf-keras-vis}" is no prose
    re.compile(r"\\(?:mintinline|lstinline|texttt)\*?(?:\[[^\]\n]*\])?(?:\{[^{}\n]*\}){1,2}"),
    re.compile(r"\\[A-Za-z@]+\*?|\\."),
    re.compile(r"[{}~&^_$\[\]]"),
]
_MASK_MD = [
    re.compile(r"\]\([^)\n]*\)"),  # link targets
    re.compile(r"^---$[\s\S]*?^---$", re.M),  # front matter fences
    re.compile(r"^[ \t]*[A-Za-z_][\w-]*:(?=\s)", re.M),  # front matter / YAML keys
    re.compile(r"[*_#>|\[\]`\\]"),
]


_MASK_TXT = [re.compile(r"``(?=\S)[^`\n]*?\S``")]  # a reStructuredText inline literal: code, whole


#: what ingest's markup finder finds (``parsed_chunks.markup_spans``): not looked for again when it is given
_FOUND_BY_INGEST = frozenset({URL_RE, _MASK_COMMON[2], _MASK_TEX[0], _MASK_MD[0]})


def analysis_text(text: str, fmt: str, markup: Sequence[tuple[int, int, str]] | None = None) -> str:
    """``text`` with markup, URLs and placeholders blanked out (same length). ``markup``: the chunk's markup
    spans in ``text`` offsets (``ingest.markup.chunk_text_ranges``); None: found here."""
    patterns = _MASK_COMMON + (_MASK_TEX if fmt == "tex" else _MASK_MD if fmt == "md" else _MASK_TXT)
    ranges = []
    if markup is not None:
        patterns = [p for p in patterns if p not in _FOUND_BY_INGEST]
        ranges = [(s, e) for s, e, _ in markup]
    ranges += [m.span() for pat in patterns for m in pat.finditer(text)]
    if not ranges:
        return text
    # every pattern reads the original text, so the result is the union of the ranges blanked, line breaks kept
    out, at = [], 0
    for s, e in sorted(ranges):
        s = max(s, at)
        if s < e:
            out += [text[at:s], _NOT_NEWLINE.sub(" ", text[s:e])]
            at = e
    out.append(text[at:])
    return "".join(out)


_NOT_NEWLINE = re.compile(r"[^\n]")


#: a word broken at a line end by a hyphen ("recollec-\n    tion"), as nroff (groff writes U+2010) and PDF text
#: extractors (some with a soft hyphen) break them
_BROKEN_WORD = re.compile(r"(?<!\w)([A-Za-z]+)[-\u2010\u00ad]([ \t]*\n[ \t]*)([a-z]+)(?![\w-])")


def paragraph_neighbours(
    chunks: Sequence[Chunk], texts: Sequence[str], width: int, islands: set[int] = frozenset()
) -> dict[int, tuple[str, str]]:
    """id of each prose chunk → (up to ``width`` characters of ``texts`` before it, and after it) within its
    paragraph: the chunks ingest cut out of one blank-line paragraph (by line shape, or at its length limit)
    touch, and a mention's context reaches across those cuts as it did when the paragraph was one chunk.
    ``texts[i]``: the (masked) text of ``chunks[i]``; ``islands``: ids of prose islands (each stands alone)."""
    out: dict[int, tuple[str, str]] = {}
    runs: list[list[int]] = []
    for i, c in enumerate(chunks):
        prev = chunks[i - 1] if i else None
        joined = prev is not None and prev.end == c.start and not {id(prev), id(c)} & islands
        if joined and not _BLANK_END.search(prev.source_text()):
            runs[-1].append(i)
        else:
            runs.append([i])
    for run in runs:
        for k, i in enumerate(run):
            before = "".join(texts[j] for j in run[:k])[-width:] if k else ""
            after = "".join(texts[j] for j in run[k + 1 :])[:width]
            out[id(chunks[i])] = (before, after)
    return out


_BLANK_END = re.compile(r"\n[ \t]*\n\s*$")


def context_window(text: str, s: int, e: int, width: int, pad: tuple[str, str] = ("", "")) -> str:
    """``width`` characters either side of ``text[s:e]``, whitespace folded; ``pad``: the paragraph's text
    before and after ``text`` (:func:`paragraph_neighbours`), read where ``text`` ends too soon."""
    before, after = pad
    left = text[max(0, s - width) : s] if s >= width else before[max(0, len(before) - (width - s)) :] + text[:s]
    right = text[s : e + width] + after[: max(0, e + width - len(text))]
    return _WS.sub(" ", left + right).strip()


def join_broken_words(mtext: str, known: Callable[[str], bool]) -> tuple[str, dict[int, int]]:
    """``mtext`` with each word hyphenated across a line end written whole ("carry-\n   ing" → "carrying" and
    the line break after it, same length), so that spaCy reads the word. A hyphen that belongs to the word stays:
    the parts are joined only when ``known`` has the whole word and not the hyphenated one ("en-\n try" is
    "entry", "fixed-\n length" stays). Also returns {joined word's end: the word's end in ``mtext``}: a span that
    ends with a joined word ends there in the text."""
    chars, ends = list(mtext), {}
    for m in _BROKEN_WORD.finditer(mtext):
        head, gap, tail = m.groups()
        if known((head + tail).lower()) and not known(f"{head}-{tail}".lower()):
            chars[m.start() : m.end()] = head + tail + " " + gap
            ends[m.start() + len(head) + len(tail)] = m.end()
    return "".join(chars), ends


def definition_pieces(nc: Any, text: str | None = None) -> list[Any]:
    """Noun chunk ``nc`` cut where a term of a definition list ends: "cache⏎    Directory used for the files",
    "nobody, nogroup⏎    Daemons that …" (reStructuredText, man pages, Sphinx's text output). spaCy reads across
    the line break ("cache Directory"). The term ends its line, and the next line starts further indented or in
    capitals, both when the phrase starts after other words on its line; a heading in capitals ends its phrase
    too. Wrapped prose is never cut. ``text``: ``nc.doc.text``, passed by a caller that reads many chunks of
    one doc (spaCy joins the whole doc's tokens on each access)."""
    doc = nc.doc
    text = doc.text if text is None else text
    line_start = text.rfind("\n", 0, nc.start_char) + 1
    indent = len(text[line_start : nc.start_char]) - len(text[line_start : nc.start_char].lstrip())
    alone = indent == nc.start_char - line_start  # the phrase starts its line
    words = [t for t in nc if not t.is_space]
    for prev, tok in zip(words, words[1:]):
        if "\n" not in text[prev.idx + len(prev.text) : tok.idx]:
            continue  # only the phrase's first line break can end a term
        deeper = tok.idx - text.rfind("\n", 0, tok.idx) - 1 > indent
        capital = tok.text[:1].isupper()
        heading = text[line_start : prev.idx + len(prev.text)].isupper()  # "COMMAND PARSING AND EXECUTION"
        cut = heading or ((deeper or capital) if alone else (deeper and capital))
        return [doc[nc.start : prev.i + 1], doc[tok.i : nc.end]] if cut else [nc]
    return [nc]


#: characters of markup and identifiers: a row's quote never has one inside
MARKUP_CHARS = re.compile(r"[_*\\{}\[\]<>|#$%&~^`=@/]")


def markup_between(src: tuple[str, int], left: Any, right: Any) -> bool:
    """Markup that :func:`analysis_text` blanked lies between spaCy tokens ``left`` and ``right`` of a window
    that starts at ``src[1]`` of the unmasked text ``src[0]``."""
    text, offset = src
    return bool(MARKUP_CHARS.search(text, offset + left.idx + len(left.text), offset + right.idx))


def marked_up(src: tuple[str, int], tok: Any) -> bool:
    """Markup closes right after ``tok``: "*alias*", "\\emph{stock}", "`fetch`"."""
    text, offset = src
    return bool(MARKUP_CHARS.match(text, offset + tok.idx + len(tok.text)))


# ---------------------------------------------------------------------------
# Prose inside structural chunks (issue 16: captions, headings, front-matter descriptions)

#: LaTeX commands whose braced argument is prose a reader sees: captions, sectioning titles and a journal
#: template's front matter (subtitle, keywords — the author's own index terms —, abstract and title notes)
_TEX_PROSE_CMD = re.compile(
    r"\\(?:caption|subcaption|captionof\{[^{}\n]*\}|(?:sub)?title|part|chapter|(?:sub)*section|(?:sub)?paragraph"
    r"|keywords?|abstract|thanks|tnotetext|fntext)\*?"
    r"(?:\[[^\]\n]*\])?\{"
)
_MD_HEADING = re.compile(r"^[ \t]{0,3}#{1,6}[ \t]+(\S[^\n]*?)[ \t#]*$", re.M)
#: a line of a Markdown structural block (front matter, table) that reads as prose: ≥ 4 words of letters,
#: after an optional ``key:`` / ``- `` / ``|`` lead
_MD_PROSE_LINE = re.compile(r"^[ \t]*(?:[A-Za-z_][\w-]*:[ \t]*(?:[>|]-?)?[ \t]*|[-|][ \t]*)?([^\n]*)$", re.M)
_PROSE_WORD = re.compile(r"\b[A-Za-z][a-z]+\b")
#: a LaTeX comment line: what follows the ``%`` (a template's instructions are its prose)
_TEX_COMMENT_LINE = re.compile(r"^[ \t]*%+[ \t]*([^\n]*)$", re.M)
_ISLAND_MIN_WORDS = 4


def _brace_end(text: str, i: int) -> int:
    """Index of the ``}`` closing the group opened just before ``i`` (-1 if unbalanced)."""
    depth = 1
    while i < len(text):
        ch = text[i]
        if ch == "\\":
            i += 2
            continue
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return -1


def _prose_lines(line: re.Pattern, text: str, skip: frozenset[int] | set[int] = frozenset()) -> list[tuple[int, int]]:
    """Spans of group 1 of the lines ``line`` matches that read as prose (≥ 4 words), except those starting in ``skip``."""
    spans = (m.span(1) for m in line.finditer(text))
    return [(a, b) for a, b in spans if a not in skip and len(_PROSE_WORD.findall(text, a, b)) >= _ISLAND_MIN_WORDS]


def prose_islands(chunk: Chunk, fmt: str) -> list[Chunk]:
    """The prose a reader sees inside a structural chunk, as prose sub-chunks with exact offsets: LaTeX
    captions, sectioning titles and comment lines of ≥ 4 words (a template's instructions), Markdown headings
    and front-matter/table lines of ≥ 4 words, plain-text titles over their adornment line (reStructuredText,
    info manuals: prose until ingest made them structure). Figure bodies (TikZ, includegraphics options),
    labels, YAML keys, directive lines, transitions and commented-out commands stay out."""
    if chunk.chunk_type != "structural" or chunk.math_placeholders:
        return []
    text = chunk.text
    ranges: list[tuple[int, int]] = []
    if fmt == "tex":
        for m in _TEX_PROSE_CMD.finditer(text):
            if TEX_COMMENT_SIGN.search(text, text.rfind("\n", 0, m.start()) + 1, m.start()):
                continue  # a commented-out title: the comment-line rule alone decides (≥ 4 words)
            end = _brace_end(text, m.end())
            if end > m.end():
                ranges.append((m.end(), end))
        ranges += _prose_lines(_TEX_COMMENT_LINE, text)
    elif fmt == "md":
        ranges = [m.span(1) for m in _MD_HEADING.finditer(text)]
        ranges += _prose_lines(_MD_PROSE_LINE, text, skip={a for a, _ in ranges})
    elif fmt == "txt":
        ranges = rst_title_spans(text)  # the titles ingest made structure: the same rule
    out: list[Chunk] = []
    for a, b in sorted(ranges):
        if text[a:b].strip() and (not out or a >= out[-1].end - chunk.start):  # a title inside a caption: once
            out.append(
                Chunk(chunk.index, "prose", chunk.start + a, chunk.start + b, text[a:b], language=chunk.language)
            )
    return out
