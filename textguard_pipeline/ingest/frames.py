"""DataFrame shapes of the root assets (the Parquet columns other issues rely on)."""

from __future__ import annotations

from typing import Iterable

import pandas as pd

from .documents import Document
from .parsing import Chunk

SOURCE_COLUMNS = ["doc_id", "path", "format", "sha256", "text", "n_chars", "status", "error"]
CHUNK_COLUMNS = ["doc_id", "chunk_index", "chunk_type", "start", "end", "text", "math_placeholders"]
#: Added to ``parsed_chunks`` by issue 17 (ISO 639-1 code or null, and the detector's confidence).
LANGUAGE_COLUMNS = ["language", "language_confidence"]
#: Added to ``parsed_chunks`` by issue 45: list<struct<start, end, kind>>, absolute offsets (ingest/markup.py).
MARKUP_COLUMN = "markup_spans"


def source_frame(doc: Document) -> pd.DataFrame:
    return pd.DataFrame(
        [[doc.doc_id, doc.path, doc.format, doc.sha256, doc.text, doc.n_chars, "ok", None]],
        columns=SOURCE_COLUMNS,
    )


def source_error_frame(doc_id: str, path: str, fmt: str, error: str) -> pd.DataFrame:
    return pd.DataFrame([[doc_id, path, fmt, "", "", 0, "error", error]], columns=SOURCE_COLUMNS)


def chunks_frame(doc_id: str, chunks: Iterable[Chunk]) -> pd.DataFrame:
    rows = [[doc_id, c.index, str(c.chunk_type), c.start, c.end, c.text, dict(c.math_placeholders)] for c in chunks]
    df = pd.DataFrame(rows, columns=CHUNK_COLUMNS)
    return df.astype({"chunk_index": "int64", "start": "int64", "end": "int64"})


def parsed_chunks_frame(doc_id: str, chunks: Iterable[Chunk]) -> pd.DataFrame:
    """The ``parsed_chunks`` table: the chunk columns and each chunk's language."""
    chunks = list(chunks)
    df = chunks_frame(doc_id, chunks)
    df["language"] = pd.Series([c.language for c in chunks], index=df.index, dtype=object)
    df["language_confidence"] = pd.Series([c.language_confidence for c in chunks], index=df.index, dtype="float64")
    df[MARKUP_COLUMN] = pd.Series(
        [[{"start": s, "end": e, "kind": k} for s, e, k in c.markup_spans or ()] for c in chunks],
        index=df.index,
        dtype=object,
    )
    return df


def _language(value: object) -> str | None:
    return value if isinstance(value, str) and value else None


def _confidence(value: object) -> float | None:
    return None if value is None or value != value else float(value)  # NaN (null in Parquet) → None


def chunks_from_frame(df: pd.DataFrame) -> list[Chunk]:
    """Chunk objects back from a `parsed_chunks` frame (in chunk order), with their language when stored."""
    out = []
    has_language = "language" in df.columns
    has_markup = MARKUP_COLUMN in df.columns
    for r in df.sort_values("chunk_index").itertuples(index=False):
        c = Chunk(
            int(r.chunk_index), str(r.chunk_type), int(r.start), int(r.end), r.text, dict(r.math_placeholders or {})
        )
        if has_language:
            c.language, c.language_confidence = _language(r.language), _confidence(r.language_confidence)
        if has_markup and r.markup_spans is not None:
            c.markup_spans = [(int(m["start"]), int(m["end"]), str(m["kind"])) for m in r.markup_spans]
        out.append(c)
    return out
