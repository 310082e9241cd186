"""Materialize every asset for every document through Dagster, then report the checks.

Runs in one process, several documents per run (contiguous ranges of the
`documents` partitions), against the instance of ``$DAGSTER_HOME`` (the
project's dagster.yaml: SQLite under data/dagster_home) so the runs are
visible afterwards in the UI. Writes ``asset-checks.xml`` (JUnit, one testcase
per check per document) and ``asset-checks.md``; returns non-zero when a
blocking or ERROR-severity check failed, an asset step failed or a
document failed in an asset.

Nothing is silently dropped: a document that failed in an asset is listed with
the reason (an unreadable upstream file is named), a step failure keeps its
causes (disk full, read-only file system, with the file), runs left STARTED by a
killed process are marked failed, and partitions or files of documents that
left the corpus are listed (``textguard prune`` removes them; the report never
does). Every name and message is made safe for XML and the terminal
(:mod:`.safe_text`).
"""

import time
import uuid
import warnings
from dataclasses import dataclass, field
from typing import Any

from dagster import (
    AssetCheckSeverity,
    AssetSelection,
    BetaWarning,
    DagsterInstance,
    Definitions,
    PreviewWarning,
    define_asset_job,
)
from dagster._core.storage.tags import ASSET_PARTITION_RANGE_END_TAG, ASSET_PARTITION_RANGE_START_TAG

from .. import settings
from ..defs_kit.partitions import contiguous_ranges, documents_partitions, register_partitions
from ..defs_kit.runner import BUDGET_TAG, ISOLATE_TAG
from ..ingest.documents import discover_documents
from .instance import fail_orphaned_runs, open_instance, owner_tags
from .parallel import (
    Progress,
    RangeTask,
    Throughput,
    cost_units,
    cpu_seconds,
    document_costs,
    run_ranges,
    split_size,
    start_method,
)
from .preload import preload_shared
from .report_render import asset_lines, merge_markdown_tables, render_markdown, write_junit, write_report
from .safe_text import install_safe_log_records, one_line
from .warehouse import Stale, find_stale, orphan_tmp_files, remove_files

#: rendering lives in report_render; these names stay importable from here
__all__ = ["asset_lines", "merge_markdown_tables", "render_markdown", "write_junit", "write_report"]


@dataclass
class CheckOutcome:
    check: str  # "<asset>/<check_name>"
    doc_id: str
    status: str  # passed | failed | skipped
    severity: str = "ERROR"
    blocking: bool = False
    message: str = ""


@dataclass
class ReportResult:
    outcomes: list[CheckOutcome] = field(default_factory=list)
    step_failures: list[tuple[str, str]] = field(default_factory=list)  # (step, message)
    runs: list[str] = field(default_factory=list)
    documents: list[str] = field(default_factory=list)
    #: asset → Markdown summaries its materializations published (metadata key "summary")
    summaries: dict[str, list[str]] = field(default_factory=dict)
    #: doc_id → asset → why the document has no output there (the runner's ``failed_documents``)
    document_failures: dict[str, dict[str, str]] = field(default_factory=dict)
    #: doc_id → asset → why its earlier output was kept (failed outside the document: outage, budget, setting)
    kept_stale: dict[str, dict[str, str]] = field(default_factory=dict)
    #: what the report cleaned up or noticed before running (orphaned runs, temporary files)
    housekeeping: list[str] = field(default_factory=list)
    #: partitions and files of documents no longer in the corpus (removed only by `textguard prune`)
    stale: Stale = field(default_factory=Stale)
    seconds: float = 0.0
    #: documents done, rate, processes, cores busy (see parallel.Throughput)
    throughput: Throughput = field(default_factory=Throughput)
    #: where the Parquet tables are (``<warehouse>/<asset>/<doc_id>.parquet``)
    warehouse: str = ""
    #: asset → one line of what its tables hold for this run's documents (report_render.asset_lines)
    asset_lines: dict[str, str] = field(default_factory=dict)

    @property
    def failed(self) -> list[CheckOutcome]:
        return [o for o in self.outcomes if o.status == "failed" and o.severity == "ERROR"]

    @property
    def warnings(self) -> list[CheckOutcome]:
        """Failed WARN-severity outcomes (a check × document each)."""
        return [o for o in self.outcomes if o.status == "failed" and o.severity != "ERROR"]

    def exit_code(self, fail_on_warn: bool = False) -> int:
        return 0 if self.ok and not (fail_on_warn and self.warnings) else 1

    @property
    def ok(self) -> bool:
        return not self.failed and not self.step_failures and not self.document_failures and not self.kept_stale

    def stale_headline(self) -> str:
        """ "⚠️ N documents stale (outage)" when earlier outputs were kept, else ""."""
        if not self.kept_stale:
            return ""
        labels = sorted({r.split(":", 1)[0] for by in self.kept_stale.values() for r in by.values()})
        return f"⚠️ {len(self.kept_stale)} documents stale ({', '.join(labels)})"


