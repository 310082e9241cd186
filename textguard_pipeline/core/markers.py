"""Marker candidates and the StructureNumberingGate v2.1 (seed 004).

A *marker* is a "word + number" string that identifies what a document is
about ("iPhone 15", "TLS 1.3", "ISO 27001"). The pipeline is

    CandidateMiner  →  CandidateGate  →  StructureNumberingGate  →  fallback

* ``CandidateMiner`` finds occurrences of three kinds: ``entity_numeral``
  ("Word N", N of 1–2 digits, always a *weak* candidate), ``versioned_name``
  ("TLS 1.3", "Python 3.11", "GPT-4", "HTTP/2") and ``standard_id``
  ("ISO 27001", "RFC 9110"), with line and page (form feeds or explicit
  page-break markers).
* ``CandidateGate`` drops occurrences that are dates, years, copyright lines,
  page numbers, times or percentages — each one pattern.
* ``StructureNumberingGate`` separates product/version numbers from structural
  numbering (page footers "PUBLIC 3", section labels) using three signals
  computed from the document itself: S1 same-prefix sequence, S2 structural
  position, S3 prefix almost always numbered; the §4 matrix turns them into
  HARD_REJECT / SOFT_FLAG / LOW.

ADR constraint of the seed: no hard-coded word lists. Every decision comes
from patterns and from the document's own statistics and positions.
No Dagster imports here.
"""

from __future__ import annotations

import bisect
import json
import logging
import os
import re
from dataclasses import dataclass, field, fields
from typing import Any, Iterable, Protocol, Sequence

from .spans import Span

__all__ = [
    "HARD_REJECT", "SOFT_FLAG", "LOW", "FALLBACK", "GATE_OFF", "KINDS",
    "SECTION_POSITION_PATTERNS", "MarkerOccurrence", "MarkerCandidate", "SequenceDetectionResult",
    "StructureGateConfig", "gate_config_from_env", "PageIndex", "CandidateMiner", "CandidateGate",
    "StructureNumberingGate", "GateResult", "MiningResult", "group_occurrences",
    "detect_sequence", "detect_sequences", "check_position_indicator", "check_prefix_mostly_numbered",
    "compute_structure_risk",
]

logger = logging.getLogger(__name__)

HARD_REJECT = "HARD_REJECT"
SOFT_FLAG = "SOFT_FLAG"
LOW = "LOW"
FALLBACK = "FALLBACK"
GATE_OFF = "GATE_OFF"

ENTITY_NUMERAL = "entity_numeral"
VERSIONED_NAME = "versioned_name"
STANDARD_ID = "standard_id"
KINDS = (ENTITY_NUMERAL, VERSIONED_NAME, STANDARD_ID)

SOFT_FLAG_ACTIONS = ("llm", "weak_marker")


class _Log(Protocol):  # logging.Logger and Dagster's context.log both fit
    def info(self, msg: str, *a: Any) -> Any: ...
    def warning(self, msg: str, *a: Any) -> Any: ...


# ---------------------------------------------------------------------------
# Configuration (seed §5, rollback §10)


@dataclass
class StructureGateConfig:
    """Configuration of the StructureNumberingGate (seed §5; §10 rollback switches)."""

    #: False = rollback: every candidate passes, no signal is computed.
    enabled: bool = True
    #: S1 length from which, with S2 or S3, a candidate is HARD_REJECTed.
    sequence_threshold: int = 3
    #: what SOFT_FLAG does: "llm" (ask the endpoint, else weak) or "weak_marker".
    soft_flag_action: str = "llm"
    #: K markers kept (tagged FALLBACK) when the gate would leave a document silent.
    fallback_max_markers: int = 3
    #: log every setting that differs from the default when a gate is built.
    log_config_changes: bool = True

    def __post_init__(self) -> None:
        if self.soft_flag_action not in SOFT_FLAG_ACTIONS:
            raise ValueError(f"soft_flag_action must be one of {SOFT_FLAG_ACTIONS}, got {self.soft_flag_action!r}")
        if self.sequence_threshold < 2:
            raise ValueError(f"sequence_threshold must be >= 2, got {self.sequence_threshold}")
        if self.fallback_max_markers < 0:
            raise ValueError(f"fallback_max_markers must be >= 0, got {self.fallback_max_markers}")

    def changes_from_default(self) -> dict[str, tuple[Any, Any]]:
        """{field: (default, value)} for every setting that is not the default."""
        default = StructureGateConfig()
        return {f.name: (getattr(default, f.name), getattr(self, f.name))
                for f in fields(self) if getattr(self, f.name) != getattr(default, f.name)}


def _env_bool(value: str) -> bool:
    v = value.strip().lower()
    if v in ("1", "true", "yes", "on"):
        return True
    if v in ("0", "false", "no", "off"):
        return False
    raise ValueError(f"not a boolean: {value!r}")


