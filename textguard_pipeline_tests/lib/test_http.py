"""The one HTTP client and the chat client on it, against the loopback stand-in (no mocks)."""

import email.utils
import threading
import time

import pytest

from textguard_pipeline.lib.http import Budget, HttpClient, HttpConfig, HttpError, parse_retry_after
from textguard_pipeline.lib.llm import ChatClient, LLMConfig, LLMError, llm_config_from_env
from textguard_pipeline.settings import llm_settings, rewrite_settings

ROUTE = "POST /v1/chat/completions"


def _client(standin, **kw) -> HttpClient:
    return HttpClient(HttpConfig(**{"backoff_s": 0.01, **kw}))


def _chat(standin, tmp_path=None, **kw) -> ChatClient:
    cfg = LLMConfig(
        base_url=f"{standin.base_url}/v1",
        model="m",
        backoff_s=0.01,
        cache_dir=str(tmp_path / "cache") if tmp_path else None,
        **kw,
    )
    return ChatClient(cfg)


def test_retry_after_seconds_is_honoured_then_success(fresh_standin):
    fresh_standin.script(
        {ROUTE: [{"status": 429, "json": {}, "headers": {"Retry-After": "1"}}, fresh_standin.chat_reply("fine")]}
    )
    c = _client(fresh_standin)
    t = time.perf_counter()
    r = c.request("POST", f"{fresh_standin.base_url}/v1/chat/completions", json={"a": 1})
    waited = time.perf_counter() - t
    assert r.status == 200 and r.attempts == 2 and len(fresh_standin.requests()) == 2
    assert waited >= 0.95  # the server asked for one second; the backoff alone would be 0.01 s
    assert c.meter.snapshot()["retries"] == 1


def test_retry_after_http_date_is_honoured(fresh_standin):
    when = email.utils.formatdate(time.time() + 2, usegmt=True)  # whole seconds: waits 1–2 s
    fresh_standin.script(
        {ROUTE: [{"status": 503, "json": {}, "headers": {"Retry-After": when}}, fresh_standin.chat_reply("fine")]}
    )
    t = time.perf_counter()
    assert _client(fresh_standin).request("POST", f"{fresh_standin.base_url}/v1/chat/completions").status == 200
    assert time.perf_counter() - t >= 0.9


def test_parse_retry_after_forms():
    now = 1_700_000_000.0
    assert parse_retry_after("120") == 120.0
    assert parse_retry_after(email.utils.formatdate(now + 30, usegmt=True), now=now) == pytest.approx(30, abs=1)
    assert parse_retry_after(email.utils.formatdate(now - 30, usegmt=True), now=now) == 0.0
    assert parse_retry_after("soon") is None and parse_retry_after(None) is None and parse_retry_after("") is None


def test_retry_after_is_capped(fresh_standin):
    fresh_standin.script(
        {ROUTE: [{"status": 429, "json": {}, "headers": {"Retry-After": "3600"}}, fresh_standin.chat_reply("fine")]}
    )
    t = time.perf_counter()
    assert (
        _client(fresh_standin, max_retry_after_s=0.2)
        .request("POST", f"{fresh_standin.base_url}/v1/chat/completions")
        .status
        == 200
    )
    assert time.perf_counter() - t < 5


def test_persistent_5xx_fails_after_the_retries(fresh_standin):
    fresh_standin.script({ROUTE: [{"status": 502, "body": "bad gateway"}]})
    with pytest.raises(HttpError) as ei:
        _client(fresh_standin, max_retries=2).request("POST", f"{fresh_standin.base_url}/v1/chat/completions")
    assert ei.value.kind == "http" and ei.value.status == 502 and "after 3 attempt" in str(ei.value)
    assert len(fresh_standin.requests()) == 3


def test_4xx_is_returned_without_retry(fresh_standin):
    fresh_standin.script({ROUTE: [{"status": 400, "json": {"error": "context too long"}}]})
    r = _client(fresh_standin).request("POST", f"{fresh_standin.base_url}/v1/chat/completions")
    assert r.status == 400 and len(fresh_standin.requests()) == 1
    with pytest.raises(LLMError) as ei:
        _chat(fresh_standin).complete([{"role": "user", "content": "x"}])
    assert ei.value.kind == "http" and "400" in str(ei.value)


