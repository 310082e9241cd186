"""`ner_frames`: elementary-math entities and frames of every document (seed 001).

One table, not two: a row is either an entity (``kind="entity"``) or a frame
(``kind="frame"``). Both are spans of the same document with the same
``doc_id, start, end, text`` contract and the same backend, so one file per
document keeps them together and one char-range check covers both; the
type-specific columns are null on the other kind (``kind = 'frame'`` selects frames).
"""

from collections import Counter
from typing import Any

import dagster as dg
import pandas as pd
from dagster import AssetCheckSeverity, AssetExecutionContext, MetadataValue, asset

from ..defs_kit.checks import char_range_check, documents_ok_check, frame_check
from ..defs_kit.resources import NerBackendResource
from ..defs_kit.runner import asset_kwargs, first_frame, head_positions, markdown_table, per_document
from ..ingest.frames import chunks_from_frame
from .build import build_ner_frames
from .hybrid import llm_units_report
from .table import frame_row_problems


@asset(**asset_kwargs("analyze", {"python", "parquet"}, "1"))
def ner_frames(context: AssetExecutionContext, ner_backend: NerBackendResource, parsed_chunks):
    """Math entities (OPERATION, PROPERTY, NUMBER, VARIABLE, RELATION, CONCEPT) and frames per document.

    Runs on the source text of prose chunks (inline math included) with the backend chosen by
    `TEXTGUARD_NER_BACKEND`: `rules` (default; the embedded rule-based extractor, or the HTTP service at
    `TEXTGUARD_NER_URL`), `llm` (seed 001 prompts), or `hybrid` (rules first, the LLM only for the
    math-looking windows they leave unmatched); the metadata counts windows by route, tokens and cost.
    Frames: ARITH_EXAMPLE (arithmetic checked:
    `arith_correct`), PROPERTY, PROCEDURE, DEFINITION, as JSON in `frame_json`. A backend failure
    (503 unreachable, 504 timeout, 500 invalid response) fails that document only.
    """
    backend = ner_backend.extractor()
    before = llm_units_report(backend)
    reports: dict[str, dict[str, Any]] = {}

    def build(doc_id: str, chunks: pd.DataFrame) -> pd.DataFrame:
        df, reports[doc_id] = build_ner_frames(doc_id, chunks_from_frame(chunks), backend, context.log)
        return df

    def preview(frames: dict[str, pd.DataFrame]) -> str:
        _, df = first_frame(frames)
        fr = head_positions(df, "kind", lambda k: k == "frame", 8)
        ents = head_positions(df, "kind", lambda k: k == "entity", 8)
        frame_cols = ["doc_id", "start", "end", "frame_type", "frame_json", "arith_correct"]
        return (
            "**frames**\n\n"
            + markdown_table(df, frame_cols, n=8, width=90, rows=fr)
            + "\n\n**entities**\n\n"
            + markdown_table(df, ["doc_id", "start", "end", "text", "entity_type", "canonical"], n=8, rows=ents)
        )

    def extra(frames: dict[str, pd.DataFrame]) -> dict[str, Any]:
        entities: Counter = Counter()
        frame_types: Counter = Counter()
        wrong = invalid = 0
        # column lists, not masks over a concatenated frame: this runs for every document of a backfill
        for df in frames.values():
            cols = [df[c].tolist() for c in ("kind", "entity_type", "frame_type", "arith_correct", "valid")]
            for kind, etype, ftype, correct, valid in zip(*cols):
                if kind == "entity":
                    entities[etype] += 1
                elif kind == "frame":
                    frame_types["?" if ftype is None or ftype != ftype else ftype] += 1
                    wrong += correct is not None and correct is not pd.NA and correct == False  # noqa: E712
                    invalid += not bool(valid)
        return {
            "backend": backend.label,
            "entities_by_type": dict(entities),
            "frames_by_type": dict(frame_types),
            "wrong_arith_examples": int(wrong),
            "invalid_frames": int(invalid),
            "rejected_entities": sum(len(reports[k]["rejected_entities"]) for k in frames if k in reports),
            "unmapped": MetadataValue.json(
                {k: reports[k]["unmapped"][:20] for k in frames if k in reports and reports[k]["unmapped"]}
            ),
            **llm_metadata(backend, before),
            **_sent_windows(reports, frames),
        }

    try:
        return per_document(context, build, parsed_chunks, preview=preview, extra_metadata=extra)
    finally:
        if hasattr(backend, "close"):
            backend.close()