def register_documents(instance: DagsterInstance, keys: list[str]) -> list[str]:
    """Add missing partitions (safe when other processes do the same); return every key in partition order."""
    return register_partitions(instance, keys)


def load_definitions():
    """The code location's Definitions, without the Beta/Preview warnings their decorators raise
    (backfill_policy and partitioned checks are used on purpose)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", BetaWarning)
        warnings.simplefilter("ignore", PreviewWarning)
        # heavy: the definitions import every slice (and operations); only when a report runs
        from ..definitions import build_definitions

        return build_definitions()


def housekeeping(instance: DagsterInstance, warehouse: str) -> list[str]:
    """Mark runs whose process died as failed; remove temporary files their writers left. Returns what was done."""
    orphaned = fail_orphaned_runs(instance)
    notes = [
        f"run {run_id} was left STARTED by process {pid}, which is gone: marked FAILED" for run_id, pid in orphaned
    ]
    dead = {pid for _, pid in orphaned}
    notes += [f"removed orphan temporary file {p}" for p in remove_files(orphan_tmp_files(warehouse, dead_pids=dead))]
    return notes


def materialize_corpus(
    instance: DagsterInstance | None = None,
    batch_size: int | None = None,
    select: str | None = None,
    log=print,
    log_level: str = "WARNING",
    workers: int = 1,
    quiet: bool = True,
) -> ReportResult:
    """Materialize every asset of the code location for every corpus document.

    ``workers`` > 1 runs the document ranges in that many processes (:mod:`.parallel`; the instance
    must be persistent); without ``batch_size`` the documents are then split so that every worker
    gets a range. ``quiet=False`` shows a progress bar on a terminal.
    """
    instance = instance or open_instance()
    defs = load_definitions()
    job = _job(defs, select)
    paths = discover_documents(settings.corpus_dir())
    docs = sorted(paths)
    if not docs:
        raise SystemExit(f"no documents under {settings.corpus_dir()}")
    res = ReportResult(documents=docs, housekeeping=housekeeping(instance, settings.warehouse()))
    ordered = register_documents(instance, docs)
    selected = {k.to_user_string() for k in job.asset_layer.selected_asset_keys}
    checks_meta = {name: v for name, v in _check_specs(defs).items() if name.split("/", 1)[0] in selected}
    workers = max(1, workers) if instance.is_persistent else 1
    max_size = settings.max_partitions_per_run()
    size = batch_size or split_size(len(docs), max_size, workers)
    position = {k: i for i, k in enumerate(ordered)}  # not ordered.index(): 100k registered documents
    ranges = contiguous_ranges(docs, ordered, size)
    cost = dict(zip(docs, document_costs([paths[d] for d in docs])))
    if batch_size is None and workers > 1 and len(ranges) >= workers:
        ranges = _ranges_by_cost(docs, ordered, position, cost, workers, max_size) or ranges
    # Ranges the report cuts itself may hold one document (a dear one alone): their runs isolate a failed document
    # as a longer run does. An explicit batch size keeps Dagster's semantics: a one-document run fails (FAILED status).
    isolate = batch_size is None and len(docs) > 1
    tasks = [
        RangeTask(i, first, last, tuple(ordered[position[first] : position[last] + 1]), isolate=isolate)
        for i, (first, last) in enumerate(ranges, 1)
    ]
    costs = [sum(cost.get(k, 0.0) for k in task.keys) for task in tasks]
    workers = min(workers, len(tasks))
    t0, cpu0 = time.perf_counter(), cpu_seconds()
    progress = Progress(len(docs), quiet=quiet)
    # one LLM budget for every run and process of this report (lib/ledger.py)
    scope = f"report:{uuid.uuid4().hex}"
    _RANGE_CONTEXT.update(instance=instance, job=job, checks_meta=checks_meta, log_level=log_level, scope=scope)
    log(f"materializing {len(docs)} document(s) in {len(tasks)} run(s), {workers} process(es)")
    if workers > 1 and start_method() == "fork":
        log(f"loaded the shared models for the workers in {preload_shared():.1f} s of CPU")
    parts: dict[int, ReportResult] = {}
    try:
        for task, (part, secs, ok, run_id) in run_ranges(
            tasks,
            _run_range,
            workers,
            _worker_init,
            (str(instance.root_directory), select, log_level, scope),
            costs,
        ):
            parts[task.index] = part
            progress.advance(len(task.keys))
            log(
                f"[{task.index}/{len(tasks)}] run {run_id[:8]} {'ok' if ok else 'FAILED'} in {secs:.1f}s: "
                f"{len(task.keys)} document(s) {one_line(task.first)} … {one_line(task.last)} — {progress.figures()}"
            )
    finally:
        progress.close()
        _RANGE_CONTEXT.clear()
    for index in sorted(parts):
        _merge(res, parts[index])
    res.seconds = time.perf_counter() - t0
    res.throughput = Throughput(len(docs), res.seconds, workers, cpu_seconds() - cpu0)
    partitioned = {
        k.to_user_string()
        for k in defs.resolve_asset_graph().materializable_asset_keys
        if defs.resolve_asset_graph().get(k).partitions_def == documents_partitions
    }
    res.stale = find_stale(
        settings.warehouse(), instance.get_dynamic_partitions(documents_partitions.name), set(docs), partitioned
    )
    res.warehouse = settings.warehouse()
    res.asset_lines = asset_lines(res.warehouse, docs, sorted(partitioned & selected))
    return res


def _ranges_by_cost(docs, ordered, position, cost, workers, max_size) -> list[tuple[str, str]] | None:
    """Ranges of about the same expected cost (format and size, :func:`.parallel.expected_cost`), a few per worker,
    which the workers take dearest first (:func:`.parallel.cost_units`); None to keep the count split when they
    are fewer than the workers. A dear document gets a run of its own (the report's runs isolate a failed
    document even when alone: ``ISOLATE_TAG``), so it starts first and the others fill the other workers."""
    keyed = sorted(docs, key=position.__getitem__)
    ranges = [
        r
        for unit in cost_units(keyed, [cost[d] for d in keyed], workers, max_size, min_docs=1)
        for r in contiguous_ranges(unit, ordered, max_size)
    ]
    return ranges if len(ranges) >= workers else None


#: what :func:`_run_range` runs with: set by materialize_corpus (one process) or _worker_init (workers)
_RANGE_CONTEXT: dict[str, Any] = {}


def _job(defs, select: str | None):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", BetaWarning)
        return _selection_job(defs, select) if select else defs.resolve_job_def("materialize_all")


def _worker_init(home: str, select: str | None, log_level: str, scope: str) -> None:
    """In a worker process: the same instance, definitions and job as the parent, once."""
    install_safe_log_records()
    defs = load_definitions()
    job = _job(defs, select)
    selected = {k.to_user_string() for k in job.asset_layer.selected_asset_keys}
    _RANGE_CONTEXT.update(
        instance=open_instance(home),
        job=job,
        log_level=log_level,
        scope=scope,
        checks_meta={n: v for n, v in _check_specs(defs).items() if n.split("/", 1)[0] in selected},
    )


def _run_range(task: RangeTask) -> tuple[ReportResult, float, bool, str]:
    """One run over ``task``'s documents; its outcomes as a partial ReportResult (picklable)."""
    ctx = _RANGE_CONTEXT
    t = time.perf_counter()
    result = ctx["job"].execute_in_process(
        instance=ctx["instance"],
        run_config={"loggers": {"console": {"config": {"log_level": ctx["log_level"]}}}},
        tags={
            ASSET_PARTITION_RANGE_START_TAG: task.first,
            ASSET_PARTITION_RANGE_END_TAG: task.last,
            BUDGET_TAG: ctx["scope"],
            # a one-document range of a longer report isolates its document's failure as a longer range does
            **({ISOLATE_TAG: "1"} if task.isolate else {}),
            **owner_tags(),
        },
        raise_on_error=False,
    )
    part = ReportResult(runs=[result.run_id])
    _collect(result, list(task.keys), ctx["checks_meta"], part)
    return part, time.perf_counter() - t, result.success, result.run_id


