"""Issue 48, item 1, replayed through the CLI: an outage, a spent budget or a missing setting keeps every earlier
rewrite of an unchanged document (marked stale, the report fails), and removes those the document outgrew."""

from __future__ import annotations

import time

import pyarrow.parquet as pq
import pytest

from textguard_pipeline.defs_kit.io_manager import STAMP_KEY

from .test_llm_secrets import REWRITE, ROUTE, llm_place, write_docs

pytestmark = pytest.mark.timeout(900)


def _rewrites(p) -> dict[str, int]:
    folder = p.warehouse / "rewritten_chunks"
    return {f.name: pq.read_table(f).num_rows for f in sorted(folder.glob("*.parquet"))} if folder.exists() else {}


def test_an_outage_keeps_the_rewrites_of_unchanged_documents_and_says_they_are_stale(tmp_path, fresh_standin):
    p = llm_place(tmp_path, fresh_standin.base_url, TEXTGUARD_LLM_CACHE="off")
    write_docs(p.corpus, 3, words=80)
    fresh_standin.script({ROUTE: [{"mangle": {"kind": "none"}}]})
    good = p.report(select=REWRITE)
    assert good.returncode == 0, good.stdout[-3000:] + good.stderr[-3000:]
    before = _rewrites(p)
    assert len(before) == 3 and all(before.values())
    stamp = pq.read_schema(p.warehouse / "rewritten_chunks" / "doc000.txt.parquet").metadata[STAMP_KEY.encode()]
    assert b"sha256" in stamp and b"code_version" in stamp

    (p.corpus / "doc002.txt").write_text("A changed document.\n\nIts old rewrite no longer fits.\n", encoding="utf-8")
    fresh_standin.script({ROUTE: [{"status": 500, "json": {"error": "down"}}]})
    down = p.report(select=REWRITE)
    assert down.returncode == 1
    after = _rewrites(p)
    assert after == {k: v for k, v in before.items() if k != "doc002.txt.parquet"}  # kept, byte for byte rows
    md = p.markdown()
    assert "⚠️ 2 documents stale (outage)" in md
    assert "## Documents kept from an earlier run (stale)" in md and "`doc000.txt`" in md
    assert "### document `doc002.txt`" in md  # outgrown: removed and failed, as before

    spent = p.report(
        select=REWRITE,
        out=tmp_path / "budget",
        extra_env={"TEXTGUARD_LLM_MAX_COST": "0.000001", "TEXTGUARD_LLM_PRICE_IN_PER_1K": "1"},
    )
    assert spent.returncode == 1 and _rewrites(p) == after
    assert "⚠️ 2 documents stale (budget)" in p.markdown(tmp_path / "budget")

    for var in ("TEXTGUARD_LLM_URL", "TEXTGUARD_REWRITE_TASK"):
        p.extra.pop(var)
    off = p.report(select="rewritten_chunks", out=tmp_path / "off")
    assert off.returncode == 1 and _rewrites(p) == after  # a missing setting deletes nothing
    assert "⚠️ 2 documents stale (configuration)" in p.markdown(tmp_path / "off")


def test_a_slow_dripping_endpoint_cannot_hold_a_report_past_its_deadline(tmp_path, fresh_standin):
    # TIMEOUT_S=2 and MAX_RETRIES=1: each request has 4 s in all, retries and waits included
    p = llm_place(tmp_path, fresh_standin.base_url, TEXTGUARD_LLM_CACHE="off", TEXTGUARD_LLM_TIMEOUT_S="2")
    write_docs(p.corpus, 2, words=80)
    fresh_standin.script({ROUTE: [{"mangle": {"kind": "none"}}]})
    t0 = time.monotonic()
    good = p.report(select=REWRITE)
    good_s = time.monotonic() - t0
    assert good.returncode == 0, good.stdout[-3000:] + good.stderr[-3000:]
    before = _rewrites(p)

    # the status line and headers one byte a second (≈ 80 s an attempt), each byte within the per-read timeout
    fresh_standin.script({ROUTE: [{"mangle": {"kind": "none"}, "drip_headers": 1.0}]})
    t0 = time.monotonic()
    res = p.report(select=REWRITE, timeout=400)
    slow_s = time.monotonic() - t0
    assert res.returncode == 1, res.stdout[-3000:] + res.stderr[-3000:]
    assert slow_s < good_s + 40, (good_s, slow_s)  # a few 4 s deadlines, not minutes of dripping
    md = p.markdown()
    assert "4s deadline of the request" in md and "⚠️ 2 documents stale (outage)" in md
    assert _rewrites(p) == before  # reported stale, kept: not a crash


MEANINGS = "source_documents parsed_chunks resolved_meanings"


def test_an_unreachable_llm_for_the_meanings_passes_is_an_outage_not_a_green_fallback(tmp_path, fresh_standin):
    p = llm_place(tmp_path, fresh_standin.base_url, TEXTGUARD_LLM_CACHE="off", TEXTGUARD_REWRITE_TASK="")
    write_docs(p.corpus, 2, words=80)
    local = p.report(select=MEANINGS, extra_env={"TEXTGUARD_MEANINGS_LLM": "0"})
    assert local.returncode == 0, local.stdout[-3000:] + local.stderr[-3000:]
    before = {f.name: f.read_bytes() for f in (p.warehouse / "resolved_meanings").glob("*.parquet")}
    assert len(before) == 2

    fresh_standin.script({ROUTE: [{"status": 503, "json": {"error": "down"}}]})
    down = p.report(select=MEANINGS, extra_env={"TEXTGUARD_MEANINGS_LLM": "1"})
    assert down.returncode == 1
    assert "⚠️ 2 documents stale (outage)" in p.markdown()
    assert {f.name: f.read_bytes() for f in (p.warehouse / "resolved_meanings").glob("*.parquet")} == before

    asked = p.report(select=MEANINGS, extra_env={"TEXTGUARD_MEANINGS_LLM": "1", "TEXTGUARD_MEANINGS_LLM_FALLBACK": "1"})
    assert asked.returncode == 0, asked.stdout[-3000:]  # falling back stays available, when asked for


def test_a_ner_service_that_is_down_keeps_the_earlier_ner_frames(tmp_path):
    from textguard_pipeline_tests.devservers import free_port

    p = llm_place(tmp_path, "http://127.0.0.1:9", TEXTGUARD_REWRITE_TASK="")
    write_docs(p.corpus, 2, words=80)
    select = "source_documents parsed_chunks ner_frames"
    assert p.report(select=select).returncode == 0
    before = {f.name: f.read_bytes() for f in (p.warehouse / "ner_frames").glob("*.parquet")}
    assert len(before) == 2
    down = {"TEXTGUARD_NER_URL": f"http://127.0.0.1:{free_port()}/ner", "TEXTGUARD_NER_MAX_RETRIES": "0"}
    res = p.report(select=select, extra_env=down)
    assert res.returncode == 1
    assert "⚠️ 2 documents stale (outage)" in p.markdown()
    assert {f.name: f.read_bytes() for f in (p.warehouse / "ner_frames").glob("*.parquet")} == before
