"""The ``resolved_meanings`` table for one document (the one implementation the asset, a notebook and
``pipeline.run_document`` call)."""

from __future__ import annotations

import logging
from typing import Any, Sequence

import pandas as pd

from ..ingest.parsing import Chunk
from ..lib.log import Log

logger = logging.getLogger(__name__)


def build_resolved_meanings(
    doc_id: str, text: str, chunks: Sequence[Chunk], fmt: str, resolver: Any, run_id: str = "", log: Log = logger
) -> tuple[pd.DataFrame, Any]:
    """Mentions with their meanings, and the resolver's per-document stats."""
    df, stats = resolver.resolve_document(doc_id, text, chunks, fmt, run_id)
    if stats.llm_fallback:
        log.warning(f"[resolved_meanings] {doc_id}: LLM detector failed, embedded detector used: {stats.llm_fallback}")
    return df, stats
