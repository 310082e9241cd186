"""The round trip against the loopback stand-in in mangler mode: every mangling, refusals, outages, retries."""

import json

import pytest

from textguard_pipeline.lib.llm import ChatClient, LLMConfig
from textguard_pipeline.lib.placeholder_audit import find_tokens
from textguard_pipeline.protection import TermProtectionConfig, TermProtector
from textguard_pipeline.roundtrip import PROMPT_VERSION, SYSTEM_PROMPT, RewriteItem, RoundTrip, RoundTripError
from textguard_pipeline.roundtrip.prompt import task_instruction
from textguard_pipeline.roundtrip.split import split_text
from textguard_pipeline_tests.standin.mangle import LOSSY, REPAIRABLE

ROUTE = "POST /v1/chat/completions"
SOURCE = "As shown by Smith (2024), accuracy is 95%. Later, Smith (2024) reported 96% on $x^2$ data."


@pytest.fixture(scope="module")
def item():
    from textguard_pipeline.ingest.parsing import parse_document

    (chunk,) = [c for c in parse_document(SOURCE + "\n", "md") if c.chunk_type == "prose"]
    pc = TermProtector(TermProtectionConfig(use_ner=False)).protect(chunk)
    assert pc.protected_text.count("⟨TERM_000⟩") == 2 and "⟨MATH_000⟩" in pc.protected_text
    return RewriteItem.from_protected_chunk(pc, "doc.md")


def rt(standin, task="paraphrase", **kw):
    client_kw = {k: kw.pop(k) for k in ("timeout_s", "max_retries", "cache_dir") if k in kw}
    cfg = LLMConfig(base_url=f"{standin.base_url}/v1", model="stand-in", backoff_s=0.01, **client_kw)
    return RoundTrip(ChatClient(cfg), task, **kw)


def script(standin, *kinds):
    standin.script({ROUTE: [{"mangle": {"kind": k}} for k in kinds]})


def kept_everything(result, item):
    text = result.rewritten_text
    return all(text.count(o) >= item.protected_text.count(p) for p, o in item.placeholders.items()) and not find_tokens(
        text
    )


def test_request_shape(fresh_standin, item):
    script(fresh_standin, "none")
    r = rt(fresh_standin, "translate:German").rewrite(item)
    (req,) = fresh_standin.requests()
    body = json.loads(req["body"])
    assert body["model"] == "stand-in" and body["temperature"] == 0.0
    system, user = body["messages"]
    assert system == {"role": "system", "content": SYSTEM_PROMPT}
    assert user["content"] == f"{task_instruction('translate:German')}\n<text>\n{item.protected_text.strip()}\n</text>"
    assert "into German" in user["content"]
    assert (r.status, r.attempts, r.prompt_version, r.model) == ("ok", 1, PROMPT_VERSION, "stand-in")
    assert r.rewritten_text == item.text and r.prompt_tokens > 0 and r.completion_tokens > 0


@pytest.mark.parametrize("kind", sorted(REPAIRABLE))
def test_every_repairable_mangling_is_repaired(fresh_standin, item, kind):
    script(fresh_standin, kind)
    r = rt(fresh_standin).rewrite(item)
    assert r.attempts == 1 and len(fresh_standin.requests()) == 1
    if kind == "wrapped":  # <text> tags around the answer: unwrapped, nothing to repair
        assert r.status == "ok" and r.rewritten_text == item.text
    else:
        assert r.status == "repaired" and len(r.repairs) == 1
        assert r.repairs[0]["placeholder"] in item.placeholders and r.repairs[0]["found"] in r.llm_output
    assert kept_everything(r, item)
    if kind == "stray_copy":  # the correct token was there too: the copy is an extra occurrence, recorded
        assert any("extra copies" in p for p in r.problems)
    else:
        assert r.rewritten_text == item.text


@pytest.mark.parametrize("kind", sorted(LOSSY))
def test_every_lossy_answer_is_retried_then_accepted(fresh_standin, item, kind):
    script(fresh_standin, kind, "none")
    r = rt(fresh_standin).rewrite(item)
    assert (r.status, r.attempts, r.rewritten_text) == ("retried", 2, item.text)
    assert r.problems and r.problems[0].startswith("attempt 1: ")
    assert len(fresh_standin.requests()) == 2


@pytest.mark.parametrize("kind", sorted(LOSSY))
def test_attempts_run_out_into_a_fallback_equal_to_the_source(fresh_standin, item, kind):
    script(fresh_standin, kind)
    r = rt(fresh_standin, max_attempts=3).rewrite(item)
    assert (r.status, r.attempts, r.rewritten_text, r.repairs) == ("fallback", 3, item.text, [])
    assert "fallback" in r.problems[-1] and len(fresh_standin.requests()) == 3


def test_a_repeated_term_dropped_once_is_named_and_the_retry_names_it(fresh_standin, item):
    script(fresh_standin, "drop_repeat", "none")
    r = rt(fresh_standin).rewrite(item)
    assert r.status == "retried"
    assert r.problems[0] == "attempt 1: lost ⟨TERM_000⟩: expected 2, found 1"
    second = json.loads(fresh_standin.requests()[1]["body"])["messages"][-1]["content"]
    assert "It lost: ⟨TERM_000⟩ (2×)." in second  # the stricter instruction names what was lost


def test_invented_placeholders_are_named(fresh_standin, item):
    script(fresh_standin, "invent", "invent", "none")
    r = rt(fresh_standin).rewrite(item)
    assert r.status == "retried" and r.attempts == 3
    for n in (1, 2):  # named on the row (with whatever else the text audit found in that answer)
        assert any(p.startswith(f"attempt {n}: invented ⟨TERM_9") for p in r.problems)