def test_timeout_and_unreachable_kinds(fresh_standin):
    fresh_standin.script({ROUTE: [{"status": 200, "json": {}, "delay": 1.0}]})
    with pytest.raises(HttpError) as ei:
        _client(fresh_standin, timeout_s=0.2, max_retries=1).request(
            "POST", f"{fresh_standin.base_url}/v1/chat/completions"
        )
    assert ei.value.kind == "timeout" and len(fresh_standin.requests()) == 2
    with pytest.raises(HttpError) as ei:
        _client(fresh_standin, max_retries=0, timeout_s=1).request("GET", "http://127.0.0.1:9/x")
    assert ei.value.kind == "unreachable"


def test_concurrency_is_bounded(fresh_standin):
    fresh_standin.script({ROUTE: [{"status": 200, "json": {}, "delay": 0.3}]})
    c = _client(fresh_standin, concurrency=2)
    url = f"{fresh_standin.base_url}/v1/chat/completions"
    threads = [threading.Thread(target=c.request, args=("POST", url), kwargs={"json": {"i": i}}) for i in range(6)]
    t = time.perf_counter()
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    # six 0.3 s requests, two at a time: three waves, never faster than 0.9 s
    assert time.perf_counter() - t >= 0.85 and len(fresh_standin.requests()) == 6


def test_response_cache_keys_on_the_whole_request(fresh_standin, tmp_path):
    fresh_standin.script({ROUTE: [fresh_standin.chat_reply("one")]})
    msgs = [{"role": "user", "content": "hello"}]
    a = _chat(fresh_standin, tmp_path).complete(msgs)
    b = _chat(fresh_standin, tmp_path).complete(msgs)  # a new client (a re-materialization) reuses it
    assert (a.cached, b.cached, b.content, b.cost) == (False, True, "one", 0.0)
    assert len(fresh_standin.requests()) == 1
    _chat(fresh_standin, tmp_path).complete(msgs, temperature=0.7)  # another temperature: another request
    _chat(fresh_standin, tmp_path).complete([{"role": "user", "content": "hello!"}])  # other messages too
    assert len(fresh_standin.requests()) == 3
    _chat(fresh_standin).complete(msgs)  # cache off: always the endpoint
    assert len(fresh_standin.requests()) == 4
    assert not any("Bearer" in str(p.read_text()) for p in (tmp_path / "cache").rglob("*.json"))


def test_malformed_answers_are_not_cached(fresh_standin, tmp_path):
    fresh_standin.script({ROUTE: [{"status": 200, "json": {"not": "a completion"}}, fresh_standin.chat_reply("ok")]})
    msgs = [{"role": "user", "content": "x"}]
    with pytest.raises(LLMError) as ei:
        _chat(fresh_standin, tmp_path).complete(msgs)
    assert ei.value.kind == "invalid_json"
    assert _chat(fresh_standin, tmp_path).complete(msgs).content == "ok"


def test_tokens_and_cost_are_accounted(fresh_standin):
    reply = fresh_standin.chat_reply("answer")
    reply["json"]["usage"] = {"prompt_tokens": 1000, "completion_tokens": 500}
    fresh_standin.script({ROUTE: [reply]})
    c = _chat(fresh_standin, price_in_per_1k=0.01, price_out_per_1k=0.03)
    r = c.complete([{"role": "user", "content": "x"}])
    assert (r.prompt_tokens, r.completion_tokens, r.usage_estimated) == (1000, 500, False)
    assert r.cost == pytest.approx(0.01 + 0.015)
    u = c.usage()
    assert u["prompt_tokens"] == 1000 and u["completion_tokens"] == 500 and u["cost_usd"] == pytest.approx(0.025)
    assert c.budget.spent_cost == pytest.approx(0.025)