def _merge(res: ReportResult, part: ReportResult) -> None:
    res.runs += part.runs
    res.outcomes += part.outcomes
    res.step_failures += part.step_failures
    for asset, summaries in part.summaries.items():
        res.summaries.setdefault(asset, []).extend(summaries)
    for doc_id, by_asset in part.document_failures.items():
        res.document_failures.setdefault(doc_id, {}).update(by_asset)
    for doc_id, by_asset in part.kept_stale.items():
        res.kept_stale.setdefault(doc_id, {}).update(by_asset)


def _selection_job(defs, select: str):
    """A job over an asset selection string (e.g. "source_documents parsed_chunks" or "key:parsed_chunks+")."""
    selection = (
        AssetSelection.from_string(select) if " " not in select.strip() else AssetSelection.assets(*select.split())
    )
    job = define_asset_job("report_selection", selection=selection, partitions_def=documents_partitions)
    merged = Definitions.merge(defs, Definitions(jobs=[job]))
    return merged.resolve_job_def("report_selection")


def _check_specs(defs) -> dict[str, tuple[bool, str]]:
    """check key → (blocking, description)."""
    out = {}
    for spec in defs.resolve_asset_graph().asset_check_keys:
        node = (
            defs.resolve_asset_graph().get_check_spec(spec)
            if hasattr(defs.resolve_asset_graph(), "get_check_spec")
            else None
        )
        blocking = bool(getattr(node, "blocking", False))
        out[f"{spec.asset_key.to_user_string()}/{spec.name}"] = (blocking, getattr(node, "description", "") or "")
    return out


