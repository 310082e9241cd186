"""The one-row ``source_documents`` table of a corpus entry: the document, or a flagged error row."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pandas as pd

from .. import settings
from .documents import (
    FORMATS,
    CorpusEntry,
    DocumentError,
    display_path,
    path_problem,
    read_document,
    relative_path,
)
from .frames import source_error_frame, source_frame

logger = logging.getLogger(__name__)


def entry_for(doc_id: str, path: Path | str, corpus_root: Path | str) -> CorpusEntry:
    """The scan entry of one path (collisions are only known to a whole-corpus scan)."""
    return CorpusEntry(
        doc_id, Path(path), display_path(relative_path(path, corpus_root)), path_problem(path, corpus_root)
    )


def source_documents_frame(
    doc_id: str,
    entry: CorpusEntry | None,
    corpus_root: Path | str,
    log: Any = logger,
    max_bytes: int | None = None,
) -> pd.DataFrame:
    """The document's row; a file that cannot be named, reached or read, or that is larger than
    ``max_bytes`` (None: ``TEXTGUARD_MAX_DOCUMENT_BYTES``), is a row with status="error" and a reason
    that names the file (the ``source_documents_readable`` check fails on it)."""
    if entry is None:
        return source_error_frame(doc_id, "", "", f"{doc_id}: no such document under {corpus_root}")
    fmt = FORMATS.get(Path(entry.rel).suffix.lower(), "")
    if entry.problem is not None:
        message = f"{entry.rel}: {entry.problem}"
        log.error(message)
        return source_error_frame(doc_id, entry.rel, fmt, message)
    try:
        limit = settings.max_document_bytes() if max_bytes is None else max_bytes
        return source_frame(read_document(entry.path, corpus_root, limit))
    except DocumentError as exc:
        log.error(str(exc))
        return source_error_frame(doc_id, entry.rel, fmt, str(exc))
