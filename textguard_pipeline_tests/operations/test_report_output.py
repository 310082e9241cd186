"""The report's files and terminal output stay valid and honest whatever the names (issue 14 item 8)."""

import errno
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

from dagster._utils.error import serializable_error_info_from_exc_info

from textguard_pipeline.operations.report import CheckOutcome, ReportResult, error_text, render_markdown, write_junit
from textguard_pipeline.operations.safe_text import one_line, visible
from textguard_pipeline.operations.warehouse import Stale

HOSTILE_IDS = [
    "caf\udce9.txt",
    "red\x1b[31m.txt",
    "bell\x07\x00.txt",
    "csi\x9b2J.txt",
    "cr\rline\nfeed.txt",
    "nonchar\ufffe.txt",
    "amp&<lt>\"quote'.txt",
]
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")


def _result() -> ReportResult:
    res = ReportResult(documents=HOSTILE_IDS)
    for doc in HOSTILE_IDS:
        res.outcomes.append(
            CheckOutcome(
                "parsed_chunks/parsed_chunks_tiling",
                doc,
                "failed",
                "ERROR",
                True,
                f"| doc_id | reason |\n| {doc} | bad \x1b[2J text |",
            )
        )
        res.outcomes.append(CheckOutcome("ner_frames/ner_frames_schema", doc, "skipped", "ERROR", True, f"skip {doc}"))
        res.document_failures[doc] = {"parsed_chunks": f"unreadable file /w/source_documents/{doc}.parquet"}
    res.step_failures.append(("parsed_chunks", f"OSError: cannot write /w/{HOSTILE_IDS[1]}.parquet\x1b[0m"))
    res.stale = Stale(partitions=[HOSTILE_IDS[0]], files=[Path(f"/w/a/{HOSTILE_IDS[2]}.parquet")])
    res.housekeeping = [f"removed orphan temporary file /w/a/.{HOSTILE_IDS[1]}.parquet.1-x.tmp"]
    return res


def test_junit_is_valid_xml_and_names_every_document_whatever_its_name(tmp_path):
    res = _result()
    write_junit(res, tmp_path / "r.xml")
    root = ET.parse(tmp_path / "r.xml").getroot()  # raises on invalid XML
    names = {tc.get("name") for tc in root.iter("testcase")}
    for doc in HOSTILE_IDS:
        assert one_line(doc) in names
    assert "caf\\xe9.txt" in names and "red\\x1b[31m.txt" in names  # recognisable, byte for byte
    # each document already fails a check: its reasons go into that failure, counted once
    assert not [s for s in root.iter("testsuite") if s.get("name") == "documents"]
    assert int(root.get("failures")) == len(HOSTILE_IDS) and root.get("errors") == "1"
    assert all("unreadable file /w/source_documents/" in f.text for f in root.iter("failure"))
    assert not CONTROL.search((tmp_path / "r.xml").read_text(encoding="utf-8"))


def test_a_document_failure_no_check_reports_gets_its_own_testcase(tmp_path):
    res = ReportResult(documents=["a", "..\x1b"])
    res.outcomes.append(CheckOutcome("x/x_ok", "a", "passed"))
    res.document_failures["..\x1b"] = {"x": "partition key '..\x1b': a partition key may not contain U+001B"}
    write_junit(res, tmp_path / "r.xml")
    root = ET.parse(tmp_path / "r.xml").getroot()
    docs = next(s for s in root.iter("testsuite") if s.get("name") == "documents")
    assert docs.get("failures") == "1" and root.get("failures") == "1"
    assert [tc.get("name") for tc in docs.iter("testcase")] == ["..\\x1b"]
    assert not res.ok


def test_markdown_has_no_terminal_control_characters_and_lists_every_failure():
    md = render_markdown(_result())
    md.encode("utf-8")  # no lone surrogate left
    assert not CONTROL.search(md)
    assert "❌ checks failed" in md
    for section in ("## Failures", "## Stale documents", "## Housekeeping", "`textguard prune`"):
        assert section in md
    assert "### document `caf\\xe9.txt`" in md and "unreadable file /w/source_documents/" in md
    assert "cannot write /w/red\\x1b[31m.txt.parquet" in md


def test_visible_keeps_text_and_spells_out_controls():
    assert visible("plain\ttext\nnext é 日本") == "plain\ttext\nnext é 日本"
    assert visible("\x1b[0m\x85\udcff\uffff") == "\\x1b[0m\\x85\\xff\\uffff"
    assert one_line("a\nb\tc") == "a\\nb\\tc"


def test_step_failure_text_keeps_the_cause_that_names_the_file():
    try:
        try:
            raise OSError(errno.ENOSPC, "cannot write /w/parsed_chunks/a.txt.parquet: No space left on device")
        except OSError as exc:
            raise RuntimeError('Error occurred while handling output "result" of step "parsed_chunks"') from exc
    except RuntimeError:
        info = serializable_error_info_from_exc_info(sys.exc_info())
    text = error_text(info)
    assert text.startswith('RuntimeError: Error occurred while handling output "result"')
    assert "caused by: OSError: [Errno 28] cannot write /w/parsed_chunks/a.txt.parquet: No space left on device" in text
