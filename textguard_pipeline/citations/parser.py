"""Numeric ``[N]`` citation markers in LLM answers and documents (seed 002).

:class:`CitationParser` implements the seed contract (``parse``,
``extract_citations``, ``extract_citation_clusters``, ``split_into_sentences``,
``map_citations_to_sentences``, ``create_bidirectional_map``,
``remove_citations``, ``validate_citations``, ``format_for_frontend``) and goes
beyond the seed's ``\\[(\\d+)\\]`` and ALCE's ``\\[\\d+`` regexes:

* lists ``[1, 2]`` / ``[1; 2]`` and ranges ``[1-3]`` / ``[1–3]`` become one
  :class:`Citation` per id. A bracket holding one item keeps the seed's marker
  (``"[1]"``, or ``"[1-3]"`` for each id of a range); an item of a list is
  quoted alone (``"2"`` in ``"[1, 2]"``), so every span is exact and
  ``text[start_pos:end_pos] == marker`` always holds;
* not citations: ``[abc]``, ``[]``, ``[1a]``, years and other ids above
  ``max_id`` (``[2023]``), leading zeros (``[01]``), lists or ranges holding 0
  (intervals such as ``[0, 1]``), reversed or huge ranges (``[5-2]``,
  ``[1-100]``), Markdown links and link definitions (``[1](url)``,
  ``[1]: url``, ``[text][1]``), LaTeX optional arguments (``\\item[1]``,
  ``}[1]``) and array indexing (``uint8 random[32];``, ``byte[1] << 8``);
* a citation right after a sentence's closing punctuation (``capital.[1]``,
  ``capital. [1]``) belongs to that sentence.

Nothing here raises on odd text: malformed brackets are simply not citations.
Only ``parse(..., strict=True)`` raises, with :class:`CitationValidationError`
(a ``ValueError``), when a citation fails validation against ``num_sources``.

The document-level half lives in :mod:`.documents`. Stdlib only.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple

from .rst import REFERENCE, RstNumbering, is_definition
from .rst import numbering as rst_numbering

__all__ = [
    "Citation",
    "CitationCluster",
    "Sentence",
    "ParsedAnswer",
    "CitationParser",
    "CitationValidationError",
    "validate_citation_list",
    "citation_error",
]


# ---------------------------------------------------------------------------
# Data classes (seed contract; extra fields have defaults)


@dataclass
class Citation:
    """Represents a single citation marker in text"""

    citation_id: int  # Citation number (1, 2, 3...)
    start_pos: int  # Character start position in text
    end_pos: int  # Character end position in text
    marker: str  # Original marker text (e.g., "[1]", "[2]"); always text[start_pos:end_pos]
    form: str = "single"  # "single" ([1]), "list" (an item of [1, 2]), "range" ([1-3]) or "rst" ([#note] of [#note]_)

    def __repr__(self) -> str:
        return f"Citation(id={self.citation_id}, pos={self.start_pos}-{self.end_pos}, marker='{self.marker}')"


@dataclass
class CitationCluster:
    """Represents multiple citations in same location"""

    citations: List[Citation]  # e.g., [Citation(1), Citation(2)]
    start_pos: int  # Start of cluster
    end_pos: int  # End of cluster
    cluster_marker: str  # e.g., "[1][2]" or "[1], [2]"

    def citation_ids(self) -> List[int]:
        """Get list of citation IDs in cluster"""
        return [c.citation_id for c in self.citations]


@dataclass
class Sentence:
    """Represents a sentence containing citations"""

    text: str  # Sentence text
    start_pos: int  # Character start position in full text
    end_pos: int  # Character end position in full text
    citations: List[Citation]  # Citations in this sentence

    def citation_ids(self) -> List[int]:
        """Get unique citation IDs in sentence"""
        return sorted(set(c.citation_id for c in self.citations))


@dataclass
class ParsedAnswer:
    """Parsed LLM answer with citation mappings"""

    original_text: str  # Full LLM-generated text
    clean_text: str  # Text with citations removed (optional use)
    citations: List[Citation]  # All citations found
    sentences: List[Sentence]  # Sentences with their citations
    citation_to_sentences: Dict[int, List[Sentence]]  # Map citation ID → sentences
    sentence_to_citations: Dict[int, List[Citation]]  # Map sentence index → citations
    clusters: List[CitationCluster] = field(default_factory=list)

    def get_citations_in_range(self, start: int, end: int) -> List[Citation]:
        """Citations lying wholly inside ``[start, end)``, in text order."""
        return [c for c in self.citations if c.start_pos >= start and c.end_pos <= end]

    def get_sentence_for_citation(self, citation_id: int) -> Optional[Sentence]:
        """First sentence containing ``citation_id`` (None when it is not cited)."""
        found = self.citation_to_sentences.get(citation_id)
        return found[0] if found else None

    def validate(self, num_sources: int) -> bool:
        """True when every citation is well-formed, unique at its position and in [1, num_sources]."""
        return validate_citation_list(self.citations, num_sources, self.original_text)[0]


class CitationValidationError(ValueError):
    """Citations failed validation; ``errors`` lists why, ``parsed`` is the full result."""

    def __init__(self, errors: Sequence[str], parsed: ParsedAnswer | None = None) -> None:
        super().__init__("; ".join(errors))
        self.errors = list(errors)
        self.parsed = parsed


# ---------------------------------------------------------------------------
# Patterns

_HSPACE = "[ \\t\\u00a0]"
_DASHES = "-\u2013\u2014\u2012\u2010\u2011"  # hyphen, en/em/figure dash, hyphen, nb-hyphen
# Space inside a group, with at most one line break: PDF text and hard-wrapped text break a group
# ("[12,\n13]", "[4-\n7]"); the span keeps the text as it stands
_GAP = rf"{_HSPACE}*(?:\r?\n{_HSPACE}*)?"
_ITEM_SRC = rf"\d{{1,6}}(?:{_GAP}[{_DASHES}]{_GAP}\d{{1,6}})?"
# A bracket group whose content is a list of numbers / ranges separated by , or ;
_GROUP = re.compile(rf"\[{_GAP}{_ITEM_SRC}(?:{_GAP}[,;]{_GAP}{_ITEM_SRC})*{_GAP}\]")
_ITEM = re.compile(rf"(\d+)(?:{_GAP}[{_DASHES}]{_GAP}(\d+))?")
_WELL_FORMED_BRACKET = re.compile(r"\[(\d+)\]")  # the seed's strict form
_CLUSTER_GAP = re.compile(rf"{_HSPACE}*(?:[,;]{_HSPACE}*)?")
_TEX_CMD_BEFORE = re.compile(r"\\[A-Za-z@]+\*?$")
_IDENT = re.compile(r"[A-Za-z0-9_]")
# After an attached group (``name[3]``) these mean code, not a citation: an operator, a statement's ``;`` at
# the end of a line, a member access. Not a table cell's ``|`` or ``&``, a sentence's ``;``, Markdown's ``**``.
_CODE_AFTER = re.compile(
    r"[ \t]*(?:[=<>+/%^{]|\|\||\|=|&&|&=|->|;[ \t]*(?:$|//|/\*))|\.[A-Za-z_]|\*[\w(]|[ \t]+\*[ \t]|;(?=\S)|\|(?=\S)",
    re.M,
)
_LINK_TEXT_REST = re.compile(r"[^\[\]\n]*\](?:\(|\[)")
_URL_BEFORE = re.compile(r"(?:https?|ftp)://[^\s<>()\[\]]*\Z")
# Code written inline where the chunker does not hide it (reST literals, table cells, TeX code commands).
_CODE_SPAN = re.compile(
    r"``[^`\n]+``|`[^`\n]+`|\\(?:texttt|lstinline|mintinline\{\w+\}|code|path|url)\{[^{}\n]*\}"
    r"|\\(?:verb|lstinline)\*?([^\w\s{])[^\n]*?\1"
)

# Sentence splitting
_TERMINATOR = re.compile(r"(?:[.!?]+|…)[\"'”’»)*_]*")
_PARA_BREAK = re.compile(r"\n[ \t\r\f\v]*\n|\n(?=[ \t]*(?:[-*+•]|\d{1,3}[.)])[ \t])")
_WORD_BEFORE = re.compile(r"([A-Za-z]+(?:\.[A-Za-z]+)*)$")
#: Words that end with a period without ending the sentence (compared lower-case).
ABBREVIATIONS = frozenset(
    """
    dr mr mrs ms mx prof sr jr st mt rev gen col lt sgt capt gov sen hon
    e.g eg i.e ie cf vs v al approx ca viz resp fig figs eq eqs
    inc ltd corp bros dept univ
    jan feb mar apr jun jul aug sep sept oct nov dec
    a.m p.m u.s u.k u.n a.d b.c ph.d
    """.split()
)
#: Abbreviations only when a number follows ("No. 5", "p. 12", "vol. 3"): "the answer is no." ends.
NUMBER_ABBREVIATIONS = frozenset("no nos p pp vol vols ch chap sec secs art ref refs tab app ed eds".split())


def _group_items(text: str, gs: int, ge: int) -> list[tuple[int, int, str, str | None]]:
    """(item_start, item_end, low digits, high digits or None) of the items of group ``text[gs:ge]``."""
    return [(m.start(), m.end(), m.group(1), m.group(2)) for m in _ITEM.finditer(text, gs + 1, ge - 1)]


@dataclass(slots=True)
class _Group:
    start: int
    end: int
    citations: list[Citation]


class CitationParser:
    """Parses citation markers from LLM-generated text"""

    # Regex patterns of the seed, kept for reference and for the baseline benchmark.
    CITATION_PATTERN = r"\[(\d+)\]"  # Matches [1], [2], etc.
    CITATION_CLUSTER_PATTERN = r"(\[\d+\](?:\s*,?\s*\[\d+\])*)"  # [1][2] or [1], [2]
    SENTENCE_PATTERN = r"[^.!?]+[.!?]"  # Simple sentence boundary

    def __init__(self, max_id: int = 999, max_range: int = 50) -> None:
        """``max_id``: larger numbers (years such as 2023) are not citations;
        ``max_range``: longer ranges (``[1-100]``) are not citations."""
        if max_id < 1 or max_range < 1:
            raise ValueError("max_id and max_range must be >= 1")
        self.max_id = max_id
        self.max_range = max_range

    # -- parsing -----------------------------------------------------------

    def parse(
        self, text: str, num_sources: Optional[int] = None, *, strict: bool = True, rst: RstNumbering | None = None
    ) -> ParsedAnswer:
        """Parse citations, sentences and both maps of ``text``.

        ``num_sources`` None skips validation. With ``strict`` (the seed's
        behaviour) a failed validation raises :class:`CitationValidationError`
        (a ValueError, e.g. "Citation [5] exceeds number of sources (2)");
        ``strict=False`` returns the result and leaves validation to the caller. ``rst``: the document's
        reST footnote numbering (:func:`.rst.numbering`; by default that of ``text`` itself).
        """
        text = _check_text(text)
        groups = self._groups(text, rst)
        citations = [c for g in groups for c in g.citations]
        clusters = self._clusters(text, groups)
        spans = self._sentence_spans(text, clusters)
        sentences = self._sentences(text, spans, citations)
        parsed = self._answer(text, citations, sentences, clusters)
        if num_sources is not None and strict:
            ok, errors = self.validate_citations(citations, num_sources, text)
            if not ok:
                raise CitationValidationError(errors, parsed)
        return parsed

    def extract_citations(self, text: str) -> List[Citation]:
        """All citations in text order (lists and ranges give one per id)."""
        return [c for g in self._groups(_check_text(text)) for c in g.citations]

    def extract_citation_clusters(self, text: str) -> List[CitationCluster]:
        """Runs of adjacent citation groups: ``[1][2]``, ``[1], [2]``, ``[1] [2]``, ``[1, 2]``."""
        text = _check_text(text)
        return self._clusters(text, self._groups(text))

    def split_into_sentences(self, text: str) -> List[str]:
        """Sentences of ``text`` (regex splitter; see :meth:`sentence_spans`)."""
        text = _check_text(text)
        return [text[s:e] for s, e in self.sentence_spans(text)]

    def sentence_spans(self, text: str) -> List[Tuple[int, int]]:
        """``(start, end)`` of each sentence, whitespace between sentences excluded.

        A sentence ends at ``.``/``!``/``?``/``…`` (plus closing quotes or
        brackets and any citation cluster right after it) followed by
        whitespace and a character that is not a lower-case letter, or at a
        blank line / a new list item. Abbreviations (Dr., e.g., et al., Fig.,
        …), initials ("J. Smith") and decimals (3.14) do not end a sentence.
        """
        text = _check_text(text)
        return self._sentence_spans(text, self._clusters(text, self._groups(text)))

    def map_citations_to_sentences(self, text: str, citations: List[Citation]) -> List[Sentence]:
        """Sentences of ``text``, each with the citations that lie inside it."""
        text = _check_text(text)
        return self._sentences(text, self.sentence_spans(text), citations)

    def _answer(
        self, text: str, citations: List[Citation], sentences: List[Sentence], clusters: List[CitationCluster]
    ) -> ParsedAnswer:
        """The ParsedAnswer of ``text`` from its parts (maps built, citation clusters removed)."""
        c2s, s2c = self.create_bidirectional_map(sentences)
        return ParsedAnswer(
            original_text=text,
            clean_text=_remove_spans(text, [(c.start_pos, c.end_pos) for c in clusters]),
            citations=citations,
            sentences=sentences,
            citation_to_sentences=c2s,
            sentence_to_citations=s2c,
            clusters=clusters,
        )

    def create_bidirectional_map(
        self, sentences: List[Sentence]
    ) -> Tuple[Dict[int, List[Sentence]], Dict[int, List[Citation]]]:
        """(citation id → sentences citing it, each once, in order;
        sentence index → its citations, for every sentence, [] when none)."""
        c2s: Dict[int, List[Sentence]] = {}
        s2c: Dict[int, List[Citation]] = {}
        for i, s in enumerate(sentences):
            s2c[i] = list(s.citations)
            for cid in dict.fromkeys(c.citation_id for c in s.citations):
                c2s.setdefault(cid, []).append(s)
        return dict(sorted(c2s.items())), s2c

    def remove_citations(self, text: str) -> str:
        """Text without citation markers: "Paris [1] is nice [2]." → "Paris is nice ."

        Each cluster is cut out; a space left doubled by the cut is dropped.
        The rest of the text is untouched.
        """
        text = _check_text(text)
        return _remove_spans(text, [(c.start_pos, c.end_pos) for c in self._clusters(text, self._groups(text))])

    def validate_citations(
        self, citations: List[Citation], num_sources: int, text: Optional[str] = None
    ) -> Tuple[bool, List[str]]:
        """(all valid, error messages). Checks: ids in [1, num_sources]; no
        duplicate id at one position; markers well-formed (and quoting
        ``text`` exactly when it is given)."""
        return validate_citation_list(citations, num_sources, text)

    def format_for_frontend(self, parsed: ParsedAnswer) -> Dict[str, Any]:
        """JSON-serialisable dict of the seed's exact shape (keys of citation_map are strings)."""
        index = {id(s): i for i, s in enumerate(parsed.sentences)}
        return {
            "text": parsed.original_text,
            "citations": [
                {"id": c.citation_id, "start": c.start_pos, "end": c.end_pos, "marker": c.marker}
                for c in parsed.citations
            ],
            "sentences": [
                {"text": s.text, "start": s.start_pos, "end": s.end_pos, "citation_ids": s.citation_ids()}
                for s in parsed.sentences
            ],
            "citation_map": {
                str(cid): [{"sentence_index": index[id(s)], "sentence_text": s.text} for s in sents]
                for cid, sents in sorted(parsed.citation_to_sentences.items())
            },
        }

    # -- internals ---------------------------------------------------------

    def _groups(self, text: str, rst: RstNumbering | None = None) -> list[_Group]:
        """Bracket groups that are citations, in order (reST references included)."""
        out: list[_Group] = []
        if "[" not in text:
            return out
        code = [(m.start(), m.end()) for m in _CODE_SPAN.finditer(text)] if "`" in text or "\\" in text else []
        last_end = -1
        for m in _GROUP.finditer(text):
            gs, ge = m.start(), m.end()
            if any(a <= gs < b for a, b in code) or not self._context_ok(text, gs, ge, last_end):
                continue
            cits = self._group_citations(text, gs, ge)
            if cits:
                out.append(_Group(gs, ge, cits))
                last_end = ge
        if "]_" in text:
            rst = rst if rst is not None else rst_numbering(text)
            for m in REFERENCE.finditer(text):
                label = m.group("label")
                gs, ge = m.start(), m.end() - 1
                if label.isdigit() or any(a <= gs < b for a, b in code):
                    continue  # a numbered "[1]_" is read above
                out.append(_Group(gs, ge, [Citation(rst.id_for(label), gs, ge, text[gs:ge], "rst")]))
            out.sort(key=lambda g: g.start)
        return out

    def _context_ok(self, text: str, gs: int, ge: int, last_citation_end: int) -> bool:
        nxt = text[ge] if ge < len(text) else ""
        if nxt == "(" or nxt == "[" and not _GROUP.match(text, ge):
            return False  # Markdown link [1](url) / reference link [1][ref]
        if _LINK_TEXT_REST.match(text, ge) and "[" in text[text.rfind("\n", 0, gs) + 1 : gs]:
            return False  # inside a Markdown link's text: "[the paper [7]](url)", "[see [7]][ref]"
        if nxt == ":" and text[text.rfind("\n", 0, gs) + 1 : gs].strip() == "":
            return False  # Markdown link definition "[1]: https://…"
        if nxt == "_" and is_definition(text, gs) or nxt in " \t\n" and is_definition(text, gs):
            return False  # reST footnote definition ".. [1] text"
        if gs == 0:
            return True
        prev = text[gs - 1]
        if not prev.isspace() and _URL_BEFORE.search(text, max(0, gs - 200), gs):
            return False  # inside a URL ("https://x.org/[4]")
        if prev == "]" and gs != last_citation_end:
            return False  # "[see here][1]": a reference-style link
        if prev in "}" or (prev.isalpha() and _TEX_CMD_BEFORE.search(text, max(0, gs - 40), gs)):
            return False  # LaTeX optional argument: \item[1], \newcommand{\x}[1]
        if _IDENT.match(prev) and _CODE_AFTER.match(text, ge):
            return False  # array indexing: "uint8 random[32];", "byte[1] << 8"
        return True

    def _group_citations(self, text: str, gs: int, ge: int) -> list[Citation]:
        items = _group_items(text, gs, ge)
        single = len(items) == 1
        cits: list[Citation] = []
        for s, e, lo_s, hi_s in items:
            if (len(lo_s) > 1 and lo_s[0] == "0") or (hi_s is not None and len(hi_s) > 1 and hi_s[0] == "0"):
                return []  # leading zeros: an identifier, not a citation
            lo = int(lo_s)
            hi = int(hi_s) if hi_s is not None else lo
            if hi > self.max_id or lo > hi or hi - lo + 1 > self.max_range:
                return []  # a year, a reversed or an oversized range
            if lo == 0 and (not single or hi_s is not None):
                return []  # an interval such as [0, 1] or [0-1]
            ms, me = (gs, ge) if single else (s, e)
            marker = text[ms:me]
            form = "range" if hi_s is not None else ("single" if single else "list")
            for cid in range(lo, hi + 1):
                cits.append(Citation(cid, ms, me, marker, form))
        return cits

    def _clusters(self, text: str, groups: list[_Group]) -> list[CitationCluster]:
        out: list[CitationCluster] = []
        cur: list[_Group] = []
        for g in groups:
            if cur:
                gap = _CLUSTER_GAP.match(text, cur[-1].end, g.start)
                if gap is not None and gap.end() == g.start:
                    cur.append(g)
                    continue
                out.append(_make_cluster(text, cur))
            cur = [g]
        if cur:
            out.append(_make_cluster(text, cur))
        return out

    def _sentence_spans(self, text: str, clusters: list[CitationCluster]) -> list[tuple[int, int]]:
        n = len(text)
        cluster_at = {c.start_pos: c.end_pos for c in clusters}
        cuts: list[tuple[int, int]] = []  # (end of sentence, start of search for the next)
        for m in _TERMINATOR.finditer(text):
            end = m.end()
            # a citation cluster right after the punctuation belongs to this sentence
            k = end
            while k < n and text[k] in " \t":
                k += 1
            if k in cluster_at:
                end = cluster_at[k]
            if end < n and not text[end].isspace():
                continue  # "3.14", "e.g.,", "A.D. [1]." (the real end comes later)
            j = end
            while j < n and text[j].isspace():
                j += 1
            if j < n and text[j].islower():
                continue  # "e.g. the", "approx. two"
            if m.group(0)[0] == "." and self._abbreviation_before(text, m.start(), j < n and text[j].isdigit()):
                continue
            cuts.append((end, j))
        for m in _PARA_BREAK.finditer(text):
            cuts.append((m.start(), m.end()))
        cuts.sort()
        spans: list[tuple[int, int]] = []
        pos = 0
        for end, nxt in cuts:
            if end < pos:
                continue
            s, e = _strip(text, pos, end)
            if e > s:
                spans.append((s, e))
            pos = max(pos, nxt)
        s, e = _strip(text, pos, n)
        if e > s:
            spans.append((s, e))
        return spans

    @staticmethod
    def _abbreviation_before(text: str, dot: int, digit_next: bool) -> bool:
        m = _WORD_BEFORE.search(text, max(0, dot - 24), dot)
        if m is None:
            return False
        word = m.group(1)
        low = word.lower()
        if low in ABBREVIATIONS or (digit_next and low in NUMBER_ABBREVIATIONS):
            return True
        if len(word) == 1 and word.isupper():
            return True  # an initial: "J. Smith", "U. S."
        if low == "al" or low.endswith(".al"):
            return True
        return False

    @staticmethod
    def _sentences(text: str, spans: Sequence[tuple[int, int]], citations: Sequence[Citation]) -> list[Sentence]:
        sentences = [Sentence(text[s:e], s, e, []) for s, e in spans]
        starts = [s for s, _ in spans]
        for c in citations:
            i = bisect.bisect_right(starts, c.start_pos) - 1
            if i >= 0 and c.end_pos <= spans[i][1]:
                sentences[i].citations.append(c)
        return sentences


