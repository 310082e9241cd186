"""Term protection (seed 000): hide terms behind ``⟨TERM_NNN⟩`` and put them back byte-exactly.

Shape (as in spaCy / Presidio): *recognisers* find spans, one *operator*
turns the chosen spans into placeholders. Recognisers live in a registry
(:data:`RECOGNIZERS`) and run in priority order (E1):

    literal > citation > custom > ner > number

A span that overlaps one accepted earlier is skipped; inside one recogniser
the longest span wins (E2: outermost citation). A span may never cut a parser
placeholder (``⟨MATH_NNN⟩``/``⟨CODE_NNN⟩``/``⟨LIT_NNN⟩``): it is skipped. A span
that contains whole parser placeholders is kept and its original is the
*source* text (placeholders restored), so one single-pass restore over the
merged TERM + parser maps gives the source back.

Placeholder policy: one placeholder per distinct original string within a
chunk (reused for every occurrence), numbered from 000 in order of first
appearance, so the same input and config always give the same output.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Protocol, Sequence

from ..lib.placeholder_audit import missing_occurrences, stray_tokens
from .nlp import spacy_input
from .parsing import Chunk, ChunkType
from .placeholders import (
    CLOSE,
    OPEN,
    PLACEHOLDER_RE,
    UnknownPlaceholderError,
    make_placeholder,
    restore_placeholders,
)

TERM_NS = "TERM"
SOURCES = ("literal", "citation", "custom", "ner", "number")
NER_LABELS = frozenset({"PERSON", "ORG", "GPE", "PRODUCT", "FAC"})
_NER_STOPWORDS = frozenset({"the", "a", "an", "this", "that"})


# ---------------------------------------------------------------------------
# Errors


class ProtectionError(ValueError):
    """Base class of every term-protection error."""


class InvalidCustomTermError(ProtectionError):
    """A custom term is empty or looks like / contains a placeholder (E9)."""


class NotProseChunkError(ProtectionError):
    """Only prose chunks are protected (E3: structural chunks are not)."""


class PlaceholderError(ProtectionError):
    """Restoration refused: the text's placeholders do not match the chunk's."""


class MissingPlaceholdersError(PlaceholderError):
    """Expected placeholders are absent from the text (E8: e.g. the LLM dropped them)."""

    def __init__(self, missing: list[str]):
        self.missing = missing
        super().__init__(f"missing placeholder(s): {', '.join(missing)}")


class UnknownPlaceholdersError(PlaceholderError, UnknownPlaceholderError):
    """Placeholder-shaped tokens the chunk never issued (invented or mangled)."""

    def __init__(self, placeholders: list[str]):
        self.placeholders = placeholders
        ValueError.__init__(self, f"unknown placeholder(s): {', '.join(placeholders)}")

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0])


class EmptyTextError(PlaceholderError):
    """An empty paraphrase for a non-empty chunk."""


# ---------------------------------------------------------------------------
# Config and results


@dataclass(frozen=True, slots=True)
class TermProtectionConfig:
    """Which recognisers run. ``spacy_model`` None = the default model (core.nlp)."""

    use_ner: bool = True
    custom_terms: tuple[str, ...] = ()
    protect_citations: bool = True
    protect_numbers: bool = True
    protect_year_only: bool = False
    spacy_model: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "custom_terms", tuple(self.custom_terms))
        validate_custom_terms(self.custom_terms)


@dataclass(frozen=True, slots=True)
class Candidate:
    """A span found by a recogniser, in chunk-text offsets."""

    start: int
    end: int
    source: str
    label: str


@dataclass(frozen=True, slots=True)
class ProtectedTerm:
    """One protected occurrence. ``start/end`` are absolute document offsets;
    ``chunk_start/chunk_end`` are offsets in ``chunk.text``; ``original`` is the
    exact source quote (``document[start:end]``)."""

    placeholder: str
    original: str
    source: str
    label: str
    start: int
    end: int
    chunk_start: int
    chunk_end: int

    def as_row(self) -> dict[str, Any]:
        return {
            "placeholder": self.placeholder,
            "original": self.original,
            "source": self.source,
            "label": self.label,
            "start": self.start,
            "end": self.end,
        }


@dataclass(slots=True)
class ProtectedChunk:
    """A prose chunk with its terms behind placeholders (the chunk is unchanged)."""

    chunk: Chunk
    protected_text: str
    term_placeholders: dict[str, str]
    terms: list[ProtectedTerm] = field(default_factory=list)

    @property
    def math_placeholders(self) -> dict[str, str]:
        return self.chunk.math_placeholders

    @property
    def text(self) -> str:
        return self.chunk.text

    def placeholders(self) -> dict[str, str]:
        """The merged map of every placeholder present in ``protected_text``.

        A parser placeholder swallowed by a term span is not present any more
        (its original lives inside the term's original), so it is left out.
        """
        merged = {**self.chunk.math_placeholders, **self.term_placeholders}
        return {p: merged[p] for p in self.expected_placeholders() if p in merged}

    def expected_placeholders(self) -> list[str]:
        """Distinct issued placeholders of ``protected_text``, in order of appearance."""
        known = self.term_placeholders.keys() | self.chunk.math_placeholders.keys()
        seen: dict[str, None] = {}
        for m in PLACEHOLDER_RE.finditer(self.protected_text):
            tok = m.group(0)
            if tok in known:
                seen.setdefault(tok, None)
        return list(seen)

    def counts(self) -> dict[str, int]:
        out = dict.fromkeys(SOURCES, 0)
        for t in self.terms:
            out[t.source] = out.get(t.source, 0) + 1
        return out


def validate_custom_terms(terms: Iterable[str]) -> None:
    """E9: reject empty terms and terms that contain ``⟨``/``⟩`` (placeholder-like)."""
    for term in terms:
        if not isinstance(term, str) or not term.strip():
            raise InvalidCustomTermError(f"custom term {term!r} is empty")
        if PLACEHOLDER_RE.search(term):
            raise InvalidCustomTermError(f"custom term {term!r} matches the placeholder format ⟨NS_NNN⟩")
        if OPEN in term or CLOSE in term:
            raise InvalidCustomTermError(f"custom term {term!r} contains the reserved brackets ⟨ ⟩")


# ---------------------------------------------------------------------------
# Citation patterns (§4.2 generalised: Unicode names, particles, et al., &/and,
# several citations per bracket, page and year suffixes, LaTeX \cite family)


def _char_class(pred: Callable[[str], bool], limit: int = 0x10000) -> str:
    """A regex character class of the BMP code points satisfying ``pred``."""
    parts: list[str] = []
    start = None
    for cp in range(limit + 1):
        ok = cp < limit and pred(chr(cp))
        if ok and start is None:
            start = cp
        elif not ok and start is not None:
            a, b = chr(start), chr(cp - 1)
            parts.append(re.escape(a) if start == cp - 1 else f"{re.escape(a)}-{re.escape(b)}")
            start = None
    return "[" + "".join(parts) + "]"


_UP = _char_class(lambda c: c.isupper() or c.istitle())  # Lu + Lt: É, Ł, Ø, ...
_LET = r"[^\W\d_]"
# Capitalised words that look like surnames before a year but are not.
_STOP = (
    r"January|February|March|April|May|June|July|August|September|October|November|December|"
    r"Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec|Spring|Summer|Autumn|Fall|Winter|"
    r"Section|Sections|Sec|Table|Tables|Figure|Figures|Fig|Figs|Eq|Eqs|Equation|Chapter|Ch|Appendix|"
    r"Page|Pages|Part|Version|Release|Volume|Vol|Issue|Step|Stage|Phase|Level|Since|Until|In|On|At|"
    r"By|From|For|To|Of|The|This|That|These|Those|See|Also|And|Or|But|Copyright|Windows|Python|Java|"
    r"Rev|Update|Edition|Year|Years|Q[1-4]|Note|Example|Draft|Published|Accessed|Retrieved|RFC|ISO|IEEE"
)
_PARTICLE = r"(?:[vV]an|[vV]on|[dD]e|[dD]er|[dD]en|[dD]el|[dD]ella|[dD]i|[dD]a|[dD]u|[dD]os|[dD]as|[lL]e|[lL]a|[tT]er|[tT]en|[aA]l|[eE]l|[bB]in|[iI]bn|[sS]t\.?)"
_NAME = rf"{_UP}(?:{_LET}|['’])*{_LET}"
_SURNAME = rf"(?:{_PARTICLE}\s+){{0,3}}(?!(?:{_STOP})(?!{_LET}))(?:{_NAME})(?:-{_NAME})*"
_ETAL = r"\s+et\s*\.?\s*al(?:\.|(?![\w]))"
_AND = r"(?:\s+and\s+|\s*&\s*|\s+&amp;\s+)"
# Author lists: "Smith", "Smith et al.", "Smith and Jones", "Smith, Jones, and Lee", "Smith & Jones et al."
_AUTH_ANY = rf"{_SURNAME}(?:,\s*{_SURNAME})*(?:,?{_AND}{_SURNAME})?(?:{_ETAL})?"
_AUTH_STRONG = rf"(?:{_SURNAME}(?:,\s*{_SURNAME})*,?{_AND}{_SURNAME}(?:{_ETAL})?|{_SURNAME}{_ETAL})"
# Narrative lists: commas only when an "and" closes the list (keeps "In Paris, Smith (2020)" short).
_AUTH_NARR = rf"(?:{_SURNAME}(?:,\s*{_SURNAME})*,?{_AND}{_SURNAME}(?:{_ETAL})?|{_SURNAME}(?:{_ETAL})?)"
_GIVEN = rf"(?:{_UP}(?:{_LET}+|\.)(?:-{_UP}{_LET}*)?\s+){{1,2}}"
_YEAR = r"(?:1[5-9]\d\d|20\d\d)[a-z]?(?!\d)|n\.\s?d\.|in\s+press|forthcoming"
_YEARS = rf"(?:{_YEAR})(?:\s*,\s*(?:(?:{_YEAR})|[a-z](?![\w.])))*"
_LOC = r"(?:,?\s*(?:pp?|pg|ch|chap|sec|para|fig|§)\.?(?:~|\s)*\d+(?:\s*[-–—]+\s*\d+)?|:\s*\d+(?:\s*[-–]+\s*\d+)?)"
_PREFIX = r"(?:(?:see\s+also|see|e\.\s?g\.|cf\.|i\.\s?e\.|for\s+example|for\s+instance|also|as\s+in|but\s+see)\s*,?\s+)?"
_ITEM = rf"(?:(?:{_GIVEN})?{_AUTH_ANY},\s*{_YEARS}{_LOC}?|(?:{_GIVEN})?{_AUTH_STRONG}\s+{_YEARS}{_LOC}?)"
_ITEMS = rf"{_PREFIX}{_ITEM}(?:\s*[;,]\s*{_PREFIX}{_ITEM})*"
# In a bracket already opened by a full citation, later items may drop the comma ("; Lee 2024a").
_WEAK = rf"(?:{_AUTH_ANY}\s+{_YEARS}{_LOC}?)"
_ITEMS_FULL = rf"{_PREFIX}{_ITEM}(?:\s*[;,]\s*{_PREFIX}(?:{_ITEM}|{_WEAK}))*"

_BRACKETED_FULL = re.compile(rf"\s*{_ITEMS_FULL}\s*")
_ITEMS_RE = re.compile(rf"(?<!{_LET}){_ITEMS}")
_BRACKETS = re.compile(r"\((?P<p>[^()]{3,400})\)|\[(?P<b>[^\[\]]{3,400})\]")
_NARRATIVE = re.compile(
    rf"(?<![\w\-']){_AUTH_NARR}\s*(?:\(\s*{_PREFIX}{_YEARS}{_LOC}?\s*\)|\[\s*{_YEARS}{_LOC}?\s*\])"
)
_ETAL_FREE = re.compile(rf"(?<![\w\-']){_SURNAME}{_ETAL},?\s+{_YEARS}")
_LATEX_CITE = re.compile(r"\\[A-Za-z]*cite[A-Za-z]*\*?(?:\s*\[[^\[\]{}]*\]){0,2}\s*\{[^{}]*\}")
_PANDOC_KEY = r"-?@[A-Za-z0-9_][\w:.#$%&+?<>~/-]*"
_PANDOC = re.compile(  # a key follows "[", "(", ";" or a space (not `@x`, not an e-mail)
    rf"\[[^\[\]@\n]{{0,60}}?(?<![^\s\[;]){_PANDOC_KEY}[^\[\]@;\n]{{0,60}}(?:;[^\[\]@;\n]{{0,60}}?(?<![^\s\[;]){_PANDOC_KEY}[^\[\]@;\n]{{0,60}})*\]"
    rf"|\((?<![\w.])(?:{_PANDOC_KEY})(?:;\s*{_PANDOC_KEY})*\)"
)
_YEAR_ONLY = re.compile(r"\[(?:1[5-9]\d\d|20\d\d)[a-z]?(?:\s*[;,]\s*(?:1[5-9]\d\d|20\d\d)[a-z]?)*\]")


def find_citations(text: str, *, year_only: bool = False) -> list[tuple[int, int, str]]:
    """Citation spans ``(start, end, kind)`` in ``text`` (may overlap; caller resolves).

    Kinds: ``latex`` (``\\cite`` family), ``pandoc`` (``[@key]``), ``bracket``
    (a bracket whose whole content is author-year citations, brackets
    included), ``author_year`` (citations inside a longer bracket, or
    ``Smith et al. 2020`` in running text), ``narrative`` (``Smith (2024)``),
    ``year`` (``[2024]``, only with ``year_only``).
    """
    out: list[tuple[int, int, str]] = []
    for m in _LATEX_CITE.finditer(text):
        out.append((m.start(), m.end(), "latex"))
    if "@" in text:
        for m in _PANDOC.finditer(text):
            out.append((m.start(), m.end(), "pandoc"))
    for m in _BRACKETS.finditer(text):
        group = "p" if m.group("p") is not None else "b"
        cs, ce = m.start(group), m.end(group)
        if "\n\n" in text[cs:ce] or not any(ch.isdigit() for ch in text[cs:ce]):
            continue
        if _BRACKETED_FULL.fullmatch(text, cs, ce):
            out.append((m.start(), m.end(), "bracket"))
        else:
            for im in _ITEMS_RE.finditer(text, cs, ce):
                out.append((im.start(), _rstrip(text, im.start(), im.end()), "author_year"))
    for m in _NARRATIVE.finditer(text):
        out.append((m.start(), m.end(), "narrative"))
    for m in _ETAL_FREE.finditer(text):
        out.append((m.start(), m.end(), "author_year"))
    if year_only:
        for m in _YEAR_ONLY.finditer(text):
            out.append((m.start(), m.end(), "year"))
    return out


def _rstrip(text: str, start: int, end: int) -> int:
    while end > start and text[end - 1].isspace():
        end -= 1
    return end


# ---------------------------------------------------------------------------
# Number patterns (§5.3 with the E6 context rule)

_METRIC_WORDS = re.compile(
    r"(?<![\w])(?:accuracy|accuracies|precision|recall|F[-_ ]?1|F[-_ ]?score|f-measure|AUC|ROC|BLEU|ROUGE(?:-[\dLlSsWw]+)?|"
    r"METEOR|chrF|TER|WER|CER|perplexity|PPL|mAP|IoU|top-?[15]|exact\s+match|EM|score|scores|"
    r"error|loss|correlation|p-value|significan\w*|mean|average|median|std|variance|result|results|value)(?![\w])",
    re.IGNORECASE,
)
_NUM_ALWAYS = re.compile(
    # percentages (LaTeX writes 98\%), statistics "p < 0.05", ratios "1.5x" / "224×224", 1,000,000
    r"(?P<pct>(?<![\w.,])\d+(?:\.\d+)?\s?\\?%)"
    r"|(?P<stat>(?<![\w\\])[prtdFχ]\s*(?:<=|>=|[<>=≤≥])\s*-?\d*\.?\d+(?:[eE]-?\d+)?)"
    r"|(?P<ratio>(?<![\w.])(?!0[xX])\d+(?:\.\d+)?\s?[x×]\s?\d+(?:\.\d+)?(?![\w.])|(?<![\w.])\d+(?:\.\d+)?[x×](?![\w]))"
    r"|(?P<big>(?<![\w.,])\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\d]|,\d))"
)
_NUM_CONTEXT = re.compile(
    # decimals "0.89", colon ratios "3:1": only near a metric word (E6: "Model v3.2" alone is not a metric)
    r"(?P<dec>(?<![\d.,])\d+\.\d+(?![\d.]|\.\d))|(?P<colon>(?<![\w.:])\d+:\d+(?![\w:]))"
)
_CONTEXT_WINDOW = 50


def find_numbers(text: str) -> list[tuple[int, int, str]]:
    """Metric-like number spans ``(start, end, kind)`` (§5.3, E6)."""
    out: list[tuple[int, int, str]] = []
    for m in _NUM_ALWAYS.finditer(text):
        out.append((m.start(), m.end(), m.lastgroup or "number"))
    ctx = None
    for m in _NUM_CONTEXT.finditer(text):
        if ctx is None:
            ctx = [(w.start(), w.end()) for w in _METRIC_WORDS.finditer(text)]
            starts = [s for s, _ in ctx]
        if not ctx:
            break
        lo, hi = m.start() - _CONTEXT_WINDOW, m.end() + _CONTEXT_WINDOW
        i = bisect.bisect_left(starts, lo)
        # a metric word that starts inside the window, or one that starts before it and reaches in
        near = (i < len(ctx) and ctx[i][0] <= hi) or (i > 0 and ctx[i - 1][1] > lo)
        if near:
            out.append((m.start(), m.end(), m.lastgroup or "number"))
    return out


# ---------------------------------------------------------------------------
# Recognisers (registry)


class Recognizer(Protocol):
    """Finds candidate spans. ``find_many`` gets every text of a document at once."""

    source: str

    def find_many(self, texts: Sequence[str]) -> list[list[Candidate]]: ...


class _PerText:
    source = ""

    def find(self, text: str) -> list[Candidate]:
        raise NotImplementedError

    def find_many(self, texts: Sequence[str]) -> list[list[Candidate]]:
        return [self.find(t) for t in texts]


class LiteralRecognizer(_PerText):
    """E9/E11: placeholder-shaped text the parser did not map, and lone ``⟨``/``⟩``.

    The parser already maps placeholder-shaped source text to ``⟨LIT_NNN⟩``;
    this catches chunks built elsewhere and the stray brackets, so the text an
    LLM sees has no bracket except our own placeholders.
    """

    source = "literal"
    _RE = re.compile(r"[⟨⟩]+")

    def find(self, text: str, known: frozenset[str] = frozenset()) -> list[Candidate]:
        """``known``: the chunk's parser placeholders (left alone)."""
        if OPEN not in text and CLOSE not in text:
            return []
        out: list[Candidate] = []
        taken: list[tuple[int, int]] = []
        for m in PLACEHOLDER_RE.finditer(text):
            if m.group(0) in known:
                taken.append((m.start(), m.end()))
            else:
                out.append(Candidate(m.start(), m.end(), self.source, "PLACEHOLDER_LIKE"))
                taken.append((m.start(), m.end()))
        starts = [s for s, _ in taken]
        for m in self._RE.finditer(text):
            # split the bracket run around placeholder tokens it touches
            pos = m.start()
            while pos < m.end():
                i = bisect.bisect_right(starts, pos) - 1
                if i >= 0 and taken[i][0] <= pos < taken[i][1]:
                    pos = taken[i][1]
                    continue
                j = bisect.bisect_right(starts, pos)
                stop = min(m.end(), taken[j][0] if j < len(taken) else m.end())
                if stop > pos:
                    out.append(Candidate(pos, stop, self.source, "BRACKET"))
                pos = stop
        return out


class CitationRecognizer(_PerText):
    source = "citation"

    def __init__(self, year_only: bool = False):
        self.year_only = year_only

    def find(self, text: str) -> list[Candidate]:
        return [Candidate(s, e, self.source, kind) for s, e, kind in find_citations(text, year_only=self.year_only)]


class CustomTermRecognizer(_PerText):
    """E5: whole words, case-insensitive, longest first (one alternation, one pass)."""

    source = "custom"

    def __init__(self, terms: Sequence[str]):
        validate_custom_terms(terms)
        alts = []
        for t in sorted(set(terms), key=lambda s: (-len(s), s)):
            pat = re.escape(t)
            if t[0].isalnum() or t[0] == "_":
                pat = r"(?<!\w)" + pat
            if t[-1].isalnum() or t[-1] == "_":
                pat = pat + r"(?!\w)"
            alts.append(pat)
        self._re = re.compile("|".join(alts), re.IGNORECASE) if alts else None

    def find(self, text: str) -> list[Candidate]:
        if self._re is None:
            return []
        return [Candidate(m.start(), m.end(), self.source, "CUSTOM") for m in self._re.finditer(text)]


class NerRecognizer:
    """spaCy entities (PERSON, ORG, GPE, PRODUCT, FAC) with the §3.2 filters.

    One ``nlp.pipe`` call per document over all its prose chunks, with only
    the components NER needs (``load_spacy(profile="ner")``).
    """

    source = "ner"

    def __init__(self, model: str | None = None, batch_size: int = 64):
        from .nlp import load_spacy

        self.nlp = load_spacy(model, profile="ner")
        self.batch_size = batch_size

    #: texts longer than this are cut at whitespace into windows (spaCy's max_length guards memory)
    window = 100_000

    def find_many(self, texts: Sequence[str]) -> list[list[Candidate]]:
        pieces: list[str] = []
        owners: list[tuple[int, int]] = []  # (text index, offset of the piece in that text)
        for i, t in enumerate(texts):
            for off, piece in _windows(t, self.window):
                pieces.append(piece)
                owners.append((i, off))
        out: list[list[Candidate]] = [[] for _ in texts]
        fed = [spacy_input(p) for p in pieces]  # same offsets, no O(n²) tokenizer runs
        docs = [self.nlp(fed[0])] if len(fed) == 1 else self.nlp.pipe(fed, batch_size=self.batch_size)
        for (i, off), piece, doc in zip(owners, pieces, docs):
            for ent in doc.ents:
                if keep_entity(piece[ent.start_char:ent.end_char], ent.label_):
                    out[i].append(Candidate(off + ent.start_char, off + ent.end_char, self.source, ent.label_))
        return out


def _windows(text: str, size: int) -> list[tuple[int, str]]:
    """``(offset, piece)`` cuts of ``text`` of at most ``size`` chars, at whitespace when possible."""
    if len(text) <= size:
        return [(0, text)]
    out = []
    pos = 0
    while pos < len(text):
        end = min(len(text), pos + size)
        if end < len(text):
            cut = max(text.rfind("\n", pos, end), text.rfind(" ", pos, end))
            if cut > pos:
                end = cut + 1
        out.append((pos, text[pos:end]))
        pos = end
    return out


def keep_entity(text: str, label: str) -> bool:
    """§3.2: allowed labels; no single-word non-ORG; at least 3 chars; no stopwords."""
    if label not in NER_LABELS:
        return False
    if len(text) < 3 or text.lower() in _NER_STOPWORDS:
        return False
    if label != "ORG" and len(text.split()) == 1:
        return False
    return True


class NumberRecognizer(_PerText):
    source = "number"

    def find(self, text: str) -> list[Candidate]:
        return [Candidate(s, e, self.source, kind.upper()) for s, e, kind in find_numbers(text)]


#: source name → factory(config) returning a recogniser, or None when switched off.
RECOGNIZERS: dict[str, Callable[[TermProtectionConfig], Any]] = {
    "literal": lambda cfg: LiteralRecognizer(),
    "citation": lambda cfg: CitationRecognizer(cfg.protect_year_only) if cfg.protect_citations else None,
    "custom": lambda cfg: CustomTermRecognizer(cfg.custom_terms) if cfg.custom_terms else None,
    "ner": lambda cfg: NerRecognizer(cfg.spacy_model) if cfg.use_ner else None,
    "number": lambda cfg: NumberRecognizer() if cfg.protect_numbers else None,
}
#: E1 priority (first wins).
PRIORITY = ("literal", "citation", "custom", "ner", "number")


# ---------------------------------------------------------------------------
# Operator: chosen spans → placeholders


class _Accepted:
    """Non-overlapping accepted spans, kept sorted (bisect, no quadratic scan)."""

    __slots__ = ("starts", "spans")

    def __init__(self) -> None:
        self.starts: list[int] = []
        self.spans: list[Candidate] = []

    def overlaps(self, s: int, e: int) -> bool:
        i = bisect.bisect_left(self.starts, e)  # spans starting before e
        return i > 0 and self.spans[i - 1].end > s

    def add(self, c: Candidate) -> None:
        i = bisect.bisect_left(self.starts, c.start)
        self.starts.insert(i, c.start)
        self.spans.insert(i, c)


def _cuts(bounds: list[tuple[int, int]], starts: list[int], s: int, e: int) -> bool:
    """True when ``[s, e)`` cuts a parser placeholder (partial overlap)."""
    for pos in (s, e):
        i = bisect.bisect_right(starts, pos - 1) - 1  # placeholder starting before pos
        if i >= 0 and bounds[i][0] < pos < bounds[i][1]:
            return True
    return False


def _select(chunk_text: str, parser_phs: set[str], per_source: dict[str, list[Candidate]]) -> list[Candidate]:
    bounds = [(m.start(), m.end()) for m in PLACEHOLDER_RE.finditer(chunk_text) if m.group(0) in parser_phs]
    bstarts = [s for s, _ in bounds]
    acc = _Accepted()
    for source in PRIORITY:
        cands = per_source.get(source)
        if not cands:
            continue
        # inside one recogniser: longest first, then leftmost (E2: outermost wins)
        for c in sorted(cands, key=lambda c: (c.start - c.end, c.start)):
            if c.end <= c.start or acc.overlaps(c.start, c.end):
                continue
            if bounds and _cuts(bounds, bstarts, c.start, c.end):
                continue
            if source == "ner" and bounds:
                # an entity that contains a placeholder is spaCy reading our token as a name
                i = bisect.bisect_left(bstarts, c.start)
                if i < len(bounds) and bounds[i][0] < c.end:
                    continue
            acc.add(c)
    return acc.spans


def apply_placeholders(chunk: Chunk, spans: Sequence[Candidate]) -> ProtectedChunk:
    """The operator: replace ``spans`` (sorted, disjoint) by ``⟨TERM_NNN⟩``."""
    text = chunk.text
    mapping = chunk.math_placeholders
    om = chunk.offset_map() if mapping else None
    by_original: dict[str, str] = {}
    terms: list[ProtectedTerm] = []
    parts: list[str] = []
    pos = 0
    for c in spans:
        quote = text[c.start:c.end]
        original = restore_placeholders(quote, mapping, strict=False) if mapping and OPEN in quote else quote
        ph = by_original.get(original)
        if ph is None:
            ph = make_placeholder(TERM_NS, len(by_original))
            by_original[original] = ph
        if om is not None:
            a, b = om.span_to_source(c.start, c.end)
        else:
            a, b = chunk.start + c.start, chunk.start + c.end
        terms.append(ProtectedTerm(ph, original, c.source, c.label, a, b, c.start, c.end))
        parts.append(text[pos:c.start])
        parts.append(ph)
        pos = c.end
    parts.append(text[pos:])
    term_map = {ph: orig for orig, ph in by_original.items()}
    return ProtectedChunk(chunk, "".join(parts), term_map, terms)


# ---------------------------------------------------------------------------
# The protector


class TermProtector:
    """Protect prose chunks and restore paraphrases of them.

    >>> tp = TermProtector(TermProtectionConfig(use_ner=False))
    >>> pc = tp.protect_text("As shown by Smith (2024), accuracy is 95%.")
    >>> pc.protected_text
    'As shown by ⟨TERM_000⟩, accuracy is ⟨TERM_001⟩.'
    >>> tp.restore(pc.protected_text, pc)
    'As shown by Smith (2024), accuracy is 95%.'
    """

    def __init__(self, config: TermProtectionConfig | None = None, recognizers: dict[str, Any] | None = None):
        self.config = config or TermProtectionConfig()
        if recognizers is None:
            recognizers = {}
            for name in PRIORITY:
                r = RECOGNIZERS[name](self.config)
                if r is not None:
                    recognizers[name] = r
        self.recognizers = recognizers

    @property
    def nlp(self):
        r = self.recognizers.get("ner")
        return getattr(r, "nlp", None)

    # -- protect -----------------------------------------------------------
    def protect(self, chunk: Chunk) -> ProtectedChunk:
        """Protect one prose chunk (see :meth:`protect_many` for a whole document)."""
        return self.protect_many([chunk])[0]

    def protect_many(self, chunks: Sequence[Chunk]) -> list[ProtectedChunk]:
        """Protect the prose chunks of a document; NER runs once over all of them."""
        for c in chunks:
            if str(c.chunk_type) != ChunkType.PROSE:
                raise NotProseChunkError(f"chunk {c.index} is {c.chunk_type!s}, only prose chunks are protected")
            if not isinstance(c.text, str):
                raise NotProseChunkError(f"chunk {c.index}: text must be a str")
        texts = [c.text for c in chunks]
        found: dict[str, list[list[Candidate]]] = {}
        for name, rec in self.recognizers.items():
            if name == "literal":
                found[name] = [rec.find(c.text, frozenset(c.math_placeholders)) for c in chunks]
            else:
                found[name] = rec.find_many(texts)
        out = []
        for i, c in enumerate(chunks):
            spans = _select(c.text, set(c.math_placeholders), {n: f[i] for n, f in found.items()})
            out.append(apply_placeholders(c, spans))
        return out

    def protect_text(self, text: str, start: int = 0) -> ProtectedChunk:
        """Protect a bare string (one prose chunk, no parser placeholders)."""
        return self.protect(Chunk(0, ChunkType.PROSE, start, start + len(text), text, {}))

    # -- validate / restore ------------------------------------------------
    def validate_placeholders(self, text: str, chunk: ProtectedChunk) -> tuple[bool, list[str]]:
        """(all present as often as in ``protected_text``?, the placeholders short of that, in order)."""
        missing = missing_occurrences(chunk.protected_text, text, chunk.expected_placeholders())
        return not missing, missing

    def restore(self, paraphrased_text: str, chunk: ProtectedChunk) -> str:
        """Put every term and parser original back (§7.3/§8), in one pass.

        Raises :class:`MissingPlaceholdersError` (E8) when a placeholder of
        ``protected_text`` is absent, :class:`UnknownPlaceholdersError` when the
        text has a placeholder-shaped token the chunk did not issue. Repeated
        placeholders restore at every occurrence.
        """
        if not isinstance(paraphrased_text, str):
            raise TypeError("paraphrased_text must be a str")
        if paraphrased_text == "" and chunk.protected_text != "":
            raise EmptyTextError("paraphrased_text is empty")
        ok, missing = self.validate_placeholders(paraphrased_text, chunk)
        if not ok:
            raise MissingPlaceholdersError(missing)
        strays = stray_tokens(paraphrased_text, chunk.protected_text, chunk.expected_placeholders())
        if strays:  # e.g. a stray <TERM_000> next to the correct token: refuse rather than leave it in
            raise UnknownPlaceholdersError(sorted(set(strays)))
        try:
            return restore_placeholders(paraphrased_text, chunk.placeholders(), strict=True)
        except UnknownPlaceholderError as exc:
            raise UnknownPlaceholdersError(exc.placeholders) from None


def restore_protected(protected_text: str, term_placeholders: dict[str, str], math_placeholders: dict[str, str],
                      *, expected_text: str | None = None) -> str:
    """Stored-row restoration (what the asset check runs): merged maps, single strict pass.

    Raises :class:`MissingPlaceholdersError` when an issued placeholder is absent (a parser placeholder
    swallowed by a term lives in that term's original), or, given ``expected_text`` (the protected text
    the answer came from), when one occurs fewer times than there.
    """
    restored = restore_placeholders(protected_text, {**math_placeholders, **term_placeholders}, strict=True)
    missing = ([p for p in term_placeholders if p not in protected_text]
               + [p for p, o in math_placeholders.items()
                  if p not in protected_text and not any(o in t for t in term_placeholders.values())])
    if expected_text is not None:
        missing = missing_occurrences(expected_text, protected_text, {**math_placeholders, **term_placeholders})
    if missing:
        raise MissingPlaceholdersError(missing)
    return restored


# ---------------------------------------------------------------------------
# Table shape of the `protected_chunks` asset and its restoration rule

PROTECTED_COLUMNS = [
    "doc_id", "chunk_index", "start", "end", "text", "protected_text",
    "term_placeholders", "math_placeholders", "terms", "n_terms",
]
TERM_FIELDS = ["placeholder", "original", "source", "label", "start", "end"]


def protected_frame(doc_id: str, chunks: Sequence[Chunk], protector: TermProtector):
    """One row per prose chunk of a document (NER runs once over all of them).

    ``text`` is the source slice (so the shared char-range check applies to
    chunk rows); ``terms`` lists every protected occurrence with absolute offsets.
    """
    import pandas as pd

    prose = [c for c in chunks if str(c.chunk_type) == ChunkType.PROSE]
    rows = []
    for pc in protector.protect_many(prose):
        c = pc.chunk
        rows.append([
            doc_id, c.index, c.start, c.end, c.source_text(), pc.protected_text,
            dict(pc.term_placeholders), dict(c.math_placeholders),
            [t.as_row() for t in pc.terms], len(pc.terms),
        ])
    df = pd.DataFrame(rows, columns=PROTECTED_COLUMNS)
    return df.astype({"chunk_index": "int64", "start": "int64", "end": "int64", "n_terms": "int64"})


def _as_dict(v: Any) -> dict[str, str]:
    if v is None:
        return {}
    if isinstance(v, dict):
        return v
    return dict(v)  # pyarrow map → list of pairs


def term_rows(df) -> list[dict[str, Any]]:
    """Flatten the ``terms`` column into span rows ``doc_id, start, end, text, ...``."""
    out = []
    for r in df.itertuples(index=False):
        for t in (r.terms if r.terms is not None else []):
            out.append({"doc_id": r.doc_id, "chunk_index": int(r.chunk_index), "start": t["start"],
                        "end": t["end"], "text": t["original"], "placeholder": t["placeholder"],
                        "source": t["source"]})
    return out


def restoration_failures(df, source: str) -> list[dict[str, Any]]:
    """Rows of a ``protected_chunks`` frame whose restoration is not byte-exact.

    Checks, per chunk: the single-pass restore of ``protected_text`` over the
    merged maps equals ``source[start:end]``; no placeholder-shaped token is
    unmapped; every issued TERM placeholder occurs in ``protected_text``; every
    term row's placeholder maps to that row's original.
    """
    out: list[dict[str, Any]] = []
    for r in df.itertuples(index=False):
        base = {"chunk_index": int(r.chunk_index), "start": int(r.start), "end": int(r.end)}
        terms_map, math_map = _as_dict(r.term_placeholders), _as_dict(r.math_placeholders)
        expected = source[int(r.start):int(r.end)]
        try:
            restored = restore_protected(r.protected_text, terms_map, math_map)
        except UnknownPlaceholderError as exc:
            out.append(base | {"reason": f"unmapped placeholder(s) survive: {', '.join(exc.placeholders[:5])}"})
            continue
        except MissingPlaceholdersError as exc:
            out.append(base | {"reason": f"placeholder(s) issued but absent from protected_text: {', '.join(exc.missing[:5])}"})
            continue
        if restored != expected:
            i = next((k for k, (a, b) in enumerate(zip(restored, expected)) if a != b), min(len(restored), len(expected)))
            out.append(base | {"reason": f"restored text differs from source[start:end] at offset {i}",
                               "expected": expected[max(0, i - 20):i + 40], "found": restored[max(0, i - 20):i + 40]})
            continue
        present = {m.group(0) for m in PLACEHOLDER_RE.finditer(r.protected_text)}
        unused = [p for p in terms_map if p not in present]
        if unused:
            out.append(base | {"reason": f"placeholder(s) issued but absent from protected_text: {', '.join(unused[:5])}"})
        for t in (r.terms if r.terms is not None else []):
            if terms_map.get(t["placeholder"]) != t["original"]:
                out.append(base | {"reason": f"term {t['placeholder']} at {t['start']} does not map to its original"})
                break
    return out
