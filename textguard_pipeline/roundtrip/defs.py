"""Dagster definitions of the round trip: asset `rewritten_chunks`, its checks and its resource.

Rewriting is opt-in: with TEXTGUARD_LLM_URL and TEXTGUARD_REWRITE_TASK both set, `textguard report` and
`materialize_all` include the asset; otherwise it is defined, writes nothing and says why in its metadata.
"""

import dataclasses
import time
from collections import Counter
from typing import Any, Mapping

import pandas as pd
from dagster import (
    AssetCheckExecutionContext,
    AssetCheckResult,
    AssetCheckSeverity,
    AssetExecutionContext,
    AssetIn,
    ConfigurableResource,
    Definitions,
    EnvVar,
    MetadataValue,
    Output,
    asset,
    asset_check,
)

from .. import settings
from ..defs_kit.checks import char_range_check, frame_check, result_from_failures, source_texts
from ..defs_kit.io_manager import MissingPartition, partition_path
from ..defs_kit.last_good import keep_all
from ..defs_kit.runner import (
    add_partition_metadata,
    asset_kwargs,
    first_frame,
    markdown_table,
    per_document,
    source_row,
)
from ..lib.llm import ChatClient, LLMConfig
from .answer_rules import AnswerRules
from .documents import (
    build_rewritten_documents,
    originals_failures,
    review_html,
    skeleton_failures,
    verbatim_failures,
)
from .engine import STATUSES, RoundTrip
from .frame import (
    FALLBACK_WARN_SHARE,
    build_rewritten_chunks,
    document_figures,
    fallback_share,
    rewrite_failures,
    summary_markdown,
)
from .prompt import PROMPT_VERSION

ASSET = "rewritten_chunks"


class RewriteResource(ConfigurableResource):
    """The round trip's task and endpoint (defaults from TEXTGUARD_REWRITE_* and TEXTGUARD_LLM_*; prices,
    budget, concurrency, cache and retries always come from TEXTGUARD_LLM_*, see settings.LLMSettings)."""

    task: str = ""
    max_attempts: int = 3
    chunk_chars: int = 4000
    temperature: float = 0.0
    llm_url: str = ""
    llm_model: str = "default"
    length_band: str = ""
    answer_language: str = ""

    @classmethod
    def from_settings(cls, s: settings.RewriteSettings) -> "RewriteResource":
        # The URL may carry a password: when it is the environment's, the resource takes it through EnvVar, so
        # the run config stored in the instance (and the launchpad) holds the variable's name, not its value.
        from_env = bool(s.llm.url) and s.llm.url == settings.llm_settings().url
        return cls(
            task=s.task,
            max_attempts=s.max_attempts,
            chunk_chars=s.chunk_chars,
            temperature=s.temperature,
            llm_url=EnvVar(settings.LLM_URL_VAR) if from_env else s.llm.url,
            llm_model=s.llm.model,
            length_band=s.length_band,
            answer_language=s.language,
        )

    def rewrite_settings(self) -> settings.RewriteSettings:
        llm = dataclasses.replace(settings.llm_settings(), url=self.llm_url.strip().rstrip("/"), model=self.llm_model)
        return settings.RewriteSettings(
            self.task.strip(),
            self.max_attempts,
            self.chunk_chars,
            self.temperature,
            llm,
            length_band=self.length_band.strip(),
            language=self.answer_language.strip(),
        )

    def roundtrip(self) -> RoundTrip:
        s = self.rewrite_settings()
        config = LLMConfig.from_settings(s.llm, use_cache=True)
        assert config is not None
        return RoundTrip(
            ChatClient(config),
            s.task,
            max_attempts=s.max_attempts,
            chunk_chars=s.chunk_chars,
            temperature=s.temperature,
            concurrency=config.concurrency,
            rules=AnswerRules.for_task(s.task, s.length_band, s.language),
        )


