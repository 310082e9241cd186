"""The operator: choose among the recognisers' spans (E1/E2) and turn them into ``⟨TERM_NNN⟩``.

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
from typing import Sequence

from ..ingest.parsing import Chunk
from ..lib.placeholders import OPEN, PLACEHOLDER_RE, make_placeholder, restore_placeholders
from .model import TERM_NS, Candidate, ProtectedChunk, ProtectedTerm


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


def select_spans(
    chunk_text: str, parser_phs: set[str] | frozenset[str], ranked: Sequence[tuple[Sequence[Candidate], bool]]
) -> list[Candidate]:
    """The accepted spans, sorted. ``ranked``: per recogniser in priority order,
    ``(candidates, rejects_placeholders)``."""
    bounds = [(m.start(), m.end()) for m in PLACEHOLDER_RE.finditer(chunk_text) if m.group(0) in parser_phs]
    bstarts = [s for s, _ in bounds]
    acc = _Accepted()
    for cands, rejects_placeholders in ranked:
        if not cands:
            continue
        # inside one recogniser: longest first, then leftmost (E2: outermost wins)
        for c in sorted(cands, key=lambda c: (c.start - c.end, c.start)):
            if c.end <= c.start or acc.overlaps(c.start, c.end):
                continue
            if bounds and _cuts(bounds, bstarts, c.start, c.end):
                continue
            if rejects_placeholders and bounds:
                i = bisect.bisect_left(bstarts, c.start)
                if i < len(bounds) and bounds[i][0] < c.end:
                    continue
            acc.add(c)
    return acc.spans


def apply_placeholders(chunk: Chunk, spans: Sequence[Candidate]) -> ProtectedChunk:
    """Replace ``spans`` (sorted, disjoint) by ``⟨TERM_NNN⟩``."""
    text = chunk.text
    mapping = chunk.math_placeholders
    om = chunk.offset_map() if mapping else None
    by_original: dict[str, str] = {}
    terms: list[ProtectedTerm] = []
    parts: list[str] = []
    pos = 0
    for c in spans:
        quote = text[c.start : c.end]
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
        parts.append(text[pos : c.start])
        parts.append(ph)
        pos = c.end
    parts.append(text[pos:])
    term_map = {ph: orig for orig, ph in by_original.items()}
    return ProtectedChunk(chunk, "".join(parts), term_map, terms)
