"""HybridFrameExtractor (Option B) and TEXTGUARD_NER_BACKEND: only windows the rules leave unmatched reach the model,
in process (chat client) and through `textguard ner-serve --backend llm` with /ner/batch."""

import json
import sys
import uuid

import httpx
import pytest

from textguard_pipeline.core.parsing import parse_document
from textguard_pipeline.core.spans import check_char_ranges
from textguard_pipeline.lib.llm import ChatClient
from textguard_pipeline.math_ner import HttpNerBackend, RuleBasedExtractor, ner_frame, text_units
from textguard_pipeline.math_ner.backends import NerConfigError, build_extractor
from textguard_pipeline.math_ner.hybrid import HybridFrameExtractor, route, windows
from textguard_pipeline.math_ner.llm import LLMFrameExtractor
from textguard_pipeline.math_ner.table import span_id
from textguard_pipeline.settings import MathNerSettings, SettingsError, math_ner_settings
from textguard_pipeline_tests.math_ner.llm_script import ROUTE, WORD_OUTPUT, WORD_PROBLEM, chat, chat_requests, config
from textguard_pipeline_tests.standin.client import free_port, process

DOC = (
    "# Lesson\n\nAddition is commutative: 3 + 4 = 4 + 3.\n\n" + WORD_PROBLEM + "\n\n"
    "The weather was fine and the children played outside.\n"
)


def hybrid(standin, rules=True):
    llm = LLMFrameExtractor(ChatClient(config(standin)))
    return HybridFrameExtractor(llm, rules=RuleBasedExtractor() if rules else None)


def test_windows_are_paragraphs_and_long_ones_are_cut_at_sentences():
    text = "One.\n\nTwo 2.\n\n\n" + "A b c. " * 400
    ws = windows(text, max_chars=300)
    assert ws[:2] == [(0, 4), (6, 12)] and all(b - a <= 300 for a, b in ws)
    assert " ".join(text[a:b] for a, b in ws[2:]).strip() == text[15:].strip()


def test_routes_matched_unmatched_and_plain_windows():
    rules = RuleBasedExtractor().extract(DOC)
    routes = [route(DOC, w, rules) for w in windows(DOC)]
    assert routes == ["skipped", "rules", "llm", "skipped"]  # heading, property + example, word problem, prose


def test_only_the_unmatched_word_problem_reaches_the_model(fresh_standin):
    fresh_standin.script({ROUTE: [chat(WORD_OUTPUT)]})
    x = hybrid(fresh_standin)
    df, report = ner_frame("lesson.md", parse_document(DOC, "md"), x)
    (req,) = chat_requests(fresh_standin)
    assert WORD_PROBLEM in req["messages"][1]["content"] and "commutative" not in req["messages"][1]["content"]
    assert report["units"] == {"skipped": 1, "rules": 1, "llm": 1}  # the heading is not prose
    frames = df[df["kind"] == "frame"]
    by = dict(zip(frames["backend"], frames["text"]))
    assert by["llm:standin-model@" + config(fresh_standin).base_url] == WORD_PROBLEM
    assert "rule_based" in set(frames["backend"])
    assert check_char_ranges(df.to_dict("records"), DOC) == []
    ids = {json.loads(j)["source_span_id"] for j in frames["frame_json"]}
    ((_, start, unit),) = text_units(parse_document(DOC, "md"))
    assert len(ids) == 1 and uuid.UUID(ids.pop()) == span_id("lesson.md", start, start + len(unit))
    # the rules' own entities win over the model's overlapping ones; its non-overlapping one is added
    llm_ents = df[(df["kind"] == "entity") & (df["backend"] != "rule_based")]
    assert llm_ents["text"].tolist() == ["buys"]
    assert x.usage()["requests"] == 1 and x.llm_chars == len(WORD_PROBLEM)


def test_llm_only_sends_every_window(fresh_standin):
    fresh_standin.script({ROUTE: [chat(WORD_OUTPUT)]})
    x = hybrid(fresh_standin, rules=False)
    df, report = ner_frame("lesson.md", parse_document(DOC, "md"), x)
    assert report["units"] == {"llm": 3} and len(chat_requests(fresh_standin)) == 3
    assert set(df["backend"]) == {x.llm.label}
    assert check_char_ranges(df.to_dict("records"), DOC) == []