@asset(**asset_kwargs("rewrite", {"python", "parquet", "llm"}, "1"), ins={"protected_chunks": AssetIn()})
def rewritten_chunks(context: AssetExecutionContext, rewrite: RewriteResource, protected_chunks):
    """Prose chunks rewritten by an LLM (paraphrase, translation, …) with every protected term brought back.

    One row per prose chunk: doc_id, chunk_index, start, end, text (source slice), protected_text, placeholders
    (issued placeholder → original), llm_output (raw, last attempt), rewritten_text (restored), status
    (ok | repaired | retried | fallback), attempts, repairs, problems, model, prompt_version, prompt_tokens,
    completion_tokens, latency_s, pieces. Opt-in: needs TEXTGUARD_LLM_URL and TEXTGUARD_REWRITE_TASK.
    """
    s = rewrite.rewrite_settings()
    if not s.enabled:
        return _off(context, s.disabled_reason())
    rt = rewrite.roundtrip()
    client = rt.client
    usage_by_doc: dict[str, dict[str, float]] = {}
    t0 = time.perf_counter()

    def build(doc_id: str, protected: pd.DataFrame) -> pd.DataFrame:
        before = client.usage()
        try:
            return build_rewritten_chunks(doc_id, protected, rt)
        finally:
            after = client.usage()
            usage_by_doc[doc_id] = {k: after[k] - before.get(k, 0) for k in after}

    def preview(frames: dict[str, pd.DataFrame]) -> str:
        key, df = first_frame(frames)
        return f"**{key}**\n\n" + markdown_table(
            df, ["chunk_index", "status", "attempts", "rewritten_text"], n=5, width=160
        )

    def extra(frames: dict[str, pd.DataFrame]) -> dict[str, Any]:
        key, df = first_frame(frames)
        u = usage_by_doc.get(key, {})
        return {
            **{k: MetadataValue.json(v) if isinstance(v, dict) else v for k, v in document_figures(df).items()},
            "cost_usd": round(u.get("cost_usd", 0.0), 6),
            "requests": int(u.get("requests", 0)),
            "cache_hits": int(u.get("cache_hits", 0)),
            "summary": MetadataValue.md(summary_markdown(key, df, u)),
        }

    try:
        out = per_document(context, build, protected_chunks, preview=preview, extra_metadata=extra)
    finally:
        client.close()
    frames = [v for v in out.value.values() if isinstance(v, pd.DataFrame)]
    seconds = time.perf_counter() - t0
    u = client.usage()
    statuses = Counter(st for df in frames for st in df["status"])
    repairs = Counter(x["kind"] for df in frames for v in df["repairs"] for x in (v if v is not None else []))
    # run_* keys: the whole run (each document's materialization also carries its own figures, unprefixed)
    run_md: dict[str, Any] = {
        "task": s.task,
        "model": s.llm.model,
        "prompt_version": PROMPT_VERSION,
        "run_by_status": MetadataValue.json({k: int(statuses.get(k, 0)) for k in STATUSES}),
        "run_repairs_by_kind": MetadataValue.json(dict(repairs)),
        "run_prompt_tokens": int(u["prompt_tokens"]),
        "run_completion_tokens": int(u["completion_tokens"]),
        "run_cost_usd": round(float(u["cost_usd"]), 6),
        "run_requests": int(u["requests"]),
        "run_cache_hits": int(u["cache_hits"]),
        "run_http_retries": int(u["retries"]),
        "run_requests_per_second": round(u["requests"] / seconds, 3) if seconds > 0 else 0.0,
    }
    return Output(out.value, metadata={**out.metadata, **run_md})


def _terms_rule(doc_id: str, df: pd.DataFrame, source: str | None) -> list[dict[str, Any]]:
    return rewrite_failures(df) if not df.empty else []


def _fallback_rule(doc_id: str, df: pd.DataFrame, source: str | None) -> list[dict[str, Any]]:
    share = fallback_share(df)
    if share > FALLBACK_WARN_SHARE:
        return [{"reason": f"{share:.0%} of {len(df)} rows fell back (more than {FALLBACK_WARN_SHARE:.0%})"}]
    return []


