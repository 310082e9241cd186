"""Materialize every asset for every document through Dagster, then report the checks.

Runs in one process, several documents per run (contiguous ranges of the
`documents` partitions), against the instance of ``$DAGSTER_HOME`` (the
project's dagster.yaml: SQLite under data/dagster_home) so the runs are
visible afterwards in the UI. Writes ``asset-checks.xml`` (JUnit, one testcase
per check per document) and ``asset-checks.md``; returns non-zero when a
blocking or ERROR-severity check failed or an asset step failed.
"""

import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from dagster import AssetCheckSeverity, DagsterInstance
from dagster._core.storage.tags import ASSET_PARTITION_RANGE_END_TAG, ASSET_PARTITION_RANGE_START_TAG

from .. import settings
from ..core.documents import discover_documents
from ..defs_kit.partitions import contiguous_ranges, documents_partitions
from ..meanings.wordnet_install import lexicon_status



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
    seconds: float = 0.0

    @property
    def failed(self) -> list[CheckOutcome]:
        return [o for o in self.outcomes if o.status == "failed" and o.severity == "ERROR"]

    @property
    def ok(self) -> bool:
        return not self.failed and not self.step_failures


def _instance() -> DagsterInstance:
    home = os.environ.get("DAGSTER_HOME")
    if not home:
        home = str(settings.PROJECT_ROOT / "data" / "dagster_home")
        os.environ["DAGSTER_HOME"] = home
    Path(home).mkdir(parents=True, exist_ok=True)
    if not (Path(home) / "dagster.yaml").exists():
        src = settings.PROJECT_ROOT / "dagster.yaml"
        if src.exists():
            (Path(home) / "dagster.yaml").write_text(src.read_text())
    return DagsterInstance.get()


def register_documents(instance: DagsterInstance, keys: list[str]) -> list[str]:
    """Add missing partitions; return every registered key in partition order."""
    existing = instance.get_dynamic_partitions(documents_partitions.name)
    new = [k for k in keys if k not in set(existing)]
    if new:
        instance.add_dynamic_partitions(documents_partitions.name, new)
    return list(existing) + new


def materialize_corpus(
    instance: DagsterInstance | None = None,
    batch_size: int | None = None,
    select: str | None = None,
    log=print,
    log_level: str = "WARNING",
) -> ReportResult:
    """Materialize every asset of the code location for every corpus document."""
    from ..definitions import build_definitions

    instance = instance or _instance()
    defs = build_definitions()
    docs = sorted(discover_documents(settings.corpus_dir()))
    if not docs:
        raise SystemExit(f"no documents under {settings.corpus_dir()}")
    ordered = register_documents(instance, docs)
    job = defs.resolve_job_def("materialize_all")
    if select:
        job = _selection_job(defs, select)
    selected = {k.to_user_string() for k in job.asset_layer.selected_asset_keys}
    checks_meta = {name: v for name, v in _check_specs(defs).items() if name.split("/", 1)[0] in selected}
    res = ReportResult(documents=docs)
    t0 = time.perf_counter()
    ranges = contiguous_ranges(docs, ordered, batch_size or settings.max_partitions_per_run())
    for i, (first, last) in enumerate(ranges, 1):
        keys = ordered[ordered.index(first): ordered.index(last) + 1]
        log(f"[{i}/{len(ranges)}] materializing {len(keys)} document(s): {first} … {last}")
        t = time.perf_counter()
        result = job.execute_in_process(
            instance=instance,
            run_config={"loggers": {"console": {"config": {"log_level": log_level}}}},
            tags={ASSET_PARTITION_RANGE_START_TAG: first, ASSET_PARTITION_RANGE_END_TAG: last},
            raise_on_error=False,
        )
        res.runs.append(result.run_id)
        _collect(result, keys, checks_meta, res)
        log(f"      run {result.run_id[:8]} {'ok' if result.success else 'FAILED'} in {time.perf_counter() - t:.1f}s")
    res.seconds = time.perf_counter() - t0
    return res


def _selection_job(defs, select: str):
    """A job over an asset selection string (e.g. "source_documents parsed_chunks" or "key:parsed_chunks+")."""
    from dagster import AssetSelection, Definitions, define_asset_job

    selection = AssetSelection.from_string(select) if " " not in select.strip() else AssetSelection.assets(*select.split())
    job = define_asset_job("report_selection", selection=selection, partitions_def=documents_partitions)
    merged = Definitions.merge(defs, Definitions(jobs=[job]))
    return merged.resolve_job_def("report_selection")


def _check_specs(defs) -> dict[str, tuple[bool, str]]:
    """check key → (blocking, description)."""
    out = {}
    for spec in defs.resolve_asset_graph().asset_check_keys:
        node = defs.resolve_asset_graph().get_check_spec(spec) if hasattr(defs.resolve_asset_graph(), "get_check_spec") else None
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
            res.outcomes.append(CheckOutcome(name, k, "failed" if failed_here else "passed", severity, blocking,
                                             _doc_lines(msg, k) if failed_here else ""))
    for name, (blocking, _) in checks_meta.items():
        if name not in seen:
            for k in keys:
                res.outcomes.append(CheckOutcome(name, k, "skipped", "ERROR", blocking,
                                                 "not evaluated (an upstream step failed or a blocking check stopped it)"))
    for ev in result.get_asset_materialization_events():
        mat = ev.event_specific_data.materialization
        summary = mat.metadata.get("summary")
        if summary is not None and getattr(summary, "value", None):
            res.summaries.setdefault(mat.asset_key.to_user_string(), []).append(str(summary.value))
    for ev in result.get_step_failure_events():
        err = ev.event_specific_data.error if ev.event_specific_data else None
        message = err.message.strip() if err else "step failed"
        res.step_failures.append((ev.step_key or "?", message[:2000]))


