"""Configurable resources (shown in the launchpad, set from env vars).

Each resource is a thin handle on a core/ component. `RESOURCES` is what
definitions.py registers; a new resource adds itself there.
"""

from __future__ import annotations

from pathlib import Path

from dagster import ConfigurableResource

from . import settings
from .core.documents import discover_documents
from .io_managers import ParquetIOManager


class CorpusResource(ConfigurableResource):
    """Where the documents live (`TEXTGUARD_CORPUS_DIR`, default data/corpus)."""

    corpus_dir: str

    def paths(self) -> dict[str, Path]:
        return discover_documents(self.corpus_dir)


class ProtectionResource(ConfigurableResource):
    """Term protection (seed 000): which recognisers run, custom terms, spaCy model.

    Env: TEXTGUARD_PROTECT_NER / _CITATIONS / _NUMBERS / _YEAR_ONLY (1/0),
    TEXTGUARD_PROTECT_TERMS (terms separated by "|"), TEXTGUARD_SPACY_MODEL.
    """

    use_ner: bool = True
    custom_terms: list[str] = []
    protect_citations: bool = True
    protect_numbers: bool = True
    protect_year_only: bool = False
    spacy_model: str = ""

    def config(self):
        from .core.protection import TermProtectionConfig

        return TermProtectionConfig(
            use_ner=self.use_ner,
            custom_terms=tuple(self.custom_terms),
            protect_citations=self.protect_citations,
            protect_numbers=self.protect_numbers,
            protect_year_only=self.protect_year_only,
            spacy_model=self.spacy_model or None,
        )

    def protector(self):
        from .core.protection import TermProtector

        return TermProtector(self.config())

    @classmethod
    def from_env(cls) -> "ProtectionResource":
        import os

        def flag(name: str, default: bool) -> bool:
            v = os.environ.get(name, "").strip().lower()
            return default if not v else v not in ("0", "false", "no", "off")

        terms = [t.strip() for t in os.environ.get("TEXTGUARD_PROTECT_TERMS", "").split("|") if t.strip()]
        return cls(
            use_ner=flag("TEXTGUARD_PROTECT_NER", True),
            custom_terms=terms,
            protect_citations=flag("TEXTGUARD_PROTECT_CITATIONS", True),
            protect_numbers=flag("TEXTGUARD_PROTECT_NUMBERS", True),
            protect_year_only=flag("TEXTGUARD_PROTECT_YEAR_ONLY", False),
            spacy_model=os.environ.get("TEXTGUARD_SPACY_MODEL", ""),
        )


class NerBackendResource(ConfigurableResource):
    """Math NER backend (seed 001): embedded rule-based extractor, or the HTTP backend at `url`.

    Env: TEXTGUARD_NER_URL (e.g. http://127.0.0.1:8001/ner; unset = rule-based),
    TEXTGUARD_NER_TIMEOUT_MS (default 10000), TEXTGUARD_NER_MAX_RETRIES (default 2).
    """

    url: str = ""
    timeout_ms: int = 10_000
    max_retries: int = 2

    def backend(self):
        from .core.math_ner import make_backend

        return make_backend(self.url, timeout_ms=self.timeout_ms, max_retries=self.max_retries)

    @classmethod
    def from_env(cls) -> "NerBackendResource":
        import os

        return cls(
            url=os.environ.get("TEXTGUARD_NER_URL", "").strip(),
            timeout_ms=int(os.environ.get("TEXTGUARD_NER_TIMEOUT_MS", "10000")),
            max_retries=int(os.environ.get("TEXTGUARD_NER_MAX_RETRIES", "2")),
        )


class MarkersGateResource(ConfigurableResource):
    """StructureNumberingGate settings (seed 004 §5; `enabled=False` is the §10 rollback).

    Env: TEXTGUARD_MARKERS_GATE (on/off), TEXTGUARD_MARKERS_SEQUENCE_THRESHOLD,
    TEXTGUARD_MARKERS_SOFT_FLAG_ACTION (llm | weak_marker), TEXTGUARD_MARKERS_FALLBACK_MAX.
    """

    enabled: bool = True
    sequence_threshold: int = 3
    soft_flag_action: str = "llm"
    fallback_max_markers: int = 3
    log_config_changes: bool = True

    def gate_config(self):
        from .core.markers import StructureGateConfig

        return StructureGateConfig(self.enabled, self.sequence_threshold, self.soft_flag_action,
                                   self.fallback_max_markers, self.log_config_changes)

    @classmethod
    def from_env(cls) -> "MarkersGateResource":
        from dataclasses import asdict

        from .core.markers import gate_config_from_env

        return cls(**asdict(gate_config_from_env()))