@asset_check(
    asset=ASSET,
    name=f"{ASSET}_documents_ok",
    blocking=False,
    additional_ins={"source_documents": AssetIn("source_documents")},
    description="Every readable document of the run has rewritten_chunks (an endpoint outage fails the "
    "document; its earlier rows stay, marked stale, while the document and the code are unchanged); passes "
    "with a note when rewriting is off.",
)
def rewritten_documents_ok(
    context: AssetCheckExecutionContext, rewrite: RewriteResource, value, source_documents
) -> AssetCheckResult:
    s = rewrite.rewrite_settings()
    values: Mapping[str, Any] = value if isinstance(value, Mapping) else {}
    if not s.enabled:
        return AssetCheckResult(passed=True, metadata={"rewriting": "off", "reason": s.disabled_reason()})
    readable = source_texts(source_documents)
    failures = [
        {
            "doc_id": k,
            "reason": "no output: the endpoint failed for this document or it failed upstream (see the run log)",
        }
        for k, v in values.items()
        if isinstance(v, MissingPartition) and k in readable
    ]
    return result_from_failures(failures, checked=len(values))


CHECKS = [
    frame_check(
        ASSET,
        f"{ASSET}_terms_kept",
        _terms_rule,
        with_sources=False,
        description="A non-fallback row holds every protected and math original of its chunk (as often as "
        "the protected text asks) and no placeholder residue of any shape; a fallback row's "
        "rewritten_text equals its source text.",
    ),
    char_range_check(ASSET),
    frame_check(
        ASSET,
        f"{ASSET}_fallback_share",
        _fallback_rule,
        with_sources=False,
        blocking=False,
        severity=AssetCheckSeverity.WARN,
        description=f"Warns when more than {FALLBACK_WARN_SHARE:.0%} of a document's rows fell back to the "
        "source text.",
    ),
    rewritten_documents_ok,
]


DOCS = "rewritten_documents"


def _off(context: AssetExecutionContext, reason: str) -> Output:
    """Rewriting is off: write nothing new; a missing setting is not the documents' fault, so earlier files stay
    while still valid (last_good.py)."""
    context.log.info(reason)
    out, stale = keep_all(context, f"configuration: {reason}")
    for key, why in stale.items():
        add_partition_metadata(context, key, {"stale": True, "stale_reason": why})
    stale_md = {"stale_documents": MetadataValue.json(stale)} if stale else {}
    return Output(
        out, metadata={"rewriting": "off", "reason": reason, "run_documents": len(context.partition_keys), **stale_md}
    )


def review_page_path(doc_id: str) -> Any:
    """The review page beside the document's Parquet file (``<warehouse>/rewritten_documents/<doc_id>.html``)."""
    return partition_path(settings.warehouse(), DOCS, doc_id, ".html")


@asset(
    **asset_kwargs("rewrite", {"python", "parquet", "html"}, "1"),
    ins={"source_documents": AssetIn(), "parsed_chunks": AssetIn(), "rewritten_chunks": AssetIn()},
)
def rewritten_documents(
    context: AssetExecutionContext, rewrite: RewriteResource, source_documents, parsed_chunks, rewritten_chunks
):
    """Whole documents back from the round trip: every non-prose chunk byte for byte, every prose chunk rewritten
    (or, on fallback, its source text), with a review page beside the Parquet file.

    One row per document: doc_id, path, format, text, n_chunks, n_rewritten, n_fallback, share_rewritten, status
    (rewritten | partial | source), segments (where each chunk went), originals (protected originals and how often
    each must appear). Selected exactly when rewritten_chunks is (TEXTGUARD_LLM_URL and TEXTGUARD_REWRITE_TASK).
    """
    s = rewrite.rewrite_settings()
    if not s.enabled:
        return _off(context, s.disabled_reason())
    pages: dict[str, str] = {}

    def build(doc_id: str, src: pd.DataFrame, parsed: pd.DataFrame, rewritten: pd.DataFrame) -> pd.DataFrame:
        row = source_row(src, doc_id)
        df = build_rewritten_documents(doc_id, row["text"], row["format"], row["path"], parsed, rewritten)
        page = review_page_path(doc_id)
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_text(review_html(df.iloc[0].to_dict(), row["text"]), encoding="utf-8")
        pages[doc_id] = str(page)
        return df

    def preview(frames: dict[str, pd.DataFrame]) -> str:
        key, df = first_frame(frames)
        return f"**{key}**\n\n" + markdown_table(df, ["status", "share_rewritten", "text"], n=1, width=400)

    def extra(frames: dict[str, pd.DataFrame]) -> dict[str, Any]:
        key, df = first_frame(frames)
        r = df.iloc[0]
        return {
            "review_page": MetadataValue.path(pages.get(key, "")),
            "status": str(r["status"]),
            "share_rewritten": float(r["share_rewritten"]),
            "n_rewritten": int(r["n_rewritten"]),
            "n_fallback": int(r["n_fallback"]),
        }

    return per_document(
        context, build, source_documents, parsed_chunks, rewritten_chunks, preview=preview, extra_metadata=extra
    )


