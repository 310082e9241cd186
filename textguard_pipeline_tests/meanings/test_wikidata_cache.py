"""The Wikidata cache is the shared JSON cache (lib/cache.py), as the LLM response cache: an entry of the wrong
shape is a miss named in a warning, and identical lookups in flight, in threads or processes, are sent once."""

import json
import logging
import multiprocessing
from concurrent.futures import ThreadPoolExecutor

import pytest

from textguard_pipeline.meanings.wikidata import WikidataCache, WikidataClient, WikidataConfig

ROUTE = "GET /w/api.php"
REPLY = {"status": 200, "json": {"search": [{"id": "Q42", "label": "Douglas Adams", "description": "writer"}]}}


def _client(base_url: str, cache_dir: str) -> WikidataClient:
    return WikidataClient(WikidataConfig(base_url=base_url, mode="online", cache_dir=cache_dir, timeout_s=10.0))


@pytest.mark.parametrize(
    "entry",
    [
        [1, 2],
        {"fetched_at": "yesterday", "results": []},
        {"fetched_at": 1e18, "results": "Q42"},
        {"fetched_at": 1e18, "results": [{"meaning_id": "wikidata:Q1"}]},
        {"fetched_at": 1e18, "results": [{"meaning_id": 1, "label": "x", "description": "y"}]},
    ],
)
def test_a_wikidata_cache_entry_of_the_wrong_shape_is_a_miss_named_in_a_warning(fresh_standin, tmp_path, caplog, entry):
    fresh_standin.script({ROUTE: [REPLY]})
    key = WikidataCache.key("Douglas Adams", None, "en")
    path = tmp_path / key[:2] / f"{key}.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(entry), encoding="utf-8")
    with caplog.at_level(logging.WARNING):
        found = _client(fresh_standin.base_url, str(tmp_path)).search("Douglas Adams")
    assert [c.meaning_id for c in found] == ["wikidata:Q42"] and len(fresh_standin.requests()) == 1
    assert f"Wikidata cache entry {path}" in caplog.text and "treated as a miss" in caplog.text
    assert json.loads(path.read_text())["results"][0]["meaning_id"] == "wikidata:Q42"  # replaced


def _search(base_url: str, cache_dir: str) -> str:
    return _client(base_url, cache_dir).search("Douglas Adams")[0].meaning_id


def test_identical_wikidata_lookups_in_flight_are_sent_once_across_threads_and_processes(fresh_standin, tmp_path):
    fresh_standin.script({ROUTE: [{**REPLY, "delay": 1.0}]})
    args = (fresh_standin.base_url, str(tmp_path))
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        others = pool.starmap_async(_search, [args] * 2)
        with ThreadPoolExecutor(3) as threads:
            mine = list(threads.map(lambda _: _search(*args), range(3)))
        found = mine + others.get(timeout=120)
    assert found == ["wikidata:Q42"] * 5 and len(fresh_standin.requests()) == 1
