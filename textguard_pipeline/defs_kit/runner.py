"""The per-document runner every document-partitioned asset shares: keys, isolation, metadata, tables.

An asset body is ``per_document(context, build, upstream...)`` where
``build(doc_id, *frames) -> DataFrame`` is one core call. A document whose
build raises is isolated: in a one-document run the step fails with the
document's error; in a multi-document run (or a one-document run tagged :data:`ISOLATE_TAG`, as
`textguard report` tags its runs) the other documents are written and the failed one is
listed in the ``failed_documents`` metadata, which the ``<asset>_documents_ok`` check reports.
Either way the failed document gets no file: an earlier file is removed (in a one-document run, with its files
of the assets downstream in the run's job, whose steps Dagster skips).
A document that failed for a reason outside it (an endpoint outage, a spent budget, a missing setting)
keeps its earlier file instead, while that file is still valid, and is listed as ``stale_documents``
(:mod:`.last_good`); in a one-document run too.

A document whose frame breaks one of the asset's blocking checks is isolated the same way in a
multi-document run (a blocking check that fails stops every downstream step of the run, so one
bad document would hold back all the others); the blocking check then passes on the documents
that were written and ``<asset>_documents_ok`` reports the isolated one. In a one-document run
the frame is written and the blocking check fails and blocks, as before.
"""

from __future__ import annotations

import time
import traceback
from typing import Any, Callable, Mapping

import pandas as pd
from dagster import (
    AssetExecutionContext,
    BackfillPolicy,
    Failure,
    MetadataValue,
    Output,
)

from ..lib.ledger import use_scope
from ..lib.outage import outage_of
from ..lib.redact import redact
from ..settings import max_partitions_per_run
from .checks import BLOCKING_RULES, FRAME_RULES, Rule
from .io_manager import KeepFile, MissingPartition, ParquetIOManager, partition_key_problem
from .last_good import drop_file, keep_last_good, stamp_frame
from .partitions import documents_partitions
from .rule_memo import MEMO, Results, text_fingerprint


class UpstreamMissing(Exception):
    """An upstream partition has no data (its document failed earlier)."""


class InvalidKey(ValueError):
    """This run's partition key cannot name a file (see io_manager.partition_key_problem)."""


def asset_kwargs(group_name: str, kinds: set[str], code_version: str, **extra: Any) -> dict[str, Any]:
    """The decorator arguments every document asset shares."""
    return dict(
        partitions_def=documents_partitions,
        backfill_policy=BackfillPolicy.multi_run(max_partitions_per_run()),
        io_manager_key="parquet_io_manager",
        group_name=group_name,
        kinds=kinds,
        code_version=code_version,
        **extra,
    )


#: run tag naming the LLM budget scope a run draws on (``report:<id>``; set by `textguard report`)
BUDGET_TAG = ".textguard/budget_scope"  # internal: "." sorts it apart (operations/instance.py)


def budget_scope(context: AssetExecutionContext) -> str | None:
    """The shared LLM budget this run draws on (lib/ledger.py): its report's, its backfill's, or None for a
    run started on its own (the rolling daily cap)."""
    try:
        tags = context.run.tags
    except Exception:  # no run (a direct invocation)
        return None
    if tags.get(BUDGET_TAG):
        return tags[BUDGET_TAG]
    return f"backfill:{tags['dagster/backfill']}" if tags.get("dagster/backfill") else None


#: run tag (value "1") asking a one-document run to isolate its document as a multi-document run does (set by
#: `textguard report`, whose schedule may give a dear document a run of its own)
ISOLATE_TAG = ".textguard/isolate"


def run_keys(context: AssetExecutionContext) -> list[str]:
    return list(context.partition_keys)


def isolates(context: AssetExecutionContext, keys: list[str] | None = None) -> bool:
    """Whether a failed document is isolated (the step goes on) rather than failing the step: in a
    multi-document run, and in a one-document run tagged :data:`ISOLATE_TAG`."""
    if len(keys if keys is not None else run_keys(context)) > 1:
        return True
    try:
        return context.run.tags.get(ISOLATE_TAG) == "1"
    except Exception:  # no run (a direct invocation)
        return False


