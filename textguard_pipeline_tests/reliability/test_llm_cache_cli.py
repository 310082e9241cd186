"""Issue 48, item 4, replayed through `textguard report` against the stand-in, counting the requests it is paid
for: a cache entry of the wrong shape is a miss named in a warning, an unwritable cache directory stops the
report before anything is paid, and two reports at once pay once for the same prompt."""

from __future__ import annotations

import json

import pytest

from .test_llm_secrets import REWRITE, ROUTE, llm_place, write_docs

pytestmark = pytest.mark.timeout(600)


def _chat_requests(standin) -> list[dict]:
    return [r for r in standin.requests() if r["path"] == "/v1/chat/completions"]


def test_cache_entries_of_the_wrong_shape_are_misses_named_in_a_warning(tmp_path, fresh_standin):
    p = llm_place(tmp_path, fresh_standin.base_url)
    write_docs(p.corpus, 4, words=80)
    fresh_standin.script({ROUTE: [{"mangle": {"kind": "none"}}]})
    first = p.report(select=REWRITE)
    assert first.returncode == 0, first.stdout[-3000:] + first.stderr[-3000:]
    paid = len(_chat_requests(fresh_standin))
    entries = sorted((tmp_path / "llm_cache").rglob("*.json"))
    assert paid and len(entries) == paid

    shapes = [[1, 2], {"status": "200", "text": "{}"}, {"status": 200, "text": "[]"}, {"status": 200, "text": 5}]
    assert len(entries) >= len(shapes)
    for i, entry in enumerate(entries):
        entry.write_text(json.dumps(shapes[i % len(shapes)]), encoding="utf-8")
    fresh_standin.clear()
    again = p.report(select=REWRITE)
    assert again.returncode == 0, again.stdout[-3000:] + again.stderr[-3000:]
    assert len(_chat_requests(fresh_standin)) == paid  # each a miss, asked again: no KeyError, no TypeError
    console = again.stdout + again.stderr
    for entry in entries:
        assert f"response cache entry {entry}" in console and "treated as a miss" in console
        assert json.loads(entry.read_text())["status"] == 200  # replaced by the good answer


def test_an_unwritable_cache_directory_stops_the_report_before_anything_is_paid(tmp_path, fresh_standin):
    (tmp_path / "a-file").write_text("not a folder\n", encoding="utf-8")
    p = llm_place(tmp_path, fresh_standin.base_url, TEXTGUARD_LLM_CACHE_DIR=str(tmp_path / "a-file" / "cache"))
    write_docs(p.corpus, 2, words=80)
    fresh_standin.script({ROUTE: [{"mangle": {"kind": "none"}}]})
    res = p.report(select=REWRITE)
    assert res.returncode == 2, res.stdout[-3000:] + res.stderr[-3000:]
    assert "TEXTGUARD_LLM_CACHE_DIR" in res.stderr and str(tmp_path / "a-file") in res.stderr
    assert _chat_requests(fresh_standin) == []


def test_two_reports_at_once_pay_once_for_the_same_prompt(tmp_path, fresh_standin):
    # two reports over the same corpus and response cache, each with its own instance and warehouse (nothing
    # else makes them wait for each other); slow answers keep both waiting for the same prompts at once
    places = [llm_place(tmp_path / name, fresh_standin.base_url) for name in ("a", "b")]
    for p in places:
        p.extra.update(TEXTGUARD_CORPUS_DIR=str(places[0].corpus), TEXTGUARD_LLM_CACHE_DIR=str(tmp_path / "cache"))
    write_docs(places[0].corpus, 2, words=80)
    fresh_standin.script({ROUTE: [{"mangle": {"kind": "none"}, "delay": 3.0}]})
    procs = [p.start_report(select=REWRITE) for p in places]
    for proc in procs:
        out, err = proc.communicate(timeout=600)
        assert proc.returncode == 0, out[-3000:] + err[-3000:]
    bodies = [r["body"] for r in _chat_requests(fresh_standin)]
    assert bodies and len(bodies) == len(set(bodies))  # no prompt was paid for twice
