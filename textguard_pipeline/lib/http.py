"""The one HTTP client: retries with backoff, ``Retry-After``, timeouts, bounded concurrency,
a rate limit, an on-disk response cache and a spending budget.

Every outbound JSON-over-HTTP call of the project goes through :class:`HttpClient`:

* **Deadlines**: an attempt ends by ``timeout_s`` and a request, retries and waits included, by
  ``deadline_s`` (:func:`default_deadline` for the LLM and NER clients), also against a server that sends its
  headers or body a byte at a time (:mod:`.deadline` bounds every socket operation); a retry whose wait would
  pass the deadline is not made.
* **Retries** on connection errors, timeouts, 5xx and 429, at most ``max_retries`` times, waiting
  ``backoff_s · 2^(n-1)`` (plus up to 25 % jitter) or the server's ``Retry-After`` (seconds or an
  HTTP date), whichever is longer, capped at ``max_retry_after_s``. Other 4xx answers are returned
  to the caller at once (retrying a bad request only costs money). A caller with a narrower contract
  names its retryable statuses (``retry_statuses``, e.g. 503/504 only: any other answer is returned
  to it) and whether connection errors and timeouts are retried (``retry_errors``).
* **Concurrency**: at most ``concurrency`` requests are on the wire at once (a semaphore around the
  send; waits and backoff sleeps hold no slot). ``requests_per_minute`` spaces requests evenly;
  ``tokens_per_minute`` is a token bucket (:class:`TokenRateLimiter`): a request names its estimated
  tokens (``request(..., tokens=n)``, from its characters) and waits until the bucket holds them; the
  caller corrects the bucket with the usage the answer reports (:meth:`HttpClient.settle_tokens`).
* **Cache** (:class:`~.cache.ResponseCache`): successful answers can be stored under ``cache_dir`` keyed by a
  SHA-256 of the whole request (method, URL, query, JSON body — not the headers, so an API key never reaches
  the disk and a key change does not void the cache; the URL stored beside the answer is redacted,
  :mod:`.redact`). The caller decides what is cacheable (:meth:`store` after it validated the answer), so a
  malformed answer is never replayed; :meth:`exclusive` sends identical requests in flight once.
* **Budget** (:class:`Budget`): callers reserve the estimated cost before a paid request; a request
  that would take the run past its limit is refused with :class:`HttpError` ``kind="budget"``.
* **Meter**: thread-safe counters (requests, cache hits, retries, seconds, and whatever the caller
  adds, e.g. tokens and cost).
"""

from __future__ import annotations

import email.utils
import json as jsonlib
import logging
import math
import random
import threading
import time
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, Callable, Iterator, Mapping

import httpx

from . import deadline as _deadline
from .cache import CacheUnwritable, ResponseCache
from .outage import outage_label
from .redact import redact, redact_url, register_url

log = logging.getLogger(__name__)

RETRY_KINDS = ("unreachable", "timeout", "http")


class HttpError(RuntimeError):
    """A request that failed for good; ``kind`` is unreachable | timeout | http | budget | too_large."""

    def __init__(
        self, kind: str, message: str, *, status: int | None = None, raw: str | None = None, attempts: int = 0
    ):
        self.kind = kind
        self.status = status
        self.raw = redact(raw) if raw else raw
        self.attempts = attempts
        super().__init__(redact(message))

    @property
    def outage(self) -> str | None:
        """outage | budget when the failure is the endpoint's, not the request's (see :mod:`.outage`)."""
        return outage_label(self.kind)


@dataclass(frozen=True)
class HttpConfig:
    timeout_s: float = 60.0
    max_retries: int = 2
    backoff_s: float = 0.5
    max_retry_after_s: float = 60.0
    concurrency: int = 4
    requests_per_minute: float = 0.0
    tokens_per_minute: float = 0.0  # 0: no token limit
    cache_dir: str | None = None  # None: no response cache
    retry_statuses: tuple[int, ...] | None = None  # None: every 5xx and 429
    retry_errors: bool = True  # retry connection errors and timeouts too
    max_response_bytes: int = 64 * 1024 * 1024  # a larger body is refused while it streams in
    deadline_s: float | None = None  # a request's total, waits included (None: only each attempt is bounded)

    def retries_status(self, status: int) -> bool:
        if self.retry_statuses is None:
            return status >= 500 or status == 429
        return status in self.retry_statuses


@dataclass
class HttpResponse:
    status: int
    text: str
    headers: dict[str, str] = field(default_factory=dict)
    from_cache: bool = False
    elapsed_s: float = 0.0
    attempts: int = 1
    source: str = ""  # the cache entry it was replayed from (named when the caller finds it unusable)

    def json(self) -> Any:
        return jsonlib.loads(self.text)


