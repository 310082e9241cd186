"""Configurable resources (shown in the launchpad, set from env vars).

Each resource is a thin handle on a slice's component (its ``build.py``), built from the same
settings dataclass as pipeline.py uses. ``build_resources()`` is what
definitions.py registers; a new resource adds itself there.
"""

from __future__ import annotations

from dataclasses import MISSING, asdict, fields, replace
from pathlib import Path
from typing import Any, get_args, get_origin, get_type_hints

from dagster import ConfigurableResource, EnvVar

from .. import settings
from ..ingest.documents import discover_documents
from ..markers.build import make_gate
from ..markers.model import StructureGateConfig
from ..math_ner.build import ner_backend_for
from ..protection.build import protection_config, protector_for
from ..settings import MarkersGateSettings, MathNerSettings, ProtectionSettings
from .io_manager import ParquetIOManager

NER_URL_VAR = "TEXTGUARD_NER_URL"  # the variable settings.math_ner_settings() reads the service URL from


def _launchpad_type(hint: Any) -> Any:
    """Dagster config has lists, not tuples: ``tuple[str, ...]`` shows as ``list[str]``."""
    if get_origin(hint) is tuple:
        return list[get_args(hint)[0]]
    return hint


def settings_resource(settings_cls: type) -> type[ConfigurableResource]:
    """A ConfigurableResource base whose fields are exactly ``settings_cls``'s (declared once, in the settings package).

    Subclass it to add behaviour; ``.settings()`` gives the frozen settings object back and
    ``from_settings(obj)`` makes the resource (the launchpad shows the values read from the environment).
    """
    hints = get_type_hints(settings_cls)
    annotations = {f.name: _launchpad_type(hints[f.name]) for f in fields(settings_cls)}
    defaults = {
        f.name: list(f.default) if isinstance(f.default, tuple) else f.default
        for f in fields(settings_cls)
        if f.default is not MISSING
    }

    def settings(self):
        values = {name: getattr(self, name) for name in annotations}
        return settings_cls(**{k: tuple(v) if isinstance(v, list) else v for k, v in values.items()})

    @classmethod
    def from_settings(cls, obj):
        return cls(**{k: list(v) if isinstance(v, tuple) else v for k, v in asdict(obj).items()})

    namespace = {
        "__annotations__": annotations,
        "__doc__": settings_cls.__doc__,
        **defaults,
        "settings": settings,
        "from_settings": from_settings,
    }
    return type(f"{settings_cls.__name__}Fields", (ConfigurableResource,), namespace)


class CorpusResource(ConfigurableResource):
    """Where the documents live (`TEXTGUARD_CORPUS_DIR`, default data/corpus)."""

    corpus_dir: str

    def paths(self) -> dict[str, Path]:
        return discover_documents(self.corpus_dir)


class ProtectionResource(settings_resource(ProtectionSettings)):
    """Term protection (seed 000): which recognisers run, custom terms, spaCy model (`settings.ProtectionSettings`)."""

    def config(self):
        return protection_config(self.settings())

    def protector(self):
        return protector_for(self.settings())

    @classmethod
    def from_env(cls) -> "ProtectionResource":
        return cls.from_settings(settings.protection_settings())


class NerBackendResource(settings_resource(MathNerSettings)):
    """Math NER (seed 001): rules | llm | hybrid, in process or behind the service at `url` (`settings.MathNerSettings`)."""

    def extractor(self):
        """The extractor to run (the field ``backend`` names its kind: rules | llm | hybrid)."""
        return ner_backend_for(self.settings())

    @classmethod
    def from_env(cls) -> "NerBackendResource":
        s = settings.math_ner_settings()
        # The URL may carry a password: the resource takes it by the variable's name (EnvVar is a str), so the
        # run config stored in the instance (and the launchpad) holds "TEXTGUARD_NER_URL", not its value.
        return cls.from_settings(replace(s, url=EnvVar(NER_URL_VAR)) if s.url else s)


class MarkersGateResource(settings_resource(MarkersGateSettings)):
    """StructureNumberingGate settings (seed 004 §5; `enabled=False` is the §10 rollback; `settings.MarkersGateSettings`)."""

    def gate_config(self) -> StructureGateConfig:
        return StructureGateConfig(**asdict(self.settings()))

    def gate(self, log=None):
        """The StructureNumberingGate (with the TEXTGUARD_LLM_* client when SOFT_FLAG asks the LLM)."""
        return make_gate(self.gate_config(), log=log)

    @classmethod
    def from_env(cls) -> "MarkersGateResource":
        return cls.from_settings(settings.markers_gate_settings())


def build_resources() -> dict[str, object]:
    """The resources of the code location, read from the environment now."""
    resources: dict[str, object] = {
        "corpus": CorpusResource(corpus_dir=settings.corpus_dir()),
        "parquet_io_manager": ParquetIOManager(settings.warehouse()),
        "markers_gate": MarkersGateResource.from_env(),
        "ner_backend": NerBackendResource.from_env(),
        "protection": ProtectionResource.from_env(),
    }
    return resources
