"""A total deadline per request, cache entries of the wrong shape, an unwritable cache, and identical
requests in flight (issue 48, item 4), against the stand-in."""

import json
import logging
import multiprocessing
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from textguard_pipeline.lib.http import ResponseCache
from textguard_pipeline.lib.llm import ChatClient, LLMConfig, LLMError

ROUTE = "POST /v1/chat/completions"
MESSAGES = [{"role": "user", "content": "say ok"}]


def _client(standin, **kw):
    return ChatClient(LLMConfig(base_url=f"{standin.base_url}/v1", **{"max_retries": 0, "backoff_s": 0.01, **kw}))


def test_a_slow_dripping_server_cannot_hold_a_request_past_its_deadline(fresh_standin):
    reply = fresh_standin.chat_reply("x" * 200)
    fresh_standin.script({ROUTE: [{**reply, "drip": 0.05}]})  # ≈ 15 s for the whole body, 0.05 s per read
    t0 = time.monotonic()
    with pytest.raises(LLMError) as err:
        _client(fresh_standin, timeout_s=1.0).complete(MESSAGES)
    assert err.value.kind == "timeout" and "deadline" in str(err.value)
    assert time.monotonic() - t0 < 4.0


def test_a_server_dripping_its_headers_cannot_hold_a_request_past_its_total_deadline(fresh_standin):
    # ≈ 80 header bytes 0.1 s apart: every read well within the 1 s timeout, ≈ 8 s per attempt
    fresh_standin.script({ROUTE: [{**fresh_standin.chat_reply("x"), "drip_headers": 0.1}]})
    t0 = time.monotonic()
    with pytest.raises(LLMError) as err:
        _client(fresh_standin, timeout_s=1.0, max_retries=2, deadline_s=1.5).complete(MESSAGES)
    assert err.value.kind == "timeout" and "1.5s deadline of the request" in str(err.value)
    assert time.monotonic() - t0 < 3.0


@pytest.mark.parametrize(
    "entry", [[1, 2], {"status": "200", "text": "{}"}, {"status": 200, "text": 5}, {"status": 200, "text": "[]"}]
)
def test_a_cache_entry_of_the_wrong_shape_is_a_miss_named_in_a_warning(fresh_standin, tmp_path, caplog, entry):
    fresh_standin.script({ROUTE: [fresh_standin.chat_reply("fresh")]})
    client = _client(fresh_standin, cache_dir=str(tmp_path))
    body = client._body(MESSAGES, False, 0.0, None)
    key = ResponseCache.key("POST", f"{fresh_standin.base_url}/v1/chat/completions", None, body)
    path = tmp_path / key[:2] / f"{key}.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(entry), encoding="utf-8")
    with caplog.at_level(logging.WARNING):
        out = client.complete(MESSAGES)
    assert out.content == "fresh" and not out.cached and len(fresh_standin.requests()) == 1
    assert "treated as a miss" in caplog.text
    assert json.loads(path.read_text())["status"] == 200  # replaced by the good answer


def test_an_unwritable_cache_directory_is_found_before_anything_is_paid(fresh_standin, tmp_path):
    fresh_standin.script({ROUTE: [fresh_standin.chat_reply("ok")]})
    (tmp_path / "file").write_text("not a directory")
    with pytest.raises(LLMError) as err:
        _client(fresh_standin, cache_dir=str(tmp_path / "file" / "cache")).complete(MESSAGES)
    assert err.value.kind == "config" and "TEXTGUARD_LLM_CACHE_DIR" in str(err.value)
    assert fresh_standin.requests() == []


def _ask_once(base_url: str, cache_dir: str) -> bool:
    client = ChatClient(LLMConfig(base_url=f"{base_url}/v1", max_retries=0, cache_dir=cache_dir))
    return client.complete(MESSAGES).cached


def test_identical_requests_in_flight_are_paid_once_across_threads_and_processes(fresh_standin, tmp_path):
    fresh_standin.script({ROUTE: [{**fresh_standin.chat_reply("slow"), "delay": 1.0}]})
    args = (fresh_standin.base_url, str(tmp_path))
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        others = pool.starmap_async(_ask_once, [args] * 2)
        with ThreadPoolExecutor(3) as threads:
            mine = list(threads.map(lambda _: _ask_once(*args), range(3)))
        cached = mine + others.get(timeout=120)
    assert len(fresh_standin.requests()) == 1
    assert sorted(cached) == [False] + [True] * 4