def test_budget_refuses_the_request_that_would_exceed_it(fresh_standin):
    reply = fresh_standin.chat_reply("answer")
    reply["json"]["usage"] = {"prompt_tokens": 1000, "completion_tokens": 1000}
    fresh_standin.script({ROUTE: [reply]})
    c = _chat(fresh_standin, price_in_per_1k=1.0, price_out_per_1k=1.0, max_cost=2.5)
    c.complete([{"role": "user", "content": "first"}])  # costs $2.00
    with pytest.raises(LLMError) as ei:
        c.complete([{"role": "user", "content": "second " * 200}])  # estimated ≈ $0.8 more: refused before sending
    assert ei.value.kind == "budget" and "TEXTGUARD_LLM_MAX_COST" in str(ei.value)
    assert len(fresh_standin.requests()) == 1
    tok = _chat(fresh_standin, max_tokens_total=10)
    with pytest.raises(LLMError) as ei:
        tok.complete([{"role": "user", "content": "a long question " * 10}])
    assert ei.value.kind == "budget" and len(fresh_standin.requests()) == 1


def test_budget_reservations_release_on_failure():
    b = Budget(max_cost=1.0)
    with pytest.raises(RuntimeError):
        with b.reserve(0.9, 0):
            raise RuntimeError("request failed")
    with b.reserve(0.9, 0) as r:  # the failed reservation was released
        r.commit(0.5, 10)
    assert b.spent_cost == 0.5 and b.spent_tokens == 10


def test_settings_block_reads_the_new_variables():
    s = rewrite_settings(
        {
            "TEXTGUARD_LLM_URL": "http://h/v1/",
            "TEXTGUARD_REWRITE_TASK": "translate:German",
            "TEXTGUARD_LLM_CONCURRENCY": "8",
            "TEXTGUARD_LLM_MAX_COST": "1.5",
            "TEXTGUARD_LLM_CACHE": "off",
            "TEXTGUARD_REWRITE_MAX_ATTEMPTS": "5",
            "TEXTGUARD_LLM_PRICE_IN_PER_1K": "0.002",
            "TEXTGUARD_REWRITE_CHUNK_CHARS": "900",
        }
    )
    assert s.enabled and s.task == "translate:German" and s.max_attempts == 5 and s.chunk_chars == 900
    assert s.llm.url == "http://h/v1" and s.llm.concurrency == 8 and s.llm.max_cost == 1.5 and not s.llm.cache
    assert s.llm.price_in_per_1k == 0.002
    off = rewrite_settings({"TEXTGUARD_REWRITE_TASK": "paraphrase"})
    assert not off.enabled and "TEXTGUARD_LLM_URL" in off.disabled_reason()
    with pytest.raises(ValueError, match="TEXTGUARD_LLM_CACHE"):
        llm_settings({"TEXTGUARD_LLM_CACHE": "maybe"})
    with pytest.raises(ValueError, match="TEXTGUARD_LLM_CONCURRENCY"):
        llm_settings({"TEXTGUARD_LLM_CONCURRENCY": "0"})
    assert llm_config_from_env({"TEXTGUARD_LLM_URL": "http://h/v1"}).cache_dir is None  # other passes: no cache


def test_retry_statuses_narrow_the_contract(fresh_standin):
    url = f"{fresh_standin.base_url}/v1/chat/completions"
    fresh_standin.script({ROUTE: [{"status": 500, "body": "boom"}, fresh_standin.chat_reply("never")]})
    r = _client(fresh_standin, retry_statuses=(503, 504)).request("POST", url)  # 500 is not retryable here
    assert r.status == 500 and r.text == "boom" and len(fresh_standin.requests()) == 1
    fresh_standin.clear()
    fresh_standin.script(
        {
            ROUTE: [
                {"status": 504, "json": {}},
                {"status": 503, "json": {}, "headers": {"Retry-After": "1"}},
                fresh_standin.chat_reply("fine"),
            ]
        }
    )
    t = time.perf_counter()
    r = _client(fresh_standin, retry_statuses=(503, 504)).request("POST", url)
    assert r.status == 200 and r.attempts == 3 and time.perf_counter() - t >= 0.95
    fresh_standin.clear()
    fresh_standin.script({ROUTE: [{"status": 429, "json": {}}]})
    with pytest.raises(HttpError) as ei:
        _client(fresh_standin, retry_statuses=(429,), max_retries=1).request("POST", url)
    assert ei.value.status == 429 and len(fresh_standin.requests()) == 2


