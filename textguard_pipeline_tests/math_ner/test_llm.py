"""LLMFrameExtractor against the loopback stand-in: seed prompts verbatim, valid / invalid / wrong-range answers,
429 with Retry-After, timeouts — and the seed's error mapping (500 / 503 / 504)."""

import time

import pytest

from textguard_pipeline.core.parsing import parse_document
from textguard_pipeline.core.spans import check_char_ranges
from textguard_pipeline.lib.llm import ChatClient
from textguard_pipeline.math_ner import NerBackendError, frame_row_problems, ner_frame
from textguard_pipeline.math_ner.llm import SYSTEM_PROMPT, USER_PROMPT, LLMFrameExtractor, messages_for
from textguard_pipeline_tests.math_ner.llm_script import (
    ROUTE,
    SEED_OUTPUT,
    SEED_TEXT,
    chat,
    chat_requests,
    config,
)

SEED_DOC = "/work/shared/seeds/001_06435088fa663728.txt"


def extractor(standin, attempts=2, **kw):
    return LLMFrameExtractor(ChatClient(config(standin, **kw)), max_attempts=attempts)


def test_prompts_are_the_seeds_verbatim():
    try:
        seed = open(SEED_DOC, encoding="utf-8").read()
    except OSError:
        pytest.skip("seed document not available")
    blocks = seed.split("```")
    system = next(b for b in blocks if b.startswith("\nYou are a Named Entity Recognition"))
    user = next(b for b in blocks if b.startswith("\nExtract named entities and frames"))
    assert SYSTEM_PROMPT == system.strip("\n") and USER_PROMPT == user.strip("\n")
    assert messages_for('a "{b}" c')[1]["content"].endswith('"a "{b}" c"')


def test_a_valid_answer_gives_the_seeds_entities_and_frames(fresh_standin):
    fresh_standin.script({ROUTE: [chat(SEED_OUTPUT)]})
    x = extractor(fresh_standin)
    res = x.extract(SEED_TEXT)
    assert [(e.type, e.canonical) for e in res.entities][:3] == [("NUMBER", "3"), ("OPERATION", "add"), ("NUMBER", "4")]
    assert all(SEED_TEXT[e.start : e.end] == e.text for e in res.entities)
    assert [f.frame_type for f in res.frames] == ["ARITH_EXAMPLE", "PROPERTY"]
    (req,) = chat_requests(fresh_standin)
    assert req["messages"] == messages_for(SEED_TEXT) and req["response_format"] == {"type": "json_object"}
    usage = x.usage()
    assert (usage["requests"], usage["prompt_tokens"], usage["completion_tokens"]) == (1, 400, 120)


def test_invalid_json_is_asked_again_then_fails_as_500(fresh_standin, caplog):
    fresh_standin.script({ROUTE: [chat("not json at all"), chat("```json\n" + '{"entities": []}' + "\n```")]})
    x = extractor(fresh_standin)
    with pytest.raises(NerBackendError) as ei:  # second answer is JSON but not the schema (frames missing)
        x.extract(SEED_TEXT)
    assert ei.value.status == 500 and ei.value.kind == "invalid_response"
    assert len(chat_requests(fresh_standin)) == 2 and x.invalid_answers == 2
    assert "not json at all" in caplog.text  # the raw answer is logged (seed §9)

    fresh_standin.clear()
    fresh_standin.script({ROUTE: [chat("{broken"), chat(SEED_OUTPUT)]})
    assert len(extractor(fresh_standin).extract(SEED_TEXT).frames) == 2
    assert len(chat_requests(fresh_standin)) == 2