def test_settings_choose_the_extractor_and_nothing_paid_by_default(fresh_standin):
    assert math_ner_settings({}).backend == "rules"
    with pytest.raises(SettingsError):
        math_ner_settings({"TEXTGUARD_NER_BACKEND": "gpt"})
    assert isinstance(build_extractor(MathNerSettings()), RuleBasedExtractor)
    assert isinstance(build_extractor(MathNerSettings(url="http://127.0.0.1:9/ner")), HttpNerBackend)
    with pytest.raises(NerConfigError):
        build_extractor(MathNerSettings(backend="hybrid"))
    h = build_extractor(MathNerSettings(backend="hybrid", url="http://127.0.0.1:9/ner"))
    assert isinstance(h, HybridFrameExtractor) and isinstance(h.llm, HttpNerBackend) and h.rules is not None


def test_hybrid_through_ner_serve_uses_ner_batch(fresh_standin):
    """`llm`/`hybrid` with TEXTGUARD_NER_URL: the service runs the LLM extractor; the pipeline batches."""
    fresh_standin.script({ROUTE: [chat(WORD_OUTPUT)]})
    port = free_port()
    env = {
        "TEXTGUARD_LLM_URL": f"{fresh_standin.base_url}/v1",
        "TEXTGUARD_LLM_MODEL": "standin-model",
        "TEXTGUARD_NER_URL": "http://127.0.0.1:9/never-used-by-the-service",
        "TEXTGUARD_LLM_CACHE": "off",
    }
    cmd = [sys.executable, "-m", "textguard_pipeline.cli", "ner-serve", "--port", str(port), "--backend", "llm"]
    with process(cmd, f"http://127.0.0.1:{port}/health", env=env):
        url = f"http://127.0.0.1:{port}/ner"
        x = build_extractor(MathNerSettings(backend="hybrid", url=url))
        text = DOC + "\n" + WORD_PROBLEM.replace("Tom", "Ann") + "\n"
        df, report = ner_frame("lesson.md", parse_document(text, "md"), x)
        health = httpx.get(f"http://127.0.0.1:{port}/health").json()
    assert report["units"]["llm"] == 2 and len(chat_requests(fresh_standin)) == 2
    assert health["backend"].startswith("llm:standin-model") and health["usage"]["requests"] == 2
    frames = df[(df["kind"] == "frame") & (df["backend"] == url)]
    assert len(frames) == 2 and check_char_ranges(df.to_dict("records"), text) == []


def test_the_http_backend_gets_the_unmatched_windows_in_one_batch_request(fresh_standin):
    answer = {"span_id": None, "text": WORD_PROBLEM, "processing_time_ms": 1, **WORD_OUTPUT}
    fresh_standin.script({"POST /ner/batch": [{"status": 200, "json": {"results": [answer, answer]}}]})
    x = build_extractor(MathNerSettings(backend="hybrid", url=f"{fresh_standin.base_url}/ner", batch_size=8))
    text = DOC + "\n" + WORD_PROBLEM + "\n"
    df, report = ner_frame("lesson.md", parse_document(text, "md"), x)
    (req,) = fresh_standin.requests()
    assert req["path"] == "/ner/batch" and [s["text"] for s in json.loads(req["body"])["spans"]] == [WORD_PROBLEM] * 2
    assert report["units"]["llm"] == 2 and check_char_ranges(df.to_dict("records"), text) == []
    fresh_standin.script({"POST /ner/batch": [{"status": 200, "json": {"results": [answer]}}]})  # one answer short
    with pytest.raises(Exception, match="invalid_response"):
        ner_frame("lesson.md", parse_document(text, "md"), x)


def test_ner_serve_refuses_an_llm_backend_without_an_endpoint():
    import os
    import subprocess

    env = {k: v for k, v in os.environ.items() if not k.startswith("TEXTGUARD_LLM_")}
    r = subprocess.run(
        [sys.executable, "-m", "textguard_pipeline.cli", "ner-serve", "--backend", "llm", "--port", str(free_port())],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode == 2 and "TEXTGUARD_LLM_URL" in r.stderr and "Traceback" not in r.stderr
