"""Terms against markup: the boundary rule of `protected_chunks` and the share of prose hidden.

A term either lies inside one markup span or contains none of it partly; an entity a model found
(``source = "ner"``) contains no markup at all. Dagster-free: ``protection.defs`` makes the rule a check.
"""

from __future__ import annotations

import bisect
from typing import Any

import pandas as pd


def markup_crossings(df: pd.DataFrame) -> list[dict[str, Any]]:
    """Terms of a ``protected_chunks`` frame that cut a markup span, and entities that hold markup."""
    if "markup_spans" not in df.columns:
        return [{"reason": "no markup_spans column"}]
    out: list[dict[str, Any]] = []
    for r in df.itertuples(index=False):
        spans = sorted((int(m["start"]), int(m["end"]), str(m["kind"])) for m in (r.markup_spans or ()))
        if not spans:
            continue
        starts = [s for s, _, _ in spans]
        for t in r.terms if r.terms is not None else []:
            a, b = int(t["start"]), int(t["end"])
            i = max(0, bisect.bisect_right(starts, a) - 1)
            while i < len(spans) and spans[i][0] < b:
                s, e, kind = spans[i]
                i += 1
                if e <= a:
                    continue
                inside, holds = s <= a and b <= e, a <= s and e <= b
                if inside:
                    continue
                if not holds or t["source"] == "ner":
                    out.append(
                        {
                            "chunk_index": int(r.chunk_index),
                            "start": a,
                            "end": b,
                            "term": t["original"],
                            "source": t["source"],
                            "reason": f"{'holds' if holds else 'cuts'} {kind} markup at [{s}, {e})",
                        }
                    )
                    break
    return out


def prose_hidden_share(df: pd.DataFrame) -> float:
    """Characters inside terms over the characters of the prose chunks (0 for no prose)."""
    total = int((df["end"] - df["start"]).sum()) if len(df) else 0
    hidden = sum(int(t["end"]) - int(t["start"]) for ts in df["terms"].tolist() if ts is not None for t in ts)
    return round(hidden / total, 4) if total else 0.0
