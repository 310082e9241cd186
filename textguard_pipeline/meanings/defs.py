"""Dagster side of meanings: the `resolved_meanings` asset, its checks and the `meanings` resource."""

from collections import Counter
from functools import lru_cache
from pathlib import Path
from typing import Any

import dagster as dg
import pandas as pd
from dagster import (
    AssetCheckExecutionContext,
    AssetCheckResult,
    AssetExecutionContext,
    MetadataValue,
    asset,
    asset_check,
)

from ..core.frames import chunks_from_frame
from ..defs_kit.checks import _frames, char_range_check, documents_ok_check, frame_check, result_from_failures
from ..defs_kit.resources import settings_resource
from ..defs_kit.runner import asset_kwargs, first_frame, markdown_table, per_document, source_row
from ..pipeline import build_resolved_meanings
from ..settings import MeaningsSettings, meanings_settings
from .resolver import MeaningResolver, build_resolver
from .suppression import load_suppressions, meaning_id_violations, merge_key_violations, suppression_violations


class MeaningsResource(settings_resource(MeaningsSettings)):
    """Mentions and meanings (seed 003): LLM passes on/off, Wikidata, suppressions, detector knobs.

    Fields and TEXTGUARD_* variables: :class:`textguard_pipeline.settings.MeaningsSettings`. With no WordNet
    lexicon installed, the small shipped one is installed (offline) and flagged in the metadata
    (``install_small_lexicon=False`` makes that an error instead).
    """

    def suppression_rules(self):
        return load_suppressions(self.settings().suppressions_path)

    def resolver(self) -> MeaningResolver:
        """A MeaningResolver (loads spaCy and opens WordNet; raises if no lexicon is installed)."""
        return build_resolver(self.settings())

    @classmethod
    def from_env(cls) -> "MeaningsResource":
        return cls.from_settings(meanings_settings())


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
        df, st = build_resolved_meanings(
            doc_id, row["text"], chunks_from_frame(chunks), row["format"], resolver, run_id, context.log
        )
        stats[doc_id] = st.as_dict()
        return df

    def extra(frames: dict[str, pd.DataFrame]) -> dict[str, Any]:
        return _metadata(frames, stats, resolver)

    return per_document(context, build, source_documents, parsed_chunks, preview=_preview, extra_metadata=extra)


def _preview(frames: dict[str, pd.DataFrame]) -> str:
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
        ["text", "index_type", "entry_label", "meaning_type", "meaning_id", "meaning_gloss", "meaning_confidence"],
        n=10,
    )


def _metadata(frames: dict[str, pd.DataFrame], stats: dict[str, Any], resolver: MeaningResolver) -> dict[str, Any]:
    rows = [f for f in frames.values() if len(f)]
    every = (
        pd.concat(rows) if rows else pd.DataFrame(columns=["meaning_type", "index_type", "reason_code", "merge_key"])
    )
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


def _meaning_id_rule(doc_id: str, df: pd.DataFrame, _source: str | None) -> list[dict]:
    return meaning_id_violations(df) if len(df) else []


def _merge_key_rule(doc_id: str, df: pd.DataFrame, _source: str | None) -> list[dict]:
    return merge_key_violations(df) if len(df) else []


@lru_cache(maxsize=4)
def _suppressions_at(path: str, _ident) -> tuple:
    """The rules of ``path``, read again only when the file changes (``_ident``: inode, mtime, size)."""
    return tuple(load_suppressions(path))


def _current_suppressions(path: str) -> list:
    try:
        st = Path(path).stat()
        ident = (st.st_ino, st.st_mtime_ns, st.st_size)
    except OSError:
        ident = None
    return list(_suppressions_at(path, ident)) if path else []


def suppression_rule_for(path: str):
    """The frame rule "no row matches a rule of ``path``" (the check passes the resource's path)."""

    def rule(doc_id: str, df: pd.DataFrame, _source: str | None) -> list[dict]:
        return suppression_violations(df, _current_suppressions(path), doc_id) if len(df) else []

    return rule


def _suppression_rule(doc_id: str, df: pd.DataFrame, source: str | None) -> list[dict]:
    """The rule with the default rules file (``MeaningsSettings.from_env().suppressions_path``), for notebooks."""
    return suppression_rule_for(MeaningsSettings.from_env().suppressions_path)(doc_id, df, source)


@asset_check(
    asset="resolved_meanings",
    name="resolved_meanings_not_suppressed",
    blocking=True,
    description="No emitted row matches a suppression rule (the `meanings` resource's suppressions_path: "
    "data/suppressions.csv or TEXTGUARD_SUPPRESSIONS).",
)
def resolved_meanings_not_suppressed(
    context: AssetCheckExecutionContext, meanings: MeaningsResource, value
) -> AssetCheckResult:
    """Built from the shared failure report, with the rules the asset used (the resource's path)."""
    rule = suppression_rule_for(meanings.suppressions_path)
    failures: list[dict[str, Any]] = []
    checked = 0
    for doc_id, df in _frames(value).items():
        checked += len(df)
        key = doc_id or (str(df["doc_id"].iloc[0]) if len(df) and "doc_id" in df else "")
        failures.extend({"doc_id": key, **f} for f in rule(key, df, None))
    return result_from_failures(failures, checked=checked)


CHECKS = [
    char_range_check("resolved_meanings"),
    frame_check(
        "resolved_meanings",
        "resolved_meanings_meaning_ids",
        _meaning_id_rule,
        with_sources=False,
        description="meaning_id is set iff meaning_type is wordnet/wikidata (lexicon-prefixed synset id, "
        "wikidata:Q…); custom rows have none.",
    ),
    resolved_meanings_not_suppressed,
    frame_check(
        "resolved_meanings",
        "resolved_meanings_merge_keys",
        _merge_key_rule,
        with_sources=False,
        description="merge_key = index_type|meaning_type|meaning_id (or index_type|normalized_label|custom); "
        "one meaning and one entry label per merge key.",
    ),
    documents_ok_check("resolved_meanings"),
]

ASSETS = [resolved_meanings]

#: This slice's Dagster definitions (merged by ``textguard_pipeline.definitions``).
defs = dg.Definitions(assets=ASSETS, asset_checks=CHECKS)


def resources() -> dict[str, object]:
    """The slice's resources, read from the environment now (each code-location load reads it afresh)."""
    return {"meanings": MeaningsResource.from_env()}
