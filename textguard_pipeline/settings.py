"""The one place the environment is read: every ``TEXTGUARD_*`` variable becomes a typed, frozen object here.

Each capability has a block below with a frozen dataclass and a reader ``<name>_settings(env=None)``.
Library code receives these objects (or the plain values in them); it never reads ``os.environ``.
Dagster resources are generated from the same dataclasses (``defs_kit.resources``), so every field is
declared once. ``env`` may be any mapping (tests pass a dict); by default the process environment is read
at call time, so a test that sets a variable sees it on the next call.

Values are checked when read: an unknown boolean (``TEXTGUARD_PROTECT_NER=maybe``) or a bad number is a
``SettingsError`` naming the variable, not a silent default.
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Mapping

#: The repository root (where data/ and workspace.yaml live).
PROJECT_ROOT = Path(__file__).resolve().parents[1]

_TRUE = frozenset({"1", "true", "yes", "on"})
_FALSE = frozenset({"0", "false", "no", "off"})


class SettingsError(ValueError):
    """An environment variable holds a value its setting cannot take."""


def environ(env: Mapping[str, str] | None = None) -> Mapping[str, str]:
    """``env`` or the process environment (read now)."""
    return os.environ if env is None else env


def env_str(name: str, default: str = "", env: Mapping[str, str] | None = None) -> str:
    """The stripped value of ``name``; ``default`` when unset or blank."""
    value = environ(env).get(name, "").strip()
    return value if value else default


def env_bool(name: str, default: bool, env: Mapping[str, str] | None = None) -> bool:
    """1/true/yes/on or 0/false/no/off (any case); unset or blank → ``default``; anything else is an error."""
    value = env_str(name, "", env).lower()
    if not value:
        return default
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise SettingsError(f"{name}={value!r} is not a boolean (use one of 1/0, true/false, yes/no, on/off)")


def _number(name: str, default, env, kind):
    raw = env_str(name, "", env)
    if not raw:
        return default
    try:
        return kind(raw)
    except ValueError:
        raise SettingsError(f"{name}={raw!r} is not {'an integer' if kind is int else 'a number'}") from None


def env_int(name: str, default: int, env: Mapping[str, str] | None = None) -> int:
    return _number(name, default, env, int)


def env_float(name: str, default: float, env: Mapping[str, str] | None = None) -> float:
    return _number(name, default, env, float)


def env_list(name: str, sep: str = "|", env: Mapping[str, str] | None = None) -> tuple[str, ...]:
    """Items of ``name`` separated by ``sep``, stripped, blanks dropped."""
    return tuple(t.strip() for t in environ(env).get(name, "").split(sep) if t.strip())


def env_path(name: str, default: Path | str, env: Mapping[str, str] | None = None) -> str:
    return env_str(name, "", env) or str(default)


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


# --- paths and runs


def corpus_dir(env: Mapping[str, str] | None = None) -> str:
    """Corpus root (``TEXTGUARD_CORPUS_DIR``, default data/corpus)."""
    return env_path("TEXTGUARD_CORPUS_DIR", PROJECT_ROOT / "data" / "corpus", env)


def warehouse(env: Mapping[str, str] | None = None) -> str:
    """Base path of the Parquet warehouse: a directory or any fsspec URL (``TEXTGUARD_WAREHOUSE``)."""
    return env_path("TEXTGUARD_WAREHOUSE", PROJECT_ROOT / "data" / "warehouse", env)


def max_partitions_per_run(env: Mapping[str, str] | None = None) -> int:
    """Documents per run in backfills, sensor runs and reports (``TEXTGUARD_MAX_PARTITIONS_PER_RUN``, ≥ 1)."""
    return max(1, env_int("TEXTGUARD_MAX_PARTITIONS_PER_RUN", 50, env))


def dagster_home(env: Mapping[str, str] | None = None) -> str:
    """The Dagster instance directory (``DAGSTER_HOME``, default data/dagster_home)."""
    return env_path("DAGSTER_HOME", PROJECT_ROOT / "data" / "dagster_home", env)


# --- protection


@dataclass(frozen=True)
class ProtectionSettings:
    """Term protection (seed 000). Env: TEXTGUARD_PROTECT_NER / _CITATIONS / _NUMBERS / _YEAR_ONLY (booleans),
    TEXTGUARD_PROTECT_TERMS (terms separated by "|"), TEXTGUARD_SPACY_MODEL (a spaCy model name)."""

    use_ner: bool = True
    custom_terms: tuple[str, ...] = ()
    protect_citations: bool = True
    protect_numbers: bool = True
    protect_year_only: bool = False
    spacy_model: str = ""


def protection_settings(env: Mapping[str, str] | None = None) -> ProtectionSettings:
    return ProtectionSettings(
        use_ner=env_bool("TEXTGUARD_PROTECT_NER", True, env),
        custom_terms=env_list("TEXTGUARD_PROTECT_TERMS", "|", env),
        protect_citations=env_bool("TEXTGUARD_PROTECT_CITATIONS", True, env),
        protect_numbers=env_bool("TEXTGUARD_PROTECT_NUMBERS", True, env),
        protect_year_only=env_bool("TEXTGUARD_PROTECT_YEAR_ONLY", False, env),
        spacy_model=env_str("TEXTGUARD_SPACY_MODEL", "", env),
    )


# --- math_ner

#: TEXTGUARD_NER_BACKEND values: the rule-based extractor, the LLM extractor, or rules first and the LLM for
#: the text units the rules leave unmatched (seed 001 Option B).
NER_BACKENDS = ("rules", "llm", "hybrid")


@dataclass(frozen=True)
class MathNerSettings:
    """Math NER (seed 001). Env: TEXTGUARD_NER_BACKEND (rules | llm | hybrid; default rules),
    TEXTGUARD_NER_URL (a backend's ``POST /ner`` URL; rules: the service answers instead of the embedded
    extractor; llm/hybrid: the LLM extractor runs behind it — unset: the LLM client in process),
    TEXTGUARD_NER_TIMEOUT_MS (10000), TEXTGUARD_NER_MAX_RETRIES (2), TEXTGUARD_NER_BATCH_SIZE (units per
    ``/ner/batch`` request and concurrent LLM calls, 8), TEXTGUARD_NER_LLM_ATTEMPTS (calls per unit when the
    model's answer is invalid, 2), TEXTGUARD_LLM_PRICE_PROMPT / TEXTGUARD_LLM_PRICE_COMPLETION (USD per million
    tokens, for the cost report; 0 = not priced)."""

    backend: str = "rules"
    url: str = ""
    timeout_ms: int = 10_000
    max_retries: int = 2
    batch_size: int = 8
    llm_attempts: int = 2
    price_prompt_per_mtok: float = 0.0
    price_completion_per_mtok: float = 0.0

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> "MathNerSettings":
        return math_ner_settings(env)


def math_ner_settings(env: Mapping[str, str] | None = None) -> MathNerSettings:
    backend = env_str("TEXTGUARD_NER_BACKEND", "rules", env).lower()
    if backend not in NER_BACKENDS:
        raise SettingsError(f"TEXTGUARD_NER_BACKEND={backend!r} is not one of {', '.join(NER_BACKENDS)}")
    return MathNerSettings(
        backend=backend,
        url=env_str("TEXTGUARD_NER_URL", "", env),
        timeout_ms=env_int("TEXTGUARD_NER_TIMEOUT_MS", 10_000, env),
        max_retries=env_int("TEXTGUARD_NER_MAX_RETRIES", 2, env),
        batch_size=max(1, min(100, env_int("TEXTGUARD_NER_BATCH_SIZE", 8, env))),
        llm_attempts=max(1, env_int("TEXTGUARD_NER_LLM_ATTEMPTS", 2, env)),
        price_prompt_per_mtok=env_float("TEXTGUARD_LLM_PRICE_PROMPT", 0.0, env),
        price_completion_per_mtok=env_float("TEXTGUARD_LLM_PRICE_COMPLETION", 0.0, env),
    )