def _check_text(text: Any) -> str:
    if not isinstance(text, str):
        raise TypeError(f"text must be str, not {type(text).__name__}")
    return text


def _make_cluster(text: str, groups: list[_Group]) -> CitationCluster:
    s, e = groups[0].start, groups[-1].end
    return CitationCluster([c for g in groups for c in g.citations], s, e, text[s:e])


def _strip(text: str, s: int, e: int) -> tuple[int, int]:
    while s < e and text[s].isspace():
        s += 1
    while e > s and text[e - 1].isspace():
        e -= 1
    return s, e


def _remove_spans(text: str, spans: Iterable[tuple[int, int]]) -> str:
    """Cut ``spans`` (sorted, disjoint) out of text; a cut between two spaces drops one."""
    parts: list[str] = []
    pos = 0
    for s, e in spans:
        parts.append(text[pos:s])
        if s > 0 and text[s - 1] == " " and e < len(text) and text[e] == " ":
            e += 1
        pos = e
    parts.append(text[pos:])
    return "".join(parts)


def validate_citation_list(
    citations: Sequence[Citation], num_sources: Optional[int], text: Optional[str] = None
) -> tuple[bool, list[str]]:
    """The seed's three checks; ``num_sources`` None checks only the lower bound and form."""
    if num_sources is not None and (not isinstance(num_sources, int) or num_sources < 0):
        raise ValueError(f"num_sources must be a non-negative int, not {num_sources!r}")
    errors: list[str] = []
    seen: set[tuple[int, int, int]] = set()
    for c in citations:
        err = citation_error(c, num_sources, text)
        if err:
            errors.append(err)
        key = (c.start_pos, c.end_pos, c.citation_id)
        if key in seen:
            errors.append(f"Duplicate citation [{c.citation_id}] at position {c.start_pos}")
        seen.add(key)
    return not errors, errors


