"""The ``citation_maps`` table for one document (the one implementation the asset, a notebook and
``pipeline.run_document`` call)."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Sequence

import pandas as pd

from ..ingest.parsing import Chunk
from ..lib.log import Log
from .documents import CITATION_COLUMNS, DocumentCitations, document_citations, source_count_for
from .parser import CitationParser

logger = logging.getLogger(__name__)

_CITATION_DTYPES = {
    "start": "int64",
    "end": "int64",
    "citation_id": "int64",
    "cluster_index": "int64",
    "sentence_index": "int64",
    "sentence_start": "int64",
    "sentence_end": "int64",
    "valid": "bool",
    "chunk_index": "int64",
    "cluster_start": "int64",
    "cluster_end": "int64",
}


def build_citation_maps(
    doc_id: str,
    text: str,
    chunks: Sequence[Chunk],
    doc_path: Path | str | None,
    parser: CitationParser,
    log: Log = logger,
) -> tuple[pd.DataFrame, DocumentCitations]:
    """Numeric [N] citations with their sentences; the source count comes from a
    ``<doc>.sources.json`` sidecar next to ``doc_path`` or the document's references list."""
    result = document_citations(doc_id, text, chunks, source_count_for(text, doc_path), parser)
    for r in result.invalid:
        log.warning(f"{doc_id} [{r['start']}:{r['end']}] {r['error']}")
    return pd.DataFrame(result.rows, columns=CITATION_COLUMNS).astype(_CITATION_DTYPES), result
