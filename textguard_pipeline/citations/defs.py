"""`citation_maps`: numeric [N] citations of every document, mapped to their sentences (seed 002)."""

import json
from collections import Counter
from typing import Any

import dagster as dg
import pandas as pd
from dagster import AssetCheckSeverity, AssetExecutionContext, MetadataValue, asset

from ..defs_kit.checks import char_range_check, char_range_rule, documents_ok_check, frame_check
from ..defs_kit.resources import CorpusResource
from ..defs_kit.runner import asset_kwargs, first_frame, markdown_table, per_document, source_row
from ..ingest.frames import chunks_from_frame
from .build import build_citation_maps
from .documents import CITATION_COLUMNS
from .parser import CitationParser

#: Frontend JSON larger than this (per document) is left out of the metadata (the table has everything).
FRONTEND_JSON_MAX_CHARS = 200_000


@asset(**asset_kwargs("analyze", {"python", "parquet"}, "1"))
def citation_maps(context: AssetExecutionContext, corpus: CorpusResource, source_documents, parsed_chunks):
    """Numeric [N] citations (lists, ranges and clusters expanded) with their sentence, one row per citation id.

    Prose chunks only (inline math/code behind placeholders, math/code chunks skipped), so `a[1]` in code
    is never a citation. Ids are validated against the document's source count: a sidecar
    `<doc>.sources.json`, else a "References"/"Sources" section with `[N] …` entries; with neither the
    `validation` column says "skipped: no source count". Metadata `frontend_json` holds the seed's
    frontend JSON per document.
    """
    parser = CitationParser()
    paths = corpus.paths()
    frontend: dict[str, Any] = {}
    notes: dict[str, str] = {}

    def build(doc_id: str, src: pd.DataFrame, chunks: pd.DataFrame) -> pd.DataFrame:
        df, result = build_citation_maps(
            doc_id, source_row(src, doc_id)["text"], chunks_from_frame(chunks), paths.get(doc_id), parser, context.log
        )
        notes[doc_id] = result.source_count.note
        if result.rows:  # metadata only: the seed's frontend JSON
            fj = parser.format_for_frontend(result.parsed)
            size = len(json.dumps(fj, ensure_ascii=False))
            frontend[doc_id] = fj if size <= FRONTEND_JSON_MAX_CHARS else f"omitted: {size} chars (see the table)"
        return df

    def preview(frames: dict[str, pd.DataFrame]) -> str:
        with_rows = {k: v for k, v in frames.items() if len(v)} or frames
        key, df = first_frame(with_rows)
        cols = ["start", "end", "text", "citation_id", "cluster_index", "sentence_index", "valid", "sentence_text"]
        return f"**{key}** ({notes.get(key, '')})\n\n" + markdown_table(df, cols, n=10)

    def extra(frames: dict[str, pd.DataFrame]) -> dict[str, Any]:
        all_rows = pd.concat(frames.values()) if frames else pd.DataFrame(columns=CITATION_COLUMNS)
        return {
            "citations": int(len(all_rows)),
            "invalid_citations": int((~all_rows["valid"].astype(bool)).sum()) if len(all_rows) else 0,
            "forms": dict(Counter(all_rows["form"])) if len(all_rows) else {},
            "validation": MetadataValue.json({k: notes[k] for k in frames if k in notes}),
            "frontend_json": MetadataValue.json({k: frontend[k] for k in frames if k in frontend}),
        }

    return per_document(context, build, source_documents, parsed_chunks, preview=preview, extra_metadata=extra)


def in_range_rule(doc_id: str, df: pd.DataFrame, _source: str | None) -> list[dict[str, Any]]:
    """Rows whose citation id is out of range (or has no reference entry)."""
    if df.empty:
        return []
    bad = df[~df["valid"].astype(bool)]
    return [
        {"start": int(r.start), "end": int(r.end), "text": r.text, "citation_id": int(r.citation_id), "reason": r.error}
        for r in bad.itertuples(index=False)
    ]


def sentence_rule(doc_id: str, df: pd.DataFrame, source: str | None) -> list[dict[str, Any]]:
    """Each citation lies inside its sentence, and the sentence quotes the document (the shared char-range
    rule applied to ``sentence_start``/``sentence_end``/``sentence_text``)."""
    if df.empty:
        return []
    sentences = pd.DataFrame({"start": df["sentence_start"], "end": df["sentence_end"], "text": df["sentence_text"]})
    out = [{**v, "reason": f"sentence: {v['reason']}"} for v in char_range_rule(doc_id, sentences, source)]
    inside = (df["sentence_start"] <= df["start"]) & (df["start"] <= df["end"]) & (df["end"] <= df["sentence_end"])
    for r in df[~inside].itertuples(index=False):
        out.append(
            {
                "start": int(r.start),
                "end": int(r.end),
                "sentence_start": int(r.sentence_start),
                "sentence_end": int(r.sentence_end),
                "reason": "citation outside its sentence range",
            }
        )
    return out


asset_checks = CHECKS = [
    char_range_check("citation_maps"),
    frame_check(
        "citation_maps",
        "citation_maps_sentences",
        sentence_rule,
        description="Every citation lies inside its sentence and sentence_text == source[sentence_start:sentence_end].",
    ),
    frame_check(
        "citation_maps",
        "citation_maps_ids_in_range",
        in_range_rule,
        description="Citation ids are within [1, number of sources] (references list or sidecar); "
        "documents without a source count are skipped (validation column). Non-blocking.",
        blocking=False,
        with_sources=False,
        severity=AssetCheckSeverity.WARN,
    ),
    documents_ok_check("citation_maps"),
]

assets = [citation_maps]

#: This slice's Dagster definitions (merged by ``textguard_pipeline.definitions``).
defs = dg.Definitions(assets=assets, asset_checks=CHECKS)