def gate_config_from_env(env: dict[str, str] | None = None) -> StructureGateConfig:
    """Config from ``TEXTGUARD_MARKERS_GATE`` (on/off), ``TEXTGUARD_MARKERS_SEQUENCE_THRESHOLD``,
    ``TEXTGUARD_MARKERS_SOFT_FLAG_ACTION``, ``TEXTGUARD_MARKERS_FALLBACK_MAX``."""
    env = dict(os.environ if env is None else env)
    d = StructureGateConfig()
    return StructureGateConfig(
        enabled=_env_bool(env.get("TEXTGUARD_MARKERS_GATE", "on")),
        sequence_threshold=int(env.get("TEXTGUARD_MARKERS_SEQUENCE_THRESHOLD", d.sequence_threshold)),
        soft_flag_action=env.get("TEXTGUARD_MARKERS_SOFT_FLAG_ACTION", d.soft_flag_action).strip(),
        fallback_max_markers=int(env.get("TEXTGUARD_MARKERS_FALLBACK_MAX", d.fallback_max_markers)),
    )


# ---------------------------------------------------------------------------
# Data types


@dataclass
class MarkerOccurrence:
    """One match of a marker pattern in the document (absolute offsets)."""

    span: Span
    prefix: str
    number: str
    kind: str
    line: int
    page: int
    #: name of the CandidateGate filter that dropped it (None = it passed)
    filtered_by: str | None = None

    @property
    def value(self) -> str:
        return self.span.text

    @property
    def is_weak_candidate(self) -> bool:
        return self.kind == ENTITY_NUMERAL


@dataclass
class MarkerCandidate:
    """A distinct marker value with its occurrences and the gate's verdict."""

    value: str
    prefix: str = ""
    number: str = ""
    kind: str = ENTITY_NUMERAL
    is_weak_candidate: bool = False
    occurrences: int = 0
    pages_covered: int = 0
    structure_risk: str = LOW
    structure_risk_reason: str = ""
    structure_fallback: bool = False
    spans: list[Span] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)
    pages: list[int] = field(default_factory=list)
    # signals and outcome, set by the gate
    s1_sequence: int | None = None
    s2_position: bool | None = None
    s3_prefix_numbered: bool | None = None
    decision: str | None = None  # the §4 matrix result (structure_risk may later become FALLBACK)
    action: str = ""  # keep | reject | weak | llm_keep | llm_reject | fallback | gate_off
    kept: bool = True

    @classmethod
    def from_value(cls, value: str, kind: str | None = None, **kw: Any) -> "MarkerCandidate":
        """A candidate from its text alone ("PUBLIC 3" → prefix PUBLIC, number 3)."""
        prefix, number = split_value(value)
        if kind is None:
            kind = ENTITY_NUMERAL if _INT_RE.fullmatch(number or "x") and len(number) <= 2 and prefix else (
                VERSIONED_NAME if "." in number else STANDARD_ID)
        kw.setdefault("is_weak_candidate", kind == ENTITY_NUMERAL)
        kw.setdefault("occurrences", 1)
        kw.setdefault("pages_covered", 1)
        return cls(value=value, prefix=prefix, number=number, kind=kind, **kw)

    @property
    def int_number(self) -> int | None:
        """The number as an int when it is a plain integer (dotted versions are not)."""
        return int(self.number) if _INT_RE.fullmatch(self.number or "x") else None

    def add(self, occ: MarkerOccurrence) -> None:
        self.spans.append(occ.span)
        self.lines.append(occ.line)
        self.pages.append(occ.page)
        self.occurrences = len(self.spans)
        self.pages_covered = len(set(self.pages))


@dataclass(frozen=True)
class SequenceDetectionResult:
    """S1 for one prefix: its distinct integer numbers and longest consecutive run."""

    prefix: str
    numbers: tuple[int, ...]
    longest_run: int
    run: tuple[int, ...]  # the numbers of (the first) longest run

    @property
    def distinct(self) -> int:
        return len(self.numbers)


_INT_RE = re.compile(r"\d+")


def split_value(value: str) -> tuple[str, str]:
    """("PUBLIC 3") → ("PUBLIC", "3"); ("GPT-4") → ("GPT", "4"); ("2.6") → ("", "2.6")."""
    m = re.fullmatch(r"(.*?)[\s\-/]*(v?\d[\d.:\-]*)", value.strip())
    if not m:
        return value.strip(), ""
    return m.group(1).strip(), m.group(2)


# ---------------------------------------------------------------------------
# Pages and lines


#: explicit page breaks besides the form feed: LaTeX \newpage/\clearpage/\pagebreak,
#: an HTML comment "<!-- pagebreak -->" / "<!-- page break -->", a CSS page-break div.
PAGE_BREAK_RE = re.compile(
    r"\f"
    r"|^[ \t]*\\(?:newpage|clearpage|pagebreak)\b"
    r"|<!--\s*page[\s_-]?break\s*-->"
    r"|<div[^>]*page-break-(?:before|after)\s*:\s*always[^>]*>",
    re.M | re.I,
)


class PageIndex:
    """Line and page of an offset (pages split at form feeds or explicit page breaks)."""

    def __init__(self, text: str):
        self._newlines = [m.start() for m in re.finditer("\n", text)]
        self._breaks = [m.start() for m in PAGE_BREAK_RE.finditer(text)]

    @property
    def n_pages(self) -> int:
        return len(self._breaks) + 1

    def line(self, pos: int) -> int:
        return bisect.bisect_left(self._newlines, pos) + 1

    def page(self, pos: int) -> int:
        return bisect.bisect_right(self._breaks, pos) + 1


# ---------------------------------------------------------------------------
# CandidateMiner

