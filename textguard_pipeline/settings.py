"""Paths and knobs read from the environment, with defaults for a fresh clone."""

from __future__ import annotations

import os
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

#: The repository root (where data/ and workspace.yaml live).
PROJECT_ROOT = Path(__file__).resolve().parents[1]


def _path(env: str, default: Path) -> str:
    value = os.environ.get(env)
    return value if value else str(default)


def corpus_dir() -> str:
    return _path("TEXTGUARD_CORPUS_DIR", PROJECT_ROOT / "data" / "corpus")


def warehouse() -> str:
    """Base path of the Parquet warehouse: a directory or any fsspec URL."""
    return _path("TEXTGUARD_WAREHOUSE", PROJECT_ROOT / "data" / "warehouse")


def max_partitions_per_run() -> int:
    return max(1, int(os.environ.get("TEXTGUARD_MAX_PARTITIONS_PER_RUN", "50")))


@contextmanager
def restored_environ(*names: str) -> Iterator[None]:
    """Put the environment variables ``names`` back as they were (set or unset) on exit."""
    saved = {k: os.environ.get(k) for k in names}
    try:
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


# --- roundtrip
# The LLM endpoint (every LLM pass shares it) and the `rewritten_chunks` round trip.
# Read only here; lib/llm.py, lib/http.py and roundtrip/ take these frozen objects.
from dataclasses import dataclass, field  # noqa: E402  (block kept self-contained for the merge)
from typing import Mapping  # noqa: E402

_ROUNDTRIP_TRUE = ("1", "true", "yes", "on")
_ROUNDTRIP_FALSE = ("0", "false", "no", "off")


def _rt_bool(env: Mapping[str, str], name: str, default: bool) -> bool:
    """Strict boolean: an unknown value is an error, not a guess."""
    v = env.get(name, "").strip().lower()
    if not v:
        return default
    if v in _ROUNDTRIP_TRUE:
        return True
    if v in _ROUNDTRIP_FALSE:
        return False
    raise ValueError(f"{name}={v!r}: expected one of {', '.join(_ROUNDTRIP_TRUE + _ROUNDTRIP_FALSE)}")


def _rt_num(env: Mapping[str, str], name: str, default, cast=float, minimum=None):
    v = env.get(name, "").strip()
    if not v:
        return default
    try:
        out = cast(v)
    except ValueError:
        raise ValueError(f"{name}={v!r}: expected a {cast.__name__}") from None
    if minimum is not None and out < minimum:
        raise ValueError(f"{name}={v!r}: must be at least {minimum}")
    return out


@dataclass(frozen=True)
class LLMSettings:
    """The OpenAI-compatible endpoint and what using it may cost.

    TEXTGUARD_LLM_URL (base URL ending in /v1; unset = no LLM), TEXTGUARD_LLM_MODEL, the key in the env
    var named by TEXTGUARD_LLM_API_KEY_ENV (default TEXTGUARD_LLM_API_KEY), TEXTGUARD_LLM_TIMEOUT_S (60),
    TEXTGUARD_LLM_MAX_RETRIES (2; on 5xx, 429, timeouts, connection errors), TEXTGUARD_LLM_BACKOFF_S
    (0.5, doubled per retry), TEXTGUARD_LLM_MAX_RETRY_AFTER_S (60: cap on a server's Retry-After),
    TEXTGUARD_LLM_CONCURRENCY (4 requests in flight), TEXTGUARD_LLM_RPM (requests per minute, 0 = no
    limit), TEXTGUARD_LLM_MAX_COST (USD per run; unset = no limit), TEXTGUARD_LLM_MAX_TOKENS_TOTAL (token
    cap per run; unset = none), TEXTGUARD_LLM_PRICE_IN_PER_1K / _OUT_PER_1K (USD per 1,000 prompt /
    completion tokens, default 0), TEXTGUARD_LLM_CACHE (on|off, default on), TEXTGUARD_LLM_CACHE_DIR
    (default data/llm_cache).
    """

    url: str = ""
    model: str = "default"
    api_key: str | None = field(default=None, repr=False)
    timeout_s: float = 60.0
    max_retries: int = 2
    backoff_s: float = 0.5
    max_retry_after_s: float = 60.0
    concurrency: int = 4
    requests_per_minute: float = 0.0
    max_cost: float | None = None
    max_tokens_total: int | None = None
    price_in_per_1k: float = 0.0
    price_out_per_1k: float = 0.0
    cache: bool = True
    cache_dir: str = ""

    @property
    def enabled(self) -> bool:
        return bool(self.url)


