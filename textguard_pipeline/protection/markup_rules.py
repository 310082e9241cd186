"""Terms against markup: the boundary rule of `protected_chunks` and the share of prose hidden.

The rule (issue 45): a term either lies inside one markup span, or contains none of it. :class:`MarkupFence`
holds it for the protector (which drops or trims a candidate that breaks it, in chunk-text offsets) and for the
check (:func:`markup_crossings`, absolute offsets). The one exception is the literal recogniser's stray
placeholder bracket, hidden wherever it stands. Dagster-free: ``protection.defs`` makes the rule a check.
"""

from __future__ import annotations

import bisect
from typing import Any, Iterable, Sequence

import pandas as pd

#: term sources the rule does not bind: a stray ``⟨``/``⟩`` is hidden wherever it stands (E11)
EXEMPT_SOURCES = frozenset({"literal"})


class MarkupFence:
    """The markup spans ``(start, end, kind)`` of one text, sorted, asked about ranges in ``O(log n)``."""

    __slots__ = ("spans", "starts")

    def __init__(self, spans: Iterable[Sequence[Any]]):
        self.spans = sorted((int(s[0]), int(s[1]), str(s[2])) for s in spans)
        self.starts = [s for s, _, _ in self.spans]

    def touching(self, a: int, b: int) -> list[tuple[int, int, str]]:
        """The spans that share a character with ``[a, b)``, by start."""
        i = bisect.bisect_right(self.starts, a) - 1
        if i > 0:  # spans taken into one parser placeholder may share a start: begin at the first of them
            i = bisect.bisect_left(self.starts, self.starts[i])
        out = []
        for j in range(max(i, 0), len(self.spans)):
            s, e, k = self.spans[j]
            if s >= b:
                break
            if e > a:
                out.append((s, e, k))
        return out

    def breach(self, a: int, b: int) -> str | None:
        """None when ``[a, b)`` lies inside one span or touches none; else why not ("cuts url markup at …")."""
        touched = self.touching(a, b) if self.spans else []
        if not touched or any(s <= a and b <= e for s, e, _ in touched):
            return None
        cut = next((t for t in touched if not (a <= t[0] and t[1] <= b)), None)
        s, e, kind = cut or touched[0]
        return f"{'cuts' if cut else 'holds'} {kind} markup at [{s}, {e})"


def markup_crossings(df: pd.DataFrame) -> list[dict[str, Any]]:
    """Terms of a ``protected_chunks`` frame that cut markup or hold some without lying inside one span."""
    if "markup_spans" not in df.columns:
        return [{"reason": "no markup_spans column"}]
    out: list[dict[str, Any]] = []
    for r in df.itertuples(index=False):
        if r.markup_spans is None or len(r.markup_spans) == 0:
            continue
        fence = MarkupFence((m["start"], m["end"], m["kind"]) for m in r.markup_spans)
        for t in r.terms if r.terms is not None else []:
            if t["source"] in EXEMPT_SOURCES:
                continue
            a, b = int(t["start"]), int(t["end"])
            reason = fence.breach(a, b)
            if reason is not None:
                out.append(
                    {
                        "chunk_index": int(r.chunk_index),
                        "start": a,
                        "end": b,
                        "term": t["original"],
                        "source": t["source"],
                        "reason": reason,
                    }
                )
    return out


def prose_hidden_share(df: pd.DataFrame) -> float:
    """Characters inside terms over the characters of the prose chunks (0 for no prose)."""
    total = int((df["end"] - df["start"]).sum()) if len(df) else 0
    hidden = sum(int(t["end"]) - int(t["start"]) for ts in df["terms"].tolist() if ts is not None for t in ts)
    return round(hidden / total, 4) if total else 0.0
