"""`textguard report` as CI users run it: JUnit + Markdown files, exit code, named failures."""

import os
import subprocess
import sys
import xml.etree.ElementTree as ET


def _run(tmp_path, corpus, *extra, select="source_documents parsed_chunks", env=None, timeout=300):
    env = env or {**os.environ, "DAGSTER_HOME": str(tmp_path / "home")}
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
            select,
            "--quiet",
            *extra,
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
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


def test_report_with_rewrite_writes_each_document_under_rewritten_with_its_review_page(tmp_path):
    from textguard_pipeline_tests.standin.client import standin_server
    from textguard_pipeline_tests.standin.mangle import MIXED_FAULTS

    corpus = tmp_path / "corpus"
    (corpus / "sub").mkdir(parents=True)
    docs = {
        "a.md": "# Results\n\nAs shown by Smith et al. (2024), the model reaches 95% accuracy.\n\n```\ncode 1\n```\n",
        "sub/b.tex": "\\section{Intro}\nThe ResNet baseline (He et al., 2016) reaches 76.1\\% top-1.\n"
        "\\begin{equation}x^2\\end{equation}\n",
    }
    for name, text in docs.items():
        (corpus / name).write_text(text, encoding="utf-8")
    with standin_server() as s:
        s.script({"POST /v1/chat/completions": [{"mangle": {"mix": MIXED_FAULTS, "seed": 3}}]})
        env = {
            **os.environ,
            "DAGSTER_HOME": str(tmp_path / "home"),
            "TEXTGUARD_LLM_URL": f"{s.base_url}/v1",
            "TEXTGUARD_LLM_CACHE_DIR": str(tmp_path / "cache"),
            "TEXTGUARD_PROTECT_NER": "0",
        }
        env.pop("TEXTGUARD_REWRITE_TASK", None)
        select = "source_documents parsed_chunks protected_chunks rewritten_chunks rewritten_documents"
        r = _run(tmp_path, corpus, "--rewrite", "paraphrase", select=select, env=env, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    for name, text in docs.items():
        out = (tmp_path / "rep" / "rewritten" / name).read_text(encoding="utf-8")
        assert out.count("\n") == text.count("\n") and ("```\ncode 1\n```" in out) == ("```" in text)
        page = (tmp_path / "rep" / "rewritten" / f"{name}.review.html").read_text(encoding="utf-8")
        assert "<table>" in page
    assert "\\begin{equation}x^2\\end{equation}" in (tmp_path / "rep" / "rewritten" / "sub/b.tex").read_text()


def test_a_failed_warn_check_passes_with_warnings_unless_fail_on_warn(tmp_path):
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "paper.md").write_text(
        "# Answer\n\nParis is the capital [1]. It is in France [7].\n\n## References\n\n[1] Paris\n[2] France\n"
    )
    args = ["--select", "source_documents parsed_chunks citation_maps"]
    r = _run(tmp_path, corpus, *args)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "passed with 1 warning" in r.stdout and "all checks passed" not in r.stdout
    assert f"Tables: `{tmp_path / 'wh'}/<asset>/<doc_id>.parquet`" in r.stdout
    assert "- `citation_maps`: " in r.stdout
    root = ET.parse(tmp_path / "rep" / "asset-checks.xml").getroot()
    assert root.get("failures") == "0" and not list(root.iter("failure"))
    assert any("WARN" in (o.text or "") for o in root.iter("system-out"))

    r = _run(tmp_path, corpus, *args, "--fail-on-warn")
    assert r.returncode == 1, r.stdout + r.stderr
    root = ET.parse(tmp_path / "rep" / "asset-checks.xml").getroot()
    assert [f.get("type") for f in root.iter("failure")] == ["warning"] and root.get("failures") == "1"