# A prefix is a word of letters (any script), hyphenated parts allowed ("Wi-Fi");
# it must contain an upper-case letter (checked in code: `re` has no \p{Lu}).
_WORD = r"[^\W\d_]+(?:-[^\W\d_]+)*"
_HSP = r"[ \t\u00a0\u202f]+"  # horizontal space only: "Word\nN" is wrapped text, not a marker
_LEFT = r"(?<![\w\-./])"

_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    # "TLS 1.3", "Python 3.11", "iOS 17.4.1", "Version v2.0"
    (VERSIONED_NAME, re.compile(rf"{_LEFT}(?P<prefix>{_WORD}){_HSP}(?P<number>v?\d{{1,4}}(?:\.\d{{1,3}}){{1,3}})(?![\w.]*\d|\w)")),
    # "GPT-4", "AES-256", "GPT-3.5", "HTTP/2", "HTTP/1.1"
    (VERSIONED_NAME, re.compile(rf"{_LEFT}(?P<prefix>[^\W\d_]+)[-/](?P<number>\d{{1,4}}(?:\.\d{{1,3}}){{0,3}})(?![\w]|[.,\-/]\d)")),
    # "ISO 27001", "RFC 9110", "ISO/IEC 27001:2013", "IEC 62443-3-3"
    (STANDARD_ID, re.compile(rf"{_LEFT}(?P<prefix>[^\W\d_]+(?:/[^\W\d_]+)?){_HSP}(?P<number>\d{{3,6}}(?:[-:]\d{{1,4}})*)(?![\w]|[.,]\d)")),
    # "iPhone 15", "PUBLIC 3", "Stage 2" — always weak
    (ENTITY_NUMERAL, re.compile(rf"{_LEFT}(?P<prefix>{_WORD}){_HSP}(?P<number>\d{{1,2}})(?![\w]|[.,]\d)")),
]


def _has_upper(word: str) -> bool:
    return any(ch.isupper() for ch in word)


@dataclass
class MiningResult:
    """Everything `CandidateMiner.mine_document` found and decided."""

    occurrences: list[MarkerOccurrence]
    candidates: list[MarkerCandidate]
    gate: "GateResult"

    @property
    def markers(self) -> list[MarkerCandidate]:
        return self.gate.kept


class CandidateMiner:
    """Finds marker occurrences, applies the CandidateGate, then the StructureNumberingGate."""

    def __init__(self, config: StructureGateConfig | None = None, candidate_gate: "CandidateGate | None" = None,
                 structure_gate: "StructureNumberingGate | None" = None):
        self.config = config or StructureGateConfig()
        self.candidate_gate = candidate_gate or CandidateGate()
        self.structure_gate = structure_gate or StructureNumberingGate(self.config)

    def find_occurrences(self, text: str, exclude: Iterable[tuple[int, int]] = ()) -> list[MarkerOccurrence]:
        """Every occurrence in ``text`` (left to right), each marked by the CandidateGate.

        ``exclude``: absolute ranges (code, math) where nothing is mined.
        """
        excl = sorted(exclude)
        excl_starts = [s for s, _ in excl]
        index = PageIndex(text)
        # a position belongs to the first pattern that claims it; sorted and disjoint, so an
        # overlap test is one bisect (a linear scan made a 2 MB document quadratic)
        taken: list[tuple[int, int]] = []
        taken_starts: list[int] = []
        found: list[MarkerOccurrence] = []
        for kind, pattern in _PATTERNS:
            for m in pattern.finditer(text):
                prefix = m.group("prefix")
                if not _has_upper(prefix):
                    continue
                s, e = m.start(), m.end()
                if _inside(taken, taken_starts, s, e) or _inside(excl, excl_starts, s, e):
                    continue
                i = bisect.bisect_left(taken_starts, s)
                taken.insert(i, (s, e))
                taken_starts.insert(i, s)
                found.append(MarkerOccurrence(Span.of(text, s, e, kind), prefix, m.group("number"), kind,
                                              index.line(s), index.page(s)))
        found.sort(key=lambda o: o.span.start)
        for occ, why in zip(found, self.candidate_gate.reasons(found, text)):
            occ.filtered_by = why
        return found

    def mine_document(self, text: str, doc_id: str = "", exclude: Iterable[tuple[int, int]] = (),
                      log: _Log | None = None) -> MiningResult:
        """Mine, filter and gate one document (the whole seed pipeline)."""
        occurrences = self.find_occurrences(text, exclude)
        candidates = group_occurrences(occurrences)
        gate = self.structure_gate.run(candidates, text, doc_id, log=log)
        return MiningResult(occurrences, candidates, gate)


def _inside(excl: list[tuple[int, int]], starts: list[int], s: int, e: int) -> bool:
    """Whether [s, e) overlaps one of the sorted, disjoint ranges ``excl``."""
    i = bisect.bisect_left(starts, e) - 1
    return i >= 0 and excl[i][1] > s


def group_occurrences(occurrences: Iterable[MarkerOccurrence]) -> list[MarkerCandidate]:
    """One candidate per distinct value, from the occurrences the CandidateGate let through."""
    by_value: dict[str, MarkerCandidate] = {}
    for occ in occurrences:
        if occ.filtered_by:
            continue
        c = by_value.get(occ.value)
        if c is None:
            c = by_value[occ.value] = MarkerCandidate(occ.value, occ.prefix, occ.number, occ.kind,
                                                      is_weak_candidate=occ.is_weak_candidate)
        c.add(occ)
    return list(by_value.values())


