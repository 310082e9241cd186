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
import re
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator, Mapping

from .lib import setting_rules as rules
from .lib.setting_rules import SettingsError, check_settings, checked  # noqa: F401  (the API of settings)

#: The repository root (where data/ and workspace.yaml live).
PROJECT_ROOT = Path(__file__).resolve().parents[1]


def environ(env: Mapping[str, str] | None = None) -> Mapping[str, str]:
    """``env`` or the process environment (read now)."""
    return os.environ if env is None else env


def env_str(name: str, default: str = "", env: Mapping[str, str] | None = None) -> str:
    """The stripped value of ``name``; ``default`` when unset or blank."""
    value = environ(env).get(name, "").strip()
    return value if value else default


def env_bool(name: str, default: bool, env: Mapping[str, str] | None = None) -> bool:
    """1/true/yes/on or 0/false/no/off (any case); unset or blank → ``default``; anything else is an error."""
    value = env_str(name, "", env)
    return rules.parse_bool(name, value) if value else default


def _number(name: str, default, env, kind, minimum, maximum):
    raw = env_str(name, "", env)
    return rules.parse_number(name, raw, kind, minimum, maximum) if raw else default


def env_int(name: str, default, env: Mapping[str, str] | None = None, minimum: int | None = None, maximum=None):
    return _number(name, default, env, int, minimum, maximum)


def env_float(name: str, default, env: Mapping[str, str] | None = None, minimum: float | None = None, maximum=None):
    return _number(name, default, env, float, minimum, maximum)


def env_choice(name: str, default: str, choices: tuple[str, ...], env: Mapping[str, str] | None = None) -> str:
    """One of ``choices`` (lower-cased; unset or blank → ``default``); anything else names the variable."""
    return rules.choice(name, env_str(name, default, env).lower(), choices)


def env_existing_path(name: str, default: Path | str, env: Mapping[str, str] | None = None) -> str:
    """A path that must exist when the variable sets it (a mistyped path would silently mean "nothing")."""
    return rules.existing_path(name, env_str(name, "", env)) or str(default)


def env_list(name: str, sep: str = "|", env: Mapping[str, str] | None = None) -> tuple[str, ...]:
    """Items of ``name`` separated by ``sep``, stripped, blanks dropped."""
    return tuple(t.strip() for t in environ(env).get(name, "").split(sep) if t.strip())


def env_path(name: str, default: Path | str, env: Mapping[str, str] | None = None) -> str:
    return env_str(name, "", env) or str(default)


@contextmanager
def restored_environ(*names: str, values: Mapping[str, str | None] | None = None) -> Iterator[None]:
    """Put the environment variables ``names`` back as they were (set or unset) on exit; ``values``: set
    (a str) or unset (None) these first, e.g. a snapshot taken earlier (they are put back on exit too)."""
    saved = {k: os.environ.get(k) for k in (*names, *(values or ()))}
    try:
        if values:
            _apply_environ(values)
        yield
    finally:
        _apply_environ(saved)


def _apply_environ(values: Mapping[str, str | None]) -> None:
    for k, v in values.items():
        if v is None:
            os.environ.pop(k, None)
        else:
            os.environ[k] = v


def default_dagster_event_batch_size(size: int) -> None:
    """Set Dagster's ``DAGSTER_EVENT_BATCH_SIZE`` to ``size`` unless the environment already chose one.

    Dagster reads the variable on every event (not at import), so the instance storages call this when they are
    built; an explicit value in the environment wins.
    """
    if size > 0:
        os.environ.setdefault("DAGSTER_EVENT_BATCH_SIZE", str(size))


# --- paths and runs
def corpus_dir(env: Mapping[str, str] | None = None) -> str:
    """Corpus root (``TEXTGUARD_CORPUS_DIR``, default data/corpus)."""
    return env_path("TEXTGUARD_CORPUS_DIR", PROJECT_ROOT / "data" / "corpus", env)


def warehouse(env: Mapping[str, str] | None = None) -> str:
    """Base path of the Parquet warehouse: a directory or any fsspec URL (``TEXTGUARD_WAREHOUSE``)."""
    return env_path("TEXTGUARD_WAREHOUSE", PROJECT_ROOT / "data" / "warehouse", env)


