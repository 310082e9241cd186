"""Seed-003 LLM passes on the shared client, against the loopback stand-in (real process, no mocks):
bounded concurrency in document order, tokens and cost per pass and per row, the cost estimate, and a
killed run that resumes without paying again for finished windows."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from textguard_pipeline.lib.llm import ChatClient, LLMConfig
from textguard_pipeline.meanings.candidates import RESOLVED_COLUMNS, Candidate
from textguard_pipeline.meanings.choose import Item, LLMDisambiguator
from textguard_pipeline.meanings.cost import estimate_text
from textguard_pipeline.meanings.llm_runs import ordered_map, split_evenly
from textguard_pipeline.meanings.mentions import TextLayout
from textguard_pipeline.meanings.stage_a import LLMMentionDetector
from textguard_pipeline.settings import MeaningsSettings

ROUTE = "POST /v1/chat/completions"
TERMS = ["simplicity", "translation", "metric", "encryption"]
PAGE = (
    "Page {n}. The doctrine of divine simplicity is discussed here, and the translation of the text is judged "
    "by a metric; encryption of a message needs a key. More words follow on page {n} to fill it.\n"
)


def document(pages: int) -> str:
    return "\f".join(PAGE.format(n=n) for n in range(1, pages + 1))


def chat(standin, concurrency: int = 4, **kw) -> ChatClient:
    return ChatClient(
        LLMConfig(
            base_url=f"{standin.base_url}/v1",
            model="stand-in",
            timeout_s=10,
            max_retries=0,
            concurrency=concurrency,
            price_in_per_1k=0.5,
            price_out_per_1k=1.5,
            **kw,
        )
    )


def stage_a(standin, concurrency: int, text: str):
    det = LLMMentionDetector(chat(standin, concurrency), context_pages=1, concurrency=concurrency)
    return det, det.detect(TextLayout(text))


def test_split_evenly_and_ordered_map():
    assert split_evenly(10, 3) == [4, 3, 3] and sum(split_evenly(7, 7)) == 7 and split_evenly(5, 0) == []
    slow_first = ordered_map(lambda x: (time.sleep(0.2 if x == 0 else 0), x)[1], list(range(6)), 4)
    assert slow_first == list(range(6))
    with pytest.raises(ZeroDivisionError):
        ordered_map(lambda x: 1 / (x - 3), list(range(6)), 3)


def test_stage_a_windows_concurrent_bounded_and_in_page_order(fresh_standin):
    text = document(8)
    # the first pages answer last: a concurrent run gets its answers out of order
    fresh_standin.script({ROUTE: [{"seed003": {"terms": TERMS, "page_delay": {"1": 0.5, "2": 0.3}}}]})
    seq, seq_mentions = stage_a(fresh_standin, 1, text)
    assert fresh_standin.stats()["max_inflight"] == 1
    fresh_standin.clear()
    par, par_mentions = stage_a(fresh_standin, 3, text)
    assert fresh_standin.stats()["max_inflight"] == 3  # bounded, and really concurrent
    assert len(fresh_standin.requests()) == 8

    def key(ms):
        return [(m.start, m.end, m.text, m.label, m.validation_status) for m in ms]

    assert key(par_mentions) == key(seq_mentions) and len(par_mentions) == 8 * len(TERMS)
    assert all(text[m.start : m.end] == m.text for m in par_mentions)
    assert par.stats.as_dict() == seq.stats.as_dict()
    assert par.usage == seq.usage and len(par.usage) == 8
    # the pass total is the sum of the windows, and every window's tokens land on its mentions
    tally = par.tally.as_dict()
    assert tally["requests"] == 8 and tally["prompt_tokens"] == sum(u[0] for u in par.usage.values())
    assert sum(t[0] for t in par.mention_tokens.values()) == tally["prompt_tokens"]
    assert sum(t[1] for t in par.mention_tokens.values()) == tally["completion_tokens"]
    assert tally["cost_usd"] == pytest.approx(
        tally["prompt_tokens"] / 1000 * 0.5 + tally["completion_tokens"] / 1000 * 1.5
    )


def test_stage_a_failure_in_one_window_is_a_detection_error(fresh_standin):
    from textguard_pipeline.meanings.mentions import MentionDetectionError

    fresh_standin.script({ROUTE: [{"status": 400, "json": {"error": "bad"}}]})
    with pytest.raises(MentionDetectionError, match="page 1"):
        stage_a(fresh_standin, 3, document(4))


def _items(n: int) -> list[Item]:
    def cand(i, j):
        return Candidate("wordnet", f"wn:{i}.n.{j}", f"sense {j}", f"gloss {j} of word {i}")

    return [
        Item(
            f"entry_{i}",
            f"word{i}",
            "subject",
            f"context of word{i}",
            f"more context of word{i}",
            [cand(i, 1), cand(i, 2)],
        )
        for i in range(1, n + 1)
    ]


def test_disambiguation_batches_concurrent_bounded_and_ordered(fresh_standin):
    fresh_standin.script({ROUTE: [{"seed003": {"delay": 0.2}}]})
    items = _items(45)
    seq = LLMDisambiguator(chat(fresh_standin, 1), batch_size=10)
    one = seq.resolve(items)
    assert fresh_standin.stats()["max_inflight"] == 1
    fresh_standin.clear()
    par = LLMDisambiguator(chat(fresh_standin, 3), batch_size=10)
    three = par.resolve(items)
    assert fresh_standin.stats()["max_inflight"] == 3 and len(fresh_standin.requests()) == 5
    assert {k: (d.candidate.meaning_id, d.confidence) for k, d in three.items()} == {
        k: (d.candidate.meaning_id, d.confidence) for k, d in one.items()
    }
    assert len(three) == 45 and three["entry_7"].candidate.meaning_id == "wn:7.n.1"
    assert dict(par.stats) == dict(seq.stats) == {"calls": 5, "batches": 5}
    assert par.usage == seq.usage
    tally = par.tally.as_dict()
    assert sum(u[0] for u in par.usage.values()) == tally["prompt_tokens"] > 0
    assert sum(u[1] for u in par.usage.values()) == tally["completion_tokens"] > 0


def test_report_prints_the_estimate_only_when_an_llm_is_configured(tmp_path, monkeypatch):
    from textguard_pipeline.cli.report import llm_cost_estimate

    (tmp_path / "a.txt").write_text(document(3), encoding="utf-8")
    monkeypatch.setenv("TEXTGUARD_CORPUS_DIR", str(tmp_path))
    for var in ("TEXTGUARD_LLM_URL", "TEXTGUARD_MEANINGS_LLM"):
        monkeypatch.delenv(var, raising=False)
    assert llm_cost_estimate() is None  # the rule-based default: nothing to pay, nothing printed
    monkeypatch.setenv("TEXTGUARD_LLM_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("TEXTGUARD_LLM_PRICE_IN_PER_1K", "1")
    line = llm_cost_estimate()
    assert line.startswith("LLM cost estimate: $") and "1 document(s)" in line
    assert llm_cost_estimate("source_documents parsed_chunks") is None
    monkeypatch.setenv("TEXTGUARD_MEANINGS_LLM", "off")
    assert llm_cost_estimate() is None


def test_cost_estimate_prompt_side_within_20_percent(fresh_standin):
    """The Stage A estimate is computed from the same prompts the client sends: its prompt tokens are
    within ±20 % of what the stand-in reports (≈ 4 characters a token, like the estimate)."""
    text = document(12)
    s = MeaningsSettings(use_llm=True)
    est = estimate_text(text, s, 0.5, 1.5)
    assert est.requests["stage_a"] == 12
    fresh_standin.script({ROUTE: [{"seed003": {"terms": TERMS}}]})
    det, _ = stage_a(fresh_standin, 4, text)
    actual = det.tally.as_dict()["prompt_tokens"]
    assert abs(est.prompt_tokens["stage_a"] - actual) <= 0.2 * actual
    assert est.cost() > est.cost(["stage_a"]) > 0 and "LLM cost estimate: $" in est.summary()


# ---------------------------------------------------------------------------
# resolved_meanings through Dagster, in a subprocess that is killed and started again

PAGES = 10


@pytest.fixture
def llm_env(tmp_path, standin):
    root = tmp_path / "corpus"
    root.mkdir()
    (root / "book.txt").write_text(document(PAGES), encoding="utf-8")
    (tmp_path / "none.csv").write_text("# no suppression rules in this test\n", encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith("TEXTGUARD_")} | {
        "TEXTGUARD_CORPUS_DIR": str(root),
        "TEXTGUARD_WAREHOUSE": str(tmp_path / "warehouse"),
        "TEXTGUARD_WN_DATA": str(tmp_path / "wn"),  # the small shipped lexicon is installed there
        "TEXTGUARD_SUPPRESSIONS": str(tmp_path / "none.csv"),
        "TEXTGUARD_LLM_URL": f"{standin.base_url}/v1",
        "TEXTGUARD_LLM_MODEL": "stand-in",
        "TEXTGUARD_LLM_CONCURRENCY": "1",
        "TEXTGUARD_LLM_MAX_RETRIES": "0",
        "TEXTGUARD_LLM_CACHE_DIR": str(tmp_path / "llm_cache"),
        "TEXTGUARD_LLM_PRICE_IN_PER_1K": "0.5",
        "TEXTGUARD_LLM_PRICE_OUT_PER_1K": "1.5",
        "DAGSTER_HOME": str(tmp_path / "dagster_home"),
    }
    (tmp_path / "dagster_home").mkdir()
    return env, tmp_path


def _run(env, out: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "textguard_pipeline_tests.meanings._llm_run", str(out)],
        env=env,
        cwd=str(Path(__file__).resolve().parents[2]),
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


def _stage_a_bodies(standin) -> list[str]:
    out = []
    for r in standin.requests():
        if r["path"].endswith("/chat/completions"):
            body = json.loads(r["body"])
            if "pages" in json.loads(body["messages"][-1]["content"]):
                out.append(r["body"])
    return out


def test_killed_run_resumes_without_paying_again(llm_env, fresh_standin):
    env, tmp = llm_env
    kill_after = 4
    # slow answers: the run is still mid-document when the test kills it
    fresh_standin.script({ROUTE: [{"seed003": {"terms": TERMS, "delay": 0.4}}]})
    first = _run(env, tmp / "first.json")
    try:
        deadline = time.monotonic() + 180
        while len(_stage_a_bodies(fresh_standin)) < kill_after:
            assert first.poll() is None, first.stderr.read().decode()[-3000:]
            assert time.monotonic() < deadline, "the run never reached Stage A"
            time.sleep(0.05)
        os.killpg(first.pid, signal.SIGKILL)
        first.wait(10)
    finally:
        if first.poll() is None:
            os.killpg(first.pid, signal.SIGKILL)
        first.stderr.close()
    before = _stage_a_bodies(fresh_standin)
    # one request at a time: every window but the last one sent was answered and stored before the kill
    assert kill_after <= len(before) < PAGES and len(set(before)) == len(before)
    fresh_standin.clear()

    fresh_standin.script({ROUTE: [{"seed003": {"terms": TERMS}}]})
    second = _run(env, tmp / "second.json")
    _out, err = second.communicate(timeout=300)
    assert second.returncode == 0, err.decode()[-3000:]
    after = _stage_a_bodies(fresh_standin)
    repeated = set(before) & set(after)
    assert len(repeated) <= 1  # at most the window that was on the wire when the process died
    assert len(set(before) | set(after)) == PAGES  # every window was asked once in all
    assert len(after) == PAGES - (len(before) - len(repeated))

    report = json.loads((tmp / "second.json").read_text())
    md = report["metadata"]["book.txt"]
    # the estimate was logged (run-wide, then per document) before the first paid call of the run
    first_paid = min(r["time"] for r in fresh_standin.requests())
    assert len(report["estimate_logs"]) == 2
    assert all(log["time"] < first_paid for log in report["estimate_logs"])
    assert "$" in report["estimate_logs"][0]["message"] and "±20 %" in report["estimate_logs"][0]["message"]
    usage = md["llm_usage"]
    assert usage["stage_a"]["requests"] == len(after)
    assert usage["stage_a"]["cache_hits"] == PAGES - len(after)
    assert usage["stage_a"]["cached_prompt_tokens"] > 0 and usage["stage_a"]["prompt_tokens"] > 0
    assert md["llm_prompt_tokens"] == usage["total"]["prompt_tokens"] > 0
    assert md["llm_completion_tokens"] > 0
    paid = md["llm_prompt_tokens"] / 1000 * 0.5 + md["llm_completion_tokens"] / 1000 * 1.5
    assert md["llm_cost_usd"] == pytest.approx(paid, rel=1e-4) and md["llm_cost_usd"] > 0
    assert md["llm_cost_estimate_usd"] > 0 and set(md["llm_cost_estimate"]) >= {"total", "stage_a"}
    assert usage["disambiguation"]["requests"] >= 1 and usage["rating"]["requests"] >= 1

    from textguard_pipeline.defs_kit.io_manager import read_parquet

    df = read_parquet(tmp / "warehouse" / "resolved_meanings" / "book.txt.parquet")
    assert list(df.columns) == RESOLVED_COLUMNS and len(df) == PAGES * len(TERMS)
    assert set(df["detector"]) == {"llm:stand-in"}
    assert df["prompt_tokens"].notna().all() and (df["prompt_tokens"] > 0).all()
    # the rows carry the tokens of the windows, batches and ratings that made them (replayed ones too)
    assert df["prompt_tokens"].sum() <= usage["total"]["prompt_tokens"] + usage["total"]["cached_prompt_tokens"]
    assert df["completion_tokens"].sum() > 0
