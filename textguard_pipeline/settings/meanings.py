"""Settings of mentions and meanings (seed 003): WordNet, Wikidata, the suppressions list, the passes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from ..lib import setting_rules as rules
from ..lib.setting_rules import checked
from .env import PROJECT_ROOT, env_bool, env_choice, env_existing_path, env_float, env_int, env_path, env_str

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
    TEXTGUARD_SENSE_ENCODER (minilm | off: the sentence encoder in the embedded disambiguation),
    TEXTGUARD_SENSE_ENCODER_PRECISION (fp32 | int8: the encoder's ONNX graph for sentences, quantized or not),
    TEXTGUARD_MEANINGS_LOW_CONFIDENCE (below it a WordNet sense becomes custom, reason_code low_confidence).
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
    #: the encoder's ONNX graph for the documents' sentences: fp32 (numpy's vectors) or int8 (dynamically
    #: quantized, ≈ 0.8× fp32's CPU, a few labelled senses fewer right); glosses and the numpy fallback are fp32
    sense_encoder_precision: str = "fp32"
    #: a WordNet sense whose confidence (calibrated P(right)) is below this keeps its mention as a custom meaning
    #: with reason_code low_confidence (0 = never)
    low_confidence: float = 0.35

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
        sense_encoder_precision=env_choice("TEXTGUARD_SENSE_ENCODER_PRECISION", "fp32", ("fp32", "int8"), env),
        low_confidence=env_float("TEXTGUARD_MEANINGS_LOW_CONFIDENCE", 0.35, env, minimum=0, maximum=1),
    )