@checked
def max_partitions_per_run(env: Mapping[str, str] | None = None) -> int:
    """Documents per run in backfills, sensor runs and reports (``TEXTGUARD_MAX_PARTITIONS_PER_RUN``, ≥ 1)."""
    return env_int("TEXTGUARD_MAX_PARTITIONS_PER_RUN", 50, env, minimum=1)


#: Default per-document size limit: 10 MiB (≥ 10 MB), the size up to which every asset stays under 2.5 GB.
DEFAULT_MAX_DOCUMENT_BYTES = 10 * 1024 * 1024


@checked
def max_document_bytes(env: Mapping[str, str] | None = None) -> int:
    """Largest document read (``TEXTGUARD_MAX_DOCUMENT_BYTES``, ≥ 1); a larger one is a flagged row."""
    return env_int("TEXTGUARD_MAX_DOCUMENT_BYTES", DEFAULT_MAX_DOCUMENT_BYTES, env, minimum=1)


@checked
def chunk_limits(env: Mapping[str, str] | None = None) -> tuple[int, int]:
    """Prose chunk length, cut above / never above (``TEXTGUARD_CHUNK_CHARS`` 4,000, ``_CHUNK_MAX_CHARS`` 12,000)."""
    soft = env_int("TEXTGUARD_CHUNK_CHARS", 4000, env, minimum=200)
    return soft, env_int("TEXTGUARD_CHUNK_MAX_CHARS", max(12000, soft), env, minimum=soft)


