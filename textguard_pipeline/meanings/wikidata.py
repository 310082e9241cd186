"""Wikidata candidates: a client of ``wbsearchentities`` (on the one HTTP client) with an on-disk cache.

Offline first. The mode is one of

* ``off``        — no lookups at all (the default when ``TEXTGUARD_WIKIDATA_URL`` is unset);
* ``cache_only`` — answers come from the on-disk cache only (stale entries too), never the network;
* ``online``     — cache first (fresh entries within the TTL), else the API, then cached.

The cache holds one JSON file per ``(query, type, language)`` key (:mod:`textguard_pipeline.lib.cache`, as
the LLM response cache: written atomically, an entry of the wrong shape is a miss named in a warning, and an
identical lookup in flight in this or another process is waited for, not sent twice). ``type="person"`` keeps only items that are instances of human
(P31 = Q5), checked with one ``wbgetentities`` call (cached under the same key).
Requests go through :mod:`textguard_pipeline.lib.http`: a 429 or 503 is retried (at most
``max_retries`` times) after the server's ``Retry-After`` or the backoff, whichever is longer;
every other failure is final at once. Failures raise :class:`WikidataError` with ``kind``
unreachable | timeout | http | invalid_json.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from ..lib.cache import JsonCache
from ..lib.http import HttpClient, HttpConfig, HttpError
from ..settings import WikidataSettings, default_wikidata_cache_dir

MODES = ("off", "cache_only", "online")
DEFAULT_URL = "https://www.wikidata.org"
DEFAULT_TTL_S = 30 * 24 * 3600
HUMAN = "Q5"
RETRY_STATUSES = (429, 503)  # "slow down" / "try later": the only answers worth another request
USER_AGENT = "textguard_pipeline/0.1 (meanings)"


class WikidataError(RuntimeError):
    """A failed Wikidata call; ``kind`` is unreachable | timeout | http | invalid_json."""

    def __init__(self, kind: str, message: str):
        self.kind = kind
        super().__init__(f"Wikidata {kind}: {message}")


@dataclass(frozen=True)
class WikidataCandidate:
    meaning_id: str  # "wikidata:Q43115"
    label: str
    description: str

    @property
    def qid(self) -> str:
        return self.meaning_id.split(":", 1)[1]


@dataclass(frozen=True)
class WikidataConfig:
    base_url: str = DEFAULT_URL
    mode: str = "off"
    cache_dir: str | None = None
    ttl_s: float = DEFAULT_TTL_S
    timeout_s: float = 10.0
    language: str = "en"
    limit: int = 8
    max_retries: int = 2  # of a 429 / 503 answer
    backoff_s: float = 1.0
    max_retry_after_s: float = 60.0

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise ValueError(f"wikidata mode {self.mode!r} is not one of {MODES}")

    @property
    def api_url(self) -> str:
        base = self.base_url.rstrip("/")
        return base if base.endswith("/api.php") else f"{base}/w/api.php"

    @property
    def label(self) -> str:
        return f"wikidata:{self.mode}" + (f"@{self.base_url}" if self.mode == "online" else "")


def default_cache_dir() -> str:
    return default_wikidata_cache_dir()


def wikidata_config_from_env(env: dict[str, str] | None = None) -> WikidataConfig:
    """The configuration of :class:`textguard_pipeline.settings.WikidataSettings` (read there)."""
    wd = WikidataSettings.from_env(env)
    return WikidataConfig(base_url=wd.base_url, mode=wd.mode, cache_dir=wd.cache_dir, ttl_s=wd.ttl_s)


_CANDIDATE_FIELDS = ("meaning_id", "label", "description")


def _entry_shape(entry: dict[str, Any]) -> str | None:
    fetched, results = entry.get("fetched_at"), entry.get("results")
    if not isinstance(fetched, (int, float)) or isinstance(fetched, bool):
        return "without a numeric 'fetched_at'"
    if not isinstance(results, list) or not all(
        isinstance(r, dict) and set(r) == set(_CANDIDATE_FIELDS) and all(isinstance(r[f], str) for f in r)
        for r in results
    ):
        return "without a 'results' list of {meaning_id, label, description} strings"
    return None


class WikidataCache(JsonCache):
    """One JSON file per ``(query, type, language)`` (:class:`~textguard_pipeline.lib.cache.JsonCache`: atomic
    writes, an entry of the wrong shape is a named miss, a lock per key); the TTL is checked on read."""

    def __init__(self, root: str | os.PathLike[str]):
        super().__init__(root, "Wikidata cache", "TEXTGUARD_WIKIDATA_CACHE", _entry_shape)

    @property
    def root(self) -> Path:
        return self.dir

    @staticmethod
    def key(query: str, type_: str | None, language: str) -> str:
        raw = json.dumps([query, type_ or "", language], ensure_ascii=False)
        return hashlib.sha256(raw.encode("utf-8")).hexdigest()

    def results(self, key: str, ttl_s: float | None) -> list[dict[str, Any]] | None:
        """Cached results, or None when absent, unusable or older than ``ttl_s`` (None = any age)."""
        entry = self.get(key)
        if entry is None or (ttl_s is not None and time.time() - float(entry["fetched_at"]) > ttl_s):
            return None
        return entry["results"]

    def store(self, key: str, query: str, type_: str | None, results: list[dict[str, Any]]) -> None:
        self.put(key, {"query": query, "type": type_, "fetched_at": time.time(), "results": results})


class WikidataClient:
    """``search(query, type=None)`` → candidates, honouring the mode and the cache."""

    def __init__(self, config: WikidataConfig, client: HttpClient | None = None):
        self.config = config
        self.cache = WikidataCache(config.cache_dir) if config.cache_dir else None
        self._client = client  # built at the first request: an offline run never opens one
        self.requests_made = 0

    @property
    def enabled(self) -> bool:
        return self.config.mode != "off"

    def close(self) -> None:
        if self._client is not None:
            self._client.close()

    def search(self, query: str, type: str | None = None) -> list[WikidataCandidate]:  # noqa: A002
        query = " ".join(query.split())
        if not query or self.config.mode == "off":
            return []
        key = WikidataCache.key(query, type, self.config.language)
        hit = self._cached(key)
        if hit is not None or self.config.mode == "cache_only":
            return hit or []
        if self.cache is None:
            return self._lookup(query, type)
        # an identical lookup in flight here or in another process (same cache) is waited for, not sent twice
        with self.cache.exclusive(key):
            hit = self._cached(key)
            if hit is not None:
                return hit
            found = self._lookup(query, type)
            self.cache.store(key, query, type, [asdict(c) for c in found])
        return found

    def _cached(self, key: str) -> list[WikidataCandidate] | None:
        if self.cache is None:
            return None
        # cache_only serves stale entries: they are all there is.
        ttl = None if self.config.mode == "cache_only" else self.config.ttl_s
        hit = self.cache.results(key, ttl)
        return None if hit is None else [WikidataCandidate(**r) for r in hit]

    def _lookup(self, query: str, type: str | None) -> list[WikidataCandidate]:  # noqa: A002
        found = self._search_api(query)
        if type == "person" and found:
            humans = self._humans([c.qid for c in found])
            found = [c for c in found if c.qid in humans]
        return found

    # -- HTTP -------------------------------------------------------------

    @property
    def http(self) -> HttpClient:
        if self._client is None:
            c = self.config
            self._client = HttpClient(
                HttpConfig(
                    timeout_s=c.timeout_s,
                    max_retries=c.max_retries,
                    backoff_s=c.backoff_s,
                    max_retry_after_s=c.max_retry_after_s,
                    retry_statuses=RETRY_STATUSES,
                    retry_errors=False,
                )
            )
        return self._client

    def _get(self, params: dict[str, Any]) -> dict[str, Any]:
        url = self.config.api_url
        self.requests_made += 1
        try:
            r = self.http.request("GET", url, params={**params, "format": "json"}, headers={"User-Agent": USER_AGENT})
        except HttpError as exc:
            kind = exc.kind if exc.kind in ("timeout", "unreachable") else "http"
            raise WikidataError(kind, f"{url}: {exc}") from None
        if r.status >= 400:
            raise WikidataError("http", f"{url} answered {r.status}")
        try:
            data = r.json()
        except ValueError:
            raise WikidataError("invalid_json", f"{url} answered non-JSON: {r.text[:120]!r}") from None
        if not isinstance(data, dict):
            raise WikidataError("invalid_json", f"{url} answered {type(data).__name__}, not an object")
        if "error" in data:
            raise WikidataError("http", f"{url} API error: {str(data['error'])[:200]}")
        return data

    def _search_api(self, query: str) -> list[WikidataCandidate]:
        data = self._get(
            {
                "action": "wbsearchentities",
                "search": query,
                "language": self.config.language,
                "uselang": self.config.language,
                "type": "item",
                "limit": self.config.limit,
            }
        )
        hits = data.get("search")
        if not isinstance(hits, list):
            raise WikidataError("invalid_json", "wbsearchentities reply has no 'search' list")
        out = []
        for h in hits:
            qid = h.get("id") if isinstance(h, dict) else None
            if not isinstance(qid, str) or not qid.startswith("Q"):
                continue
            out.append(
                WikidataCandidate(f"wikidata:{qid}", str(h.get("label") or query), str(h.get("description") or ""))
            )
        return out

    def _humans(self, qids: list[str]) -> set[str]:
        data = self._get({"action": "wbgetentities", "ids": "|".join(qids), "props": "claims"})
        entities = data.get("entities")
        if not isinstance(entities, dict):
            raise WikidataError("invalid_json", "wbgetentities reply has no 'entities' object")
        humans = set()
        for qid, ent in entities.items():
            for claim in (ent or {}).get("claims", {}).get("P31", []) or []:
                value = (((claim or {}).get("mainsnak") or {}).get("datavalue") or {}).get("value") or {}
                if isinstance(value, dict) and value.get("id") == HUMAN:
                    humans.add(qid)
        return humans