# ---------------------------------------------------------------------------
# CandidateGate: the pre-existing filters the seed presupposes, one pattern each

_YEAR = r"(?:1[89]\d\d|20\d\d)(?![.,]?\d)"


class CandidateGate:
    """Drops occurrences that are dates, years, copyright lines, page numbers, times, percentages.

    Each filter is one regular expression searched in the occurrence's line; it
    fires when a match overlaps the occurrence (or anywhere on the line for
    line-level filters). No word lists; the first filter that fires names the reason.
    """

    #: name → (pattern, line_level). Case-insensitive except inside ``(?-i:...)``.
    FILTERS: dict[str, tuple[str, bool]] = {
        # a copyright line
        "copyright": (r"©|\(c\)|\bcopyright\b", True),
        # "page 3", "Page 3 of 12", "p. 3", "[Page 3]", "Slide 3/12"
        "page": (r"(?<!\w)(?:page|p\.)[ \t]*\d+(?:[ \t]*(?:of|/)[ \t]*\d+)?"
                 r"|(?<![\w/])[^\W\d_]+[ \t]+\d+[ \t]*(?:of|/)[ \t]*\d+\b", False),
        # 10:30, 9:05:12
        "time": (r"\b\d{1,2}:\d\d(?::\d\d)?\b", False),
        # 95 %, 95%, 12.5%, 3‰
        "percentage": (r"\d+(?:[.,]\d+)?[ \t\u00a0\u202f]*[%‰]", False),
        # 2024-01-07, 07/01/2024, 7.1.2024, "March 7, 2024", and month-precision dates
        # "March 2024" / "July 2018" (a Title-case word followed by a year)
        "date": (rf"\b\d{{4}}-\d{{1,2}}-\d{{1,2}}\b|\b\d{{1,2}}[/.]\d{{1,2}}[/.]\d{{2,4}}\b"
                 rf"|(?-i:\b[A-Z][a-z]+)[ \t]+\d{{1,2}},?[ \t]+{_YEAR}|(?-i:\b[A-Z][a-z]+)[ \t]+{_YEAR}", False),
        # a bare year after any word that is not an all-caps acronym ("RFC 2119" is an identifier)
        "year": (rf"(?-i:\b[^\W\d_]*[^\W\dA-Z_][^\W\d_]*)[ \t]+{_YEAR}", False),
    }

    def __init__(self, filters: dict[str, tuple[str, bool]] | None = None):
        self.filters = [(name, re.compile(p, re.I), whole)
                        for name, (p, whole) in (self.FILTERS if filters is None else filters).items()]

    def reason(self, occ: MarkerOccurrence, text: str) -> str | None:
        """Name of the first filter that fires on ``occ`` (None = it passes)."""
        return self.reasons([occ], text)[0]

    def reasons(self, occurrences: Sequence[MarkerOccurrence], text: str) -> list[str | None]:
        """``reason`` of each occurrence; each line is searched once, however many occurrences it has
        (searching the line per occurrence made one long line with many markers quadratic)."""
        lines: dict[tuple[int, int], list[tuple[str, bool, list[int], list[tuple[int, int]]]]] = {}
        out: list[str | None] = []
        for occ in occurrences:
            ls = text.rfind("\n", 0, occ.span.start) + 1
            le = text.find("\n", occ.span.end)
            le = len(text) if le < 0 else le
            hits = lines.get((ls, le))
            if hits is None:
                line = text[ls:le]
                hits = []
                for name, rx, whole in self.filters:
                    spans = [m.span() for m in rx.finditer(line)]
                    hits.append((name, whole, [a for a, _ in spans], spans))
                lines[(ls, le)] = hits
            s, e = occ.span.start - ls, occ.span.end - ls
            why = None
            for name, whole, starts, spans in hits:
                # matches of one regex are sorted and disjoint: the last one starting before e
                # has the largest end of those, so it overlaps [s, e) iff any of them does
                if spans and (whole or _inside(spans, starts, s, e)):
                    why = name
                    break
            out.append(why)
        return out


# ---------------------------------------------------------------------------
# StructureNumberingGate v2.1: signals S1 / S2 / S3 and the §4 matrix

#: S2 (seed §3.2), per candidate: the candidate opens its line and either stands alone
#: on it, or is followed by ":", ".", "-" (not a decimal, sub-number or compound:
#: "PUBLIC 3.2" is not "PUBLIC 3.", "64-bit" is not "64 -"). ``{v}`` = the escaped candidate.
SECTION_POSITION_PATTERNS = [
    r"^[ \t\f]*{v}[ \t]*(?:[:\u2013\u2014]|-(?!\w)|\.(?!\d))",  # "PUBLIC 3:" / "PUBLIC 3." / "PUBLIC 3 -"
    r"^[ \t\f]*{v}[ \t\f]*\r?$",  # "PUBLIC 3" alone on its line
]

#: S1 counts numbers of 1–2 digits, the numeral of the seed's ENTITY_NUMERAL, S2 and S3
#: patterns: page and section numbering; identifiers such as RFC 6961/6962 are not numbering.
S1_MAX_DIGITS = 2


