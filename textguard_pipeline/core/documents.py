"""Compatibility shim: the documents module lives in :mod:`textguard_pipeline.ingest.documents`."""

from ..ingest.documents import *  # noqa: F401,F403
from ..ingest.documents import (  # noqa: F401
    DOC_ID_RE,
    FORMATS,
    IGNORE_FILE,
    Document,
    DocumentDecodeError,
    DocumentError,
    decode_strict,
    discover_documents,
    doc_id_for,
    file_sha256,
    format_of,
    ignore_patterns,
    is_safe_doc_id,
    read_document,
)
