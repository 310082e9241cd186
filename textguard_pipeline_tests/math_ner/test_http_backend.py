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
