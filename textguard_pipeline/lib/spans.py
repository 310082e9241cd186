"""The span contract: one `Span` type, one char-range check, offset maps.

Every table whose rows are spans carries ``doc_id, start, end, text`` where
``start``/``end`` are absolute Python ``str`` offsets into the document text
(end exclusive) and ``text`` is the exact quote. This module is the single
implementation of that check; asset checks and tests call it, nothing copies it.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping


@dataclass(frozen=True, slots=True)
class Span:
    """A quoted range of a text: ``text == source[start:end]``."""

    start: int
    end: int
    text: str
    label: str = ""

    def __post_init__(self) -> None:
        if self.start < 0 or self.end < self.start:
            raise ValueError(f"invalid span range [{self.start}, {self.end})")

    def overlaps(self, other: "Span") -> bool:
        return self.start < other.end and other.start < self.end

    @classmethod
    def of(cls, source: str, start: int, end: int, label: str = "") -> "Span":
        """The span of ``source[start:end]`` (quote taken from the source)."""
        return cls(start, end, source[start:end], label)


@dataclass(frozen=True, slots=True)
class RangeViolation:
    """A row whose quote is not ``source[start:end]``."""

    row: int
    doc_id: str
    start: int
    end: int
    expected: str
    found: str | None
    reason: str

    def as_dict(self) -> dict[str, Any]:
        return {
            "row": self.row,
            "doc_id": self.doc_id,
            "start": self.start,
            "end": self.end,
            "expected": _clip(self.expected),
            "found": None if self.found is None else _clip(self.found),
            "reason": self.reason,
        }


def _clip(s: str, n: int = 80) -> str:
    return s if len(s) <= n else s[: n - 1] + "…"


def span_violation(source: str, start: Any, end: Any, text: Any) -> str | None:
    """Why ``(start, end, text)`` is not a valid quote of ``source`` (None when it is)."""
    try:
        s, e = int(start), int(end)
    except (TypeError, ValueError):
        return f"non-integer offsets {start!r}, {end!r}"
    if not isinstance(text, str):
        return f"quote is {type(text).__name__}, not str"
    if not (0 <= s <= e <= len(source)):
        return f"range [{s}, {e}) outside 0..{len(source)}"
    if source[s:e] != text:
        return "quote differs from source[start:end]"
    return None


def check_char_ranges(
    rows: Iterable[Mapping[str, Any]] | Iterable[Span],
    sources: Mapping[str, str] | str,
    *,
    limit: int | None = None,
) -> list[RangeViolation]:
    """Check every row's quote against its source; return the violations.

    ``rows`` are Spans or mappings with ``start, end, text`` (and ``doc_id``
    when ``sources`` maps doc_id → text). ``sources`` is one text or a mapping.
    ``limit`` stops after that many violations (for reports).
    """
    out: list[RangeViolation] = []
    for i, row in enumerate(rows):
        if isinstance(row, Span):
            doc_id, start, end, text = "", row.start, row.end, row.text
        else:
            doc_id = str(row.get("doc_id", ""))
            start, end, text = row.get("start"), row.get("end"), row.get("text")
        if isinstance(sources, str):
            source = sources
        else:
            source = sources.get(doc_id)  # type: ignore[assignment]
        if source is None:
            out.append(RangeViolation(i, doc_id, _int(start), _int(end), "", None, "unknown doc_id"))
        else:
            reason = span_violation(source, start, end, text)
            if reason is not None:
                s, e = _int(start), _int(end)
                found = source[s:e] if 0 <= s <= e <= len(source) else None
                out.append(RangeViolation(i, doc_id, s, e, str(text), found, reason))
        if limit is not None and len(out) >= limit:
            break
    return out


def _int(v: Any) -> int:
    try:
        return int(v)
    except (TypeError, ValueError):
        return -1


@dataclass(slots=True)
class OffsetMap:
    """Maps offsets of a derived text back to the source it was derived from.

    A derived text is the source with some ranges replaced (e.g. inline math by
    ``⟨MATH_000⟩``). ``replacements`` lists ``(derived_start, derived_end,
    source_start, source_end)`` in increasing order. Offsets outside
    replacements shift by the accumulated length difference; offsets strictly
    inside a replacement have no source equivalent.
    """

    base: int = 0
    replacements: list[tuple[int, int, int, int]] = field(default_factory=list)
    _starts: list[int] = field(default_factory=list, repr=False)

    def add(self, d_start: int, d_end: int, s_start: int, s_end: int) -> None:
        self.replacements.append((d_start, d_end, s_start, s_end))
        self._starts.append(d_start)

    def to_source(self, pos: int) -> int:
        """Absolute source offset (``base`` added) of derived offset ``pos``.

        A replacement's edges map to its source edges; a position strictly
        inside a replacement has no source equivalent and raises ValueError.
        """
        i = bisect.bisect_right(self._starts, pos) - 1
        if i < 0:
            return self.base + pos
        d_start, d_end, s_start, s_end = self.replacements[i]
        if pos == d_start:
            return self.base + s_start
        if pos < d_end:
            raise ValueError(f"offset {pos} falls inside a replacement [{d_start}, {d_end})")
        return self.base + s_end + (pos - d_end)

    def span_to_source(self, start: int, end: int) -> tuple[int, int]:
        """Absolute source range of derived range ``[start, end)``."""
        return self.to_source(start), self.to_source(end)
