import json
import os
import time

import pytest

from textguard_pipeline.core.wikidata import (
    WikidataCache,
    WikidataClient,
    WikidataConfig,
    WikidataError,
    wikidata_config_from_env,
)

ROUTE = "GET /w/api.php"


def search_reply(*items):
    return {
        "status": 200,
        "json": {
            "searchinfo": {"search": "x"},
            "search": [{"id": qid, "label": label, "description": desc} for qid, label, desc in items],
        },
    }


def client_for(standin, tmp_path, **kw):
    cfg = WikidataConfig(
        base_url=standin.base_url,
        mode=kw.pop("mode", "online"),
        cache_dir=str(tmp_path / "cache"),
        timeout_s=kw.pop("timeout_s", 2.0),
        **kw,
    )
    return WikidataClient(cfg)


def test_search_then_cache_hit_without_second_request(fresh_standin, tmp_path):
    fresh_standin.script(
        {
            ROUTE: [
                search_reply(
                    ("Q43115", "Athanasius of Alexandria", "bishop of Alexandria"), ("P31", "instance of", "a property")
                )
            ]
        }
    )
    c = client_for(fresh_standin, tmp_path)
    first = c.search("Athanasius")
    assert [x.meaning_id for x in first] == ["wikidata:Q43115"]  # properties are not meanings
    assert first[0].description == "bishop of Alexandria"
    (req,) = fresh_standin.requests()
    assert req["query"]["action"] == "wbsearchentities" and req["query"]["search"] == "Athanasius"
    # A second client on the same cache dir: served from disk, no request.
    again = client_for(fresh_standin, tmp_path).search("Athanasius")
    assert again == first
    assert len(fresh_standin.requests()) == 1
    # A different type is a different key → a request.
    fresh_standin.script(
        {ROUTE: [search_reply(("Q1", "x", "y")), {"status": 200, "json": {"entities": {"Q1": {"claims": {}}}}}]}
    )
    assert c.search("Athanasius", type="person") == []
    assert len(fresh_standin.requests()) == 3


def test_ttl_expiry_refetches(fresh_standin, tmp_path):
    fresh_standin.script({ROUTE: [search_reply(("Q1", "one", "first")), search_reply(("Q2", "two", "second"))]})
    c = client_for(fresh_standin, tmp_path, ttl_s=3600)
    assert c.search("term")[0].meaning_id == "wikidata:Q1"
    key = WikidataCache.key("term", None, "en")
    path = tmp_path / "cache" / key[:2] / f"{key}.json"
    entry = json.loads(path.read_text())
    entry["fetched_at"] = time.time() - 7200
    path.write_text(json.dumps(entry))
    assert c.search("term")[0].meaning_id == "wikidata:Q2"
    assert len(fresh_standin.requests()) == 2
    # cache_only serves what is cached (even stale) and never calls out
    stale = client_for(fresh_standin, tmp_path, mode="cache_only", ttl_s=0)
    assert stale.search("term")[0].meaning_id == "wikidata:Q2"
    assert stale.search("unknown term") == []
    assert len(fresh_standin.requests()) == 2


def test_person_filter_uses_p31_human(fresh_standin, tmp_path):
    claims = {
        "Q9068": {"claims": {"P31": [{"mainsnak": {"datavalue": {"value": {"id": "Q5"}}}}]}},
        "Q123": {"claims": {"P31": [{"mainsnak": {"datavalue": {"value": {"id": "Q571"}}}}]}},
    }
    fresh_standin.script(
        {
            ROUTE: [
                search_reply(("Q9068", "Voltaire", "French writer"), ("Q123", "Voltaire", "a book")),
                {"status": 200, "json": {"entities": claims}},
            ]
        }
    )
    got = client_for(fresh_standin, tmp_path).search("Voltaire", type="person")
    assert [x.meaning_id for x in got] == ["wikidata:Q9068"]
    reqs = fresh_standin.requests()
    assert [r["query"]["action"] for r in reqs] == ["wbsearchentities", "wbgetentities"]
    assert reqs[1]["query"]["ids"] == "Q9068|Q123"


def test_invalid_json_timeout_http_and_nothing_cached(fresh_standin, tmp_path):
    c = client_for(fresh_standin, tmp_path, timeout_s=0.3)
    fresh_standin.script({ROUTE: [{"status": 200, "body": "<html>oops</html>", "content_type": "text/html"}]})
    with pytest.raises(WikidataError) as ei:
        c.search("a")
    assert ei.value.kind == "invalid_json"
    fresh_standin.script({ROUTE: [{"status": 200, "json": {"nothing": 1}}]})
    with pytest.raises(WikidataError) as ei:
        c.search("a")
    assert ei.value.kind == "invalid_json"
    fresh_standin.script({ROUTE: [{"status": 200, "json": {"search": []}, "delay": 1.0}]})
    with pytest.raises(WikidataError) as ei:
        c.search("a")
    assert ei.value.kind == "timeout"
    fresh_standin.script({ROUTE: [{"status": 500, "json": {}}]})
    with pytest.raises(WikidataError) as ei:
        c.search("a")
    assert ei.value.kind == "http"
    assert not list((tmp_path / "cache").rglob("*.json"))  # failures are never cached


def test_unreachable_and_off_mode(tmp_path):
    c = WikidataClient(
        WikidataConfig(base_url="http://127.0.0.1:9", mode="online", cache_dir=str(tmp_path), timeout_s=1)
    )
    with pytest.raises(WikidataError) as ei:
        c.search("x")
    assert ei.value.kind == "unreachable"
    off = WikidataClient(WikidataConfig(base_url="http://127.0.0.1:9", mode="off", cache_dir=str(tmp_path)))
    assert off.search("x") == [] and off.requests_made == 0


def test_config_from_env(tmp_path):
    assert wikidata_config_from_env({}).mode == "off"
    cfg = wikidata_config_from_env({"TEXTGUARD_WIKIDATA_URL": "http://h:1", "TEXTGUARD_WIKIDATA_CACHE": str(tmp_path)})
    assert cfg.mode == "online" and cfg.api_url == "http://h:1/w/api.php" and cfg.cache_dir == str(tmp_path)
    assert (
        wikidata_config_from_env({"TEXTGUARD_WIKIDATA_URL": "http://h", "TEXTGUARD_WIKIDATA_OFFLINE": "1"}).mode
        == "cache_only"
    )
    with pytest.raises(ValueError):
        WikidataConfig(mode="sometimes")
    assert os.path.basename(wikidata_config_from_env({}).cache_dir) == "wikidata_cache"
