"""Configurable resources (shown in the launchpad, set from env vars).

Each resource is a thin handle on a core/ component, built from the same
settings dataclass as core/pipeline.py uses. ``build_resources()`` is what
definitions.py registers; a new resource adds itself there.
"""

from __future__ import annotations

from dataclasses import asdict, fields
from pathlib import Path

from dagster import ConfigurableResource

from .. import settings
from ..core.documents import discover_documents
from .io_manager import ParquetIOManager


def _as_settings(resource: ConfigurableResource, settings_cls):
    """The core settings dataclass with the resource's values (one constructor for both)."""
    return settings_cls(**{f.name: getattr(resource, f.name) for f in fields(settings_cls)})


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

    def _settings(self):
        from ..core.pipeline import ProtectionSettings

        return _as_settings(self, ProtectionSettings)

    def config(self):
        return self._settings().config()

    def protector(self):
        return self._settings().protector()

    @classmethod
    def from_env(cls) -> "ProtectionResource":
        from ..core.pipeline import ProtectionSettings

        return cls(**asdict(ProtectionSettings.from_env()))


class NerBackendResource(ConfigurableResource):
    """Math NER backend (seed 001): embedded rule-based extractor, or the HTTP backend at `url`.

    Env: TEXTGUARD_NER_URL (e.g. http://127.0.0.1:8001/ner; unset = rule-based),
    TEXTGUARD_NER_TIMEOUT_MS (default 10000), TEXTGUARD_NER_MAX_RETRIES (default 2).
    """

    url: str = ""
    timeout_ms: int = 10_000
    max_retries: int = 2

    def backend(self):
        from ..core.pipeline import NerSettings

        return _as_settings(self, NerSettings).backend()

    @classmethod
    def from_env(cls) -> "NerBackendResource":
        from ..core.pipeline import NerSettings

        return cls(**asdict(NerSettings.from_env()))


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
        from ..core.markers import StructureGateConfig

        return StructureGateConfig(self.enabled, self.sequence_threshold, self.soft_flag_action,
                                   self.fallback_max_markers, self.log_config_changes)

    def gate(self, log=None):
        """The StructureNumberingGate (with the TEXTGUARD_LLM_* client when SOFT_FLAG asks the LLM)."""
        from ..core.pipeline import make_gate

        return make_gate(self.gate_config(), log=log)

    @classmethod
    def from_env(cls) -> "MarkersGateResource":
        from ..core.markers import gate_config_from_env

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

    def _settings(self):
        from ..core.pipeline import MeaningsSettings

        return _as_settings(self, MeaningsSettings)

    def suppression_rules(self):
        return self._settings().suppression_rules()

    def resolver(self):
        """A MeaningResolver (loads spaCy and opens WordNet; raises if no lexicon is installed)."""
        return self._settings().resolver()

    @classmethod
    def from_env(cls) -> "MeaningsResource":
        from ..core.pipeline import MeaningsSettings

        return cls(**asdict(MeaningsSettings.from_env()))


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
