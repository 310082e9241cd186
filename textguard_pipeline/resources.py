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


def build_resources() -> dict[str, object]:
    """The resources of the code location, read from the environment now."""
    resources: dict[str, object] = {
        "corpus": CorpusResource(corpus_dir=settings.corpus_dir()),
        "parquet_io_manager": ParquetIOManager(settings.warehouse()),
    }
    return resources
