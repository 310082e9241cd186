"""OpenAI-compatible chat client (Ollama, vLLM, OpenRouter, ...) used by every LLM pass.

Built on the one HTTP client (:mod:`textguard_pipeline.lib.http`): retries with backoff and
``Retry-After``, timeouts, bounded concurrency, an optional on-disk response cache (keyed by the whole
request: model, messages, temperature, …), token and cost accounting and a run budget.

Configured by ``TEXTGUARD_LLM_*`` (see ``settings.LLMSettings``); :func:`llm_config_from_env` gives the
endpoint or None when ``TEXTGUARD_LLM_URL`` is unset.
"""

from __future__ import annotations

import json
import logging
import math
import re
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable

import httpx

from .. import settings as _settings
from .http import Budget, HttpClient, HttpConfig, HttpError, Meter, default_deadline
from .ledger import LedgerBudget
from .outage import Outage, outage_label
from .redact import redact, redact_url, register_secret, register_url


class LLMError(RuntimeError):
    """A failed LLM call; ``kind`` is unreachable | timeout | http | invalid_json | budget."""

    def __init__(self, kind: str, message: str, raw: str | None = None):
        self.kind = kind
        self.raw = redact(raw) if raw else raw
        super().__init__(redact(f"LLM {kind}: {message}"))

    @property
    def outage(self) -> str | None:
        """outage | budget when the endpoint failed, not the answer (see :mod:`.outage`)."""
        return outage_label(self.kind)


@dataclass(frozen=True)
class LLMConfig:
    base_url: str
    model: str = "default"
    api_key: str | None = field(default=None, repr=False)
    timeout_s: float = 60.0
    max_retries: int = 2
    backoff_s: float = 0.5
    max_retry_after_s: float = 60.0
    concurrency: int = 4
    requests_per_minute: float = 0.0
    tokens_per_minute: float = 0.0
    cache_dir: str | None = None  # None: every request goes to the endpoint
    deadline_s: float | None = None  # a request's total, retries and waits included; None: default_deadline
    price_in_per_1k: float = 0.0
    price_out_per_1k: float = 0.0
    max_cost: float | None = None
    max_tokens_total: int | None = None
    max_cost_per_day: float | None = None
    ledger_path: str | None = None  # the shared ledger (lib/ledger.py); None: this client's own budget

    def __post_init__(self) -> None:
        # masked in every message of this process from now on (an endpoint may echo the key back)
        register_secret(self.api_key)
        register_url(self.base_url)

    @property
    def label(self) -> str:
        return f"{self.model}@{redact_url(self.base_url)}"

    @classmethod
    def from_settings(cls, s: "_settings.LLMSettings", *, use_cache: bool = False) -> "LLMConfig | None":
        """The endpoint of ``s`` (None when no URL is set). The response cache is used only when the caller
        asks for it (``use_cache``) and ``TEXTGUARD_LLM_CACHE`` is on."""
        if not s.url:
            return None
        return cls(
            base_url=s.url,
            model=s.model,
            api_key=s.api_key,
            timeout_s=s.timeout_s,
            max_retries=s.max_retries,
            backoff_s=s.backoff_s,
            max_retry_after_s=s.max_retry_after_s,
            concurrency=s.concurrency,
            requests_per_minute=s.requests_per_minute,
            tokens_per_minute=s.tokens_per_minute,
            cache_dir=s.cache_dir if (use_cache and s.cache) else None,
            price_in_per_1k=s.price_in_per_1k,
            price_out_per_1k=s.price_out_per_1k,
            max_cost=s.max_cost,
            max_tokens_total=s.max_tokens_total,
            max_cost_per_day=s.max_cost_per_day,
            ledger_path=s.ledger_path or None,
        )

    def cost(self, prompt_tokens: int, completion_tokens: int) -> float:
        return prompt_tokens / 1000 * self.price_in_per_1k + completion_tokens / 1000 * self.price_out_per_1k


def llm_config_from_env(env: dict[str, str] | None = None) -> LLMConfig | None:
    """The configured endpoint, or None when ``TEXTGUARD_LLM_URL`` is unset (no response cache)."""
    return LLMConfig.from_settings(_settings.llm_settings(env))


log = logging.getLogger(__name__)

_FENCE = re.compile(r"^\s*```(?:json)?\s*(.*?)\s*```\s*$", re.S)


def parse_json_content(content: str) -> Any:
    """JSON from a model reply, tolerating a Markdown code fence around it."""
    m = _FENCE.match(content)
    text = m.group(1) if m else content
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise LLMError("invalid_json", f"{exc.msg} at {exc.pos}", raw=content[:2000]) from None


def estimate_tokens(text: str) -> int:
    """A rough token count (≈ 4 characters a token) for budgets and answers without ``usage``."""
    return max(1, math.ceil(len(text) / 4))