def citation_error(c: Citation, num_sources: Optional[int], text: Optional[str] = None) -> Optional[str]:
    """Why one citation is invalid (None when it is valid)."""
    if not _well_formed(c):
        return f"Malformed citation marker {c.marker!r} for id {c.citation_id} at position {c.start_pos}"
    if text is not None and text[c.start_pos : c.end_pos] != c.marker:
        return f"Citation marker {c.marker!r} is not at position {c.start_pos}-{c.end_pos}"
    if c.citation_id < 1:
        return f"Citation [{c.citation_id}] is below 1 (sources are numbered from 1)"
    if num_sources is not None and c.citation_id > num_sources:
        return f"Citation [{c.citation_id}] exceeds number of sources ({num_sources})"
    return None


def _well_formed(c: Citation) -> bool:
    if not isinstance(c.citation_id, int) or c.end_pos - c.start_pos != len(c.marker) or c.start_pos < 0:
        return False
    if c.form == "rst":
        return REFERENCE.fullmatch(c.marker + "_") is not None
    m = _WELL_FORMED_BRACKET.fullmatch(c.marker)
    if m:
        return int(m.group(1)) == c.citation_id
    if not c.marker or c.marker[0] != "[" and not c.marker[0].isdigit():
        return False
    inner = c.marker[1:-1] if c.marker.startswith("[") and c.marker.endswith("]") else c.marker
    m = _ITEM.fullmatch(inner.strip(" \t\u00a0"))
    if not m:
        return False
    lo = int(m.group(1))
    hi = int(m.group(2)) if m.group(2) else lo
    return lo <= c.citation_id <= hi
