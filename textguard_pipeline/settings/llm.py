"""The LLM endpoint every LLM pass shares, what it may cost, and the ``rewritten_chunks`` round trip."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Mapping

from ..lib import setting_rules as rules
from ..lib.setting_rules import checked
from .env import PROJECT_ROOT, dagster_home, env_bool, env_float, env_int, env_path, env_str, environ, warehouse

# --- roundtrip
# The LLM endpoint (every LLM pass shares it) and the `rewritten_chunks` round trip.
# Read only here; lib/llm.py, lib/http.py and roundtrip/ take these frozen objects.


@dataclass(frozen=True)
class LLMSettings:
    """The OpenAI-compatible endpoint and what using it may cost: the ``TEXTGUARD_LLM_*`` variables, each
    described (default, unit, scope) in docs/configuration.md; the spending ledger is lib/ledger.py."""

    url: str = ""
    model: str = "default"
    api_key: str | None = field(default=None, repr=False)
    timeout_s: float = 60.0
    max_retries: int = 2
    backoff_s: float = 0.5
    max_retry_after_s: float = 60.0
    concurrency: int = 4
    requests_per_minute: float = 0.0
    tokens_per_minute: float = 0.0
    max_cost: float | None = None
    max_tokens_total: int | None = None
    max_cost_per_day: float | None = None
    ledger_path: str = ""  # the shared spending ledger (lib/ledger.py); "" = per-process budget only
    price_in_per_1k: float = 0.0
    price_out_per_1k: float = 0.0
    cache: bool = True
    cache_dir: str = ""

    @property
    def enabled(self) -> bool:
        return bool(self.url)


def llm_ledger_path(env: Mapping[str, str] | None = None) -> str:
    """The shared LLM spending ledger: ``.llm-ledger.sqlite`` in a local warehouse, else in DAGSTER_HOME."""
    base = warehouse(env)
    if "://" in base and not base.startswith("file://"):
        base = dagster_home(env)
    return os.path.join(base.removeprefix("file://"), ".llm-ledger.sqlite")


#: the variable holding the endpoint URL (resources take it by name: dagster.EnvVar)
LLM_URL_VAR = "TEXTGUARD_LLM_URL"


@checked
def llm_settings(env: Mapping[str, str] | None = None) -> LLMSettings:
    """The LLM settings from ``env`` (default: the process environment)."""
    key_env = env_str("TEXTGUARD_LLM_API_KEY_ENV", "TEXTGUARD_LLM_API_KEY", env)
    return LLMSettings(
        url=env_str(LLM_URL_VAR, "", env).rstrip("/"),
        model=env_str("TEXTGUARD_LLM_MODEL", "default", env),
        api_key=environ(env).get(key_env) or None,
        timeout_s=env_float("TEXTGUARD_LLM_TIMEOUT_S", 60.0, env, minimum=0.001),
        max_retries=env_int("TEXTGUARD_LLM_MAX_RETRIES", 2, env, minimum=0),
        backoff_s=env_float("TEXTGUARD_LLM_BACKOFF_S", 0.5, env, minimum=0.0),
        max_retry_after_s=env_float("TEXTGUARD_LLM_MAX_RETRY_AFTER_S", 60.0, env, minimum=0.0, maximum=3600.0),
        concurrency=env_int("TEXTGUARD_LLM_CONCURRENCY", 4, env, minimum=1),
        requests_per_minute=env_float("TEXTGUARD_LLM_RPM", 0.0, env, minimum=0.0),
        tokens_per_minute=env_float("TEXTGUARD_LLM_TPM", 0.0, env, minimum=0.0),
        max_cost=env_float("TEXTGUARD_LLM_MAX_COST", None, env, minimum=0.0),
        max_tokens_total=env_int("TEXTGUARD_LLM_MAX_TOKENS_TOTAL", None, env, minimum=0),
        max_cost_per_day=env_float("TEXTGUARD_LLM_MAX_COST_PER_DAY", None, env, minimum=0.0),
        ledger_path=llm_ledger_path(env),
        price_in_per_1k=env_float("TEXTGUARD_LLM_PRICE_IN_PER_1K", 0.0, env, minimum=0.0),
        price_out_per_1k=env_float("TEXTGUARD_LLM_PRICE_OUT_PER_1K", 0.0, env, minimum=0.0),
        cache=env_bool("TEXTGUARD_LLM_CACHE", True, env),
        cache_dir=env_path("TEXTGUARD_LLM_CACHE_DIR", PROJECT_ROOT / "data" / "llm_cache", env),
    )


@dataclass(frozen=True)
class RewriteSettings:
    """The `rewritten_chunks` round trip (opt-in: needs TEXTGUARD_LLM_URL and TEXTGUARD_REWRITE_TASK).

    TEXTGUARD_REWRITE_TASK: paraphrase | translate:<language> | simplify | any other text (a custom
    instruction). TEXTGUARD_REWRITE_MAX_ATTEMPTS (3 in all), TEXTGUARD_REWRITE_CHUNK_CHARS (4000; longer
    chunks go in sentence-aligned pieces), TEXTGUARD_REWRITE_TEMPERATURE (0). The answer audit:
    TEXTGUARD_REWRITE_LENGTH_BAND (``0.5-2.0`` | ``off``; default by task) and TEXTGUARD_REWRITE_LANGUAGE
    (``source`` | a code or English name | ``off``; default by task).
    """

    task: str = ""
    max_attempts: int = 3
    chunk_chars: int = 4000
    temperature: float = 0.0
    llm: LLMSettings = field(default_factory=LLMSettings)
    length_band: str = ""
    language: str = ""

    @property
    def enabled(self) -> bool:
        return bool(self.task) and self.llm.enabled

    def disabled_reason(self) -> str:
        """Why rewriting is off ("" when it is on)."""
        missing = [n for n, v in (("TEXTGUARD_LLM_URL", self.llm.url), ("TEXTGUARD_REWRITE_TASK", self.task)) if not v]
        return f"rewriting is off: {' and '.join(missing)} not set" if missing else ""


@checked
def rewrite_settings(env: Mapping[str, str] | None = None) -> RewriteSettings:
    """The round-trip settings from ``env`` (default: the process environment)."""
    return RewriteSettings(
        task=env_str("TEXTGUARD_REWRITE_TASK", "", env),
        max_attempts=env_int("TEXTGUARD_REWRITE_MAX_ATTEMPTS", 3, env, minimum=1),
        chunk_chars=env_int("TEXTGUARD_REWRITE_CHUNK_CHARS", 4000, env, minimum=200),
        temperature=env_float("TEXTGUARD_REWRITE_TEMPERATURE", 0.0, env, minimum=0.0),
        llm=llm_settings(env),
        length_band=rules.length_band(
            "TEXTGUARD_REWRITE_LENGTH_BAND", env_str("TEXTGUARD_REWRITE_LENGTH_BAND", "", env)
        ),
        language=env_str("TEXTGUARD_REWRITE_LANGUAGE", "", env).strip(),
    )