def frame_of(value: Any, key: str) -> pd.DataFrame:
    """The DataFrame of partition ``key`` in an upstream input, or UpstreamMissing."""
    if isinstance(value, Mapping):
        value = value.get(key)
    if isinstance(value, MissingPartition) and value.reason:
        raise UpstreamMissing(f"no upstream data for document {key!r}: {value.reason}")
    if value is None or isinstance(value, MissingPartition):
        raise UpstreamMissing(f"no upstream data for document {key!r} (it failed in an earlier step)")
    return value


def source_row(source_documents: Any, key: str) -> Mapping[str, Any]:
    """The one row of ``source_documents`` for ``key``; raises when it failed to read."""
    df = frame_of(source_documents, key)
    if df.empty:
        raise UpstreamMissing(f"source_documents has no row for {key!r}")
    row = df.iloc[0]
    if row.get("status", "ok") != "ok":
        raise UpstreamMissing(f"document {key!r} was not read: {row.get('error')}")
    return row


def per_document(
    context: AssetExecutionContext,
    build: Callable[..., pd.DataFrame],
    *upstreams: Any,
    preview: Callable[[dict[str, pd.DataFrame]], str] | None = None,
    extra_metadata: Callable[[dict[str, pd.DataFrame]], Mapping[str, Any]] | None = None,
) -> Output[dict[str, pd.DataFrame | KeepFile | None]]:
    """Run ``build(doc_id, *upstream_frames)`` for every partition of the run.

    Resources and config reach ``build`` through its closure. ``preview`` and
    ``extra_metadata`` are called with one document's ``{doc_id: frame}`` and
    their result goes on that document's materialization event.
    """
    keys = run_keys(context)
    use_scope(budget_scope(context))  # every LLM request of this step draws on the run's shared budget
    t0 = time.perf_counter()
    out: dict[str, pd.DataFrame | KeepFile | None] = {}
    failures: dict[str, str] = {}
    skipped: dict[str, str] = {}
    stale: dict[str, str] = {}
    seconds: dict[str, float] = {}
    rule_set = step_rules(context)
    isolate = isolates(context, keys)
    for key in keys:
        t_doc = time.perf_counter()
        frames: list[pd.DataFrame] = []
        try:
            problem = partition_key_problem(key)
            if problem:  # added from the UI or the API: never a file name
                raise InvalidKey(f"partition key {key!r}: {problem}")
            frames = [frame_of(u, key) for u in upstreams]
            out[key] = build(key, *frames)
            seconds[key] = time.perf_counter() - t_doc
            broken = invariant_failure(context, key, out[key], frames, rule_set)
            if broken:
                context.log.error(f"document {key!r} isolated: blocking check {broken}")
                out[key] = None
                failures[key] = f"blocking check {broken}"
            else:
                stamp_frame(context, key, out[key], frames)
        except UpstreamMissing as exc:
            out[key] = None
            skipped[key] = redact(str(exc))
        except Exception as exc:  # isolate the document; the others go on
            why = redact(f"{type(exc).__name__}: {exc}")
            label = outage_of(exc)
            kept = keep_last_good(context, key, frames, f"{label}: {why}") if label else None
            if kept is not None:
                context.log.warning(f"document {key!r} keeps its earlier output ({label}): {why}")
                out[key] = kept
                stale[key] = kept.reason
                continue
            if not isolate:
                drop_file(context, key)
                raise Failure(
                    description=f"document {key!r}: {why}",
                    metadata={"doc_id": key, "traceback": MetadataValue.text(redact(traceback.format_exc()[-4000:]))},
                ) from exc
            context.log.error(f"document {key!r} failed: {why}")
            out[key] = None
            failures[key] = why
    if not isolate and skipped:
        drop_file(context, keys[0])
        raise Failure(description=next(iter(skipped.values())), metadata={"doc_id": keys[0]})
    written = {k: v for k, v in out.items() if isinstance(v, pd.DataFrame)}
    for key, reason in stale.items():
        add_partition_metadata(context, key, {"stale": True, "stale_reason": reason})
    # Per-document metadata goes on that document's materialization (what the UI shows for a
    # partition); only a small run summary is shared by every partition of the run.
    for key, df in written.items():
        add_partition_metadata(context, key, document_metadata(key, df, seconds.get(key, 0.0), preview, extra_metadata))
    metadata: dict[str, Any] = {
        "run_documents": len(keys),
        "run_seconds": round(time.perf_counter() - t0, 3),
    }
    if failures or skipped:
        metadata["failed_documents"] = MetadataValue.json({**failures, **skipped})
    if stale:
        metadata["stale_documents"] = MetadataValue.json(stale)
    return Output(out, metadata=metadata)