@dataclass(frozen=True)
class ChatResult:
    """One chat completion: the text and what it cost."""

    content: str
    finish_reason: str | None = None
    refusal: str | None = None
    prompt_tokens: int = 0
    completion_tokens: int = 0
    usage_estimated: bool = False
    latency_s: float = 0.0
    cached: bool = False
    model: str = ""
    cost: float = 0.0


class UsageTally:
    """Thread-safe usage of one pass (e.g. Stage A of a document): what was paid and what the cache replayed.

    ``prompt_tokens`` / ``completion_tokens`` / ``cost_usd`` / ``requests`` count answers from the
    endpoint in this run; ``cached_*`` count answers the response cache replayed (paid in an earlier
    run: they cost nothing now).
    """

    KEYS = (
        "requests",
        "cache_hits",
        "prompt_tokens",
        "completion_tokens",
        "cost_usd",
        "cached_prompt_tokens",
        "cached_completion_tokens",
    )

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._c: dict[str, float] = dict.fromkeys(self.KEYS, 0)

    def add(self, r: "ChatResult") -> None:
        with self._lock:
            if r.cached:
                self._c["cache_hits"] += 1
                self._c["cached_prompt_tokens"] += r.prompt_tokens
                self._c["cached_completion_tokens"] += r.completion_tokens
            else:
                self._c["requests"] += 1
                self._c["prompt_tokens"] += r.prompt_tokens
                self._c["completion_tokens"] += r.completion_tokens
                self._c["cost_usd"] += r.cost

    def merge(self, other: "UsageTally | dict[str, float]") -> None:
        d = other.as_dict() if isinstance(other, UsageTally) else other
        with self._lock:
            for k in self.KEYS:
                self._c[k] += d.get(k, 0) or 0

    def as_dict(self) -> dict[str, float]:
        with self._lock:
            d = dict(self._c)
        d["cost_usd"] = round(d["cost_usd"], 6)
        return {k: (v if k == "cost_usd" else int(v)) for k, v in d.items()}