def _collect(result, keys: list[str], checks_meta: dict[str, tuple[bool, str]], res: ReportResult) -> None:
    seen: set[str] = set()
    for ev in result.get_asset_check_evaluations():
        name = f"{ev.asset_key.to_user_string()}/{ev.check_name}"
        seen.add(name)
        blocking = checks_meta.get(name, (False, ""))[0]
        severity = "ERROR" if ev.severity == AssetCheckSeverity.ERROR else "WARN"
        failing = set(_json(ev.metadata.get("failing_documents")) or [])
        first = ev.metadata.get("first_failures")
        msg = getattr(first, "value", "") if first is not None else ""
        for k in keys:
            failed_here = (not ev.passed) and (k in failing or not failing)
            res.outcomes.append(
                CheckOutcome(
                    name,
                    k,
                    "failed" if failed_here else "passed",
                    severity,
                    blocking,
                    _doc_lines(msg, k) if failed_here else "",
                )
            )
    for name, (blocking, _) in checks_meta.items():
        if name not in seen:
            for k in keys:
                res.outcomes.append(
                    CheckOutcome(
                        name,
                        k,
                        "skipped",
                        "ERROR",
                        blocking,
                        "not evaluated (an upstream step failed or a blocking check stopped it)",
                    )
                )
    for ev in result.get_asset_materialization_events():
        mat = ev.event_specific_data.materialization
        summary = mat.metadata.get("summary")
        if summary is not None and getattr(summary, "value", None):
            res.summaries.setdefault(mat.asset_key.to_user_string(), []).append(str(summary.value))
        failed = _json(mat.metadata.get("failed_documents"))
        for doc_id, reason in failed.items() if isinstance(failed, dict) else ():
            res.document_failures.setdefault(str(doc_id), {})[mat.asset_key.to_user_string()] = str(reason)
        kept = _json(mat.metadata.get("stale_documents"))
        for doc_id, reason in kept.items() if isinstance(kept, dict) else ():
            res.kept_stale.setdefault(str(doc_id), {})[mat.asset_key.to_user_string()] = str(reason)
    for ev in result.get_step_failure_events():
        err = ev.event_specific_data.error if ev.event_specific_data else None
        res.step_failures.append((ev.step_key or "?", error_text(err)[:2000] if err else "step failed"))


def error_text(err) -> str:
    """A serialized Dagster error with its causes (``Error occurred while handling output`` alone hides
    "No space left on device: cannot write …/doc.parquet")."""
    parts, seen = [], 0
    while err is not None and seen < 6:
        parts.append(err.message.strip())  # Dagster's message starts with the exception class
        err, seen = getattr(err, "cause", None) or getattr(err, "context", None), seen + 1
    return "\ncaused by: ".join(parts)


def _json(value: Any) -> Any:
    return getattr(value, "data", value)


def _doc_lines(markdown: str, doc_id: str) -> str:
    """The header, separator and ``doc_id``'s rows of a failures table (a table that renders), else the text."""
    lines = [
        ln
        for ln in (markdown or "").splitlines()
        if f"| {doc_id} |" in ln or ln.startswith("| doc_id") or (ln.startswith("|") and set(ln) <= set("|-: "))
    ]
    return "\n".join(lines[:7]) if len(lines) > 2 else (markdown or "")[:1500]
