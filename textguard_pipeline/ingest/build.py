"""The root assets' tables for one document: ``source_documents`` and ``parsed_chunks`` (the one
implementation the assets, a notebook and ``pipeline.run_document`` call)."""

from __future__ import annotations

import logging
from pathlib import Path

import pandas as pd

from ..lib.log import Log
from ..settings import chunk_limits, language_settings
from .frames import parsed_chunks_frame
from .languages import assign_languages, document_override
from .parsing import Chunk, parse_document
from .sources import entry_for, source_documents_frame

logger = logging.getLogger(__name__)


def build_source_documents(
    doc_id: str, path: Path | str | None, corpus_root: Path | str, log: Log = logger
) -> pd.DataFrame:
    """The one-row ``source_documents`` table; a file that cannot be named, reached or read is a row
    with status="error" naming it."""
    entry = entry_for(doc_id, path, corpus_root) if path is not None else None
    return source_documents_frame(doc_id, entry, corpus_root, log)


def parse_chunks(
    text: str,
    fmt: str,
    rel_path: str | None = None,
    corpus_root: Path | str | None = None,
    run_language: str | None = None,
) -> list[Chunk]:
    """The chunks of a document (the objects behind ``parsed_chunks``), each with its language.

    ``run_language``: the run's override (None: ``TEXTGUARD_LANGUAGE``); ``rel_path``/``corpus_root``
    locate the corpus mapping file (docs/languages.md)."""
    soft, hard = chunk_limits()
    chunks = parse_document(text, fmt, chunk_chars=soft, chunk_max_chars=hard)
    if run_language is None:
        run_language = language_settings().language
    declared = None if run_language else document_override(text, fmt, rel_path, corpus_root)
    assign_languages(chunks, run_language=run_language, declared=declared)
    return chunks


def build_parsed_chunks(
    doc_id: str,
    text: str,
    fmt: str,
    rel_path: str | None = None,
    corpus_root: Path | str | None = None,
    run_language: str | None = None,
) -> pd.DataFrame:
    return parsed_chunks_frame(doc_id, parse_chunks(text, fmt, rel_path, corpus_root, run_language))
