"""The Wikidata client on the one HTTP client: ``Retry-After`` on 429 / 503 (stand-in, no mocks)."""

import time

import pytest

from textguard_pipeline.meanings.wikidata import WikidataClient, WikidataConfig, WikidataError

ROUTE = "GET /w/api.php"
FOUND = {"status": 200, "json": {"search": [{"id": "Q43115", "label": "Athanasius", "description": "bishop"}]}}


def client_for(standin, tmp_path, **kw):
    kw = {"timeout_s": 2.0, "backoff_s": 0.01, **kw}
    return WikidataClient(WikidataConfig(base_url=standin.base_url, mode="online", cache_dir=str(tmp_path / "c"), **kw))


@pytest.mark.parametrize("status", [429, 503])
def test_retry_after_is_honoured_then_the_answer_is_cached(fresh_standin, tmp_path, status):
    fresh_standin.script({ROUTE: [{"status": status, "json": {}, "headers": {"Retry-After": "1"}}, FOUND]})
    c = client_for(fresh_standin, tmp_path)
    t = time.perf_counter()
    got = c.search("Athanasius")
    assert time.perf_counter() - t >= 0.95  # the backoff alone is 0.01 s: the header set the wait
    assert [x.meaning_id for x in got] == ["wikidata:Q43115"] and len(fresh_standin.requests()) == 2
    assert client_for(fresh_standin, tmp_path).search("Athanasius") == got  # the cache as before
    assert len(fresh_standin.requests()) == 2


def test_persistent_429_fails_after_bounded_retries_and_nothing_is_cached(fresh_standin, tmp_path):
    fresh_standin.script({ROUTE: [{"status": 429, "json": {}, "headers": {"Retry-After": "3600"}}]})
    c = client_for(fresh_standin, tmp_path, max_retries=1, max_retry_after_s=0.2)
    t = time.perf_counter()
    with pytest.raises(WikidataError) as ei:
        c.search("a")
    assert ei.value.kind == "http" and "429" in str(ei.value) and time.perf_counter() - t < 5
    assert len(fresh_standin.requests()) == 2 and not list((tmp_path / "c").rglob("*.json"))


def test_other_failures_are_not_retried(fresh_standin, tmp_path):
    fresh_standin.script({ROUTE: [{"status": 500, "json": {}}, FOUND]})
    with pytest.raises(WikidataError) as ei:
        client_for(fresh_standin, tmp_path).search("a")
    assert ei.value.kind == "http" and len(fresh_standin.requests()) == 1
    fresh_standin.clear()
    fresh_standin.script({ROUTE: [{"status": 200, "json": {"search": []}, "delay": 1.0}, FOUND]})
    with pytest.raises(WikidataError) as ei:
        client_for(fresh_standin, tmp_path, timeout_s=0.3).search("b")
    assert ei.value.kind == "timeout" and len(fresh_standin.requests()) == 1
