"""`textguard report` as CI users run it: JUnit + Markdown files, exit code, named failures."""

import os
import subprocess
import sys
import xml.etree.ElementTree as ET


def _run(tmp_path, corpus):
    env = {**os.environ, "DAGSTER_HOME": str(tmp_path / "home")}
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "textguard_pipeline.cli",
            "report",
            "--corpus",
            str(corpus),
            "--warehouse",
            str(tmp_path / "wh"),
            "--out",
            str(tmp_path / "rep"),
            "--select",
            "source_documents parsed_chunks",
            "--quiet",
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_report_writes_junit_per_check_per_document_and_fails_on_bad_input(tmp_path):
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "a.md").write_text("# A\n\nText $x$.\n")
    (corpus / "b.tex").write_text("Text \\(y\\).\n")
    r = _run(tmp_path, corpus)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "all checks passed" in r.stdout
    root = ET.parse(tmp_path / "rep" / "asset-checks.xml").getroot()
    cases = {(tc.get("classname"), tc.get("name")) for tc in root.iter("testcase")}
    assert ("parsed_chunks/parsed_chunks_tiling", "a.md") in cases
    assert ("source_documents/source_documents_readable", "b.tex") in cases
    assert root.get("failures") == "0"
    md = (tmp_path / "rep" / "asset-checks.md").read_text()
    assert "| `parsed_chunks/parsed_chunks_tiling` | yes | 2 | 0 | 0 |" in md

    (corpus / "c.txt").write_bytes(b"abc \xff")
    r = _run(tmp_path, corpus)
    assert r.returncode == 1
    root = ET.parse(tmp_path / "rep" / "asset-checks.xml").getroot()
    failures = [(tc.get("name"), f.text) for tc in root.iter("testcase") for f in tc.iter("failure")]
    assert len(failures) == 1 and failures[0][0] == "c.txt"
    assert "c.txt: not valid UTF-8 at byte offset 4" in failures[0][1]
    assert "c.txt" in r.stdout and "byte offset 4" in r.stdout
