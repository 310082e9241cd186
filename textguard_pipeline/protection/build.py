"""The ``protected_chunks`` table for one document, and the TermProtector of the settings (the one
implementation the asset, its resource, a notebook and ``pipeline.run_document`` call)."""

from __future__ import annotations

from typing import Any, Sequence

import pandas as pd

from ..ingest.parsing import Chunk
from ..settings import ProtectionSettings
from .model import TermProtectionConfig
from .protector import TermProtector
from .restore import protected_frame


def protector_for(settings: ProtectionSettings):
    """The TermProtector of ``settings`` (loads spaCy when NER is on; raises on an invalid custom term)."""
    return TermProtector(protection_config(settings))


def protection_config(settings: ProtectionSettings):
    """The validated TermProtectionConfig of ``settings``."""
    return TermProtectionConfig(
        use_ner=settings.use_ner,
        custom_terms=tuple(settings.custom_terms),
        protect_citations=settings.protect_citations,
        protect_numbers=settings.protect_numbers,
        protect_year_only=settings.protect_year_only,
        spacy_model=settings.spacy_model or None,
    )


def build_protected_chunks(doc_id: str, chunks: Sequence[Chunk], protector: Any) -> pd.DataFrame:
    """Prose chunks with terms behind ⟨TERM_NNN⟩ (``protector``: a TermProtector)."""
    return protected_frame(doc_id, chunks, protector)