def test_wrong_char_ranges_are_re_anchored_or_rejected_never_kept(fresh_standin):
    bad = {
        "entities": [
            {"text": "plus", "type": "OPERATION", "start": 20, "end": 24, "canonical": "add", "confidence": 0.9},
            {"text": "minus", "type": "OPERATION", "start": 2, "end": 7, "canonical": "sub", "confidence": 0.9},
            {"text": "7", "type": "NUMBER", "start": 900, "end": 901, "canonical": "7", "confidence": 0.9},
        ],
        "frames": [
            {
                "frame_type": "ARITH_EXAMPLE",
                "operation": "add",
                "operands": [3, 4],
                "result": 7,
                "start": 10,
                "end": 5000,
            },
            {"frame_type": "ARITH_EXAMPLE", "operation": "pow", "operands": [2], "result": 4},
        ],
        "unmapped": [],
    }
    fresh_standin.script({ROUTE: [chat(bad)]})
    text = "Intro line.\n\n" + SEED_TEXT + "\n"
    df, report = ner_frame("d", parse_document(text, "md"), extractor(fresh_standin))
    ents = df[df["kind"] == "entity"]
    assert sorted(ents["text"]) == ["7", "plus"]  # moved to their quote; "minus" is not in the text
    assert [r["text"] for r in report["rejected_entities"]] == ["minus"]
    assert check_char_ranges(df.to_dict("records"), text) == []
    frames = df[df["kind"] == "frame"]
    assert frames["valid"].tolist() == [True, False]  # the unknown operation is flagged, not lost
    assert frame_row_problems(frames.iloc[0].to_dict()) == [] and frame_row_problems(frames.iloc[1].to_dict())


def test_429_with_retry_after_is_honoured(fresh_standin):
    fresh_standin.script(
        {ROUTE: [{"status": 429, "json": {"error": "slow down"}, "headers": {"Retry-After": "1"}}, chat(SEED_OUTPUT)]}
    )
    t0 = time.monotonic()
    res = extractor(fresh_standin).extract(SEED_TEXT)  # backoff is 0.01 s: only the header explains a 1 s wait
    assert time.monotonic() - t0 >= 0.95 and len(res.frames) == 2
    assert len(chat_requests(fresh_standin)) == 2


def test_rate_limited_throughout_is_503_and_too_slow_is_504(fresh_standin):
    fresh_standin.script({ROUTE: [{"status": 429, "json": {}, "headers": {"Retry-After": "0"}}]})
    with pytest.raises(NerBackendError) as ei:
        extractor(fresh_standin, max_retries=1).extract(SEED_TEXT)
    assert ei.value.status == 503 and len(chat_requests(fresh_standin)) == 2
    fresh_standin.script({ROUTE: [{**chat(SEED_OUTPUT), "delay": 1.5}]})
    with pytest.raises(NerBackendError) as ei:
        extractor(fresh_standin, timeout_s=0.3, max_retries=0).extract(SEED_TEXT)
    assert ei.value.status == 504 and ei.value.kind == "timeout"
    fresh_standin.script({ROUTE: [{"status": 400, "json": {"error": "bad model"}}]})
    with pytest.raises(NerBackendError) as ei:
        extractor(fresh_standin).extract(SEED_TEXT)
    assert ei.value.status == 502


def test_extract_many_keeps_the_order_and_runs_concurrently(fresh_standin):
    fresh_standin.script({ROUTE: [{**chat(SEED_OUTPUT), "delay": 0.5}]})
    x = LLMFrameExtractor(ChatClient(config(fresh_standin)), concurrency=4)
    t0 = time.monotonic()
    results = x.extract_many([SEED_TEXT] * 4)
    assert time.monotonic() - t0 < 1.5 and [len(r.frames) for r in results] == [2, 2, 2, 2]
    assert x.usage()["requests"] == 4


def test_a_spent_budget_is_reported_as_budget_not_as_an_endpoint_outage(fresh_standin):
    from textguard_pipeline.lib.outage import outage_of

    fresh_standin.script({ROUTE: [chat(SEED_OUTPUT)]})
    x = extractor(fresh_standin, max_cost=0.000001, price_in_per_1k=1.0)
    with pytest.raises(NerBackendError) as ei:
        x.extract(SEED_TEXT)
    assert (ei.value.kind, ei.value.outage, outage_of(ei.value)) == ("budget", "budget", "budget")
    assert not ei.value.retryable and chat_requests(fresh_standin) == []  # refused before anything was paid


def test_a_ner_service_whose_budget_is_spent_is_a_budget_outage_through_http(fresh_standin):
    from textguard_pipeline.math_ner import HttpNerBackend

    spent = {"status": 503, "json": {"detail": "NER backend budget (503): spent", "kind": "budget"}}
    fresh_standin.script({"POST /ner": [spent]})
    with pytest.raises(NerBackendError) as ei:
        HttpNerBackend(f"{fresh_standin.base_url}/ner", max_retries=0).extract(SEED_TEXT)
    assert (ei.value.kind, ei.value.status, ei.value.outage) == ("budget", 503, "budget")