class ChatClient:
    """Thread-safe chat-completions client (one per run; share it across threads)."""

    def __init__(
        self,
        config: LLMConfig,
        client: httpx.Client | None = None,
        *,
        meter: Meter | None = None,
        budget: Budget | None = None,
    ):
        self.config = config
        http_cfg = HttpConfig(
            timeout_s=config.timeout_s,
            max_retries=config.max_retries,
            backoff_s=config.backoff_s,
            max_retry_after_s=config.max_retry_after_s,
            concurrency=config.concurrency,
            requests_per_minute=config.requests_per_minute,
            tokens_per_minute=config.tokens_per_minute,
            cache_dir=config.cache_dir,
            deadline_s=config.deadline_s or default_deadline(config.timeout_s, config.max_retries),
        )
        self.http = HttpClient(http_cfg, client=client, meter=meter)
        if budget is None and config.ledger_path:
            budget = LedgerBudget(config.ledger_path, config.max_cost, config.max_tokens_total, config.max_cost_per_day)
        self.budget = budget or Budget(config.max_cost, config.max_tokens_total)

    @property
    def meter(self) -> Meter:
        return self.http.meter

    def close(self) -> None:
        self.http.close()

    def usage(self) -> dict[str, float]:
        """Requests sent, cache hits, retries, tokens and cost so far (cached answers cost nothing)."""
        snap = self.meter.snapshot()
        keys = (
            "requests",
            "cache_hits",
            "retries",
            "failures",
            "completions",
            "prompt_tokens",
            "completion_tokens",
            "cost_usd",
            "seconds",
        )
        return {k: snap.get(k, 0) for k in keys}

    def _body(
        self, messages: list[dict[str, str]], json_mode: bool, temperature: float, max_tokens: int | None
    ) -> dict[str, Any]:
        body: dict[str, Any] = {"model": self.config.model, "messages": messages, "temperature": temperature}
        if json_mode:
            body["response_format"] = {"type": "json_object"}
        if max_tokens:
            body["max_tokens"] = max_tokens
        return body

    def complete(
        self,
        messages: list[dict[str, str]],
        *,
        json_mode: bool = False,
        temperature: float = 0.0,
        max_tokens: int | None = None,
        keep: Callable[[ChatResult], bool] | None = None,
        max_response_bytes: int | None = None,
    ) -> ChatResult:
        """One completion (from the cache when this exact request was answered before).

        ``keep``: the caller's audit; an answer is stored only when it returns True, and a stored answer
        it rejects is a miss (so a bad answer never poisons later runs). ``max_response_bytes``: a larger
        answer is refused while it streams in (LLMError ``too_large``), never read whole."""
        body = self._body(messages, json_mode, temperature, max_tokens)
        url = f"{self.config.base_url}/chat/completions"
        t0 = time.perf_counter()
        replay = self._replay(url, body, messages, t0, keep)
        if replay is not None:
            return replay
        # An identical request in flight here or in another process (same cache) is waited for, not paid twice.
        with self.http.exclusive("POST", url, json=body):
            replay = self._replay(url, body, messages, t0, keep)
            if replay is not None:
                return replay
            return self._ask(url, body, messages, t0, keep, max_tokens, max_response_bytes)

    def _replay(
        self, url: str, body: dict[str, Any], messages: list[dict[str, str]], t0: float, keep: Any
    ) -> ChatResult | None:
        """The cached answer to this request when there is one the caller keeps, else None (a miss)."""
        hit = self.http.cached("POST", url, json=body)
        if hit is None:
            return None
        try:
            replay = self._result(hit.text, messages, time.perf_counter() - t0, cached=True)
        except LLMError:
            log.warning("response cache entry %s is not a chat completion: treated as a miss", hit.source)
            return None
        return replay if keep is None or keep(replay) else None

    def _ask(
        self,
        url: str,
        body: dict[str, Any],
        messages: list[dict[str, str]],
        t0: float,
        keep: Any,
        max_tokens: int | None,
        max_response_bytes: int | None,
    ) -> ChatResult:
        """Send the request (budget reserved first) and store an answer the caller keeps."""
        prompt_est = estimate_tokens(json.dumps(messages, ensure_ascii=False))
        completion_est = max_tokens or prompt_est
        # the rate limit counts what the provider counts before answering: the prompt and the max_tokens asked
        rate_est = prompt_est + (max_tokens or 0)
        headers = {"Authorization": f"Bearer {self.config.api_key}"} if self.config.api_key else {}
        try:
            self.http.check_cache()  # an unwritable cache is found before anything is paid, not after
            with self.budget.reserve(self.config.cost(prompt_est, completion_est), prompt_est + completion_est) as res:
                r = self.http.request(
                    "POST", url, json=body, headers=headers, tokens=rate_est, max_bytes=max_response_bytes
                )
                if r.status >= 400:
                    self.http.settle_tokens(rate_est, prompt_est)
                    raise LLMError("http", f"{url} answered {r.status}", raw=r.text[:2000])
                out = self._result(r.text, messages, time.perf_counter() - t0, cached=False)
                self.http.settle_tokens(rate_est, out.prompt_tokens + out.completion_tokens)
                res.commit(out.cost, out.prompt_tokens + out.completion_tokens)
        except HttpError as exc:
            raise LLMError(exc.kind, str(exc), raw=exc.raw) from None
        if keep is None or keep(out):
            self.http.store("POST", url, r, json=body)
        self.meter.add(
            completions=1, prompt_tokens=out.prompt_tokens, completion_tokens=out.completion_tokens, cost_usd=out.cost
        )
        return out

    def _result(self, text: str, messages: list[dict[str, str]], latency: float, cached: bool) -> ChatResult:
        try:
            data = json.loads(text)
            choice = data["choices"][0]
            msg = choice["message"]
            content = msg.get("content") or ""
        except (ValueError, KeyError, IndexError, TypeError, AttributeError):
            raise LLMError("invalid_json", "response is not a chat completion", raw=text[:2000]) from None
        usage = data.get("usage") if isinstance(data.get("usage"), dict) else {}
        pt, ct = usage.get("prompt_tokens"), usage.get("completion_tokens")
        # absent, negative, NaN or not a count: the endpoint's word is not taken (it would disable the budget)
        estimated = not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in (pt, ct))
        if estimated:
            pt = estimate_tokens(json.dumps(messages, ensure_ascii=False))
            ct = estimate_tokens(content) if content else 0
        cost = 0.0 if cached else self.config.cost(pt, ct)
        return ChatResult(
            content=content,
            finish_reason=choice.get("finish_reason"),
            refusal=msg.get("refusal"),
            prompt_tokens=pt,
            completion_tokens=ct,
            usage_estimated=estimated,
            latency_s=latency,
            cached=cached,
            model=str(data.get("model") or self.config.model),
            cost=cost,
        )

    def chat(
        self,
        messages: list[dict[str, str]],
        *,
        json_mode: bool = True,
        temperature: float = 0.0,
        max_tokens: int | None = None,
    ) -> str:
        return self.complete(messages, json_mode=json_mode, temperature=temperature, max_tokens=max_tokens).content

    def chat_json(self, messages: list[dict[str, str]], **kwargs: Any) -> Any:
        return parse_json_content(self.chat(messages, json_mode=True, **kwargs))


class StrictChatClient(ChatClient):
    """A ChatClient for passes that have a local fallback: an endpoint failure (outage, budget, configuration)
    is raised as :class:`~textguard_pipeline.lib.outage.Outage`, which the passes' ``except LLMError`` does not
    catch, so the document fails (and keeps its last good output) instead of falling back under a green report.
    A bad answer is still an LLMError, handled by the pass."""

    def complete(self, *args: Any, **kwargs: Any) -> ChatResult:
        try:
            return super().complete(*args, **kwargs)
        except LLMError as exc:
            if exc.outage:
                raise Outage(str(exc), exc.outage) from exc
            raise
