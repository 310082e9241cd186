"""The report tells the truth to people and to CI tools: WARN failures, JUnit counts, tables that render (issue 53)."""

import xml.etree.ElementTree as ET
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from textguard_pipeline.defs_kit.checks import failures_markdown
from textguard_pipeline.operations.report import CheckOutcome, ReportResult, _doc_lines, render_markdown, write_junit
from textguard_pipeline.operations.report_render import asset_lines

SCHEMA = Path(__file__).parent / "data" / "junit.xsd"


def _warned() -> ReportResult:
    res = ReportResult(documents=["a.md", "b.md", "c.md"], warehouse="/w/wh")
    for doc in res.documents:
        res.outcomes.append(CheckOutcome("parsed_chunks/parsed_chunks_tiling", doc, "passed", "ERROR", True))
        warn = "failed" if doc != "c.md" else "passed"
        res.outcomes.append(
            CheckOutcome("rewritten_chunks/rewritten_chunks_fallbacks", doc, warn, "WARN", False, f"{doc}: fell back")
        )
    res.outcomes.append(CheckOutcome("ner_frames/ner_frames_schema", "a.md", "skipped", "ERROR", True, "not run"))
    return res


def _validate(path: Path) -> None:
    import xmlschema  # the dev extra

    xmlschema.XMLSchema(str(SCHEMA)).validate(str(path))


def _counts_match_elements(root: ET.Element) -> None:
    for node in [root, *root.iter("testsuite")]:
        cases = list(node.iter("testcase"))
        assert int(node.get("tests")) == len(cases)
        for tag, attr in (("failure", "failures"), ("error", "errors"), ("skipped", "skipped")):
            assert int(node.get(attr)) == sum(len(c.findall(tag)) for c in cases), (node.get("name"), attr)


def test_a_run_whose_warn_checks_failed_reads_passed_with_warnings_and_exits_zero_unless_asked():
    res = _warned()
    md = render_markdown(res, "reports")
    assert "all checks passed" not in md
    assert "⚠️ passed with 2 warnings" in md
    assert "`--fail-on-warn`" in md
    assert "Tables: `/w/wh/<asset>/<doc_id>.parquet`" in md and "`reports/asset-checks.xml`" in md
    assert res.exit_code() == 0 and res.exit_code(fail_on_warn=True) == 1


def test_a_clean_run_says_all_checks_passed_and_an_error_says_failed():
    res = _warned()
    for o in res.outcomes:
        o.status = "passed" if o.status == "failed" else o.status
    assert "✅ all checks passed" in render_markdown(res) and res.exit_code(fail_on_warn=True) == 0
    res.outcomes[0].status = "failed"
    assert "❌ checks failed" in render_markdown(res) and res.exit_code() == 1


def test_junit_counts_equal_its_elements_and_a_warn_failure_is_output_not_a_failure(tmp_path):
    res = _warned()
    write_junit(res, tmp_path / "r.xml")
    _validate(tmp_path / "r.xml")
    root = ET.parse(tmp_path / "r.xml").getroot()
    _counts_match_elements(root)
    assert root.get("failures") == "0" and root.get("skipped") == "1" and root.get("tests") == "7"
    outs = [c.find("system-out").text for c in root.iter("testcase") if c.find("system-out") is not None]
    assert outs == ["WARN: a.md: fell back", "WARN: b.md: fell back"]


def test_with_fail_on_warn_a_warn_failure_is_a_failure_of_type_warning(tmp_path):
    res = _warned()
    res.step_failures.append(("parsed_chunks", "OSError: disk full"))
    res.document_failures["z.md"] = {"parsed_chunks": "unreadable"}
    write_junit(res, tmp_path / "r.xml", fail_on_warn=True)
    _validate(tmp_path / "r.xml")
    root = ET.parse(tmp_path / "r.xml").getroot()
    _counts_match_elements(root)
    assert [f.get("type") for f in root.iter("failure")] == ["warning", "warning", None]
    assert root.get("failures") == "3" and root.get("errors") == "1"


def test_a_failure_detail_keeps_the_separator_row_so_the_table_renders():
    table = failures_markdown([{"doc_id": "a.md", "reason": "gap"}, {"doc_id": "b.md", "reason": "overlap"}])
    lines = _doc_lines(table, "b.md").splitlines()
    assert lines == ["| doc_id | reason |", "|---|---|", "| b.md | overlap |"]


def test_asset_lines_count_rows_terms_by_kind_and_decisions_from_the_warehouse(tmp_path):
    (tmp_path / "protected_chunks").mkdir()
    (tmp_path / "gated_markers").mkdir()
    terms = [[{"source": "number", "original": "95%"}, {"source": "citation", "original": "(He, 2016)"}], []]
    pq.write_table(pa.table({"doc_id": ["a", "a"], "terms": terms}), tmp_path / "protected_chunks" / "a.parquet")
    pq.write_table(
        pa.table({"structure_risk": ["LOW", "HARD_REJECT", "LOW"]}), tmp_path / "gated_markers" / "a.parquet"
    )
    lines = asset_lines(str(tmp_path), ["a", "missing"], ["protected_chunks", "gated_markers", "ner_frames"])
    assert lines["protected_chunks"] == "2 rows from 1 document(s); 2 terms hidden (citation 1, number 1)"
    assert lines["gated_markers"] == "3 rows from 1 document(s); by structure_risk: LOW 2, HARD_REJECT 1"
    assert "ner_frames" not in lines
    res = ReportResult(documents=["a"], asset_lines=lines)
    md = render_markdown(res)
    assert "- `gated_markers`: 3 rows" in md and "- `HARD_REJECT`: " in md and "- `SOFT_FLAG`: " in md