class MeaningsResource(ConfigurableResource):
    """Mentions and meanings (seed 003): LLM passes on/off, Wikidata, suppressions, detector knobs.

    Env: TEXTGUARD_MEANINGS_LLM (1/0; default on iff TEXTGUARD_LLM_URL is set — the endpoint,
    model and key always come from TEXTGUARD_LLM_*), TEXTGUARD_MEANINGS_RATE (Pass 3, 1/0),
    TEXTGUARD_WIKIDATA_URL / _MODE (off|cache_only|online) / _OFFLINE / _CACHE,
    TEXTGUARD_SUPPRESSIONS (default data/suppressions.csv), TEXTGUARD_SPACY_MODEL,
    TEXTGUARD_MEANINGS_BOUNDARY (split|reject), TEXTGUARD_MEANINGS_MIN_SUBJECT / _MIN_AUTHOR.
    With no WordNet lexicon installed, the small shipped one is installed (offline) and flagged
    in the metadata (``install_small_lexicon=False`` makes that an error instead).
    """

    use_llm: bool = False
    rate: bool = True
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

    def suppression_rules(self):
        from .core.meanings import load_suppressions

        return load_suppressions(self.suppressions_path)

    def resolver(self):
        """A MeaningResolver (loads spaCy and opens WordNet; raises if no lexicon is installed)."""
        from .core.llm import ChatClient, llm_config_from_env
        from .core.meanings import MeaningResolver, MeaningSettings
        from .core.nlp import load_spacy, model_label
        from .core.wikidata import WikidataClient, WikidataConfig, default_cache_dir
        from .core.wordnet_setup import WordNetNotInstalled, install_wordnet, open_wordnet, wordnet_status

        try:
            wnet = open_wordnet()
        except WordNetNotInstalled:
            if not self.install_small_lexicon:
                raise
            # No lexicon yet (e.g. a fresh clone before `textguard wordnet install`): the small shipped
            # WN-LMF file, offline; wordnet_status() carries the limited-coverage warning into metadata.
            install_wordnet(wndb_dirs=(), allow_download=False, log=lambda _msg: None)
            open_wordnet.cache_clear()
            wnet = open_wordnet()
        status = wordnet_status()
        nlp = load_spacy(self.spacy_model or None, profile="parse")
        llm_cfg = llm_config_from_env() if self.use_llm else None
        if self.use_llm and llm_cfg is None:
            raise ValueError("use_llm is on but TEXTGUARD_LLM_URL is not set")
        wikidata = WikidataClient(WikidataConfig(base_url=self.wikidata_url or "https://www.wikidata.org",
                                                 mode=self.wikidata_mode,
                                                 cache_dir=self.wikidata_cache_dir or default_cache_dir()))
        settings_ = MeaningSettings(use_llm=llm_cfg is not None, rate=self.rate, llm_batch_size=self.llm_batch_size,
                                    boundary=self.boundary, min_occurrences_subject=self.min_occurrences_subject,
                                    min_occurrences_author=self.min_occurrences_author)
        return MeaningResolver(nlp=nlp, wnet=wnet, lexicon=status.spec, lexicon_warning=status.warning,
                               wikidata=wikidata, llm=ChatClient(llm_cfg) if llm_cfg else None,
                               suppressions=self.suppression_rules(), settings=settings_, spacy_label=model_label(nlp))

    @classmethod
    def from_env(cls) -> "MeaningsResource":
        import os

        from .core.meanings import default_suppressions_path
        from .core.wikidata import wikidata_config_from_env

        def flag(name: str, default: bool) -> bool:
            v = os.environ.get(name, "").strip().lower()
            return default if not v else v not in ("0", "false", "no", "off")

        wd = wikidata_config_from_env()
        return cls(
            use_llm=flag("TEXTGUARD_MEANINGS_LLM", bool(os.environ.get("TEXTGUARD_LLM_URL", "").strip())),
            rate=flag("TEXTGUARD_MEANINGS_RATE", True),
            wikidata_url=wd.base_url,
            wikidata_mode=wd.mode,
            wikidata_cache_dir=wd.cache_dir or "",
            suppressions_path=default_suppressions_path(),
            spacy_model=os.environ.get("TEXTGUARD_SPACY_MODEL", ""),
            boundary=os.environ.get("TEXTGUARD_MEANINGS_BOUNDARY", "split"),
            min_occurrences_subject=int(os.environ.get("TEXTGUARD_MEANINGS_MIN_SUBJECT", "1")),
            min_occurrences_author=int(os.environ.get("TEXTGUARD_MEANINGS_MIN_AUTHOR", "1")),
        )


def build_resources() -> dict[str, object]:
    """The resources of the code location, read from the environment now."""
    resources: dict[str, object] = {
        "corpus": CorpusResource(corpus_dir=settings.corpus_dir()),
        "parquet_io_manager": ParquetIOManager(settings.warehouse()),
        "markers_gate": MarkersGateResource.from_env(),
        "meanings": MeaningsResource.from_env(),
        "ner_backend": NerBackendResource.from_env(),
        "protection": ProtectionResource.from_env(),
    }
    return resources
