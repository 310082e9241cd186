"""CandidateMiner (seed 004): every "word + number" occurrence of three kinds, with line and page.

``entity_numeral`` ("Word N", always a weak candidate), ``versioned_name``
("TLS 1.3", "GPT-4", "HTTP/2") and ``standard_id`` ("ISO 27001"); then the
CandidateGate filters and, in :meth:`CandidateMiner.mine_document`, the
StructureNumberingGate. No Dagster imports here.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from typing import Iterable

from ..lib.spans import Span
from .gate import GateResult, StructureNumberingGate
from .model import (
    ENTITY_NUMERAL,
    STANDARD_ID,
    VERSIONED_NAME,
    CandidateGate,
    MarkerCandidate,
    MarkerOccurrence,
    PageIndex,
    StructureGateConfig,
    _inside,
    _Log,
)

__all__ = ["CandidateMiner", "MiningResult", "group_occurrences"]


# ---------------------------------------------------------------------------
# CandidateMiner

# A prefix is a word of letters (any script), hyphenated parts allowed ("Wi-Fi");
# it must contain an upper-case letter (checked in code: `re` has no \p{Lu}).
_WORD = r"[^\W\d_]+(?:-[^\W\d_]+)*"
_HSP = r"[ \t\u00a0\u202f]+"  # horizontal space only: "Word\nN" is wrapped text, not a marker
_LEFT = r"(?<![\w\-./])"

_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    # "TLS 1.3", "Python 3.11", "iOS 17.4.1", "Version v2.0"
    (
        VERSIONED_NAME,
        re.compile(
            rf"{_LEFT}(?P<prefix>{_WORD}){_HSP}"
            rf"(?P<number>v?\d{{1,4}}(?:\.\d{{1,3}}){{1,3}})(?![\w.]*\d|\w)"
        ),
    ),
    # "GPT-4", "AES-256", "GPT-3.5", "HTTP/2", "HTTP/1.1"
    (
        VERSIONED_NAME,
        re.compile(
            rf"{_LEFT}(?P<prefix>[^\W\d_]+)[-/]"
            rf"(?P<number>\d{{1,4}}(?:\.\d{{1,3}}){{0,3}})(?![\w]|[.,\-/]\d)"
        ),
    ),
    # "ISO 27001", "RFC 9110", "ISO/IEC 27001:2013", "IEC 62443-3-3"
    (
        STANDARD_ID,
        re.compile(
            rf"{_LEFT}(?P<prefix>[^\W\d_]+(?:/[^\W\d_]+)?){_HSP}"
            rf"(?P<number>\d{{3,6}}(?:[-:]\d{{1,4}})*)(?![\w]|[.,]\d)"
        ),
    ),
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

    def __init__(
        self,
        config: StructureGateConfig | None = None,
        candidate_gate: "CandidateGate | None" = None,
        structure_gate: "StructureNumberingGate | None" = None,
    ):
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
                found.append(
                    MarkerOccurrence(
                        Span.of(text, s, e, kind), prefix, m.group("number"), kind, index.line(s), index.page(s)
                    )
                )
        found.sort(key=lambda o: o.span.start)
        for occ, why in zip(found, self.candidate_gate.reasons(found, text)):
            occ.filtered_by = why
        return found

    def mine_document(
        self, text: str, doc_id: str = "", exclude: Iterable[tuple[int, int]] = (), log: _Log | None = None
    ) -> MiningResult:
        """Mine, filter and gate one document (the whole seed pipeline)."""
        occurrences = self.find_occurrences(text, exclude)
        candidates = group_occurrences(occurrences)
        gate = self.structure_gate.run(candidates, text, doc_id, log=log)
        return MiningResult(occurrences, candidates, gate)


def group_occurrences(occurrences: Iterable[MarkerOccurrence]) -> list[MarkerCandidate]:
    """One candidate per distinct value, from the occurrences the CandidateGate let through."""
    by_value: dict[str, MarkerCandidate] = {}
    for occ in occurrences:
        if occ.filtered_by:
            continue
        c = by_value.get(occ.value)
        if c is None:
            c = by_value[occ.value] = MarkerCandidate(
                occ.value, occ.prefix, occ.number, occ.kind, is_weak_candidate=occ.is_weak_candidate
            )
        c.add(occ)
    return list(by_value.values())