def llm_settings(env: Mapping[str, str] | None = None) -> LLMSettings:
    """The LLM settings from ``env`` (default: the process environment)."""
    env = dict(os.environ if env is None else env)
    key_env = env.get("TEXTGUARD_LLM_API_KEY_ENV", "TEXTGUARD_LLM_API_KEY")
    return LLMSettings(
        url=env.get("TEXTGUARD_LLM_URL", "").strip().rstrip("/"),
        model=env.get("TEXTGUARD_LLM_MODEL", "").strip() or "default",
        api_key=env.get(key_env) or None,
        timeout_s=_rt_num(env, "TEXTGUARD_LLM_TIMEOUT_S", 60.0, minimum=0.001),
        max_retries=_rt_num(env, "TEXTGUARD_LLM_MAX_RETRIES", 2, int, 0),
        backoff_s=_rt_num(env, "TEXTGUARD_LLM_BACKOFF_S", 0.5, minimum=0.0),
        max_retry_after_s=_rt_num(env, "TEXTGUARD_LLM_MAX_RETRY_AFTER_S", 60.0, minimum=0.0),
        concurrency=_rt_num(env, "TEXTGUARD_LLM_CONCURRENCY", 4, int, 1),
        requests_per_minute=_rt_num(env, "TEXTGUARD_LLM_RPM", 0.0, minimum=0.0),
        max_cost=_rt_num(env, "TEXTGUARD_LLM_MAX_COST", None, minimum=0.0),
        max_tokens_total=_rt_num(env, "TEXTGUARD_LLM_MAX_TOKENS_TOTAL", None, int, 0),
        price_in_per_1k=_rt_num(env, "TEXTGUARD_LLM_PRICE_IN_PER_1K", 0.0, minimum=0.0),
        price_out_per_1k=_rt_num(env, "TEXTGUARD_LLM_PRICE_OUT_PER_1K", 0.0, minimum=0.0),
        cache=_rt_bool(env, "TEXTGUARD_LLM_CACHE", True),
        cache_dir=env.get("TEXTGUARD_LLM_CACHE_DIR", "").strip() or str(PROJECT_ROOT / "data" / "llm_cache"),
    )


@dataclass(frozen=True)
class RewriteSettings:
    """The `rewritten_chunks` round trip (opt-in: needs TEXTGUARD_LLM_URL and TEXTGUARD_REWRITE_TASK).

    TEXTGUARD_REWRITE_TASK: paraphrase | translate:<language> | simplify | any other text (a custom
    instruction). TEXTGUARD_REWRITE_MAX_ATTEMPTS (3 in all), TEXTGUARD_REWRITE_CHUNK_CHARS (4000; longer
    chunks go in sentence-aligned pieces), TEXTGUARD_REWRITE_TEMPERATURE (0).
    """

    task: str = ""
    max_attempts: int = 3
    chunk_chars: int = 4000
    temperature: float = 0.0
    llm: LLMSettings = field(default_factory=LLMSettings)

    @property
    def enabled(self) -> bool:
        return bool(self.task) and self.llm.enabled

    def disabled_reason(self) -> str:
        """Why rewriting is off ("" when it is on)."""
        missing = [n for n, v in (("TEXTGUARD_LLM_URL", self.llm.url), ("TEXTGUARD_REWRITE_TASK", self.task)) if not v]
        return f"rewriting is off: {' and '.join(missing)} not set" if missing else ""


def rewrite_settings(env: Mapping[str, str] | None = None) -> RewriteSettings:
    """The round-trip settings from ``env`` (default: the process environment)."""
    env = dict(os.environ if env is None else env)
    return RewriteSettings(
        task=env.get("TEXTGUARD_REWRITE_TASK", "").strip(),
        max_attempts=_rt_num(env, "TEXTGUARD_REWRITE_MAX_ATTEMPTS", 3, int, 1),
        chunk_chars=_rt_num(env, "TEXTGUARD_REWRITE_CHUNK_CHARS", 4000, int, 200),
        temperature=_rt_num(env, "TEXTGUARD_REWRITE_TEMPERATURE", 0.0, minimum=0.0),
        llm=llm_settings(env),
    )