def default_deadline(timeout_s: float, max_retries: int) -> float:
    """A request's total deadline when none is set: as long as its attempts may take (waits count against it)."""
    return timeout_s * (max_retries + 1)


def parse_retry_after(value: str | None, now: float | None = None) -> float | None:
    """Seconds to wait from a ``Retry-After`` header (delta-seconds or an HTTP date); None if absent/invalid."""
    if value is None or not str(value).strip():
        return None
    value = str(value).strip()
    try:
        secs = float(value)
    except ValueError:
        try:
            when = email.utils.parsedate_to_datetime(value)
        except (TypeError, ValueError):
            return None
        if when is None:
            return None
        if when.tzinfo is None:
            when = when.replace(tzinfo=timezone.utc)
        now_dt = datetime.fromtimestamp(time.time() if now is None else now, tz=timezone.utc)
        return max(0.0, (when - now_dt).total_seconds())
    return max(0.0, secs) if math.isfinite(secs) else None


class Meter:
    """Thread-safe counters shared by everything that uses one client."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._counts: Counter[str] = Counter()

    def add(self, **amounts: float) -> None:
        with self._lock:
            for k, v in amounts.items():
                self._counts[k] += v

    def snapshot(self) -> dict[str, float]:
        with self._lock:
            return dict(self._counts)


class Budget:
    """A run's spending limit in money and/or tokens (None = unlimited).

    ``reserve`` holds the estimate of a request while it is in flight, so concurrent requests cannot
    overshoot together; ``commit`` replaces the estimate by what the answer actually cost.
    """

    def __init__(self, max_cost: float | None = None, max_tokens: int | None = None):
        self.max_cost = max_cost
        self.max_tokens = max_tokens
        self._lock = threading.Lock()
        self.spent_cost = 0.0
        self.spent_tokens = 0
        self._held_cost = 0.0
        self._held_tokens = 0

    @contextmanager
    def reserve(self, cost: float, tokens: int) -> Iterator["_Reservation"]:
        with self._lock:
            if self.max_cost is not None and self.spent_cost + self._held_cost + cost > self.max_cost:
                raise HttpError(
                    "budget",
                    f"budget: this request (≈ ${cost:.4f}) would take the run past "
                    f"TEXTGUARD_LLM_MAX_COST=${self.max_cost:g} (spent ${self.spent_cost:.4f})",
                )
            if self.max_tokens is not None and self.spent_tokens + self._held_tokens + tokens > self.max_tokens:
                raise HttpError(
                    "budget",
                    f"budget: this request (≈ {tokens} tokens) would take the run past "
                    f"{self.max_tokens} tokens (spent {self.spent_tokens})",
                )
            self._held_cost += cost
            self._held_tokens += tokens
        r = _Reservation()
        try:
            yield r
        finally:
            with self._lock:
                self._held_cost -= cost
                self._held_tokens -= tokens
                self.spent_cost += r.cost
                self.spent_tokens += r.tokens


class _Reservation:
    def __init__(self) -> None:
        self.cost = 0.0
        self.tokens = 0

    def commit(self, cost: float, tokens: int) -> None:
        self.cost, self.tokens = cost, tokens


class RateLimiter:
    """Spaces requests ``60 / rpm`` seconds apart (across threads); rpm ≤ 0 disables it."""

    def __init__(self, requests_per_minute: float):
        self.interval = 60.0 / requests_per_minute if requests_per_minute > 0 else 0.0
        self._lock = threading.Lock()
        self._next = 0.0

    def acquire(self) -> None:
        if not self.interval:
            return
        with self._lock:
            now = time.monotonic()
            start = max(now, self._next)
            self._next = start + self.interval
        if start > now:
            time.sleep(start - now)


class TokenRateLimiter:
    """A token bucket of ``tokens_per_minute`` (≤ 0 disables it), shared across threads.

    The bucket starts full and refills continuously. :meth:`acquire` takes a request's estimated tokens
    at once (the level may go negative, so concurrent callers queue behind each other) and sleeps until
    the level before taking covered them (a request larger than the whole bucket waits for a full
    bucket). :meth:`correct` puts back (or takes) the difference between the estimate and the usage the
    answer reported, so the next requests wait for what was really spent.
    """

    def __init__(
        self,
        tokens_per_minute: float,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ):
        self.rate = tokens_per_minute / 60.0 if tokens_per_minute > 0 else 0.0
        self.capacity = float(tokens_per_minute) if tokens_per_minute > 0 else 0.0
        self._clock, self._sleep = clock, sleep
        self._lock = threading.Lock()
        self._level = self.capacity
        self._t = clock()
        self.waited_s = 0.0

    def _refill(self) -> None:
        now = self._clock()
        self._level = min(self.capacity, self._level + (now - self._t) * self.rate)
        self._t = now

    def acquire(self, tokens: float) -> float:
        """Take ``tokens``; returns the seconds slept waiting for them."""
        if not self.rate or tokens <= 0:
            return 0.0
        with self._lock:
            self._refill()
            need = min(float(tokens), self.capacity)
            wait = max(0.0, (need - self._level) / self.rate)
            self._level -= tokens
            self.waited_s += wait
        if wait > 0:
            self._sleep(wait)
        return wait

    def correct(self, estimated: float, actual: float) -> None:
        """Replace an acquired estimate by the tokens the answer says it used."""
        if not self.rate or estimated == actual:
            return
        with self._lock:
            self._refill()
            self._level = min(self.capacity, self._level + estimated - actual)

    def level(self) -> float:
        with self._lock:
            self._refill()
            return self._level


class HttpClient:
    """Synchronous, thread-safe JSON HTTP client (see the module docstring)."""

    def __init__(
        self,
        config: HttpConfig | None = None,
        client: httpx.Client | None = None,
        meter: Meter | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ):
        self.config = config or HttpConfig()
        self._client = client or httpx.Client(timeout=self.config.timeout_s)
        if client is None and not _deadline.install(self._client):
            log.warning("this httpx cannot be given request deadlines: only httpx's per-read timeouts apply")
        self._slots = threading.BoundedSemaphore(max(1, self.config.concurrency))
        self._rate = RateLimiter(self.config.requests_per_minute)
        self.tokens = TokenRateLimiter(self.config.tokens_per_minute, sleep=sleep)
        self.cache = ResponseCache(self.config.cache_dir) if self.config.cache_dir else None
        self._cache_checked = False
        self.meter = meter or Meter()
        self._sleep = sleep

    def check_cache(self) -> None:
        """Once per client, before its first paid request: the cache directory is writable (HttpError ``config``)."""
        if self.cache is not None and not self._cache_checked:
            try:
                self.cache.check_writable()
            except CacheUnwritable as exc:
                raise HttpError("config", str(exc)) from None
            self._cache_checked = True

    @contextmanager
    def exclusive(
        self, method: str, url: str, *, json: Any = None, params: Mapping[str, Any] | None = None
    ) -> Iterator[None]:
        """De-duplicate an identical request in flight (threads and processes sharing the cache); a no-op
        without a cache. Inside, look the cache up again: the other request may have answered meanwhile."""
        if self.cache is None:
            yield
            return
        with self.cache.exclusive(ResponseCache.key(method, url, params, json)):
            yield

    def close(self) -> None:
        self._client.close()

    # -- cache -------------------------------------------------------------
    def cached(
        self, method: str, url: str, *, json: Any = None, params: Mapping[str, Any] | None = None
    ) -> HttpResponse | None:
        """The stored answer to this exact request, or None (also when the cache is off)."""
        if self.cache is None:
            return None
        key = ResponseCache.key(method, url, params, json)
        entry = self.cache.get(key)
        if entry is None:
            return None
        self.meter.add(cache_hits=1)
        return HttpResponse(
            entry["status"],
            entry["text"],
            dict(entry.get("headers") or {}),
            from_cache=True,
            attempts=0,
            source=str(self.cache.path(key)),
        )

    def store(
        self,
        method: str,
        url: str,
        response: HttpResponse,
        *,
        json: Any = None,
        params: Mapping[str, Any] | None = None,
    ) -> None:
        """Keep a validated answer for the next identical request."""
        if self.cache is None or response.from_cache:
            return
        ctype = {k: v for k, v in response.headers.items() if k.lower() == "content-type"}
        self.cache.put(
            ResponseCache.key(method, url, params, json),
            {
                "status": response.status,
                "text": response.text,
                "headers": ctype,
                "url": redact_url(url),
                "stored_at": time.time(),
            },
        )

    def settle_tokens(self, estimated: int, actual: int) -> None:
        """Correct the token bucket once the answer reported its usage (see :class:`TokenRateLimiter`)."""
        self.tokens.correct(estimated, actual)

    # -- requests ----------------------------------------------------------
    def wait_for(self, attempt: int, retry_after: float | None) -> float:
        """Seconds to sleep before retry number ``attempt`` (1-based)."""
        base = self.config.backoff_s * (2 ** (attempt - 1))
        base *= 1.0 + random.random() * 0.25  # jitter: concurrent callers do not retry in lockstep
        return min(max(base, retry_after or 0.0), self.config.max_retry_after_s)

    def request(
        self,
        method: str,
        url: str,
        *,
        json: Any = None,
        params: Mapping[str, Any] | None = None,
        headers: Mapping[str, str] | None = None,
        content: bytes | str | None = None,
        tokens: int = 0,
        max_bytes: int | None = None,
    ) -> HttpResponse:
        """Send with retries. Returns every answer that is not retryable (by default: < 500 other than
        429); raises :class:`HttpError` when the retries run out (kind unreachable | timeout | http).
        ``content`` is a raw body (give a Content-Type header), ``json`` a JSON one. ``tokens``: the
        request's estimated tokens for the tokens-per-minute limit (every attempt takes them again: a
        provider counts a rejected attempt too). A body over ``max_bytes`` (default
        ``config.max_response_bytes``) raises :class:`HttpError` ``too_large`` without being read whole."""
        cap = max_bytes or self.config.max_response_bytes
        last: HttpError | None = None
        retry_after: float | None = None
        body: dict[str, Any] = {"json": json} if content is None else {"content": content}
        register_url(url)  # its password is masked in every message from now on
        total = self.config.deadline_s if self.config.deadline_s is not None else math.inf
        ends: float | None = None  # the request's deadline, from its first attempt (queueing before is not counted)
        for attempt in range(self.config.max_retries + 1):
            if last is not None and last.kind != "http" and not self.config.retry_errors:
                break
            if attempt:
                wait = self.wait_for(attempt, retry_after)
                if ends is not None and time.monotonic() + wait >= ends:
                    last.args = (f"{last.args[0]}; no retry: the {total:g}s deadline of the request would pass",)
                    break
                self.meter.add(retries=1)
                self._sleep(wait)
            retry_after = None
            self._rate.acquire()
            if self.tokens.acquire(tokens):
                self.meter.add(token_waits=1)
            t0 = time.perf_counter()
            try:
                with self._slots:
                    now = time.monotonic()
                    ends = ends if ends is not None else now + total
                    if ends <= now:
                        raise httpx.ConnectTimeout("the request's deadline passed before this attempt")
                    req = self._client.build_request(method, url, params=params, headers=dict(headers or {}), **body)
                    with _deadline.scope(min(ends, now + self.config.timeout_s)):
                        r, text = self._receive(req, cap)
            except httpx.TimeoutException as exc:
                passed = time.monotonic() >= ends
                which = (
                    f"the {total:g}s deadline of the request"
                    if passed
                    else f"the {self.config.timeout_s:g}s per attempt"
                )
                last = HttpError(
                    "timeout", f"{method} {url}: timed out ({which}; {type(exc).__name__})", attempts=attempt + 1
                )
                if passed:
                    break
                continue
            except httpx.TransportError as exc:
                last = HttpError("unreachable", f"{method} {url}: {type(exc).__name__}: {exc}", attempts=attempt + 1)
                continue
            finally:
                self.meter.add(requests=1, seconds=time.perf_counter() - t0)
            if self.config.retries_status(r.status_code):
                retry_after = parse_retry_after(r.headers.get("Retry-After"))
                last = HttpError(
                    "http",
                    f"{method} {url} answered {r.status_code}",
                    status=r.status_code,
                    raw=text[:2000],
                    attempts=attempt + 1,
                )
                continue
            return HttpResponse(
                r.status_code, text, dict(r.headers), elapsed_s=time.perf_counter() - t0, attempts=attempt + 1
            )
        assert last is not None
        self.meter.add(failures=1)
        last.args = (f"{last.args[0]} (after {last.attempts} attempt(s))",)
        raise last

    def _receive(self, req: httpx.Request, cap: int) -> tuple[httpx.Response, str]:
        """Send and read the body in pieces, stopping as soon as it passes ``cap`` bytes (a declared
        Content-Length over the cap is refused before any of the body is read). The attempt's deadline bounds
        every read (:mod:`.deadline`); the check below is the same bound for a client given from outside."""
        deadline = time.monotonic() + self.config.timeout_s
        r = self._client.send(req, stream=True)
        try:
            declared = r.headers.get("Content-Length", "")
            if declared.isdigit() and int(declared) > cap:
                raise HttpError(
                    "too_large", f"{req.method} {req.url}: answer of {declared} bytes is over the cap of {cap}"
                )
            buf = bytearray()
            for piece in r.iter_bytes():
                if time.monotonic() > deadline:
                    raise httpx.ReadTimeout("the answer was still arriving at the attempt's deadline")
                buf += piece
                if len(buf) > cap:
                    raise HttpError("too_large", f"{req.method} {req.url}: answer over the cap of {cap} bytes, stopped")
            return r, bytes(buf).decode(r.encoding or "utf-8", errors="replace")
        finally:
            r.close()