def set_paths(
    corpus: str | None = None,
    warehouse: str | None = None,
    home: str | Path | None = None,
    rewrite_task: str | None = None,
) -> None:
    """Command-line options win over the environment: written here, for this process and the workers it
    starts (the CLI's ``--corpus``/``--warehouse``/``--rewrite`` and ``textguard dev``'s instance directory)."""
    if rewrite_task:
        os.environ["TEXTGUARD_REWRITE_TASK"] = rewrite_task
    if corpus:
        os.environ["TEXTGUARD_CORPUS_DIR"] = os.path.abspath(corpus)
    if warehouse:
        os.environ["TEXTGUARD_WAREHOUSE"] = str(warehouse)
    if home:
        os.environ["DAGSTER_HOME"] = str(home)


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
    ``TEXTGUARD_MARKERS_FALLBACK_MAX``. Validated by ``markers.StructureGateConfig``."""

    enabled: bool = True
    sequence_threshold: int = 3
    soft_flag_action: str = "llm"
    fallback_max_markers: int = 3
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


# --- meanings (mentions and meanings, seed 003; WordNet; Wikidata)


@dataclass(frozen=True)
class WordNetSettings:
    """Where the wn database lives and which lexicon to use. Env: TEXTGUARD_WN_DATA (default data/wn_data),
    TEXTGUARD_WN_LEXICON (a wn specifier), TEXTGUARD_WN_DOWNLOAD (0 = never try wn.download), TEXTGUARD_WN_APT
    (0 = never run apt-get)."""

    data_dir: str
    lexicon: str = ""
    download: bool = True
    apt: bool = True

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> "WordNetSettings":
        return wordnet_settings(env)


@checked
def wordnet_settings(env: Mapping[str, str] | None = None) -> WordNetSettings:
    """Read now (tests and the CLI change the variables between calls)."""
    lexicon = rules.lexicon_spec("TEXTGUARD_WN_LEXICON", env_str("TEXTGUARD_WN_LEXICON", "", env))
    return WordNetSettings(
        data_dir=env_path("TEXTGUARD_WN_DATA", PROJECT_ROOT / "data" / "wn_data", env),
        lexicon=lexicon,
        download=env_bool("TEXTGUARD_WN_DOWNLOAD", True, env),
        apt=env_bool("TEXTGUARD_WN_APT", True, env),
    )


@dataclass(frozen=True)
class WikidataSettings:
    """TEXTGUARD_WIKIDATA_URL (set → online), TEXTGUARD_WIKIDATA_MODE (off|cache_only|online),
    TEXTGUARD_WIKIDATA_OFFLINE=1 (→ cache_only), TEXTGUARD_WIKIDATA_CACHE, TEXTGUARD_WIKIDATA_TTL_S."""

    base_url: str
    mode: str
    cache_dir: str
    ttl_s: float

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> "WikidataSettings":
        return wikidata_settings(env)


WIKIDATA_MODES = ("off", "cache_only", "online")


@checked
def wikidata_settings(env: Mapping[str, str] | None = None) -> WikidataSettings:
    url = env_str("TEXTGUARD_WIKIDATA_URL", "", env)
    mode = env_choice("TEXTGUARD_WIKIDATA_MODE", "online" if url else "off", WIKIDATA_MODES, env)
    if env_bool("TEXTGUARD_WIKIDATA_OFFLINE", False, env) and mode == "online":
        mode = "cache_only"
    return WikidataSettings(
        base_url=url or "https://www.wikidata.org",
        mode=mode,
        cache_dir=env_path("TEXTGUARD_WIKIDATA_CACHE", default_wikidata_cache_dir(), env),
        ttl_s=env_float("TEXTGUARD_WIKIDATA_TTL_S", 30 * 24 * 3600, env, minimum=0),
    )


def default_wikidata_cache_dir() -> str:
    return str(PROJECT_ROOT / "data" / "wikidata_cache")


def default_suppressions_path(env: Mapping[str, str] | None = None) -> str:
    """``$TEXTGUARD_SUPPRESSIONS``, default ``data/suppressions.csv`` of the project."""
    return env_existing_path("TEXTGUARD_SUPPRESSIONS", PROJECT_ROOT / "data" / "suppressions.csv", env)


@dataclass(frozen=True)
class MeaningsSettings:
    """Every knob of mentions and meanings (seed 003), one frozen object.

    Env: TEXTGUARD_MEANINGS_LLM (boolean; default on iff TEXTGUARD_LLM_URL is set — the endpoint, model and
    key always come from TEXTGUARD_LLM_*), TEXTGUARD_MEANINGS_RATE (Pass 3), TEXTGUARD_MEANINGS_LLM_FALLBACK, TEXTGUARD_WIKIDATA_* (see
    WikidataSettings), TEXTGUARD_SUPPRESSIONS (default data/suppressions.csv), TEXTGUARD_SPACY_MODEL,
    TEXTGUARD_MEANINGS_BOUNDARY (split|reject), TEXTGUARD_MEANINGS_MIN_SUBJECT / _MIN_AUTHOR,
    TEXTGUARD_SENSE_ENCODER (minilm | off: the sentence encoder in the embedded disambiguation).
    The resolver-only knobs (index types, candidate limit, page size, hard-case threshold) have no variable.
    """

    use_llm: bool = False
    rate: bool = True  # Pass 3, only when an LLM is configured
    llm_fallback: bool = False  # an unreachable LLM: fail the document (off) or use the local passes (on)
    llm_batch_size: int = 20
    wikidata_url: str = ""
    wikidata_mode: str = "off"
    wikidata_cache_dir: str = ""
    suppressions_path: str = ""
    spacy_model: str = ""
    boundary: str = "split"
    min_occurrences_subject: int = 1
    min_occurrences_author: int = 1
    install_small_lexicon: bool = True
    index_types: tuple[str, ...] = ("subject", "author")
    hard_threshold: float = 0.65
    candidate_limit: int = 8
    page_chars: int = 6000
    #: prefer senses that fit the document's dominant lexicographer files / topic domains (issue 16)
    domain_aware: bool = True
    #: decide once per lemma and document, from the pooled contexts of its mentions
    one_sense_per_discourse: bool = True
    #: gloss–context similarity with the numpy sentence encoder (minilm | off); off when its model is missing
    sense_encoder: str = "minilm"

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> "MeaningsSettings":
        return meanings_settings(env)


@checked
def meanings_settings(env: Mapping[str, str] | None = None) -> MeaningsSettings:
    wd = wikidata_settings(env)
    return MeaningsSettings(
        use_llm=env_bool("TEXTGUARD_MEANINGS_LLM", bool(env_str("TEXTGUARD_LLM_URL", "", env)), env),
        rate=env_bool("TEXTGUARD_MEANINGS_RATE", True, env),
        llm_fallback=env_bool("TEXTGUARD_MEANINGS_LLM_FALLBACK", False, env),
        wikidata_url=wd.base_url,
        wikidata_mode=wd.mode,
        wikidata_cache_dir=wd.cache_dir,
        suppressions_path=default_suppressions_path(env),
        spacy_model=env_str("TEXTGUARD_SPACY_MODEL", "", env),
        boundary=env_choice("TEXTGUARD_MEANINGS_BOUNDARY", "split", ("split", "reject"), env),
        min_occurrences_subject=env_int("TEXTGUARD_MEANINGS_MIN_SUBJECT", 1, env, minimum=1),
        min_occurrences_author=env_int("TEXTGUARD_MEANINGS_MIN_AUTHOR", 1, env, minimum=1),
        sense_encoder=env_choice("TEXTGUARD_SENSE_ENCODER", "minilm", ("minilm", "off"), env),
    )


# --- operations (jobs, executor, schedule, IO cache)

EXECUTORS = ("in_process", "multiprocess", "celery")


@dataclass(frozen=True)
class OperationsSettings:
    """How runs execute and when the corpus is refreshed. Env: TEXTGUARD_EXECUTOR (in_process | multiprocess |
    celery), TEXTGUARD_REFRESH_CRON (default nightly 02:00) / _REFRESH_TZ (UTC), TEXTGUARD_CELERY_BROKER /
    _CELERY_BACKEND (default redis on loopback), TEXTGUARD_IO_CACHE_MB (IO manager read cache, 0 = off),
    TEXTGUARD_LOCK_WAIT_S (longest wait for the instance lock before giving up naming its holder, 300).
    Automation: TEXTGUARD_AUTOMATION, _AUTOMATE_PAID, _AUTOMATION_INTERVAL_S, _SENSOR_INTERVAL_S (configuration.md)."""

    executor: str = "multiprocess"
    refresh_cron: str = "0 2 * * *"
    refresh_tz: str = "UTC"
    celery_broker: str = "redis://127.0.0.1:6379/0"
    celery_backend: str = ""  # empty: the broker
    io_cache_mb: float = 256.0
    lock_wait_s: float = 300.0
    automation: bool = True
    automate_paid: bool = False
    automation_interval_s: int = 30
    sensor_interval_s: int = 60


@checked
def operations_settings(env: Mapping[str, str] | None = None) -> OperationsSettings:
    d = OperationsSettings()
    broker = env_str("TEXTGUARD_CELERY_BROKER", d.celery_broker, env)
    executor = env_str("TEXTGUARD_EXECUTOR", d.executor, env).lower().replace("-", "_")
    cron = env_str("TEXTGUARD_REFRESH_CRON", d.refresh_cron, env)
    return OperationsSettings(
        executor=rules.choice("TEXTGUARD_EXECUTOR", executor, EXECUTORS),
        refresh_cron=rules.cron_expression("TEXTGUARD_REFRESH_CRON", cron),
        refresh_tz=rules.time_zone("TEXTGUARD_REFRESH_TZ", env_str("TEXTGUARD_REFRESH_TZ", d.refresh_tz, env)),
        celery_broker=broker,
        celery_backend=env_str("TEXTGUARD_CELERY_BACKEND", broker, env),
        io_cache_mb=env_float("TEXTGUARD_IO_CACHE_MB", d.io_cache_mb, env, minimum=0.0),
        lock_wait_s=env_float("TEXTGUARD_LOCK_WAIT_S", d.lock_wait_s, env, minimum=0.0),
        automation=env_bool("TEXTGUARD_AUTOMATION", d.automation, env),
        automate_paid=env_bool("TEXTGUARD_AUTOMATE_PAID", d.automate_paid, env),
        automation_interval_s=env_int("TEXTGUARD_AUTOMATION_INTERVAL_S", d.automation_interval_s, env, minimum=1),
        sensor_interval_s=env_int("TEXTGUARD_SENSOR_INTERVAL_S", d.sensor_interval_s, env, minimum=1),
    )


# --- scale


@checked
def report_workers(env: Mapping[str, str] | None = None) -> int:
    """Processes ``textguard report`` runs document ranges in (``TEXTGUARD_REPORT_WORKERS``; 0 or unset: one
    per core)."""
    value = env_int("TEXTGUARD_REPORT_WORKERS", 0, env)
    if value < 0:
        raise SettingsError(f"TEXTGUARD_REPORT_WORKERS={value}: expected 0 (one per core) or a positive number")
    if value:
        return value
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1
