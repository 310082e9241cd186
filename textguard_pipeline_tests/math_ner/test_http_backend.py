"""The NER backend client on the one HTTP client: ``Retry-After`` on a 503 is honoured (stand-in, no mocks)."""

import time

import pytest

from textguard_pipeline.math_ner import HttpNerBackend, NerBackendError
from textguard_pipeline_tests.math_ner.test_rules_and_client import GOOD


def test_503_with_retry_after_waits_as_asked_then_succeeds(fresh_standin):
    fresh_standin.script(
        {"POST /ner": [{"status": 503, "json": {}, "headers": {"Retry-After": "1"}}, {"status": 200, "json": GOOD}]}
    )
    b = HttpNerBackend(f"{fresh_standin.base_url}/ner", backoff_s=0.01)
    t = time.perf_counter()
    res = b.extract("3 plus 4 = 7")
    waited = time.perf_counter() - t
    assert len(res.entities) == 2 and len(fresh_standin.requests()) == 2
    assert waited >= 0.95  # the backoff alone would be 0.01 s: only the header explains a one-second wait
    assert b.http.meter.snapshot()["retries"] == 1


def test_retry_after_is_capped_and_bounded_503s_still_map_to_503(fresh_standin):
    fresh_standin.script({"POST /ner": [{"status": 503, "body": "overloaded", "headers": {"Retry-After": "3600"}}]})
    b = HttpNerBackend(f"{fresh_standin.base_url}/ner", backoff_s=0.01, max_retries=1, max_retry_after_s=0.2)
    t = time.perf_counter()
    with pytest.raises(NerBackendError) as ei:
        b.extract("3 plus 4 = 7")
    assert time.perf_counter() - t < 5 and len(fresh_standin.requests()) == 2
    assert (ei.value.kind, ei.value.status, ei.value.raw) == ("unavailable", 503, "overloaded")


def test_500_from_the_backend_is_not_retried(fresh_standin):
    fresh_standin.script({"POST /ner": [{"status": 500, "body": "crash"}, {"status": 200, "json": GOOD}]})
    with pytest.raises(NerBackendError) as ei:
        HttpNerBackend(f"{fresh_standin.base_url}/ner", backoff_s=0.01).extract("3 plus 4 = 7")
    assert (ei.value.kind, ei.value.status) == ("http", 502) and len(fresh_standin.requests()) == 1


def test_a_backend_dripping_its_headers_cannot_hold_a_request_past_its_total_deadline(fresh_standin):
    # ≈ 70 header bytes 0.1 s apart: each read well within the 0.5 s timeout, ≈ 7 s per attempt
    fresh_standin.script({"POST /ner": [{"status": 200, "json": GOOD, "drip_headers": 0.1}]})
    b = HttpNerBackend(f"{fresh_standin.base_url}/ner", timeout_ms=500, max_retries=2, backoff_s=0.01)
    t = time.perf_counter()
    with pytest.raises(NerBackendError) as ei:
        b.extract("3 plus 4 = 7")
    assert time.perf_counter() - t < 3.0  # the total deadline: 0.5 s × 3 attempts
    assert ei.value.kind == "timeout" and ei.value.outage == "outage"


def test_retry_waits_count_against_the_total_deadline(fresh_standin):
    fresh_standin.script({"POST /ner": [{"status": 503, "body": "busy", "headers": {"Retry-After": "2"}}]})
    b = HttpNerBackend(f"{fresh_standin.base_url}/ner", timeout_ms=1000, max_retries=5, backoff_s=0.01)
    t = time.perf_counter()
    with pytest.raises(NerBackendError) as ei:
        b.extract("3 plus 4 = 7")
    waited = time.perf_counter() - t
    # deadline 1 s × 6 attempts: attempts at 0, 2 and 4 s; the wait that would reach 6 s is not made
    assert waited < 5.5 and len(fresh_standin.requests()) == 3
    assert "deadline of the request would pass" in str(ei.value)