def _sent_windows(reports: dict[str, dict[str, Any]], frames: dict[str, Any]) -> dict[str, Any]:
    """The windows sent to the model per document, with their reason (first 20 of each; hybrid only)."""
    sent = {
        k: [w for w in reports[k].get("windows", []) if w["route"] == "llm"][:20]
        for k in frames
        if k in reports and reports[k].get("windows")
    }
    return {"ner_windows_sent": MetadataValue.json(sent)} if sent else {}


def llm_metadata(backend: Any, before: dict[str, Any]) -> dict[str, Any]:
    """Windows by route (rules / llm / skipped), characters, requests, tokens and cost of this run."""
    now = llm_units_report(backend)
    if not now:
        return {}
    units = {k: v - before["units"].get(k, 0) for k, v in now["units"].items()}
    reasons = {k: v - before.get("reasons", {}).get(k, 0) for k, v in now.get("reasons", {}).items()}
    usage = {k: v - before["usage"].get(k, 0) for k, v in now["usage"].items()}
    return {
        "ner_units_by_route": MetadataValue.json(units),
        "ner_units_by_reason": MetadataValue.json({k: v for k, v in sorted(reasons.items()) if v}),
        "llm_chars": now["llm_chars"] - before["llm_chars"],
        "llm_requests": usage.get("requests", 0),
        "llm_prompt_tokens": usage.get("prompt_tokens", 0),
        "llm_completion_tokens": usage.get("completion_tokens", 0),
        "llm_cost_usd": MetadataValue.float(float(usage.get("cost_usd", 0.0))),
    }


def schema_rule(doc_id: str, df: pd.DataFrame, _source: str | None) -> list[dict[str, Any]]:
    """Rows whose entity or frame does not validate against its pydantic schema."""
    out = []
    for r in df.to_dict("records"):
        problems = frame_row_problems(r)
        if not r.get("valid", True) and not problems:
            problems = [r.get("error") or "marked invalid"]
        for p in problems:
            out.append(
                {
                    "start": r["start"],
                    "end": r["end"],
                    "kind": r["kind"],
                    "frame_type": r.get("frame_type"),
                    "found": (r.get("frame_json") or r.get("text") or "")[:80],
                    "reason": p,
                }
            )
    return out


def arith_rule(doc_id: str, df: pd.DataFrame, _source: str | None) -> list[dict[str, Any]]:
    """ARITH_EXAMPLE frames whose operands do not give the stated result (wrong examples in the text)."""
    if df.empty:
        return []
    bad = df[(df["kind"] == "frame") & (df["arith_correct"] == False)]  # noqa: E712 (nullable)
    return [
        {
            "start": int(r.start),
            "end": int(r.end),
            "text": r.text,
            "expected": "operands give result",
            "found": r.frame_json,
            "reason": "wrong arithmetic example",
        }
        for r in bad.itertuples(index=False)
    ]


CHECKS = [
    char_range_check("ner_frames"),
    frame_check(
        "ner_frames",
        "ner_frames_schema",
        schema_rule,
        description="Every entity row validates as NEREntity and every frame_json as its frame model "
        "(ARITH_EXAMPLE / PROPERTY / PROCEDURE / DEFINITION, discriminated by frame_type).",
        with_sources=False,
    ),
    frame_check(
        "ner_frames",
        "ner_frames_arithmetic",
        arith_rule,
        description="Lists arithmetic examples in the documents whose result is wrong (e.g. 2 + 2 = 5).",
        blocking=False,
        with_sources=False,
        severity=AssetCheckSeverity.WARN,
    ),
    documents_ok_check("ner_frames"),
]

ASSETS = [ner_frames]

#: This slice's Dagster definitions (merged by ``textguard_pipeline.definitions``; the ``ner_backend``
#: resource is shared: ``defs_kit.resources.NerBackendResource``).
defs = dg.Definitions(assets=ASSETS, asset_checks=CHECKS)