def test_refusal_empty_and_echo_count_as_failed_attempts(fresh_standin, item):
    script(fresh_standin, "refusal", "empty", "echo")
    r = rt(fresh_standin).rewrite(item)
    assert r.status == "fallback"
    assert [p.split(": ", 1)[1].split(":")[0] for p in r.problems[:3]] == [
        "refusal",
        "empty answer",
        "echoed the instruction",
    ]


def test_refusal_field_and_truncation(fresh_standin, item):
    refusal = fresh_standin.chat_reply("")
    refusal["json"]["choices"][0]["message"]["refusal"] = "I can't help with that."
    truncated = fresh_standin.chat_reply(item.protected_text[:20])
    truncated["json"]["choices"][0]["finish_reason"] = "length"
    fresh_standin.script({ROUTE: [refusal, truncated, {"mangle": {"kind": "none"}}]})
    r = rt(fresh_standin).rewrite(item)
    assert r.status == "retried" and r.attempts == 3
    assert "refusal" in r.problems[0] and "truncated" in r.problems[1]


def test_429_with_retry_after_then_success(fresh_standin, item):
    fresh_standin.script(
        {ROUTE: [{"status": 429, "json": {}, "headers": {"Retry-After": "0"}}, {"mangle": {"kind": "none"}}]}
    )
    r = rt(fresh_standin).rewrite(item)
    assert (r.status, r.attempts) == ("ok", 1)  # an HTTP retry is not a rewrite attempt
    assert len(fresh_standin.requests()) == 2


def test_persistent_5xx_is_an_error_not_a_fallback(fresh_standin, item):
    fresh_standin.script({ROUTE: [{"status": 503, "json": {"error": "overloaded"}}]})
    with pytest.raises(RoundTripError) as ei:
        rt(fresh_standin, max_retries=1).rewrite(item)
    assert ei.value.kind == "http" and "503" in str(ei.value) and "doc.md" in str(ei.value)


def test_timeouts_are_an_error_not_a_fallback(fresh_standin, item):
    fresh_standin.script({ROUTE: [{"mangle": {"kind": "none"}, "delay": 1.0}]})
    with pytest.raises(RoundTripError) as ei:
        rt(fresh_standin, timeout_s=0.2, max_retries=1).rewrite(item)
    assert ei.value.kind == "timeout"


def test_unreachable_endpoint_is_an_error(item):
    client = ChatClient(LLMConfig(base_url="http://127.0.0.1:9/v1", max_retries=0, timeout_s=1))
    with pytest.raises(RoundTripError) as ei:
        RoundTrip(client, "paraphrase").rewrite_many([item, item])
    assert ei.value.kind == "unreachable"


def test_long_chunks_go_in_sentence_aligned_pieces(fresh_standin):
    tp = TermProtector(TermProtectionConfig(use_ner=False))
    source = " ".join(f"Sentence {i} cites Smith ({2000 + i}) with {i}% gain." for i in range(30))
    pc = tp.protect_text(source)
    it = RewriteItem.from_protected_chunk(pc, "long")
    fresh_standin.script({ROUTE: [{"mangle": {"mix": {"none": 1, "bare": 1, "drop": 1}, "seed": 3}}]})
    r = rt(fresh_standin, chunk_chars=300).rewrite(it)
    assert r.pieces > 1 and r.status in ("repaired", "retried")
    assert r.rewritten_text == source
    for req in fresh_standin.requests():
        text = json.loads(req["body"])["messages"][-1]["content"].split("\n<text>\n", 1)[1].rsplit("\n</text>", 1)[0]
        assert len(text) <= 300 and text.count("⟨") == text.count("⟩")


def test_split_text_keeps_every_character_and_placeholder():
    text = "One ⟨TERM_000⟩ here. Two ⟨TERM_001⟩! Three?  Four ⟨MATH_000⟩ and " + "word " * 40 + "end."
    pieces = split_text(text, 40)
    assert "".join(p + s for p, s in pieces) == text
    assert all(len(p) <= 40 for p, _ in pieces)
    assert split_text("short", 40) == [("short", "")]


def test_chunks_run_concurrently_in_order(fresh_standin, item):
    fresh_standin.script({ROUTE: [{"mangle": {"kind": "none"}, "delay": 0.2}]})
    items = [RewriteItem(item.protected_text, item.placeholders, item.text, "d", i) for i in range(6)]
    out = rt(fresh_standin, concurrency=6).rewrite_many(items)
    assert [r.item.chunk_index for r in out] == list(range(6)) and {r.status for r in out} == {"ok"}


def test_response_cache_makes_a_rerun_free(fresh_standin, item, tmp_path):
    script(fresh_standin, "bare")
    first = rt(fresh_standin, cache_dir=str(tmp_path)).rewrite(item)
    again = rt(fresh_standin, cache_dir=str(tmp_path)).rewrite(item)
    a, b = first.row(), again.row()
    a.pop("latency_s"), b.pop("latency_s")  # per-run timing
    assert a == b and len(fresh_standin.requests()) == 1 and again.cached == 1


def test_task_instructions():
    assert "Paraphrase" in task_instruction("paraphrase") and "simpler" in task_instruction("simplify")
    assert task_instruction("Make it formal.").startswith("Make it formal.")
    with pytest.raises(ValueError):
        task_instruction("translate:")
    with pytest.raises(ValueError):
        task_instruction("  ")


def test_text_tags_of_the_source_itself_are_not_unwrapped(fresh_standin):
    source = "In HTML write <text>Smith (2024)</text> around it; then 95% of readers agree."
    it = RewriteItem.from_protected_chunk(TermProtector(TermProtectionConfig(use_ner=False)).protect_text(source), "h")
    script(fresh_standin, "none")
    r = rt(fresh_standin).rewrite(it)
    assert (r.status, r.rewritten_text) == ("ok", source)