def _verbatim_rule(doc_id: str, df: pd.DataFrame, source: str | None) -> list[dict[str, Any]]:
    return verbatim_failures(df, source or "") if not df.empty else []


def _originals_rule(doc_id: str, df: pd.DataFrame, source: str | None) -> list[dict[str, Any]]:
    return originals_failures(df) if not df.empty else []


def _skeleton_rule(doc_id: str, df: pd.DataFrame, source: str | None) -> list[dict[str, Any]]:
    return skeleton_failures(df, source or "") if not df.empty else []


def _share_rule(doc_id: str, df: pd.DataFrame, source: str | None) -> list[dict[str, Any]]:
    out = []
    for r in df.to_dict("records"):
        prose = int(r["n_rewritten"]) + int(r["n_fallback"])
        if prose and int(r["n_fallback"]) / prose > FALLBACK_WARN_SHARE:
            out.append(
                {
                    "reason": f"{float(r['share_rewritten']):.0%} of {prose} prose chunks rewritten",
                    "status": r["status"],
                }
            )
    return out


CHECKS += [
    frame_check(
        DOCS,
        f"{DOCS}_verbatim",
        _verbatim_rule,
        description="Non-prose chunks (and prose chunks that fell back) are the source's bytes, in the source's "
        "order; the chunks tile the source and the document.",
    ),
    frame_check(
        DOCS,
        f"{DOCS}_terms_kept",
        _originals_rule,
        with_sources=False,
        description="Every protected original occurs in the document at least as often as the chunks' "
        "protected texts ask for it.",
    ),
    frame_check(
        DOCS,
        f"{DOCS}_skeleton",
        _skeleton_rule,
        description="The format's skeleton is kept: LaTeX environments in sequence, sectioning commands and "
        "brace balance; Markdown headings, link/image targets and code fences; reST section underlines and "
        "directives.",
    ),
    frame_check(
        DOCS,
        f"{DOCS}_share_rewritten",
        _share_rule,
        with_sources=False,
        blocking=False,
        severity=AssetCheckSeverity.WARN,
        description=f"Reports the share of prose chunks rewritten; warns when more than {FALLBACK_WARN_SHARE:.0%} "
        "of a document's prose chunks kept their source text.",
    ),
]

ASSETS = [rewritten_chunks, rewritten_documents]

#: This slice's Dagster definitions (merged by ``textguard_pipeline.definitions``).
defs = Definitions(assets=ASSETS, asset_checks=CHECKS)


def resources() -> dict[str, object]:
    """The slice's resources, read from the environment now (each code-location load reads it afresh).

    RewriteResource is hand-written (not settings_resource): RewriteSettings nests LLMSettings, whose API key
    must never be shown in the launchpad; prices, budget, cache and retries are read at run time.
    """
    return {"rewrite": RewriteResource.from_settings(settings.rewrite_settings())}
