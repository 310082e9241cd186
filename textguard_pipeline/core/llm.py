"""OpenAI-compatible chat client (Ollama, vLLM, OpenRouter, ...) used by every LLM pass.

Configured by ``TEXTGUARD_LLM_URL`` (base URL ending in ``/v1``),
``TEXTGUARD_LLM_MODEL`` and, optionally, the API key in the env var named by
``TEXTGUARD_LLM_API_KEY_ENV`` (default ``TEXTGUARD_LLM_API_KEY``).
"""

from __future__ import annotations

import json
import os
import re
import threading
import time
from dataclasses import dataclass
from typing import Any

import httpx


class LLMError(RuntimeError):
    """A failed LLM call; ``kind`` is unreachable | timeout | http | invalid_json."""

    def __init__(self, kind: str, message: str, raw: str | None = None):
        self.kind = kind
        self.raw = raw
        self.status: int | None = None  # the endpoint's HTTP status, when it answered
        super().__init__(f"LLM {kind}: {message}")


@dataclass(frozen=True)
class LLMConfig:
    base_url: str
    model: str = "default"
    api_key: str | None = None
    timeout_s: float = 60.0
    max_retries: int = 2
    backoff_s: float = 0.5

    @property
    def label(self) -> str:
        return f"{self.model}@{self.base_url}"


def llm_config_from_env(env: dict[str, str] | None = None) -> LLMConfig | None:
    """The configured endpoint, or None when ``TEXTGUARD_LLM_URL`` is unset."""
    env = dict(os.environ if env is None else env)
    url = env.get("TEXTGUARD_LLM_URL", "").strip()
    if not url:
        return None
    key_env = env.get("TEXTGUARD_LLM_API_KEY_ENV", "TEXTGUARD_LLM_API_KEY")
    return LLMConfig(
        base_url=url.rstrip("/"),
        model=env.get("TEXTGUARD_LLM_MODEL", "default"),
        api_key=env.get(key_env) or None,
        timeout_s=float(env.get("TEXTGUARD_LLM_TIMEOUT_S", "60")),
    )


_FENCE = re.compile(r"^\s*```(?:json)?\s*(.*?)\s*```\s*$", re.S)


def parse_json_content(content: str) -> Any:
    """JSON from a model reply, tolerating a Markdown code fence around it."""
    m = _FENCE.match(content)
    text = m.group(1) if m else content
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise LLMError("invalid_json", f"{exc.msg} at {exc.pos}", raw=content[:2000]) from None


class ChatClient:
    """Synchronous chat-completions client with bounded retries on transient errors."""

    #: Longest wait a ``Retry-After`` header may impose before the next attempt (seconds).
    MAX_RETRY_AFTER_S = 30.0

    def __init__(self, config: LLMConfig, client: httpx.Client | None = None):
        self.config = config
        self._client = client or httpx.Client(timeout=config.timeout_s)
        self._lock = threading.Lock()
        #: totals of this client: HTTP requests sent and the tokens the endpoint reported (``usage``)
        self.usage = {"requests": 0, "prompt_tokens": 0, "completion_tokens": 0}

    def _count(self, requests: int = 0, prompt: int = 0, completion: int = 0) -> None:
        with self._lock:
            self.usage["requests"] += requests
            self.usage["prompt_tokens"] += prompt
            self.usage["completion_tokens"] += completion

    def _retry_after(self, r: httpx.Response) -> float | None:
        """Seconds asked by a ``Retry-After`` header (delta-seconds form), capped; None without one."""
        try:
            return min(max(float(r.headers.get("Retry-After", "")), 0.0), self.MAX_RETRY_AFTER_S)
        except ValueError:
            return None

    def close(self) -> None:
        self._client.close()

    def chat(self, messages: list[dict[str, str]], *, json_mode: bool = True, temperature: float = 0.0,
             max_tokens: int | None = None) -> str:
        body: dict[str, Any] = {"model": self.config.model, "messages": messages, "temperature": temperature}
        if json_mode:
            body["response_format"] = {"type": "json_object"}
        if max_tokens:
            body["max_tokens"] = max_tokens
        headers = {"Authorization": f"Bearer {self.config.api_key}"} if self.config.api_key else {}
        url = f"{self.config.base_url}/chat/completions"
        last: LLMError | None = None
        wait: float | None = None
        for attempt in range(self.config.max_retries + 1):
            if attempt:
                time.sleep(wait if wait is not None else self.config.backoff_s * (2 ** (attempt - 1)))
            wait = None
            self._count(requests=1)
            try:
                r = self._client.post(url, json=body, headers=headers)
            except httpx.TimeoutException as exc:
                last = LLMError("timeout", f"{url}: {exc}")
                continue
            except httpx.TransportError as exc:
                last = LLMError("unreachable", f"{url}: {exc}")
                continue
            if r.status_code >= 500 or r.status_code == 429:
                last = LLMError("http", f"{url} answered {r.status_code}", raw=r.text[:2000])
                last.status = r.status_code
                wait = self._retry_after(r)  # the server says when to come back: honour it
                continue
            if r.status_code >= 400:
                err = LLMError("http", f"{url} answered {r.status_code}", raw=r.text[:2000])
                err.status = r.status_code
                raise err
            try:
                data = r.json()
                content = data["choices"][0]["message"]["content"] or ""
                usage = data.get("usage") or {}
                self._count(prompt=int(usage.get("prompt_tokens") or 0),
                            completion=int(usage.get("completion_tokens") or 0))
                return content
            except (ValueError, KeyError, IndexError, TypeError):
                raise LLMError("invalid_json", "response is not a chat completion", raw=r.text[:2000]) from None
        assert last is not None
        raise last

    def chat_json(self, messages: list[dict[str, str]], **kwargs: Any) -> Any:
        return parse_json_content(self.chat(messages, json_mode=True, **kwargs))