def test_retry_errors_off_fails_at_the_first_timeout(fresh_standin):
    fresh_standin.script({ROUTE: [{"status": 200, "json": {}, "delay": 1.0}]})
    c = _client(fresh_standin, timeout_s=0.2, max_retries=2, retry_errors=False)
    with pytest.raises(HttpError) as ei:
        c.request("POST", f"{fresh_standin.base_url}/v1/chat/completions")
    assert ei.value.kind == "timeout" and ei.value.attempts == 1 and len(fresh_standin.requests()) == 1
    assert c.meter.snapshot().get("retries", 0) == 0


def test_raw_content_body_is_sent_as_is(fresh_standin):
    fresh_standin.script({"POST /ner": [{"status": 200, "json": {"ok": True}}]})
    r = _client(fresh_standin).request(
        "POST",
        f"{fresh_standin.base_url}/ner",
        content="3 plus 4".encode(),
        headers={"Content-Type": "text/plain; charset=utf-8"},
    )
    (req,) = fresh_standin.requests()
    assert r.json() == {"ok": True} and req["body"] == "3 plus 4" and req["content_type"].startswith("text/plain")


class _Clock:
    """A clock the limiter's sleeps advance (the bucket's arithmetic without waiting)."""

    def __init__(self) -> None:
        self.now = 100.0
        self.slept: list[float] = []

    def __call__(self) -> float:
        return self.now

    def sleep(self, s: float) -> None:
        self.slept.append(s)
        self.now += s


def test_token_bucket_waits_for_tokens_and_takes_the_reported_usage():
    from textguard_pipeline.lib.http import TokenRateLimiter

    clock = _Clock()
    tb = TokenRateLimiter(600, clock=clock, sleep=clock.sleep)  # 10 tokens a second, 600 in the bucket
    assert tb.acquire(400) == 0 and tb.acquire(200) == 0  # a full minute's worth goes at once
    assert tb.acquire(100) == pytest.approx(10.0)  # then the refill rate: 100 tokens = 10 s
    clock.now += 60  # a minute later the bucket is full again (never above its capacity)
    assert tb.level() == pytest.approx(600)
    tb.acquire(100)
    tb.correct(100, 400)  # the answer said 400: the next request waits for those too
    assert tb.level() == pytest.approx(200)
    assert tb.acquire(500) == pytest.approx(30.0)
    assert tb.acquire(5000) == pytest.approx(60.0)  # larger than the bucket: waits for a full one
    assert TokenRateLimiter(0).acquire(10**9) == 0  # 0 = no limit
    assert tb.waited_s == pytest.approx(100.0)


def _usage_reply(standin, prompt_tokens: int, completion_tokens: int) -> dict:
    reply = standin.chat_reply("answer")
    reply["json"]["usage"] = {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens}
    return reply


def test_tokens_per_minute_limit_uses_the_reported_usage(fresh_standin):
    """3000 tokens a minute (50 a second); each prompt is estimated at ≈ 100 tokens from its characters."""
    msgs = [{"role": "user", "content": "w" * 360}]
    fresh_standin.script({ROUTE: [_usage_reply(fresh_standin, 100, 10)]})
    cheap = _chat(fresh_standin, tokens_per_minute=3000)
    for _ in range(3):
        cheap.complete(msgs)
    assert "token_waits" not in cheap.meter.snapshot()  # 330 of 3000 tokens: no wait
    # the same requests whose answers report 1,500 tokens each: the bucket is empty after two of them
    fresh_standin.script({ROUTE: [_usage_reply(fresh_standin, 100, 1400)]})
    costly = _chat(fresh_standin, tokens_per_minute=3000)
    t0 = time.monotonic()
    for _ in range(3):
        costly.complete(msgs)
    assert costly.meter.snapshot()["token_waits"] == 1
    assert time.monotonic() - t0 >= 1.5  # ≈ 100 tokens at 50 a second
    assert costly.http.tokens.waited_s == pytest.approx(2.0, abs=0.3)
    assert llm_settings({"TEXTGUARD_LLM_URL": "http://h/v1", "TEXTGUARD_LLM_TPM": "90000"}).tokens_per_minute == 90000
    with pytest.raises(ValueError, match="TEXTGUARD_LLM_TPM"):
        llm_settings({"TEXTGUARD_LLM_TPM": "-1"})
