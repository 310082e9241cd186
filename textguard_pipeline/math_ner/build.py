"""The ``ner_frames`` table for one document, and the extractor of the settings (the one implementation
the asset, its resource, a notebook and ``pipeline.run_document`` call)."""

from __future__ import annotations

import logging
from typing import Any, Sequence

import pandas as pd

from ..ingest.parsing import Chunk
from ..lib.llm import LLMConfig
from ..lib.log import Log
from ..settings import MathNerSettings, llm_settings
from .backends import build_extractor
from .table import ner_frame

logger = logging.getLogger(__name__)


def ner_backend_for(settings_: MathNerSettings) -> Any:
    """The math NER extractor of ``settings_`` (``math_ner.backends``); the TEXTGUARD_LLM_* client is
    configured only when the backend is llm/hybrid without a NER service URL (nothing paid otherwise).
    Called once per run: the extractor's client carries the run's meter and budget."""
    wants_llm = settings_.backend != "rules" and not settings_.url
    # the response cache (TEXTGUARD_LLM_CACHE) makes a re-run pay only for units it has not seen
    return build_extractor(settings_, LLMConfig.from_settings(llm_settings(), use_cache=True) if wants_llm else None)


def build_ner_frames(
    doc_id: str, chunks: Sequence[Chunk], backend: Any, log: Log = logger
) -> tuple[pd.DataFrame, dict[str, Any]]:
    """Math entities and frames, and the report (rejected entities, unmapped frames)."""
    df, report = ner_frame(doc_id, chunks, backend)
    for r in report["rejected_entities"][:20]:
        log.warning(f"{doc_id}: entity {r['text']!r} dropped ({r['reason']})")
    return df, report
