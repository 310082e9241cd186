"""Dagster side of protection: the `protected_chunks` asset (seed 000) and its checks, restoration enforced."""

from collections import Counter

import dagster as dg
import pandas as pd
from dagster import AssetExecutionContext, asset

from ..defs_kit.checks import char_range_check, char_range_rule, documents_ok_check, frame_check
from ..defs_kit.resources import ProtectionResource
from ..defs_kit.runner import asset_kwargs, first_frame, head_where, markdown_table, per_document
from ..ingest.frames import chunks_from_frame
from ..lib.nlp import model_label
from .build import build_protected_chunks
from .languages import language_metadata
from .markup_rules import markup_crossings, prose_hidden_share
from .restore import restoration_failures, term_rows


@asset(**asset_kwargs("protect", {"python", "parquet", "spacy"}, "3"))
def protected_chunks(context: AssetExecutionContext, protection: ProtectionResource, parsed_chunks):
    """Prose chunks with citations, custom terms, NER entities and metric numbers behind ⟨TERM_NNN⟩.

    One row per prose chunk: doc_id, chunk_index, start, end, text (= source slice),
    protected_text, term_placeholders, math_placeholders, terms (placeholder, original,
    source, label, absolute start/end), n_terms, markup_spans (as in parsed_chunks; URLs, references, targets,
    identifiers … are terms with source "markup": docs/protection.md). Restoring protected_text over both maps
    gives the source slice byte for byte (blocking check).
    """
    protector = protection.protector()

    def build(doc_id: str, chunks: pd.DataFrame) -> pd.DataFrame:
        return build_protected_chunks(doc_id, chunks_from_frame(chunks), protector)

    def preview(frames: dict[str, pd.DataFrame]) -> str:
        key, df = first_frame(frames)
        shown = head_where(df, "n_terms", lambda n: n > 0, 3)
        return f"**{key}**\n\n" + markdown_table(
            shown, ["chunk_index", "start", "end", "protected_text", "term_placeholders"], n=3, width=200
        )

    def extra(frames: dict[str, pd.DataFrame]) -> dict:
        counts = Counter(
            t["source"] for df in frames.values() for terms in df["terms"].tolist() if terms is not None for t in terms
        )
        return {
            "terms_by_source": dict(counts),
            "spacy_model": model_label(protector.nlp) if protector.nlp is not None else "off",
            "custom_terms": len(protection.custom_terms),
            **language_metadata(frames.values()),  # issue 17: chunks per language, NER model or skip reason
            # issue 45: characters inside terms over prose characters, per document
            "prose_hidden_share": dict(list({k: prose_hidden_share(df) for k, df in frames.items()}.items())[:100]),
        }

    return per_document(context, build, parsed_chunks, preview=preview, extra_metadata=extra)


def _restoration_rule(doc_id, df, source):
    if df.empty:
        return []
    if source is None:
        return [{"reason": "source document not available"}]
    return restoration_failures(df, source)


def _markup_boundary_rule(doc_id, df, source):
    return [] if df.empty else markup_crossings(df)


def _term_ranges_rule(doc_id, df, source):
    """The shared char-range rule over every term occurrence (absolute offsets)."""
    if df.empty:
        return []
    return char_range_rule(doc_id, pd.DataFrame(term_rows(df), columns=["doc_id", "start", "end", "text"]), source)


CHECKS = [
    frame_check(
        "protected_chunks",
        "protected_chunks_restoration",
        _restoration_rule,
        description="restore(protected_text) over TERM + MATH/CODE/LIT maps == source_documents.text[start:end] for every "
        "prose chunk; no unmapped placeholder survives; every issued placeholder is used and maps to its term.",
    ),
    char_range_check("protected_chunks"),
    frame_check(
        "protected_chunks",
        "protected_chunks_term_char_ranges",
        _term_ranges_rule,
        description="Every protected term's original == source_documents.text[start:end] (absolute offsets).",
    ),
    frame_check(
        "protected_chunks",
        "protected_chunks_markup_boundaries",
        _markup_boundary_rule,
        description="Every term lies inside one markup span or contains none of it (markup_spans, absolute "
        "offsets; a stray placeholder bracket of the literal recogniser is exempt).",
        with_sources=False,
    ),
    documents_ok_check("protected_chunks"),
]

#: what definitions.py merges
ASSETS = [protected_chunks]

#: This slice's Dagster definitions (merged by ``textguard_pipeline.definitions``).
defs = dg.Definitions(assets=ASSETS, asset_checks=CHECKS)