def invariant_failure(
    context: AssetExecutionContext, key: str, df: Any, frames: list[pd.DataFrame], rule_set: RuleSet | None = None
) -> str | None:
    """``"<check name> fails: <first failure>"`` when ``df`` breaks a blocking check of this asset in a
    multi-document run (the document is then isolated), else None.

    The rules are the checks' own (checks.FRAME_RULES): the blocking ones in a multi-document run, and every
    frame check the run includes; their results are offered to the check step (rule_memo.py), which then does
    not apply them again. A rule that needs the document's text is skipped when the text cannot be had here
    (the check itself still runs and says so)."""
    asset, isolate, rules = rule_set if rule_set is not None else step_rules(context)
    if not rules or not isinstance(df, pd.DataFrame):
        return None
    source: str | None = None
    looked = False
    results: Results = {}
    for name, (rule, with_sources) in rules.items():
        if with_sources and not looked:
            source, looked = document_text(context, key, frames), True
        if with_sources and source is None:
            continue
        guards = isolate and name in BLOCKING_RULES.get(asset, ())
        try:
            failed = list(rule(key, df, source if with_sources else None))
        except Exception:
            if guards:  # as before: the document is isolated with the rule's error
                raise
            continue  # not computed here: the check step applies the rule and reports the error itself
        results[name] = (failed, text_fingerprint(source) if with_sources else None)
        if failed and guards:
            MEMO.withdraw(asset, key)
            first = ", ".join(f"{k}={v!r}" for k, v in failed[0].items() if k != "doc_id")
            return f"{name} fails on {len(failed)} row(s): {first}"[:500]
    MEMO.offer(asset, key, df, results)
    return None


#: (asset, isolate, {check name: (rule, with_sources)}) of one asset step
RuleSet = tuple[str, bool, dict[str, tuple[Rule, bool]]]


def step_rules(context: AssetExecutionContext) -> RuleSet:
    """The frame rules an asset step applies to each document: the blocking ones when it can isolate a
    document (a multi-document run), and those of every check of the asset that the run evaluates."""
    try:
        asset = context.assets_def.key.to_user_string()
    except Exception:  # not a single-asset step
        return "", False, {}
    isolate = isolates(context)
    names = selected_rule_names(context, asset)
    blocking = BLOCKING_RULES.get(asset, {})
    rules = {n: r for n, r in FRAME_RULES.get(asset, {}).items() if n in names or (isolate and n in blocking)}
    return asset, isolate, rules


def selected_rule_names(context: AssetExecutionContext, asset: str) -> set[str]:
    """Names of the checks of ``asset`` this run evaluates in this process (its own selection, else its job's
    checks); none when this process runs this step alone (multiprocess or celery executor: the check step
    runs elsewhere and could not reuse the results)."""
    try:
        if len(context.get_step_execution_context().execution_plan.step_keys_to_execute) <= 1:
            return set()
        selected = context.run.asset_check_selection
        if selected is None:
            selected = context.job_def.asset_layer.asset_graph.asset_check_keys
        return {k.name for k in selected if k.asset_key.to_user_string() == asset}
    except Exception:  # another Dagster: apply only what isolation needs
        return set()


def document_text(context: AssetExecutionContext, key: str, frames: list[pd.DataFrame]) -> str | None:
    """The document's text: from an upstream ``source_documents`` row, else from the stored
    ``source_documents`` partition (through the step's IO manager); None when neither is at hand."""
    for df in frames:
        cols = set(df.columns)
        if {"status", "sha256", "text"} <= cols and len(df) == 1:
            row = df.iloc[0]
            return str(row["text"]) if row.get("status", "ok") == "ok" else None
    manager = getattr(context.resources, "parquet_io_manager", None)
    if isinstance(manager, ParquetIOManager):
        stored = manager.read_partition("source_documents", key)
        if isinstance(stored, pd.DataFrame) and len(stored) == 1 and stored.iloc[0].get("status", "ok") == "ok":
            return str(stored.iloc[0]["text"])
    return None