def detect_sequences(candidates: Iterable[MarkerCandidate]) -> dict[str, SequenceDetectionResult]:
    """S1 for every prefix: longest run of consecutive integers among the SAME prefix's numbers.

    NON-NEGOTIABLE (seed §3.1): only "X N" with the same prefix X count; isolated
    numbers of the document never do. Dotted versions ("TLS 1.3") are not integers
    and never extend a run.
    """
    numbers: dict[str, set[int]] = {}
    for c in candidates:
        if not c.prefix:
            continue
        n = c.int_number
        bucket = numbers.setdefault(c.prefix, set())
        if n is not None and len(c.number) <= S1_MAX_DIGITS:
            bucket.add(n)
    out = {}
    for prefix, nums in numbers.items():
        ordered = sorted(nums)
        best, best_end, cur = (1 if ordered else 0), (ordered[0] if ordered else 0), 1
        for i in range(1, len(ordered)):
            cur = cur + 1 if ordered[i] == ordered[i - 1] + 1 else 1
            if cur > best:
                best, best_end = cur, ordered[i]
        best = max(best, 1)  # a prefix with only dotted versions still has a "run" of 1 (seed §9.3)
        run = tuple(range(best_end - best + 1, best_end + 1)) if ordered else ()
        out[prefix] = SequenceDetectionResult(prefix, tuple(ordered), best, run)
    return out


def detect_sequence(prefix: str, candidates: Iterable[MarkerCandidate]) -> int:
    """S1 of ``prefix``: "PUBLIC 1", "PUBLIC 2", "PUBLIC 3" → 3; "PUBLIC 1", "PUBLIC 3" → 1."""
    res = detect_sequences(c for c in candidates if c.prefix == prefix)
    return res[prefix].longest_run if prefix in res else 1


def _continues_sentence(full_text: str, line_start: int) -> bool:
    """Whether the line at ``line_start`` continues a hard-wrapped sentence: the previous
    line is not blank and ends with a lower-case letter or a comma ("... used with\n TLS 1.3.")."""
    if line_start == 0:
        return False
    prev_start = full_text.rfind("\n", 0, line_start - 1) + 1
    prev = full_text[prev_start: line_start - 1].rstrip()
    return bool(prev) and (prev[-1].islower() or prev[-1] == ",")


class _PositionIndex:
    """S2 for many candidates of one document: lines bucketed by their first characters,
    so each candidate is tested against the few lines that can start with it."""

    KEY = 3

    def __init__(self, full_text: str):
        self.text = full_text
        self.buckets: dict[str, list[tuple[int, str]]] = {}
        pos = 0
        for line in full_text.split("\n"):
            body = line.lstrip(" \t\f")
            if body:
                self.buckets.setdefault(body[: self.KEY], []).append((pos, line))
            pos += len(line) + 1

    def has(self, candidate_value: str) -> bool:
        lines = self.buckets.get(candidate_value[: self.KEY], ())
        if not lines:
            return False
        v = re.escape(candidate_value)
        punct, alone = (re.compile(p.replace("{v}", v)) for p in SECTION_POSITION_PATTERNS)
        for start, line in lines:
            if alone.match(line):
                return True
            if punct.match(line) and not _continues_sentence(self.text, start):
                return True
        return False


def check_position_indicator(candidate_value: str, full_text: str) -> bool:
    """S2: the candidate opens a line and stands alone on it, or is followed by ":" / "." / "-".

    The punctuation form does not count on a line that continues a wrapped sentence
    (a sentence ending "... with\n   TLS 1.3." is prose, not a heading).
    """
    return _PositionIndex(full_text).has(candidate_value)


_NUMBERED_AFTER = re.compile(r"\s+(\d{1,2})\b")
_DIGIT_AFTER = re.compile(r"\s+\d")


