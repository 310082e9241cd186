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
This module: configuration, data types, pages and the CandidateGate; the
miner is in :mod:`.miner`, the StructureNumberingGate in :mod:`.gate`, the
table shapes in :mod:`.tables`.
No Dagster imports here.
"""

from __future__ import annotations

import bisect
import logging
import re
from dataclasses import asdict, dataclass, field, fields
from typing import Any, Mapping, Protocol, Sequence

from ..lib.spans import Span
from ..settings import MarkersGateSettings

__all__ = [
    "HARD_REJECT",
    "SOFT_FLAG",
    "LOW",
    "FALLBACK",
    "GATE_OFF",
    "KINDS",
    "MarkerOccurrence",
    "MarkerCandidate",
    "SequenceDetectionResult",
    "StructureGateConfig",
    "gate_config_from_env",
    "PageIndex",
    "CandidateGate",
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
    #: an LLM for SOFT_FLAG that is unreachable or over budget: False fails the document (it keeps its last good
    #: output), True keeps the candidates weak and says why in ``llm_error``.
    llm_fallback: bool = False
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
        return {
            f.name: (getattr(default, f.name), getattr(self, f.name))
            for f in fields(self)
            if getattr(self, f.name) != getattr(default, f.name)
        }


def gate_config_from_env(env: Mapping[str, str] | None = None) -> StructureGateConfig:
    """Config from ``TEXTGUARD_MARKERS_*`` (read by ``settings.MarkersGateSettings``)."""
    return StructureGateConfig(**asdict(MarkersGateSettings.from_env(env)))


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
            kind = (
                ENTITY_NUMERAL
                if _INT_RE.fullmatch(number or "x") and len(number) <= 2 and prefix
                else (VERSIONED_NAME if "." in number else STANDARD_ID)
            )
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


def _inside(excl: list[tuple[int, int]], starts: list[int], s: int, e: int) -> bool:
    """Whether [s, e) overlaps one of the sorted, disjoint ranges ``excl``."""
    i = bisect.bisect_left(starts, e) - 1
    return i >= 0 and excl[i][1] > s


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
        "page": (
            r"(?<!\w)(?:page|p\.)[ \t]*\d+(?:[ \t]*(?:of|/)[ \t]*\d+)?"
            r"|(?<![\w/])[^\W\d_]+[ \t]+\d+[ \t]*(?:of|/)[ \t]*\d+\b",
            False,
        ),
        # 10:30, 9:05:12
        "time": (r"\b\d{1,2}:\d\d(?::\d\d)?\b", False),
        # 95 %, 95%, 12.5%, 3‰
        "percentage": (r"\d+(?:[.,]\d+)?[ \t\u00a0\u202f]*[%‰]", False),
        # 2024-01-07, 07/01/2024, 7.1.2024, "March 7, 2024", and month-precision dates
        # "March 2024" / "July 2018" (a Title-case word followed by a year)
        "date": (
            rf"\b\d{{4}}-\d{{1,2}}-\d{{1,2}}\b|\b\d{{1,2}}[/.]\d{{1,2}}[/.]\d{{2,4}}\b"
            rf"|(?-i:\b[A-Z][a-z]+)[ \t]+\d{{1,2}},?[ \t]+{_YEAR}|(?-i:\b[A-Z][a-z]+)[ \t]+{_YEAR}",
            False,
        ),
        # a bare year after any word that is not an all-caps acronym ("RFC 2119" is an identifier)
        "year": (rf"(?-i:\b[^\W\d_]*[^\W\dA-Z_][^\W\d_]*)[ \t]+{_YEAR}", False),
    }

    def __init__(self, filters: dict[str, tuple[str, bool]] | None = None):
        self.filters = [
            (name, re.compile(p, re.I), whole)
            for name, (p, whole) in (self.FILTERS if filters is None else filters).items()
        ]

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
