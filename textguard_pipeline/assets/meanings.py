"""`resolved_meanings`: mentions (subject / author) with exact char ranges and canonical meanings."""


import os
from collections import Counter
from functools import lru_cache
from typing import Any

import pandas as pd
from dagster import AssetExecutionContext, MetadataValue, asset

from ..checks import char_range_check, documents_ok_check, frame_check
from ..core.frames import chunks_from_frame
from ..core.meanings import (
    default_suppressions_path,
    load_suppressions,
    meaning_id_violations,
    merge_key_violations,
    suppression_violations,
)
from ..core.pipeline import build_resolved_meanings
from ..resources import MeaningsResource
from ._common import asset_kwargs, first_frame, markdown_table, per_document, source_row


@asset(**asset_kwargs("meanings", {"python", "parquet", "spacy", "wordnet"}, "1"))
def resolved_meanings(context: AssetExecutionContext, meanings: MeaningsResource, source_documents, parsed_chunks):
    """One row per mention (index types subject / author) with its canonical meaning.

    doc_id, start, end, text (absolute offsets) + page, line, chunk; meaning_type (wordnet | wikidata | custom),
    meaning_id (set iff wordnet/wikidata), gloss, confidence, reason_code; merge_key and entry_label;
    provenance: run_id, detector / model, prompt_version, settings_hash, extraction_version (hash of the text).
    Suppressed meanings (data/suppressions.csv) are never emitted.
    """
    resolver = meanings.resolver()
    if resolver.lexicon_warning:
        context.log.warning(f"[resolved_meanings] {resolver.lexicon_warning}")
    run_id = context.run.run_id
    stats: dict[str, Any] = {}

    def build(doc_id: str, src: pd.DataFrame, chunks: pd.DataFrame) -> pd.DataFrame:
        row = source_row(src, doc_id)
        df, st = build_resolved_meanings(doc_id, row["text"], chunks_from_frame(chunks), row["format"], resolver,
                                         run_id, context.log)
        stats[doc_id] = st.as_dict()
        return df

    def preview(frames: dict[str, pd.DataFrame]) -> str:
        key, df = first_frame(frames)
        # The first ten distinct entries that are not "custom" (a loop that stops early: this runs
        # for every document of a backfill).
        seen: set = set()
        rows: list[int] = []
        for i, (kind, merge_key) in enumerate(zip(df["meaning_type"].tolist(), df["merge_key"].tolist())):
            if kind != "custom" and merge_key not in seen:
                seen.add(merge_key)
                rows.append(i)
                if len(rows) == 10:
                    break
        return f"**{key}**\n\n" + markdown_table(
            df.iloc[rows] if rows else df,
            ["text", "index_type", "entry_label", "meaning_type", "meaning_id", "meaning_gloss", "meaning_confidence"], n=10)

    def extra(frames: dict[str, pd.DataFrame]) -> dict[str, Any]:
        rows = [f for f in frames.values() if len(f)]
        every = pd.concat(rows) if rows else pd.DataFrame(columns=["meaning_type", "index_type", "reason_code", "merge_key"])
        return {
            "meaning_types": dict(Counter(every["meaning_type"])),
            "index_types": dict(Counter(every["index_type"])),
            "reason_codes": dict(Counter(every["reason_code"])),
            "entries": int(every["merge_key"].nunique()),
            "suppressed": sum(stats[k]["suppressed"] for k in frames if k in stats),
            "lexicon": resolver.lexicon,
            "lexicon_warning": resolver.lexicon_warning or "",
            "spacy_model": resolver.spacy_label,
            "wikidata": resolver.wikidata_label,
            "llm": resolver.llm_model or "off",
            "prompt_version": resolver.prompt_version,
            "settings_hash": resolver.settings_hash(),
            "per_document": MetadataValue.json({k: stats[k] for k in frames if k in stats}),
        }

    return per_document(context, build, source_documents, parsed_chunks, preview=preview, extra_metadata=extra)


def _meaning_id_rule(doc_id: str, df: pd.DataFrame, _source: str | None) -> list[dict]:
    return meaning_id_violations(df) if len(df) else []


def _merge_key_rule(doc_id: str, df: pd.DataFrame, _source: str | None) -> list[dict]:
    return merge_key_violations(df) if len(df) else []


def _current_suppressions() -> list:
    """The rules as the code location's resource reads them (TEXTGUARD_SUPPRESSIONS), read again
    only when the file changes (the rule runs once per document)."""
    path = default_suppressions_path()
    try:
        st = os.stat(path)
        ident = (st.st_ino, st.st_mtime_ns, st.st_size)
    except OSError:
        ident = None
    return list(_suppressions_at(path, ident))


@lru_cache(maxsize=4)
def _suppressions_at(path: str, _ident) -> tuple:
    return tuple(load_suppressions(path))


def _suppression_rule(doc_id: str, df: pd.DataFrame, _source: str | None) -> list[dict]:
    return suppression_violations(df, _current_suppressions(), doc_id) if len(df) else []


CHECKS = [
    char_range_check("resolved_meanings"),
    frame_check("resolved_meanings", "resolved_meanings_meaning_ids", _meaning_id_rule, with_sources=False,
                description="meaning_id is set iff meaning_type is wordnet/wikidata (lexicon-prefixed synset id, "
                            "wikidata:Q…); custom rows have none."),
    frame_check("resolved_meanings", "resolved_meanings_not_suppressed", _suppression_rule, with_sources=False,
                description="No emitted row matches a suppression rule (data/suppressions.csv or TEXTGUARD_SUPPRESSIONS)."),
    frame_check("resolved_meanings", "resolved_meanings_merge_keys", _merge_key_rule, with_sources=False,
                description="merge_key = index_type|meaning_type|meaning_id (or index_type|normalized_label|custom); "
                            "one meaning and one entry label per merge key."),
    documents_ok_check("resolved_meanings"),
]