def _is_word_char(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


def check_prefix_mostly_numbered(prefix: str, full_text: str) -> bool:
    """S3 (the robust definition, seed §3.3): the prefix is almost always followed by a number.

    TRUE iff count("X N") >= 3 and count(X not followed by a number) <= 1 and
    the numbers take >= 2 distinct values. Case-sensitive, as the seed. Same counts as
    the seed's ``\\bX\\s+\\d{1,2}\\b`` and ``\\bX\\b(?!\\s+\\d)``, found by a literal
    search first (fast on long documents).
    """
    if not prefix:
        return False
    numbered: list[str] = []
    standalone = 0
    for m in re.finditer(re.escape(prefix), full_text):
        s, e = m.start(), m.end()
        if (s > 0 and _is_word_char(full_text[s - 1])) or (e < len(full_text) and _is_word_char(full_text[e])):
            continue
        n = _NUMBERED_AFTER.match(full_text, e)
        if n:
            numbered.append(n.group(1))
        elif not _DIGIT_AFTER.match(full_text, e):
            standalone += 1
    return len(numbered) >= 3 and standalone <= 1 and len(set(numbered)) >= 2


def compute_structure_risk(s1: int, s2: bool, s3: bool, sequence_threshold: int = 3) -> tuple[str, str]:
    """The §4 decision matrix: (HARD_REJECT | SOFT_FLAG | LOW, reason).

    HARD_REJECT: S1 >= threshold and (S2 or S3).
    SOFT_FLAG:   2 <= S1 < threshold; S1 >= threshold alone; or S2 and/or S3 with S1 = 1
                 ("Seq=2 OU signal isolé").
    LOW:         no signal.
    This function is the one place the matrix lives; the asset check re-applies it.
    """
    s1 = int(s1)
    sig = "+".join(n for n, on in (("S2", s2), ("S3", s3)) if on)
    if s1 >= sequence_threshold and sig:
        return HARD_REJECT, f"S1={s1}>={sequence_threshold} with {sig}"
    if s1 >= sequence_threshold:
        return SOFT_FLAG, f"S1={s1}>={sequence_threshold} alone (isolated signal)"
    if s1 >= 2:
        return SOFT_FLAG, f"S1={s1}<{sequence_threshold}" + (f" with {sig}" if sig else "")
    if s2 and s3:
        return SOFT_FLAG, f"S1={s1}<{sequence_threshold} but S2+S3"
    if sig:
        return SOFT_FLAG, f"{sig} alone (isolated signal)"
    return LOW, "no structural signal"


@dataclass
class GateResult:
    """The gate's outcome for one document."""

    candidates: list[MarkerCandidate]
    kept: list[MarkerCandidate]
    rejected: list[MarkerCandidate]
    fallback_used: bool = False
    llm: str = ""  # endpoint label when the LLM was asked
    llm_error: str = ""

    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for c in self.candidates:
            out[c.structure_risk] = out.get(c.structure_risk, 0) + 1
        return out


LLM_SYSTEM_PROMPT = (
    "You review candidate document markers of the form 'word + number'. A genuine marker names "
    "a product, version, standard or entity the document is about (e.g. a phone model, a protocol "
    "version). Structural numbering is NOT a marker: page footers or headers with a page number, "
    "classification labels followed by a page number, section or chapter labels. For each candidate "
    "you get structural signals (S1 = longest run of consecutive numbers with the same prefix, "
    "S2 = opens a line followed by punctuation or stands alone, S3 = prefix almost always numbered) "
    "and the lines where it occurs. Reply with JSON only: "
    '{"decisions": [{"value": "<candidate>", "keep": true|false, "reason": "<short>"}]}'
)


class StructureNumberingGate:
    """Separates markers from structural numbering (seed 004 v2.1)."""

    def __init__(self, config: StructureGateConfig | None = None, llm: Any = None, log: _Log | None = None):
        """``llm``: a ``core.llm.ChatClient`` used for SOFT_FLAG when the action is "llm"."""
        self.config = config or StructureGateConfig()
        self.llm = llm
        self.log: _Log = log or logger
        self._config_logged = False

    # the seed's methods, delegating to the module functions (one implementation)
    detect_sequence = staticmethod(detect_sequence)
    detect_sequences = staticmethod(detect_sequences)
    check_position_indicator = staticmethod(check_position_indicator)
    check_prefix_mostly_numbered = staticmethod(check_prefix_mostly_numbered)

    def compute_structure_risk(self, s1: int, s2: bool, s3: bool) -> tuple[str, str]:
        return compute_structure_risk(s1, s2, s3, self.config.sequence_threshold)

    def _log_config(self, log: _Log) -> None:
        if self._config_logged or not self.config.log_config_changes:
            return
        self._config_logged = True
        changes = self.config.changes_from_default()
        if changes:
            log.warning("[StructureNumberingGate] config differs from default: "
                        + ", ".join(f"{k}: {a!r} -> {b!r}" for k, (a, b) in changes.items()))

    def evaluate(self, candidates: Sequence[MarkerCandidate], full_text: str) -> None:
        """Set S1/S2/S3, decision, structure_risk and reason on every candidate."""
        seqs = detect_sequences(candidates)
        positions = _PositionIndex(full_text)
        s3_cache: dict[str, bool] = {}
        for c in candidates:
            c.s1_sequence = seqs[c.prefix].longest_run if c.prefix in seqs else 1
            c.s2_position = positions.has(c.value)
            if c.prefix not in s3_cache:
                s3_cache[c.prefix] = check_prefix_mostly_numbered(c.prefix, full_text)
            c.s3_prefix_numbered = s3_cache[c.prefix]
            c.decision, c.structure_risk_reason = self.compute_structure_risk(
                c.s1_sequence, c.s2_position, c.s3_prefix_numbered)
            c.structure_risk = c.decision

    def filter_candidates(self, candidates: Sequence[MarkerCandidate], full_text: str, doc_id: str = "",
                          log: _Log | None = None) -> GateResult:
        """Evaluate, drop HARD_REJECT (logged), apply the SOFT_FLAG action, keep LOW."""
        log = log or self.log
        self._log_config(log)
        cands = list(candidates)
        if not self.config.enabled:
            for c in cands:
                c.decision = c.structure_risk = GATE_OFF
                c.structure_risk_reason = "gate disabled by config (rollback)"
                c.action, c.kept = "gate_off", True
            return GateResult(cands, list(cands), [])
        self.evaluate(cands, full_text)
        kept: list[MarkerCandidate] = []
        rejected: list[MarkerCandidate] = []
        soft: list[MarkerCandidate] = []
        for c in cands:
            if c.decision == HARD_REJECT:
                c.action, c.kept = "reject", False
                rejected.append(c)
            elif c.decision == SOFT_FLAG:
                soft.append(c)
            else:
                c.action, c.kept = "keep", True
                kept.append(c)
        if rejected:
            log.info(f"[StructureNumberingGate] Doc '{doc_id}' HARD_REJECT: "
                     + "; ".join(f"{c.value} ({c.structure_risk_reason})" for c in rejected))
        res = GateResult(cands, kept, rejected)
        self._resolve_soft(soft, full_text, doc_id, res, log)
        res.kept.sort(key=cands.index)
        res.rejected.sort(key=cands.index)
        return res

    def _resolve_soft(self, soft: list[MarkerCandidate], full_text: str, doc_id: str, res: GateResult,
                      log: _Log) -> None:
        verdicts: dict[str, tuple[bool, str]] = {}
        if soft and self.config.soft_flag_action == "llm" and self.llm is not None:
            res.llm = getattr(getattr(self.llm, "config", None), "label", "llm")
            try:
                verdicts = self.ask_llm(soft, full_text)
            except Exception as exc:  # LLMError or a malformed reply: keep them weak, say so
                res.llm_error = str(exc)
                log.warning(f"[StructureNumberingGate] Doc '{doc_id}': LLM confirmation failed, "
                            f"SOFT_FLAG candidates kept as weak markers: {exc}")
        for c in soft:
            c.is_weak_candidate = True
            if c.value in verdicts:
                keep, why = verdicts[c.value]
                c.action, c.kept = ("llm_keep" if keep else "llm_reject"), keep
                c.structure_risk_reason += f"; LLM: {'keep' if keep else 'reject'} ({why})"
                (res.kept if keep else res.rejected).append(c)
            else:
                c.action, c.kept = "weak", True
                if res.llm and not res.llm_error:
                    c.structure_risk_reason += "; LLM gave no verdict, kept weak"
                res.kept.append(c)

    def ask_llm(self, soft: Sequence[MarkerCandidate], full_text: str) -> dict[str, tuple[bool, str]]:
        """One chat call for the document's SOFT_FLAG candidates → {value: (keep, reason)}."""
        lines = full_text.split("\n")
        items = []
        for c in soft:
            contexts = []
            for ln in sorted(set(c.lines))[:3]:
                lo, hi = max(0, ln - 2), min(len(lines), ln + 1)  # the line and its neighbours
                contexts.append("\n".join(x.strip() for x in lines[lo:hi] if x.strip())[:400])
            items.append({"value": c.value, "S1": c.s1_sequence, "S2": bool(c.s2_position),
                          "S3": bool(c.s3_prefix_numbered), "occurrences": c.occurrences,
                          "pages_covered": c.pages_covered, "context_lines": contexts})
        reply = self.llm.chat_json([
            {"role": "system", "content": LLM_SYSTEM_PROMPT},
            {"role": "user", "content": json.dumps({"candidates": items}, ensure_ascii=False)},
        ])
        decisions = reply.get("decisions") if isinstance(reply, dict) else None
        if not isinstance(decisions, list):
            raise ValueError(f"LLM reply has no 'decisions' list: {str(reply)[:200]}")
        wanted = {c.value for c in soft}
        out: dict[str, tuple[bool, str]] = {}
        for d in decisions:
            if isinstance(d, dict) and d.get("value") in wanted and isinstance(d.get("keep"), bool):
                out[d["value"]] = (d["keep"], str(d.get("reason", ""))[:200])
        return out

    def apply_fallback_if_silent(self, final_markers: list[MarkerCandidate], rejected: list[MarkerCandidate],
                                 doc_id: str, log: _Log | None = None) -> list[MarkerCandidate]:
        """If every marker was rejected, keep the top K by (occurrences, pages_covered), tagged FALLBACK."""
        log = log or self.log
        if final_markers or not rejected:
            return final_markers
        log.warning(f"[StructureNumberingGate] Doc '{doc_id}' silencieux (silent). "
                    f"Rejected: {[c.value for c in rejected]}")
        fallback = sorted(rejected, key=lambda c: (c.occurrences, c.pages_covered),
                          reverse=True)[: self.config.fallback_max_markers]
        for m in fallback:
            m.structure_fallback = True
            m.structure_risk = FALLBACK
            m.action, m.kept = "fallback", True
        log.info(f"[StructureNumberingGate] Fallback markers: {[m.value for m in fallback]}")
        return fallback

    def run(self, candidates: Sequence[MarkerCandidate], full_text: str, doc_id: str = "",
            log: _Log | None = None) -> GateResult:
        """filter_candidates, then the silent-document fallback."""
        res = self.filter_candidates(candidates, full_text, doc_id, log)
        final = self.apply_fallback_if_silent(res.kept, res.rejected, doc_id, log)
        if final is not res.kept:
            res.fallback_used = True
            res.kept = final
            res.rejected = [c for c in res.rejected if not c.structure_fallback]
        return res


# ---------------------------------------------------------------------------
# Tables (the Parquet shapes of candidate_markers and gated_markers)

OCCURRENCE_COLUMNS = ["doc_id", "start", "end", "text", "prefix", "number", "kind", "is_weak_candidate",
                      "line", "page", "filtered_by"]
GATED_COLUMNS = ["doc_id", "start", "end", "text", "value", "prefix", "number", "kind", "is_weak_candidate",
                 "occurrences", "pages_covered", "pages", "s1_sequence", "s2_position", "s3_prefix_numbered",
                 "decision", "structure_risk", "reason", "fallback", "action", "kept", "gate_enabled",
                 "sequence_threshold"]


def mining_exclusions(chunks: Iterable[Any]) -> list[tuple[int, int]]:
    """Absolute ranges where no marker is mined: code and math blocks, and the inline
    math/code behind placeholders in prose chunks (``parsing.Chunk`` objects)."""
    out: list[tuple[int, int]] = []
    for c in chunks:
        if str(c.chunk_type) in ("code", "math_block"):
            out.append((c.start, c.end))
        elif str(c.chunk_type) == "prose" and c.math_placeholders:
            om = c.offset_map()
            out.extend((om.base + r[2], om.base + r[3]) for r in om.replacements)
    return sorted(out)


def occurrences_frame(doc_id: str, occurrences: Sequence[MarkerOccurrence]):
    import pandas as pd

    rows = [[doc_id, o.span.start, o.span.end, o.span.text, o.prefix, o.number, o.kind, o.is_weak_candidate,
             o.line, o.page, o.filtered_by] for o in occurrences]
    return pd.DataFrame(rows, columns=OCCURRENCE_COLUMNS).astype(
        {"start": "int64", "end": "int64", "line": "int64", "page": "int64", "is_weak_candidate": "bool"})


def occurrences_from_frame(df: Any) -> list[MarkerOccurrence]:
    out = []
    for r in df.sort_values("start").itertuples(index=False):
        fb = r.filtered_by if isinstance(r.filtered_by, str) and r.filtered_by else None
        out.append(MarkerOccurrence(Span(int(r.start), int(r.end), r.text, r.kind), r.prefix, r.number, r.kind,
                                    int(r.line), int(r.page), fb))
    return out


def gated_frame(doc_id: str, result: GateResult, config: StructureGateConfig):
    """One row per distinct candidate; start/end/text = its first occurrence."""
    import pandas as pd

    rows = []
    for c in result.candidates:
        first = c.spans[0] if c.spans else Span(0, 0, "")
        rows.append([doc_id, first.start, first.end, first.text, c.value, c.prefix, c.number, c.kind,
                     c.is_weak_candidate, c.occurrences, c.pages_covered, sorted(set(c.pages)),
                     c.s1_sequence, c.s2_position, c.s3_prefix_numbered, c.decision, c.structure_risk,
                     c.structure_risk_reason, c.structure_fallback, c.action, c.kept, config.enabled,
                     config.sequence_threshold])
    return pd.DataFrame(rows, columns=GATED_COLUMNS).astype(
        {"start": "int64", "end": "int64", "occurrences": "int64", "pages_covered": "int64",
         "s1_sequence": "Int64", "s2_position": "boolean", "s3_prefix_numbered": "boolean",
         "fallback": "bool", "kept": "bool", "gate_enabled": "bool", "sequence_threshold": "int64",
         "is_weak_candidate": "bool"})


def decision_violations(rows: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rows of one document's gated_markers whose stored outcome does not follow from its
    stored signals: the §4 matrix (``compute_structure_risk``) re-applied, plus the
    outcome rules (LOW kept, HARD_REJECT dropped unless FALLBACK, FALLBACK only when silent)."""
    import pandas as pd

    rows = list(rows)
    bad: list[dict[str, Any]] = []
    fallback_rows = [r for r in rows if bool(r["fallback"])]
    others_kept = [r for r in rows if bool(r["kept"]) and not bool(r["fallback"])]

    def fail(r: dict[str, Any], expected: str, reason: str) -> None:
        bad.append({"start": r["start"], "end": r["end"], "value": r["value"], "expected": expected,
                    "found": f"{r['decision']}/{r['structure_risk']}/kept={r['kept']}", "reason": reason})

    for r in rows:
        if not bool(r["gate_enabled"]):
            if r["decision"] != GATE_OFF or not bool(r["kept"]):
                fail(r, f"{GATE_OFF}/kept", "gate disabled: every candidate passes")
            continue
        sig = (r["s1_sequence"], r["s2_position"], r["s3_prefix_numbered"])
        if any(pd.isna(v) for v in sig):
            fail(r, "S1/S2/S3 set", "missing signal")
            continue
        expected, _ = compute_structure_risk(int(sig[0]), bool(sig[1]), bool(sig[2]), int(r["sequence_threshold"]))
        if r["decision"] != expected:
            fail(r, expected, "decision does not follow the §4 matrix from the stored signals")
            continue
        if bool(r["fallback"]):
            if r["structure_risk"] != FALLBACK or not bool(r["kept"]) or r["decision"] == LOW:
                fail(r, "FALLBACK/kept", "a fallback marker is a kept, tagged, rejected candidate")
        elif r["structure_risk"] != r["decision"]:
            fail(r, r["decision"], "structure_risk differs from decision")
        elif r["decision"] == LOW and not bool(r["kept"]):
            fail(r, "kept", "LOW candidates are kept")
        elif r["decision"] == HARD_REJECT and bool(r["kept"]):
            fail(r, "dropped", "HARD_REJECT candidates are dropped")
    if fallback_rows and others_kept:
        for r in fallback_rows:
            fail(r, "no fallback", f"fallback used although {len(others_kept)} marker(s) were kept")
    return bad
