"""The report's files and terminal text: ``asset-checks.md`` (Markdown that renders on GitHub),
``asset-checks.xml`` (JUnit whose counts are its elements) and the per-asset summary lines.

Headline: ❌ when an ERROR check, a step or a document failed; "passed with N warnings" when only
WARN checks failed (never "all checks passed" then). A failed WARN check is a passing JUnit testcase
with its text in ``<system-out>``, unless ``fail_on_warn``: then it is a ``<failure type="warning">``
and the report exits non-zero. Every name and message goes through :mod:`.safe_text`.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING

from ..lib.redact import redact
from ..meanings.wordnet_install import lexicon_status
from .safe_text import one_line, visible
from .warehouse import Stale, _local, is_local

if TYPE_CHECKING:
    from .report import CheckOutcome, ReportResult

#: one sentence per gated_markers label (docs/markers.md)
GATE_LABELS = {
    "LOW": "an isolated number after a name (no numbered sequence, not alone on its line): kept and protected.",
    "SOFT_FLAG": "some sign of a structure marker: the LLM at TEXTGUARD_LLM_URL decides, or without one it "
    "is kept, tagged weak.",
    "HARD_REJECT": "part of a numbered sequence of the same prefix standing alone on lines (page or section "
    "numbering): dropped, not protected.",
    "FALLBACK": "the document had no other marker: the most frequent rejected candidates are kept.",
}
#: the column whose values an asset's summary line counts, first present wins
_COUNTED = ("structure_risk", "status", "kind")


def asset_lines(warehouse: str, doc_ids: list[str], assets: list[str]) -> dict[str, str]:
    """asset → "N rows in M documents (value counts)" read from ``<warehouse>/<asset>/<doc_id>.parquet``.

    ``protected_chunks`` counts the terms it hid by kind. Local warehouses only (else {}).
    """
    if not is_local(warehouse):
        return {}
    import pyarrow.parquet as pq  # lazy: only a local warehouse is read here

    base, out = _local(warehouse), {}
    for asset in assets:
        rows = files = 0
        counts: Counter[str] = Counter()
        terms: Counter[str] = Counter()
        counted = ""
        for doc in doc_ids:
            path = base / asset / f"{doc}.parquet"
            try:
                names = pq.read_schema(path).names
                col = next((c for c in _COUNTED if c in names), None)
                wanted = [c for c in (col, "terms" if asset == "protected_chunks" else None) if c and c in names]
                table = pq.read_table(path, columns=wanted) if wanted else None
                n = pq.read_metadata(path).num_rows
            except (OSError, ValueError):  # no file: the document failed there (listed below) or is not selected
                continue
            rows, files = rows + n, files + 1
            if table is not None and col in wanted:
                counted = col
                counts.update(str(v) for v in table.column(col).to_pylist())
            if table is not None and "terms" in wanted:
                for chunk_terms in table.column("terms").to_pylist():
                    terms.update(str((t or {}).get("source", "?")) for t in chunk_terms or [])
        if not files:
            continue
        line = f"{rows} rows from {files} document(s)"
        if terms:
            line += f"; {sum(terms.values())} terms hidden (" + _counts(terms) + ")"
        if counts:
            line += f"; by {counted}: " + _counts(counts)
        out[asset] = line
    return out


def _counts(counter: Counter[str]) -> str:
    return ", ".join(f"{k} {n}" for k, n in sorted(counter.items(), key=lambda kv: (-kv[1], kv[0])))


def headline(res: ReportResult) -> str:
    """✅ / ⚠️ / ❌ and why; a failed WARN check never reads "all checks passed"."""
    n_warn = len(res.warnings)
    warned = f"passed with {n_warn} warning{'s' * (n_warn != 1)}"
    if res.stale_headline():  # earlier outputs kept (issue 48): the checks of this run are judged apart
        return f"{res.stale_headline()}; " + (
            "❌ checks failed" if res.failed else warned if n_warn else "checks passed"
        )
    if not res.ok:
        return "❌ checks failed"
    return f"⚠️ {warned}" if n_warn else "✅ all checks passed"


def render_markdown(res: ReportResult, out_dir: str | Path | None = None) -> str:
    by_check: dict[str, list[CheckOutcome]] = {}
    for o in res.outcomes:
        by_check.setdefault(o.check, []).append(o)
    lines = [
        "# textguard asset-check report",
        "",
        f"{headline(res)} — {len(res.documents)} documents, {len(res.runs)} run(s), {res.seconds:.1f}s",
        "",
    ]
    if res.warehouse:
        lines.append(f"Tables: `{_local(res.warehouse)}/<asset>/<doc_id>.parquet` (one Parquet file per document)")
    if out_dir:
        out = Path(out_dir)
        lines.append(f"Report files: `{out / 'asset-checks.md'}`, `{out / 'asset-checks.xml'}` (JUnit)")
    lines += [
        "",
        lexicon_status(),
        "",
        f"Throughput: {res.throughput.line()}",
        "",
        "| check | blocking | passed | failed | skipped |",
        "|---|---|---|---|---|",
    ]
    for check, outs in sorted(by_check.items()):
        p = sum(o.status == "passed" for o in outs)
        f = sum(o.status == "failed" for o in outs)
        s = sum(o.status == "skipped" for o in outs)
        mark = "❌ " if f and any(o.severity == "ERROR" for o in outs if o.status == "failed") else ("⚠️ " if f else "")
        lines.append(f"| {mark}`{check}` | {'yes' if outs[0].blocking else 'no'} | {p} | {f} | {s} |")
    if res.warnings:
        lines += ["", "⚠️ marks a WARN check: it does not fail the report unless `--fail-on-warn` is given."]
    if res.asset_lines:
        lines += ["", "## What the tables hold", ""]
        lines += [f"- `{asset}`: {one_line(line)}" for asset, line in sorted(res.asset_lines.items())]
    if res.summaries:
        lines += ["", "## Asset summaries", ""]
        for asset_name, parts in sorted(res.summaries.items()):
            lines += [f"### {asset_name}", ""]
            lines += [merge_markdown_tables(list(dict.fromkeys(parts))), ""]
    if "gated_markers" in res.summaries or "gated_markers" in res.asset_lines:
        lines += ["", "Gate labels of `gated_markers` (docs/markers.md):", ""]
        lines += [f"- `{label}`: {text}" for label, text in GATE_LABELS.items()]
    failed = [o for o in res.outcomes if o.status == "failed"]
    if failed or res.step_failures or res.document_failures:
        lines += ["", "## Failures", ""]
        for o in failed[:50]:
            lines += [f"### `{o.check}` — `{one_line(o.doc_id)}` ({o.severity})", "", o.message or "(no detail)", ""]
        for doc_id, by_asset in sorted(res.document_failures.items())[:50]:
            lines += [f"### document `{one_line(doc_id)}`", ""]
            lines += [f"- `{asset}`: {one_line(reason)}" for asset, reason in sorted(by_asset.items())] + [""]
        for step, msg in res.step_failures:
            lines += [f"### step `{step}` failed", "", "```", msg[:1500], "```", ""]
    lines += _kept_lines(res.kept_stale) + _stale_lines(res.stale) + _housekeeping_lines(res.housekeeping)
    return redact(visible("\n".join(lines) + "\n"))


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


# -- JUnit ---------------------------------------------------------------------------------


def _case(suite: ET.Element, classname: str, name: str) -> ET.Element:
    return ET.SubElement(suite, "testcase", classname=one_line(classname), name=one_line(name))


def _child(case: ET.Element, tag: str, text: str, **attrs: str) -> None:
    el = ET.SubElement(case, tag, {k: one_line(v) for k, v in attrs.items()})
    el.text = visible(text) if text else None


def _count(root: ET.Element) -> None:
    """Set tests/failures/errors/skipped of every suite (and the root) from the elements it holds."""
    totals = Counter()
    for suite in root.iter("testsuite"):
        cases = list(suite.iter("testcase"))
        n = Counter(
            tests=len(cases),
            failures=sum(len(c.findall("failure")) for c in cases),
            errors=sum(len(c.findall("error")) for c in cases),
            skipped=sum(len(c.findall("skipped")) for c in cases),
        )
        for k in ("tests", "failures", "errors", "skipped"):
            suite.set(k, str(n[k]))
        totals.update(n)
    for k in ("tests", "failures", "errors", "skipped"):
        root.set(k, str(totals[k]))


def junit_tree(res: ReportResult, fail_on_warn: bool = False) -> ET.Element:
    """A ``<testsuites>``: a testsuite per check (a testcase per document), then documents, stale, steps."""
    by_check: dict[str, list[CheckOutcome]] = {}
    for o in res.outcomes:
        by_check.setdefault(o.check, []).append(o)
    # A document that already fails a check gets the reasons in that check's failure (counted once);
    # the others get a testcase of their own under "documents".
    covered = {o.doc_id for o in res.failed}
    why = {
        doc: "\n".join(f"{asset}: {reason}" for asset, reason in sorted(by_asset.items()))
        for doc, by_asset in res.document_failures.items()
    }
    root = ET.Element("testsuites", name="textguard asset checks", time=f"{res.seconds:.3f}")
    for check, outs in sorted(by_check.items()):
        suite = ET.SubElement(root, "testsuite", name=one_line(check))
        for o in sorted(outs, key=lambda o: o.doc_id):
            case = _case(suite, check, o.doc_id)
            if o.status == "failed" and o.severity == "ERROR":
                body = o.message + (f"\n\ndocument failures:\n{why[o.doc_id]}" if o.doc_id in why else "")
                _child(case, "failure", body, message=f"{check} failed for {o.doc_id}", type="error")
            elif o.status == "failed" and fail_on_warn:
                _child(case, "failure", o.message, message=f"{check} warned for {o.doc_id}", type="warning")
            elif o.status == "failed":
                _child(case, "system-out", f"WARN: {o.message}")
            elif o.status == "skipped":
                _child(case, "skipped", "", message=o.message)
    uncovered = {doc: by for doc, by in res.document_failures.items() if doc not in covered}
    if uncovered:
        suite = ET.SubElement(root, "testsuite", name="documents")
        for doc_id, by_asset in sorted(uncovered.items()):
            asset, reason = next(iter(sorted(by_asset.items())))
            _child(_case(suite, "documents", doc_id), "failure", why[doc_id], message=f"{asset}: {reason}"[:300])
    if res.kept_stale:
        suite = ET.SubElement(root, "testsuite", name="stale documents")
        for doc_id, by_asset in sorted(res.kept_stale.items()):
            text = "\n".join(f"{asset}: {reason}" for asset, reason in sorted(by_asset.items()))
            case = _case(suite, "stale documents", doc_id)
            _child(case, "failure", text, message=("earlier output kept: " + text)[:300])
    if res.step_failures:
        suite = ET.SubElement(root, "testsuite", name="asset steps")
        for step, msg in res.step_failures:
            _child(_case(suite, "asset steps", step), "error", msg, message=msg.splitlines()[0] if msg else "")
    _count(root)
    return root


def write_junit(res: ReportResult, path: Path, fail_on_warn: bool = False) -> None:
    """``asset-checks.xml``: valid XML 1.0 whatever the file names, credentials masked."""
    root = junit_tree(res, fail_on_warn)
    ET.indent(root)
    text = ET.tostring(root, encoding="unicode", xml_declaration=False)
    path.write_text(redact('<?xml version="1.0" encoding="UTF-8"?>\n' + text + "\n"), encoding="utf-8")


# -- sections ------------------------------------------------------------------------------


def _kept_lines(kept: dict[str, dict[str, str]]) -> list[str]:
    if not kept:
        return []
    lines = [
        "",
        "## Documents kept from an earlier run (stale)",
        "",
        "They failed in this run for a reason outside the document; their earlier output, built from the same "
        "document and code version, is kept and is not up to date with this run.",
        "",
    ]
    for doc_id, by_asset in sorted(kept.items())[:50]:
        lines += [
            f"- `{one_line(doc_id)}` — " + "; ".join(f"`{a}`: {one_line(r)}" for a, r in sorted(by_asset.items()))
        ]
    if len(kept) > 50:
        lines.append(f"- … and {len(kept) - 50} more")
    return lines


def _stale_lines(stale: Stale) -> list[str]:
    if not stale:
        return []
    docs = stale.documents()
    lines = [
        "",
        "## Stale documents",
        "",
        f"{len(docs)} document(s) are no longer in the corpus but still have {len(stale.partitions)} registered "
        f"partition(s) and {len(stale.files)} file(s) in the warehouse. `textguard prune` removes them.",
        "",
    ]
    lines += [f"- `{one_line(d)}`" for d in docs[:50]]
    if len(docs) > 50:
        lines.append(f"- … and {len(docs) - 50} more")
    return lines


def _housekeeping_lines(notes: list[str]) -> list[str]:
    return ["", "## Housekeeping", "", *[f"- {one_line(n)}" for n in notes]] if notes else []


def write_report(res: ReportResult, out_dir: str | Path, fail_on_warn: bool = False) -> tuple[Path, Path]:
    """Write ``asset-checks.xml`` (JUnit) and ``asset-checks.md`` into ``out_dir``; return both paths."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    xml, md = out / "asset-checks.xml", out / "asset-checks.md"
    write_junit(res, xml, fail_on_warn)
    md.write_text(render_markdown(res, out), encoding="utf-8")
    return xml, md
