"""Pass 1 — mentions for the index types ``subject`` and ``author`` (seed 003).

Two detectors produce :class:`Mention` objects with absolute, exact ranges:

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
import json
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence

from .nlp import spacy_input
from .parsing import Chunk
from .placeholders import PLACEHOLDER_RE
from .spans import Span, check_char_ranges

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
        return self.text[max(0, start - width): end + width]


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


_PARTICLES = {"van", "von", "de", "der", "den", "da", "di", "du", "la", "le", "del", "della", "bin", "ibn", "al", "ten", "ter"}
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
    re.compile(r"https?://\S+|www\.\S+"),
    re.compile(r"<[^<>\n]{1,200}>"),  # HTML tags
]
_MASK_TEX = [
    re.compile(r"(?<!\\)%[^\n]*"),
    re.compile(r"\\(?:cite[a-z]*|ref|eqref|autoref|cref|Cref|label|url|href|input|include|includegraphics|"
               r"begin|end|bibliography[a-z]*|usepackage|documentclass|newcommand|renewcommand|def)\*?"
               r"(?:\[[^\]\n]*\])*(?:\{[^{}\n]*\})?"),
    re.compile(r"\\[A-Za-z@]+\*?|\\."),
    re.compile(r"[{}~&^_$\[\]]"),
]
_MASK_MD = [
    re.compile(r"\]\([^)\n]*\)"),  # link targets
    re.compile(r"^---$[\s\S]*?^---$", re.M),  # front matter fences
    re.compile(r"^[ \t]*[A-Za-z_][\w-]*:(?=\s)", re.M),  # front matter / YAML keys
    re.compile(r"[*_#>|\[\]`\\]"),
]


def analysis_text(text: str, fmt: str) -> str:
    """``text`` with markup, URLs and placeholders blanked out (same length)."""
    chars = list(text)
    patterns = _MASK_COMMON + (_MASK_TEX if fmt == "tex" else _MASK_MD if fmt == "md" else [])
    for pat in patterns:
        for m in pat.finditer(text):
            for i in range(m.start(), m.end()):
                if chars[i] != "\n":
                    chars[i] = " "
    return "".join(chars)


# ---------------------------------------------------------------------------
# Embedded detector

_WORD = re.compile(r"^[A-Za-z][A-Za-z'’\-]*[A-Za-z]{2}$")
_MARKUP_CHARS = re.compile(r"[_*\\{}\[\]<>|#$%&~^`=@/]")
_CAMEL = re.compile(r"[a-z][A-Z]")
_ACRONYM = re.compile(r"^[A-Z][A-Z0-9\-]{1,9}s?$")
_NAME_TOKEN = re.compile(r"^(?:[A-Z][a-zà-ÿ'’\-]+(?:-[A-Z][a-zà-ÿ'’]+)?|[A-Z]\.|[A-Z][a-z]?[A-Z][a-z]+)$")
# Entities that are proper nouns of people/places/organizations or quantities: not subjects.
_NON_SUBJECT_ENTS = {"PERSON", "ORG", "GPE", "LOC", "NORP", "FAC", "DATE", "TIME", "MONEY", "QUANTITY",
                     "PERCENT", "CARDINAL", "ORDINAL"}
_TRIM_POS = {"DET", "PRON", "NUM", "PUNCT", "SYM", "X", "SPACE", "CCONJ", "ADP", "PART", "AUX", "ADV", "INTJ", "SCONJ"}
_MODIFIER_POS = {"NOUN", "PROPN", "ADJ", "VERB"}


@dataclass
class EmbeddedSettings:
    index_types: tuple[str, ...] = INDEX_TYPES
    max_words: int = 4
    # WordNet polysemy as a frequency proxy: words this ambiguous are everyday language.
    everyday_noun_senses: int = 15
    everyday_adj_senses: int = 6
    min_occurrences: dict[str, int] = field(default_factory=lambda: {"subject": 1, "author": 1})
    context_chars: int = 250


class WordSignals:
    """Cached WordNet signals used by the exclusions."""

    def __init__(self, wnet: Any):
        from .wordnet_senses import is_generic_noun, is_multiword_lemma, lexicon_cache, sense_count

        self.wnet = wnet
        self._is_generic = is_generic_noun
        self._is_mwe = is_multiword_lemma
        self._senses = sense_count
        self._cache: dict[tuple, Any] = lexicon_cache(wnet, "word_signals")

    def _memo(self, key: tuple, fn):
        try:
            return self._cache[key]
        except KeyError:
            v = self._cache[key] = fn()
            return v

    def senses(self, lemma: str, pos: str) -> int:
        return self._memo(("s", lemma, pos), lambda: self._senses(self.wnet, lemma, pos))

    def is_lemma(self, word: str, pos: str = "n") -> bool:
        """``word`` is itself a WordNet lemma (so "data" stays "data", not spaCy's "datum")."""
        def judge() -> bool:
            try:
                return any(w.lemma().lower() == word for w in self.wnet.words(word, pos=pos))
            except Exception:
                return False

        return self._memo(("l", word, pos), judge)

    def common_word(self, word: str) -> bool:
        """WordNet has ``word`` (or its base form) as a lower-case lemma: a common word, not a name."""
        def judge() -> bool:
            try:
                return any(w.lemma().islower() for w in self.wnet.words(word))
            except Exception:
                return False

        return self._memo(("c", word), judge)

    def generic(self, lemma: str) -> bool:
        return self._memo(("g", lemma), lambda: bool(self._is_generic(self.wnet, lemma)))

    def mwe(self, phrase: str) -> bool:
        return self._memo(("m", phrase), lambda: bool(self._is_mwe(self.wnet, phrase)))

    def structural(self, lemma: str) -> bool:
        """A part of a written work (chapter, section, appendix, figure, conclusion): the first
        noun sense is a direct "piece of writing" or descends from "section"/"matter"/"nontextual matter", or one of the
        first three senses is a kind of "section"/"subdivision" — read from WordNet's hypernyms."""
        def hits(synset, roots: set[str]) -> bool:
            for n, hyper in enumerate(synset.closure("hypernym")):
                if n > 12:
                    return False
                if roots & set(hyper.lemmas()):
                    return True
            return False

        def judge() -> bool:
            try:
                synsets = self.wnet.synsets(lemma, pos="n")
            except Exception:
                return False
            if not synsets:
                return False
            first = synsets[0]
            if hits(first, _STRUCTURAL_ROOTS) or any("piece of writing" in h.lemmas() for h in first.hypernyms()):
                return True
            return any(hits(s, _PART_ROOTS) for s in synsets[1:3])

        return self._memo(("struct", lemma), judge)


_STRUCTURAL_ROOTS = {"section", "subdivision", "nontextual matter", "matter"}
_PART_ROOTS = {"section", "subdivision"}


class EmbeddedDetector:
    """spaCy noun chunks + PERSON entities + WordNet multi-word lemmas, with signal-based exclusions."""

    name = "embedded"

    def __init__(self, nlp: Any, wnet: Any, settings: EmbeddedSettings | None = None):
        self.nlp = nlp
        self.signals = WordSignals(wnet)
        self.settings = settings or EmbeddedSettings()

    # -- public -----------------------------------------------------------

    def detect(self, text: str, chunks: Sequence[Chunk], fmt: str = "txt") -> list[Mention]:
        prose = [c for c in chunks if c.chunk_type == "prose" and c.text.strip()]
        masked = [analysis_text(c.text, fmt) for c in prose]
        out: list[Mention] = []
        for chunk, mtext, doc in zip(prose, masked, self.nlp.pipe([spacy_input(m) for m in masked], batch_size=64)):
            out.extend(self._chunk_mentions(text, chunk, mtext, doc))
        return self._apply_min_occurrences(out)

    # -- per chunk ----------------------------------------------------------

    def _span(self, text: str, chunk: Chunk, mtext: str, s: int, e: int) -> Span | None:
        """Absolute span of chunk-text range [s, e), or None when it touches a placeholder."""
        if PLACEHOLDER_RE.search(chunk.text, s, e) or any(
            m.start() < e and s < m.end() for m in PLACEHOLDER_RE.finditer(chunk.text, max(0, s - 12), e)
        ):
            return None
        try:
            a, b = chunk.offset_map().span_to_source(s, e)
        except ValueError:
            return None
        span = Span.of(text, a, b)
        if span.text != chunk.text[s:e] or _MARKUP_CHARS.search(span.text):
            return None  # markup inside (identifiers like brevity_penalty, LaTeX, emphasis)
        return span

    def _context(self, mtext: str, s: int, e: int) -> str:
        w = self.settings.context_chars
        return _WS.sub(" ", mtext[max(0, s - w): e + w]).strip()

    def _chunk_mentions(self, text: str, chunk: Chunk, mtext: str, doc: Any) -> list[Mention]:
        out: list[Mention] = []
        taken: list[tuple[int, int]] = []
        want = set(self.settings.index_types)
        blocked_ents = [(ent.start, ent.end) for ent in doc.ents if ent.label_ in _NON_SUBJECT_ENTS]
        if "author" in want:
            for ent in doc.ents:
                if ent.label_ != "PERSON":
                    continue
                toks = self._name_tokens(ent)
                if not toks:
                    continue
                s, e = toks[0].idx, toks[-1].idx + len(toks[-1].text)
                span = self._span(text, chunk, mtext, s, e)
                if span is None:
                    continue
                out.append(Mention(span.start, span.end, span.text, "author",
                                   author_label(" ".join(t.text for t in toks)), "spacy_ner:PERSON",
                                   lookup=" ".join(t.text for t in toks), context=self._context(mtext, s, e)))
                taken.append((s, e))
        if "subject" in want:
            for nc in doc.noun_chunks:
                if any(a < nc.end and nc.start < b for a, b in blocked_ents):
                    continue
                found = self._subject(nc)
                if found is None:
                    continue
                toks, detector, lookup = found
                s, e = toks[0].idx, toks[-1].idx + len(toks[-1].text)
                if any(a < e and s < b for a, b in taken):
                    continue
                span = self._span(text, chunk, mtext, s, e)
                if span is None:
                    continue
                label = _label_form(toks, self.signals)
                out.append(Mention(span.start, span.end, span.text, "subject", label, detector,
                                   lookup=lookup, pos="n", context=self._context(mtext, s, e)))
                taken.append((s, e))
        return out

    def _name_tokens(self, ent: Any) -> list[Any] | None:
        toks = [t for t in ent if not t.is_space]
        while toks and (toks[-1].text in {"'s", "’s", "'", "’"} or toks[-1].is_punct):
            toks.pop()
        # "Papineni et al." → "Papineni"
        words = [t.text for t in toks]
        if "et" in words:
            toks = toks[: words.index("et")]
        while toks and toks[0].is_punct:
            toks.pop(0)
        if not toks or len(toks) > 4:
            return None
        if not all(_NAME_TOKEN.match(t.text) or t.text.lower() in _PARTICLES for t in toks):
            return None
        if not any(len(t.text) > 2 and t.text[1:].islower() for t in toks):
            return None
        # Title-Case headings ("Record Layer", "Deep Learning") pass for names; WordNet stores proper
        # names capitalized and common words in lower case, so a "name" made only of common words is not one.
        words = [t.text.lower() for t in toks if len(t.text) > 2 and not t.text.endswith(".")]
        if words and all(self.signals.common_word(w) for w in words):
            return None
        return toks

    def _valid_word(self, tok: Any) -> bool:
        return bool(_WORD.match(tok.text)) and not _CAMEL.search(tok.text) or bool(_ACRONYM.match(tok.text))

    def _everyday_modifier(self, tok: Any) -> bool:
        if tok.is_stop:
            return True
        if tok.pos_ == "ADJ":
            return self.signals.senses(tok.lemma_.lower(), "a") + self.signals.senses(tok.lemma_.lower(), "s") \
                >= self.settings.everyday_adj_senses
        return False

    def _subject(self, nc: Any) -> tuple[list[Any], str, str] | None:
        toks = [t for t in nc]
        while toks and (toks[0].pos_ in _TRIM_POS or toks[0].is_stop or not self._valid_word(toks[0])):
            toks.pop(0)
        while toks and (toks[-1].pos_ in _TRIM_POS or not self._valid_word(toks[-1])):
            toks.pop()
        if not toks or toks[-1].pos_ not in {"NOUN", "PROPN"}:
            return None
        if not all(self._valid_word(t) and t.pos_ in _MODIFIER_POS for t in toks):
            return None
        # Longest WordNet multi-word lemma inside the chunk, ending anywhere.
        for n in range(min(len(toks), self.settings.max_words), 1, -1):
            for i in range(len(toks) - n, -1, -1):
                sub = toks[i:i + n]
                phrase = _lookup_form(sub, self.signals)
                if self.signals.mwe(phrase) and self.signals.senses(phrase, "n"):
                    return sub, "wordnet_mwe", phrase
        while len(toks) > 1 and self._everyday_modifier(toks[0]):
            toks.pop(0)
        if len(toks) > self.settings.max_words:
            return None
        lookup = _lookup_form(toks, self.signals)
        if len(toks) == 1:
            t = toks[0]
            if _ACRONYM.match(t.text) and t.text.isupper():
                return toks, "spacy_noun_chunk", t.text
            if t.pos_ != "NOUN" or t.is_stop or len(t.text) < 3:
                return None
            lemma = _head_lemma(t, self.signals)
            n_senses = self.signals.senses(lemma, "n")
            if not n_senses or n_senses >= self.settings.everyday_noun_senses:
                return None
            if self.signals.generic(lemma) or self.signals.structural(lemma):
                return None
            return toks, "spacy_noun_chunk", lemma
        head = toks[-1].lemma_.lower()
        if toks[-1].pos_ == "NOUN" and self.signals.structural(head) and len(toks) == 2:
            return None  # "next section", "final chapter"
        return toks, "spacy_noun_chunk", lookup

    def _apply_min_occurrences(self, mentions: list[Mention]) -> list[Mention]:
        mins = self.settings.min_occurrences
        counts = Counter((m.index_type, m.label.casefold()) for m in mentions)
        return [m for m in mentions if counts[(m.index_type, m.label.casefold())] >= mins.get(m.index_type, 1)]


def _is_name_like(tok: Any) -> bool:
    return tok.pos_ == "PROPN" or bool(_ACRONYM.match(tok.text))


def _head_lemma(tok: Any, signals: WordSignals | None) -> str:
    """spaCy's lemma for regular plurals; an irregular form that WordNet lists as a lemma
    itself stays ("data" rather than "datum")."""
    low = tok.text.lower()
    lemma = tok.lemma_.lower() or low
    if lemma == low or low in (lemma + "s", lemma + "es", lemma[:-1] + "ies"):
        return lemma
    if signals is not None and signals.is_lemma(low):
        return low
    return lemma


def _label_form(toks: Sequence[Any], signals: WordSignals | None = None) -> str:
    """Index label: common words lower-cased, the head lemmatized; names and acronyms kept as written."""
    words = [t.text if _is_name_like(t) else t.text.lower() for t in toks]
    last = toks[-1]
    if not _is_name_like(last):
        words[-1] = _head_lemma(last, signals)
    return " ".join(words)


def _lookup_form(toks: Sequence[Any], signals: WordSignals | None = None) -> str:
    """Lower-cased words, the head lemmatized: "Reference Translations" → "reference translation"."""
    words = [t.text.lower() for t in toks[:-1]] + [_head_lemma(toks[-1], signals)]
    return " ".join(words)


# ---------------------------------------------------------------------------
# LLM detector (Stage A)

STAGE_A_SYSTEM = """You will receive pages as structured objects with explicit text.

For each index entry you identify, return:
- label (the index term)
- pageNumber (which page it appears on)
- textQuote (MUST be an exact substring of pageText)
- charStart (0-indexed position where textQuote starts in pageText)
- charEnd (0-indexed position where textQuote ends in pageText)

CRITICAL: Validate that pageText.substring(charStart, charEnd) === textQuote
If you cannot find an exact substring match, skip that mention.

EXCLUDE:
- Common verbs (do, have, make, get, see)
- Generic nouns (thing, person, way, time)
- Everyday language (very, really, always, never)
- Structural terms (chapter, section, conclusion)
"""

INDEX_TYPE_CRITERIA = {
    "subject": """Subject index: identify KEY CONCEPTS, THEMES, and TECHNICAL TERMS discussed in the text.

INCLUDE:
- Specific concepts (e.g., "divine simplicity", "modal realism")
- Technical terms (e.g., "transubstantiation", "soteriology")
- Philosophical/theological themes (e.g., "free will", "incarnation")
- Abstract ideas discussed substantively (e.g., "virtue", "causation")

EXCLUDE:
- Proper nouns (people, places, organizations) - these belong in Author index
- Common verbs, generic nouns, everyday language
""",
    "author": """Author index: identify AUTHORS mentioned or discussed in the text.

INCLUDE:
- Proper names of authors, scholars, thinkers, writers
- Format: "LastName, FirstName" (e.g., "Aquinas, Thomas")
- Both cited sources and authors discussed as subjects
- Historical and contemporary figures

EXCLUDE:
- Fictional characters
- Hypothetical persons used in examples
- The current book's author (unless self-citing)
""",
}

RESPONSE_SHAPE = """Answer with JSON only, in this shape:
{"entries": [{"label": "divine simplicity", "indexType": "subject",
  "mentions": [{"pageNumber": 5, "textQuote": "divine simplicity", "charStart": 16, "charEnd": 33}]}]}
Report mentions only for the page whose pageNumber equals primaryPage; the other pages are context."""

STRICT_NOTE = """STRICT MODE. Your previous answer had mentions whose textQuote is not pageText[charStart:charEnd]:
{failures}
Copy every textQuote character for character from pageText (same case, same whitespace, same punctuation).
charStart and charEnd count characters of pageText from 0; charEnd - charStart == length of textQuote.
Skip any mention you cannot quote exactly."""


def stage_a_system_prompt(index_types: Sequence[str]) -> str:
    """The composable Stage A prompt: base + one criteria module per index type + response shape."""
    return "\n".join([STAGE_A_SYSTEM] + [INDEX_TYPE_CRITERIA[t] for t in index_types] + [RESPONSE_SHAPE])


@dataclass(frozen=True, slots=True)
class Page:
    number: int
    start: int
    end: int
    text: str


def llm_pages(layout: TextLayout, max_chars: int = 6000) -> list[Page]:
    """Pages for Stage A: real pages (form feeds), long ones cut at line ends; they tile the text."""
    out: list[Page] = []
    text = layout.text
    for ps, pe in layout.page_ranges():
        pos = ps
        while pos < pe:
            end = min(pe, pos + max_chars)
            if end < pe:
                cut = text.rfind("\n", pos, end)
                if cut <= pos:
                    cut = text.rfind(" ", pos, end)
                end = cut + 1 if cut > pos else end
            out.append(Page(len(out) + 1, pos, end, text[pos:end]))
            pos = end
    return out


@dataclass
class StageAStats:
    windows: int = 0
    llm_calls: int = 0
    retries: int = 0
    valid: int = 0
    reanchored: int = 0
    recovered_by_retry: int = 0
    split: int = 0
    rejected_boundary: int = 0
    rejected_invalid: int = 0
    context_page_skipped: int = 0
    duplicates: int = 0

    def as_dict(self) -> dict[str, int]:
        return dict(self.__dict__)


class LLMMentionDetector:
    """Stage A over sliding windows: one primary page + ``context_pages`` following pages."""

    name = "llm"

    def __init__(self, client: Any, *, index_types: Sequence[str] = INDEX_TYPES, page_chars: int = 6000,
                 context_pages: int = 1, boundary: str = "split", reanchor_radius: int = 300):
        if boundary not in BOUNDARY_POLICIES:
            raise ValueError(f"boundary policy {boundary!r} is not one of {BOUNDARY_POLICIES}")
        self.client = client
        self.index_types = tuple(index_types)
        self.page_chars = page_chars
        self.context_pages = context_pages
        self.boundary = boundary
        self.radius = reanchor_radius
        self.stats = StageAStats()

    @property
    def model(self) -> str:
        return getattr(getattr(self.client, "config", None), "model", "?")

    def detect(self, layout: TextLayout) -> list[Mention]:
        pages = llm_pages(layout, self.page_chars)
        found: dict[tuple[int, int, str], Mention] = {}
        for i, primary in enumerate(pages):
            if not primary.text.strip():
                continue
            window = pages[i: i + 1 + self.context_pages]
            self.stats.windows += 1
            for m in self._window(layout, window, primary):
                key = (m.start, m.end, m.index_type)
                if key in found:
                    self.stats.duplicates += 1
                    continue
                found[key] = m
        return sorted(found.values(), key=lambda m: (m.start, m.end))

    # -- one window -----------------------------------------------------------

    def _messages(self, window: Sequence[Page], primary: Page, failures: list[str] | None) -> list[dict[str, str]]:
        payload = {"pages": [{"pageNumber": p.number, "pageText": p.text} for p in window],
                   "indexTypes": list(self.index_types), "primaryPage": primary.number}
        system = stage_a_system_prompt(self.index_types)
        if failures is not None:
            system += "\n\n" + STRICT_NOTE.format(failures="\n".join(failures[:20]) or "- (reply was not valid JSON)")
        return [{"role": "system", "content": system}, {"role": "user", "content": json.dumps(payload, ensure_ascii=False)}]

    def _ask(self, window: Sequence[Page], primary: Page, failures: list[str] | None) -> Any:
        from .llm import LLMError

        self.stats.llm_calls += 1
        try:
            return self.client.chat_json(self._messages(window, primary, failures))
        except LLMError as exc:
            if exc.kind == "invalid_json":
                return exc
            raise MentionDetectionError(f"page {primary.number}: {exc}") from exc

    def _window(self, layout: TextLayout, window: Sequence[Page], primary: Page) -> list[Mention]:
        reply = self._ask(window, primary, None)
        good, failures = self._validate(layout, window, primary, reply, status="valid")
        if failures:
            self.stats.retries += 1
            retry = self._ask(window, primary, failures)
            more, still = self._validate(layout, window, primary, retry, status="retried")
            if isinstance(retry, Exception) and isinstance(reply, Exception):
                raise MentionDetectionError(f"page {primary.number}: invalid JSON twice: {retry}")
            have = {(m.start, m.end, m.index_type) for m in good}
            for m in more:
                if (m.start, m.end, m.index_type) not in have:
                    good.append(m)
                    self.stats.recovered_by_retry += m.validation_status == "retried"
            self.stats.rejected_invalid += len(still) if not isinstance(retry, Exception) else len(failures)
        return good

    def _validate(self, layout: TextLayout, window: Sequence[Page], primary: Page, reply: Any,
                  status: str) -> tuple[list[Mention], list[str]]:
        if isinstance(reply, Exception) or not isinstance(reply, dict) or not isinstance(reply.get("entries"), list):
            return [], ["- the reply was not the JSON object {\"entries\": [...]}"]
        by_number = {p.number: p for p in window}
        good: list[Mention] = []
        failures: list[str] = []
        for entry in reply["entries"]:
            if not isinstance(entry, dict):
                continue
            itype = entry.get("indexType")
            if itype not in self.index_types:
                continue
            label = str(entry.get("label") or "").strip()
            for raw in entry.get("mentions") or []:
                if not isinstance(raw, dict):
                    continue
                page = by_number.get(raw.get("pageNumber"))
                if page is None:
                    failures.append(f"- pageNumber {raw.get('pageNumber')!r} is not in this window")
                    continue
                if page.number != primary.number:
                    self.stats.context_page_skipped += 1  # found again when that page is primary
                    continue
                ms, why = self._anchor(layout, page, raw, itype, label, status)
                if why:
                    failures.append(f"- {why}")
                good.extend(ms)
        return good, failures

    def _anchor(self, layout: TextLayout, page: Page, raw: dict, itype: str, label: str,
                status: str) -> tuple[list[Mention], str | None]:
        """Mentions for one reported mention, or the reason it could not be anchored."""
        quote, cs, ce = raw.get("textQuote"), raw.get("charStart"), raw.get("charEnd")
        if not isinstance(quote, str) or not quote.strip():
            return [], f"empty textQuote on page {page.number}"
        if not isinstance(cs, int) or isinstance(cs, bool):
            cs = None
        if not isinstance(ce, int) or isinstance(ce, bool):
            ce = None
        label = label or quote
        if itype == "author" and "," not in label:
            label = author_label(label)

        def mk(a: int, b: int, st: str) -> Mention:
            return Mention(a, b, layout.text[a:b], itype, label, f"llm:{self.model}", lookup=label if itype == "author" else label.lower(),
                           context=layout.context(a, b), validation_status=st)

        if cs is not None and ce is not None and 0 <= cs <= ce <= len(page.text) and page.text[cs:ce] == quote:
            self.stats.valid += status == "valid"
            return [mk(page.start + cs, page.start + ce, status)], None
        text = layout.text
        hint = page.start + (cs if cs is not None else 0)
        # Re-anchor: the exact occurrence nearest to the given offset, on this page or
        # starting on it and running into the next page (then the boundary policy applies).
        lo = page.start if cs is None else max(page.start, hint - self.radius)
        hi = page.end if cs is None else min(page.end, hint + self.radius + 1)
        occ = []
        j = text.find(quote, lo, hi + len(quote) - 1)
        while j != -1 and j < hi:
            occ.append(j)
            j = text.find(quote, j + 1, hi + len(quote) - 1)
        if occ:
            o = min(occ, key=lambda o: abs(o - hint))
            if o + len(quote) > page.end:
                return self._boundary(layout, page, o, o + len(quote), mk), None
            self.stats.reanchored += 1
            return [mk(o, o + len(quote), "reanchored" if status == "valid" else status)], None
        found = page.text[cs:ce] if cs is not None and ce is not None else None
        return [], f"page {page.number}: textQuote {quote!r} at [{cs}, {ce}) but pageText there is {found!r}"

    def _boundary(self, layout: TextLayout, page: Page, a: int, b: int, mk) -> list[Mention]:
        if self.boundary == "reject":
            self.stats.rejected_boundary += 1
            return []
        out = []
        for s, e in ((a, page.end), (page.end, b)):
            seg = layout.text[s:e]
            s += len(seg) - len(seg.lstrip())
            e -= len(seg) - len(seg.rstrip())
            if e > s:
                out.append(mk(s, e, "split"))
        self.stats.split += 1
        return out
