"""`candidate_markers` (every "word + number" occurrence) and `gated_markers` (StructureNumberingGate v2.1)."""

from collections import Counter

import dagster as dg
import pandas as pd
from dagster import AssetExecutionContext, MetadataValue, asset

from ..defs_kit.checks import char_range_check, documents_ok_check, frame_check
from ..defs_kit.resources import MarkersGateResource
from ..defs_kit.runner import asset_kwargs, first_frame, markdown_table, per_document, source_row
from ..ingest.frames import chunks_from_frame
from .build import build_candidate_markers, build_gated_markers, gate_llm_label
from .miner import CandidateMiner
from .tables import decision_violations, occurrences_from_frame


@asset(**asset_kwargs("markers", {"python", "parquet"}, "1"))
def candidate_markers(context: AssetExecutionContext, source_documents, parsed_chunks):
    """Every marker occurrence (entity_numeral / versioned_name / standard_id) with line, page and CandidateGate filter.

    One row per occurrence: doc_id, start, end, text (absolute offsets), prefix, number, kind,
    is_weak_candidate, line, page, filtered_by (date/year/copyright/page/time/percentage, or null).
    Code and math are not mined.
    """
    miner = CandidateMiner()

    def build(doc_id: str, src: pd.DataFrame, chunks: pd.DataFrame) -> pd.DataFrame:
        return build_candidate_markers(doc_id, source_row(src, doc_id)["text"], chunks_from_frame(chunks), miner)

    def preview(frames: dict[str, pd.DataFrame]) -> str:
        key, df = first_frame(frames)
        return f"**{key}**\n\n" + markdown_table(df, ["start", "text", "kind", "line", "page", "filtered_by"], n=8)

    return per_document(
        context,
        build,
        source_documents,
        parsed_chunks,
        preview=preview,
        extra_metadata=lambda fr: {
            "kinds": dict(Counter(k for f in fr.values() for k in f["kind"])),
            "filtered_by": dict(Counter(k for f in fr.values() for k in f["filtered_by"].dropna())),
        },
    )


@asset(**asset_kwargs("markers", {"python", "parquet"}, "1"))
def gated_markers(
    context: AssetExecutionContext, markers_gate: MarkersGateResource, source_documents, candidate_markers
):
    """One row per distinct marker with the StructureNumberingGate's signals S1/S2/S3 and decision.

    HARD_REJECT (structural numbering: dropped), SOFT_FLAG (LLM-confirmed when TEXTGUARD_LLM_URL is set,
    else kept as weak), LOW (kept); FALLBACK when a document would be left without any marker.
    """
    gate = markers_gate.gate(log=context.log)
    config, client, llm_label = gate.config, gate.llm, gate_llm_label(gate)

    def build(doc_id: str, src: pd.DataFrame, occ: pd.DataFrame) -> pd.DataFrame:
        return build_gated_markers(
            doc_id, source_row(src, doc_id)["text"], occurrences_from_frame(occ), gate, context.log
        )

    def preview(frames: dict[str, pd.DataFrame]) -> str:
        parts = []
        for key in sorted(frames)[:5]:
            df = frames[key]
            if len(df):
                parts.append(
                    f"**{key}**\n\n"
                    + markdown_table(
                        df.sort_values("occurrences", ascending=False),
                        [
                            "value",
                            "occurrences",
                            "pages_covered",
                            "s1_sequence",
                            "s2_position",
                            "s3_prefix_numbered",
                            "structure_risk",
                            "kept",
                        ],
                        n=6,
                    )
                )
        return "\n\n".join(parts) or "no markers"

    def summary(frames: dict[str, pd.DataFrame]) -> str:
        lines = ["| doc_id | kept | rejected |", "|---|---|---|"]
        for key in sorted(frames):
            df = frames[key]
            kept = [f"{v} ({r})" for v, r in zip(df.loc[df["kept"], "value"], df.loc[df["kept"], "structure_risk"])]
            rej = [f"{v} ({r})" for v, r in zip(df.loc[~df["kept"], "value"], df.loc[~df["kept"], "decision"])]
            clip = lambda xs: ", ".join(xs[:8]) + (f" … (+{len(xs) - 8})" if len(xs) > 8 else "")  # noqa: E731
            lines.append(f"| {key} | {clip(kept)} | {clip(rej)} |")
        return "\n".join(lines)

    try:
        return per_document(
            context,
            build,
            source_documents,
            candidate_markers,
            preview=preview,
            extra_metadata=lambda fr: {
                "summary": MetadataValue.md(summary(fr)),
                "structure_risk": dict(Counter(k for f in fr.values() for k in f["structure_risk"])),
                "kept": sum(int(f["kept"].sum()) for f in fr.values()),
                "fallback_documents": sorted(k for k, f in fr.items() if bool(f["fallback"].any())),
                "gate": (
                    f"enabled={config.enabled} threshold={config.sequence_threshold} "
                    f"soft_flag_action={config.soft_flag_action} fallback_max={config.fallback_max_markers}"
                ),
                "llm": llm_label or "none (SOFT_FLAG kept as weak)",
            },
        )
    finally:
        if client is not None:
            client.close()


def _decision_rule(doc_id: str, df: pd.DataFrame, _source) -> list[dict]:
    return decision_violations(df.to_dict("records"))


asset_checks = CHECKS = [
    char_range_check("candidate_markers"),
    char_range_check("gated_markers"),
    frame_check(
        "gated_markers",
        "gated_markers_decisions_follow_matrix",
        _decision_rule,
        description="Every decision equals the §4 matrix re-applied to the stored S1/S2/S3 "
        "(compute_structure_risk); LOW kept, HARD_REJECT dropped unless FALLBACK, FALLBACK only for silent documents.",
        with_sources=False,
    ),
    documents_ok_check("candidate_markers"),
    documents_ok_check("gated_markers"),
]

assets = [candidate_markers, gated_markers]

#: This slice's Dagster definitions (merged by ``textguard_pipeline.definitions``).
defs = dg.Definitions(assets=assets, asset_checks=CHECKS)
