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

from ..defs_kit.checks import _frames, char_range_check, documents_ok_check, frame_check, result_from_failures
from ..defs_kit.resources import settings_resource
from ..defs_kit.runner import asset_kwargs, first_frame, frame_of, markdown_table, per_document, run_keys, source_row
from ..ingest.frames import chunks_from_frame
from ..settings import MeaningsSettings, meanings_settings
from .build import build_resolved_meanings
from .cost import PASSES, estimate_text, estimate_texts
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


@asset(**asset_kwargs("meanings", {"python", "parquet", "spacy", "wordnet"}, "5"))
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
    estimates: dict[str, dict[str, Any]] = {}
    llm = getattr(resolver.llm, "config", None)
    if llm is not None:  # the estimate is shown before any paid call (seed 003: ±20 %)
        context.log.info(
            f"[resolved_meanings] {estimate_texts(_texts(source_documents, context), resolver.settings, llm).summary()}"
        )

    def build(doc_id: str, src: pd.DataFrame, chunks: pd.DataFrame) -> pd.DataFrame:
        row = source_row(src, doc_id)
        if llm is not None:
            est = estimate_text(row["text"], resolver.settings, llm.price_in_per_1k, llm.price_out_per_1k)
            estimates[doc_id] = est.as_dict()
            context.log.info(f"[resolved_meanings] {doc_id}: {est.summary()}")
        df, st = build_resolved_meanings(
            doc_id, row["text"], chunks_from_frame(chunks), row["format"], resolver, run_id, context.log
        )
        stats[doc_id] = st.as_dict()
        return df

    def extra(frames: dict[str, pd.DataFrame]) -> dict[str, Any]:
        meta = _metadata(frames, stats, resolver)
        if llm is not None:
            meta.update(llm_cost_metadata([k for k in frames if k in stats], stats, estimates))
        return meta

    return per_document(context, build, source_documents, parsed_chunks, preview=_preview, extra_metadata=extra)


def _texts(source_documents: Any, context: AssetExecutionContext):
    """The text of every readable document of the run (for the estimate)."""
    for key in run_keys(context):
        try:
            df = frame_of(source_documents, key)
        except Exception:  # noqa: BLE001 — a missing document is reported by the run itself
            continue
        if len(df) and df.iloc[0].get("status", "ok") == "ok":
            yield str(df.iloc[0]["text"])


def llm_cost_metadata(keys: list[str], stats: dict[str, Any], estimates: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """Tokens and cost per pass (stage_a, disambiguation, rating) of ``keys``, next to the estimate.

    ``llm_cost_usd`` / ``llm_*_tokens`` are what this run paid; ``cached_*`` what the response cache replayed
    (answers paid by an earlier, e.g. interrupted, run)."""
    usage: dict[str, dict[str, float]] = {}
    for k in keys:
        for p, u in (stats[k].get("usage") or {}).items():
            acc = usage.setdefault(p, {})
            for name, v in u.items():
                acc[name] = acc.get(name, 0) + v
    total: dict[str, float] = {}
    for u in usage.values():
        for name, v in u.items():
            total[name] = total.get(name, 0) + v
    est_cost = sum(estimates[k]["cost_usd"]["total"] for k in keys if k in estimates)
    est_by_pass = {p: round(sum(estimates[k]["cost_usd"][p] for k in keys if k in estimates), 6) for p in PASSES}
    return {
        "llm_usage": MetadataValue.json({p: usage[p] for p in PASSES if p in usage} | {"total": total}),
        "llm_prompt_tokens": int(total.get("prompt_tokens", 0)),
        "llm_completion_tokens": int(total.get("completion_tokens", 0)),
        "llm_cached_tokens": int(total.get("cached_prompt_tokens", 0) + total.get("cached_completion_tokens", 0)),
        "llm_requests": int(total.get("requests", 0)),
        "llm_cache_hits": int(total.get("cache_hits", 0)),
        "llm_cost_usd": round(float(total.get("cost_usd", 0.0)), 6),
        "llm_cost_estimate_usd": round(est_cost, 6),
        "llm_cost_estimate": MetadataValue.json({"total": round(est_cost, 6), **est_by_pass}),
    }


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
        df,
        ["text", "index_type", "entry_label", "meaning_type", "meaning_id", "meaning_gloss", "meaning_confidence"],
        n=10,
        rows=rows or None,
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
