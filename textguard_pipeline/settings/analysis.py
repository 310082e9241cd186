"""Settings of the analysis slices: protection, math NER, the markers gate, the language override."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Mapping

from ..lib.setting_rules import SettingsError, checked
from .env import env_bool, env_choice, env_int, env_list, env_str


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


@checked
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
    model's answer is invalid, 2). The chat endpoint, its prices, rate limits and budget: ``LLMSettings``."""

    backend: str = "rules"
    url: str = ""
    timeout_ms: int = 10_000
    max_retries: int = 2
    batch_size: int = 8
    llm_attempts: int = 2

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> "MathNerSettings":
        return math_ner_settings(env)


@checked
def math_ner_settings(env: Mapping[str, str] | None = None) -> MathNerSettings:
    return MathNerSettings(
        backend=env_choice("TEXTGUARD_NER_BACKEND", "rules", NER_BACKENDS, env),
        url=env_str("TEXTGUARD_NER_URL", "", env),
        timeout_ms=env_int("TEXTGUARD_NER_TIMEOUT_MS", 10_000, env, minimum=1, maximum=3_600_000),
        max_retries=env_int("TEXTGUARD_NER_MAX_RETRIES", 2, env, minimum=0, maximum=100),
        batch_size=env_int("TEXTGUARD_NER_BATCH_SIZE", 8, env, minimum=1, maximum=100),
        llm_attempts=env_int("TEXTGUARD_NER_LLM_ATTEMPTS", 2, env, minimum=1, maximum=100),
    )


# --- ingest/citations/markers
@dataclass(frozen=True)
class MarkersGateSettings:
    """The StructureNumberingGate's switches (seed 004 §5/§10): ``TEXTGUARD_MARKERS_GATE`` (on/off),
    ``TEXTGUARD_MARKERS_SEQUENCE_THRESHOLD``, ``TEXTGUARD_MARKERS_SOFT_FLAG_ACTION``,
    ``TEXTGUARD_MARKERS_FALLBACK_MAX``, ``TEXTGUARD_MARKERS_LLM_FALLBACK``. Validated by
    ``markers.StructureGateConfig``."""

    enabled: bool = True
    sequence_threshold: int = 3
    soft_flag_action: str = "llm"
    fallback_max_markers: int = 3
    #: an unreachable (or over-budget) LLM for SOFT_FLAG: fail the document (False) or keep them weak (True)
    llm_fallback: bool = False
    #: log which settings differ from the defaults when the gate is built (launchpad only, no variable)
    log_config_changes: bool = True

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> "MarkersGateSettings":
        return markers_gate_settings(env)


@checked
def markers_gate_settings(env: Mapping[str, str] | None = None) -> MarkersGateSettings:
    d = MarkersGateSettings()
    return MarkersGateSettings(
        enabled=env_bool("TEXTGUARD_MARKERS_GATE", d.enabled, env),
        sequence_threshold=env_int("TEXTGUARD_MARKERS_SEQUENCE_THRESHOLD", d.sequence_threshold, env, minimum=1),
        soft_flag_action=env_choice(
            "TEXTGUARD_MARKERS_SOFT_FLAG_ACTION",
            d.soft_flag_action,
            ("llm", "weak_marker"),
            env,  # model.py's
        ),
        fallback_max_markers=env_int("TEXTGUARD_MARKERS_FALLBACK_MAX", d.fallback_max_markers, env, minimum=0),
        llm_fallback=env_bool("TEXTGUARD_MARKERS_LLM_FALLBACK", d.llm_fallback, env),
    )


#: ISO 639-1 code: two lower-case letters.
_ISO_639_1 = re.compile(r"^[a-z]{2}$")


@dataclass(frozen=True)
class LanguageSettings:
    """Per-run language override: ``TEXTGUARD_LANGUAGE`` = an ISO 639-1 code (every document and chunk of
    the run is taken to be in it), or unset/``auto`` to detect per document and chunk (docs/languages.md)."""

    language: str = ""


@checked
def language_settings(env: Mapping[str, str] | None = None) -> LanguageSettings:
    value = env_str("TEXTGUARD_LANGUAGE", "", env).strip().lower()
    if value in ("", "auto"):
        return LanguageSettings("")
    if not _ISO_639_1.match(value):
        raise SettingsError(f"TEXTGUARD_LANGUAGE must be an ISO 639-1 code such as 'en' or 'auto', got {value!r}")
    return LanguageSettings(value)
