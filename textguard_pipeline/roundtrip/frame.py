"""Table shape of `rewritten_chunks`, the rules its checks run, and its per-run figures (Dagster-free)."""

from __future__ import annotations

from collections import Counter
from typing import Any, Iterable, Mapping

import pandas as pd

from ..lib.placeholder_audit import originals_kept, residue
from .engine import STATUSES, RewriteItem, RewriteResult, RoundTrip

REWRITE_COLUMNS = [
    "doc_id",
    "chunk_index",
    "start",
    "end",
    "text",
    "protected_text",
    "placeholders",
    "llm_output",
    "rewritten_text",
    "status",
    "attempts",
    "repairs",
    "problems",
    "model",
    "prompt_version",
    "prompt_tokens",
    "completion_tokens",
    "latency_s",
    "pieces",
]
FALLBACK_WARN_SHARE = 0.10


def rewrite_items(protected: pd.DataFrame) -> list[RewriteItem]:
    """Items from a stored `protected_chunks` frame, in chunk order."""
    if protected.empty:
        return []
    return [RewriteItem.from_row(r) for r in protected.sort_values("chunk_index").to_dict("records")]


def rewritten_frame(results: Iterable[RewriteResult]) -> pd.DataFrame:
    df = pd.DataFrame([r.row() for r in results], columns=REWRITE_COLUMNS)
    return df.astype(
        {
            "chunk_index": "int64",
            "start": "int64",
            "end": "int64",
            "attempts": "int64",
            "prompt_tokens": "int64",
            "completion_tokens": "int64",
            "latency_s": "float64",
            "pieces": "int64",
        }
    )


def build_rewritten_chunks(doc_id: str, protected: pd.DataFrame, roundtrip: RoundTrip) -> pd.DataFrame:
    """One row per prose chunk of a document (raises RoundTripError on an endpoint outage: no rows)."""
    return rewritten_frame(roundtrip.rewrite_many(rewrite_items(protected)))


def _seq(v: Any) -> list:
    return [] if v is None else list(v)


def rewrite_failures(df: pd.DataFrame) -> list[dict[str, Any]]:
    """Rows breaking the promise: a non-fallback row that lost an original (counted) or keeps placeholder
    residue of any shape; a fallback row whose rewritten_text is not its source text; an unknown status."""
    out: list[dict[str, Any]] = []
    for r in df.to_dict("records"):
        base = {"chunk_index": int(r["chunk_index"]), "status": r["status"]}
        if r["status"] not in STATUSES:
            out.append(base | {"reason": f"unknown status {r['status']!r}"})
        elif r["status"] == "fallback":
            if r["rewritten_text"] != r["text"]:
                out.append(base | {"reason": "fallback row whose rewritten_text differs from the source text"})
        else:
            lost = originals_kept(r["rewritten_text"], r["protected_text"], dict(r["placeholders"] or {}))
            left = residue(r["rewritten_text"], r["text"])
            if lost:
                out.append(base | {"reason": f"original(s) missing: {', '.join(map(repr, lost[:5]))}"})
            if left:
                out.append(base | {"reason": f"placeholder residue: {', '.join(left[:5])}"})
    return out


def fallback_share(df: pd.DataFrame) -> float:
    return float((df["status"] == "fallback").mean()) if len(df) else 0.0


def document_figures(df: pd.DataFrame) -> dict[str, Any]:
    """Counts by status, repairs by kind, tokens: what one document's materialization reports."""
    repairs = Counter(x["kind"] for v in df["repairs"] for x in _seq(v))
    return {
        "by_status": {s: int((df["status"] == s).sum()) for s in STATUSES},
        "repairs_by_kind": dict(repairs),
        "prompt_tokens": int(df["prompt_tokens"].sum()),
        "completion_tokens": int(df["completion_tokens"].sum()),
        "fallback_share": round(fallback_share(df), 4),
    }


def summary_markdown(doc_id: str, df: pd.DataFrame, usage: Mapping[str, float]) -> str:
    """A one-row Markdown table (the report merges the documents' rows into one table). ``usage``: what
    this document's requests cost (``requests``, ``cache_hits``, ``cost_usd``; cached answers are free)."""
    f = document_figures(df)
    s = f["by_status"]
    repairs = sum(f["repairs_by_kind"].values())
    return (
        "| doc_id | chunks | ok | repaired | retried | fallback | repairs | requests | cache hits "
        "| prompt tokens | completion tokens | cost (USD) |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n"
        f"| {doc_id} | {len(df)} | {s['ok']} | {s['repaired']} | {s['retried']} | {s['fallback']} | {repairs} "
        f"| {int(usage.get('requests', 0))} | {int(usage.get('cache_hits', 0))} | {f['prompt_tokens']} "
        f"| {f['completion_tokens']} | {usage.get('cost_usd', 0.0):.4f} |"
    )
