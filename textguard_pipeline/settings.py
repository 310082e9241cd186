"""Paths and knobs read from the environment, with defaults for a fresh clone."""

from __future__ import annotations

import os
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Mapping

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


# --- meanings (mentions and meanings, seed 003; WordNet; Wikidata) -------------------------------------------

_TRUE = ("1", "true", "yes", "on")
_FALSE = ("0", "false", "no", "off")


def _meanings_flag(env: dict[str, str], name: str, default: bool) -> bool:
    """An unset/empty variable gives ``default``; anything else must be a known boolean word."""
    v = env.get(name, "").strip().lower()
    if not v:
        return default
    if v in _TRUE:
        return True
    if v in _FALSE:
        return False
    raise ValueError(f"{name}={env.get(name)!r} is not a boolean (use one of {_TRUE + _FALSE})")


@dataclass(frozen=True)
class WordNetSettings:
    """Where the wn database lives and which lexicon to use.

    Env: TEXTGUARD_WN_DATA (default data/wn_data), TEXTGUARD_WN_LEXICON (a wn specifier),
    TEXTGUARD_WN_DOWNLOAD (0 = never try wn.download), TEXTGUARD_WN_APT (0 = never run apt-get).
    """

    data_dir: str
    lexicon: str = ""
    download: bool = True
    apt: bool = True

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> "WordNetSettings":
        e = dict(os.environ if env is None else env)
        return cls(data_dir=e.get("TEXTGUARD_WN_DATA") or str(PROJECT_ROOT / "data" / "wn_data"),
                   lexicon=e.get("TEXTGUARD_WN_LEXICON", ""),
                   download=e.get("TEXTGUARD_WN_DOWNLOAD", "1") not in ("0", "false", "no"),
                   apt=e.get("TEXTGUARD_WN_APT", "1") not in ("0", "false", "no"))


def wordnet_settings() -> WordNetSettings:
    """Read now (tests and the CLI change the variables between calls)."""
    return WordNetSettings.from_env()


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
        e = dict(os.environ if env is None else env)
        url = e.get("TEXTGUARD_WIKIDATA_URL", "").strip()
        mode = e.get("TEXTGUARD_WIKIDATA_MODE", "").strip() or ("online" if url else "off")
        if e.get("TEXTGUARD_WIKIDATA_OFFLINE", "").strip().lower() in {"1", "true", "yes"} and mode == "online":
            mode = "cache_only"
        return cls(base_url=url or "https://www.wikidata.org", mode=mode,
                   cache_dir=e.get("TEXTGUARD_WIKIDATA_CACHE") or default_wikidata_cache_dir(),
                   ttl_s=float(e.get("TEXTGUARD_WIKIDATA_TTL_S", 30 * 24 * 3600)))


def default_wikidata_cache_dir() -> str:
    return str(PROJECT_ROOT / "data" / "wikidata_cache")


def default_suppressions_path(env: Mapping[str, str] | None = None) -> str:
    """``$TEXTGUARD_SUPPRESSIONS``, default ``data/suppressions.csv`` of the project."""
    e = os.environ if env is None else env
    return e.get("TEXTGUARD_SUPPRESSIONS") or str(PROJECT_ROOT / "data" / "suppressions.csv")


@dataclass(frozen=True)
class MeaningsSettings:
    """Every knob of mentions and meanings (seed 003), one frozen object.

    Env: TEXTGUARD_MEANINGS_LLM (1/0; default on iff TEXTGUARD_LLM_URL is set — the endpoint, model and
    key always come from TEXTGUARD_LLM_*), TEXTGUARD_MEANINGS_RATE (Pass 3), TEXTGUARD_WIKIDATA_* (see
    WikidataSettings), TEXTGUARD_SUPPRESSIONS (default data/suppressions.csv), TEXTGUARD_SPACY_MODEL,
    TEXTGUARD_MEANINGS_BOUNDARY (split|reject), TEXTGUARD_MEANINGS_MIN_SUBJECT / _MIN_AUTHOR.
    The resolver-only knobs (index types, candidate limit, page size, hard-case threshold) have no variable.
    """

    use_llm: bool = False
    rate: bool = True  # Pass 3, only when an LLM is configured
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

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> "MeaningsSettings":
        e = dict(os.environ if env is None else env)
        wd = WikidataSettings.from_env(e)
        return cls(
            use_llm=_meanings_flag(e, "TEXTGUARD_MEANINGS_LLM", bool(e.get("TEXTGUARD_LLM_URL", "").strip())),
            rate=_meanings_flag(e, "TEXTGUARD_MEANINGS_RATE", True),
            wikidata_url=wd.base_url,
            wikidata_mode=wd.mode,
            wikidata_cache_dir=wd.cache_dir,
            suppressions_path=default_suppressions_path(e),
            spacy_model=e.get("TEXTGUARD_SPACY_MODEL", ""),
            boundary=e.get("TEXTGUARD_MEANINGS_BOUNDARY", "split"),
            min_occurrences_subject=int(e.get("TEXTGUARD_MEANINGS_MIN_SUBJECT", "1")),
            min_occurrences_author=int(e.get("TEXTGUARD_MEANINGS_MIN_AUTHOR", "1")),
        )

    def suppression_rules(self) -> list:
        # Imported here: settings.py stays importable before (and by) every library module.
        from .meanings.suppression import load_suppressions

        return load_suppressions(self.suppressions_path)

    def resolver(self):
        """A MeaningResolver (loads spaCy and opens WordNet; raises if no lexicon is installed)."""
        from .meanings.resolver import build_resolver  # heavy (spaCy, wn) and imports this module

        return build_resolver(self)