def _json(value: Any) -> Any:
    return getattr(value, "data", value)


def _doc_lines(markdown: str, doc_id: str) -> str:
    lines = [ln for ln in (markdown or "").splitlines() if f"| {doc_id} |" in ln or ln.startswith("| doc_id")]
    return "\n".join(lines[:6]) if len(lines) > 1 else (markdown or "")[:1500]


def write_junit(res: ReportResult, path: Path) -> None:
    by_check: dict[str, list[CheckOutcome]] = {}
    for o in res.outcomes:
        by_check.setdefault(o.check, []).append(o)
    parts = ['<?xml version="1.0" encoding="UTF-8"?>']
    total = len(res.outcomes) + len(res.step_failures)
    failures = sum(1 for o in res.outcomes if o.status == "failed")
    skipped = sum(1 for o in res.outcomes if o.status == "skipped")
    parts.append(f'<testsuites name="textguard asset checks" tests="{total}" failures="{failures}" '
                 f'errors="{len(res.step_failures)}" skipped="{skipped}" time="{res.seconds:.3f}">')
    for check, outs in sorted(by_check.items()):
        nf = sum(1 for o in outs if o.status == "failed")
        ns = sum(1 for o in outs if o.status == "skipped")
        parts.append(f'  <testsuite name={quoteattr(check)} tests="{len(outs)}" failures="{nf}" skipped="{ns}">')
        for o in sorted(outs, key=lambda o: o.doc_id):
            parts.append(f'    <testcase classname={quoteattr(check)} name={quoteattr(o.doc_id)}>')
            if o.status == "failed":
                tag = "failure" if o.severity == "ERROR" else "system-out"
                if tag == "failure":
                    parts.append(f'      <failure message={quoteattr(f"{check} failed for {o.doc_id}")}>{escape(o.message)}</failure>')
                else:
                    parts.append(f"      <system-out>WARN: {escape(o.message)}</system-out>")
            elif o.status == "skipped":
                parts.append(f"      <skipped message={quoteattr(o.message)}/>")
            parts.append("    </testcase>")
        parts.append("  </testsuite>")
    if res.step_failures:
        parts.append(f'  <testsuite name="asset steps" tests="{len(res.step_failures)}" errors="{len(res.step_failures)}">')
        for step, msg in res.step_failures:
            parts.append(f'    <testcase classname="asset steps" name={quoteattr(step)}>'
                         f'<error message={quoteattr(msg.splitlines()[0] if msg else "")}>{escape(msg)}</error></testcase>')
        parts.append("  </testsuite>")
    parts.append("</testsuites>")
    path.write_text("\n".join(parts) + "\n", encoding="utf-8")


def merge_markdown_tables(parts: list[str]) -> str:
    """One table from per-document summary tables that share a header; other parts as they are."""
    header: list[str] | None = None
    rows: list[str] = []
    rest: list[str] = []
    for part in parts:
        lines = part.strip().splitlines()
        if len(lines) >= 2 and lines[0].startswith("|") and set(lines[1]) <= set("|-: "):
            if header is None:
                header = lines[:2]
            if lines[:2] == header:
                rows += lines[2:]
                continue
        rest.append(part)
    table = "\n".join(header + sorted(rows)) if header else ""
    return "\n\n".join([p for p in [table, *rest] if p])


def render_markdown(res: ReportResult) -> str:
    by_check: dict[str, list[CheckOutcome]] = {}
    for o in res.outcomes:
        by_check.setdefault(o.check, []).append(o)
    status = "✅ all checks passed" if res.ok else "❌ checks failed"
    lines = [
        "# textguard asset-check report",
        "",
        f"{status} — {len(res.documents)} documents, {len(res.runs)} run(s), {res.seconds:.1f}s",
        "", lexicon_status(), "",
        "| check | blocking | passed | failed | skipped |",
        "|---|---|---|---|---|",
    ]
    for check, outs in sorted(by_check.items()):
        p = sum(o.status == "passed" for o in outs)
        f = sum(o.status == "failed" for o in outs)
        s = sum(o.status == "skipped" for o in outs)
        mark = "❌ " if f and any(o.severity == "ERROR" for o in outs if o.status == "failed") else ("⚠️ " if f else "")
        lines.append(f"| {mark}`{check}` | {'yes' if outs[0].blocking else 'no'} | {p} | {f} | {s} |")
    if res.summaries:
        lines += ["", "## Asset summaries", ""]
        for asset_name, parts in sorted(res.summaries.items()):
            lines += [f"### {asset_name}", ""]
            lines += [merge_markdown_tables(list(dict.fromkeys(parts))), ""]
    failed = [o for o in res.outcomes if o.status == "failed"]
    if failed or res.step_failures:
        lines += ["", "## Failures", ""]
        for o in failed[:50]:
            lines += [f"### `{o.check}` — `{o.doc_id}` ({o.severity})", "", o.message or "(no detail)", ""]
        for step, msg in res.step_failures:
            lines += [f"### step `{step}` failed", "", "```", msg[:1500], "```", ""]
    return "\n".join(lines) + "\n"


def write_report(res: ReportResult, out_dir: str | Path) -> tuple[Path, Path]:
    """Write ``asset-checks.xml`` (JUnit) and ``asset-checks.md`` into ``out_dir``; return both paths."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    xml, md = out / "asset-checks.xml", out / "asset-checks.md"
    write_junit(res, xml)
    md.write_text(render_markdown(res), encoding="utf-8")
    return xml, md