def add_partition_metadata(context: AssetExecutionContext, key: str, metadata: Mapping[str, Any]) -> None:
    """Attach metadata to one partition's materialization.

    ``context.add_asset_metadata(..., partition_key=key)`` re-reads every dynamic
    partition from the instance on each call to validate the key (≈ 9 ms per
    document per asset, measured); ``key`` comes from this run's own partition
    keys, so the step's metadata accumulator is fed directly when Dagster still
    has it (:func:`feed_metadata_accumulator`), and the public call is the fallback.
    """
    if not feed_metadata_accumulator(context, key, metadata):
        context.add_asset_metadata(metadata, partition_key=key)


def feed_metadata_accumulator(context: AssetExecutionContext, key: str, metadata: Mapping[str, Any]) -> bool:
    """THE one write to a private Dagster attribute (``StepExecutionContext._metadata_accumulator``).

    Returns False, touching nothing, when this Dagster no longer has it; a test
    (test_runner.py) fails in that case so that the fast path is not lost silently.
    """
    step = context.get_step_execution_context()
    acc = getattr(step, "_metadata_accumulator", None)
    if acc is None or not hasattr(acc, "with_additional_asset_metadata"):
        return False
    step._metadata_accumulator = acc.with_additional_asset_metadata(  # noqa: SLF001
        asset_key=context.assets_def.key, partition_key=key, metadata=metadata
    )
    return True


def document_metadata(
    key: str,
    df: pd.DataFrame,
    seconds: float,
    preview: Callable[[dict[str, pd.DataFrame]], str] | None,
    extra_metadata: Callable[[dict[str, pd.DataFrame]], Mapping[str, Any]] | None,
) -> dict[str, Any]:
    """Row count, timing, preview and the asset's own counts for one document."""
    md: dict[str, Any] = {"dagster/row_count": len(df), "seconds": round(seconds, 3)}
    one = {key: df}
    if preview is not None:
        try:
            md["preview"] = MetadataValue.md(preview(one))
        except Exception as exc:  # a preview must never fail an asset
            md["preview"] = MetadataValue.md(f"(preview unavailable: {exc})")
    if extra_metadata is not None:
        md.update(extra_metadata(one))
    return md


def markdown_table(
    df: pd.DataFrame, columns: list[str], n: int = 5, width: int = 60, rows: list[int] | None = None
) -> str:
    """A small Markdown table of the first ``n`` rows, or of the rows at positions ``rows`` (cells clipped,
    pipes escaped)."""
    cols = [c for c in columns if c in df.columns]
    head = "| " + " | ".join(cols) + " |\n|" + "---|" * len(cols) + "\n"
    # Column lists, not iterrows/head copies or row selections: this runs for every asset and document of
    # a backfill.
    if rows is None:
        values = [df[c].iloc[:n].tolist() for c in cols]
        positions = list(range(min(n, len(df))))
    else:
        positions = rows[:n]
        values = [df[c].tolist() for c in cols]
    lines = []
    for i in positions:
        cells = []
        for col in values:
            raw = col[i]
            missing = raw is None or raw is pd.NA or (isinstance(raw, float) and raw != raw)
            v = "" if missing else str(raw).replace("\n", "⏎").replace("|", "\\|")
            cells.append(v if len(v) <= width else v[: width - 1] + "…")
        lines.append("| " + " | ".join(cells) + " |")
    return head + "\n".join(lines)


def head_where(
    df: pd.DataFrame, column: str, keep: Callable[[Any], bool], n: int, fallback: bool = True
) -> pd.DataFrame:
    """The first ``n`` rows whose ``column`` value passes ``keep``; when none does, the whole frame
    (``fallback``) or no rows. For previews: a loop that stops early, not a mask over every row."""
    rows = head_positions(df, column, keep, n)
    return df.iloc[rows] if rows or not fallback else df


def head_positions(df: pd.DataFrame, column: str, keep: Callable[[Any], bool], n: int) -> list[int]:
    """Positions of the first ``n`` rows whose ``column`` value passes ``keep`` (for ``markdown_table(rows=)``)."""
    rows: list[int] = []
    for i, value in enumerate(df[column].tolist()):
        if keep(value):
            rows.append(i)
            if len(rows) == n:
                break
    return rows


def first_frame(frames: dict[str, pd.DataFrame]) -> tuple[str, pd.DataFrame]:
    key = sorted(frames)[0]
    return key, frames[key]
