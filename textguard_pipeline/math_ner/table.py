"""The ``ner_frames`` table: text units of a document, one row per entity and per frame."""

from __future__ import annotations

import json
from typing import Any, Iterable

import pandas as pd
from pydantic import ValidationError

from .arith import exact
from .frame_rules import _apply, _same
from .schemas import NEREntity, NerExtractor, _short_error, frame_dict, validate_frame

NER_COLUMNS = ["doc_id", "kind", "start", "end", "text", "chunk_index", "entity_type", "canonical", "confidence",
               "frame_index", "frame_type", "frame_json", "arith_correct", "valid", "error", "backend"]
UNIT_MAX_CHARS = 4000


def text_units(chunks: Iterable[Any], max_chars: int = UNIT_MAX_CHARS) -> list[tuple[int, int, str]]:
    """(first chunk index, absolute start, source text) of the pieces sent to a backend.

    Adjacent prose chunks are joined (a procedure's intro and its list may be
    separate paragraphs), up to ``max_chars``; a longer chunk is cut at line ends.
    Math stays in: the source text of a chunk has its ``$…$`` restored.
    """
    pieces: list[tuple[int, int, str]] = []
    for c in chunks:
        if str(c.chunk_type) != "prose":
            continue
        src = c.source_text()
        pos = 0
        while len(src) - pos > max_chars:
            cut = src.rfind("\n", pos, pos + max_chars)
            if cut <= pos:
                cut = src.rfind(" ", pos, pos + max_chars)
            cut = pos + max_chars if cut <= pos else cut + 1
            pieces.append((c.index, c.start + pos, src[pos:cut]))
            pos = cut
        if pos < len(src):
            pieces.append((c.index, c.start + pos, src[pos:]))
    units: list[tuple[int, int, str]] = []
    for idx, start, txt in pieces:
        if units:
            u_idx, u_start, u_txt = units[-1]
            if u_start + len(u_txt) == start and len(u_txt) + len(txt) <= max_chars:
                units[-1] = (u_idx, u_start, u_txt + txt)
                continue
        units.append((idx, start, txt))
    return [u for u in units if u[2].strip()]


def ner_frame(doc_id: str, chunks: Iterable[Any], backend: NerExtractor) -> tuple[pd.DataFrame, dict[str, Any]]:
    """The ``ner_frames`` rows of one document and a report (counts, rejected entities).

    One row per entity (``kind="entity"``) and per frame (``kind="frame"``);
    ``start/end/text`` are absolute: the entity's quote, or the text the frame
    came from. A backend error propagates (the document fails, with its status).
    """
    rows: list[list[Any]] = []
    rejected: list[dict[str, Any]] = []
    unmapped: list[str] = []
    for chunk_index, base, unit in text_units(chunks):
        res = backend.extract(unit)
        for e in res.entities:
            rows.append([doc_id, "entity", base + e.start, base + e.end, e.text, chunk_index, e.type, e.canonical,
                         e.confidence, None, None, None, None, True, None, backend.label])
        for f in res.frames:
            s, e_ = (f.start, f.end) if f.start is not None and f.end is not None else (0, len(unit))
            correct = getattr(f, "correct", None) if f.frame_type == "ARITH_EXAMPLE" else None
            if f.frame_type == "ARITH_EXAMPLE" and correct is None:
                correct = check_arith(f)
            rows.append([doc_id, "frame", base + s, base + e_, unit[s:e_], chunk_index, None, None, None, None,
                         f.frame_type, json.dumps(_stored(f), ensure_ascii=False), correct, True, None,
                         backend.label])
        for bad in res.invalid_frames:
            ft = bad["frame"].get("frame_type") if isinstance(bad["frame"], dict) else None
            rows.append([doc_id, "frame", base, base + len(unit), unit, chunk_index, None, None, None, None,
                         str(ft) if ft is not None else None, json.dumps(bad["frame"], ensure_ascii=False, default=str),
                         None, False, bad["error"], backend.label])
        rejected += [{**r, "unit_start": base} for r in res.rejected_entities]
        unmapped += res.unmapped
    df = pd.DataFrame(rows, columns=NER_COLUMNS)
    df["frame_index"] = pd.array([None] * len(df), dtype="Int64")
    frame_pos = df.index[df["kind"] == "frame"]
    df.loc[frame_pos, "frame_index"] = range(len(frame_pos))
    df = df.astype({"start": "int64", "end": "int64", "chunk_index": "int64", "confidence": "float64",
                    "arith_correct": "boolean", "valid": "bool"})
    return df, {"rejected_entities": rejected, "unmapped": unmapped}


def _stored(frame: Any) -> dict[str, Any]:
    """Frame JSON as stored: the row's absolute start/end replace the input-relative ones."""
    d = frame_dict(frame)
    d.pop("start", None)
    d.pop("end", None)
    return d


def check_arith(frame: Any) -> bool | None:
    """Whether an ARITH_EXAMPLE's operands give its result (None: not numeric)."""
    if any(exact(v) is None for v in [*frame.operands, frame.result]):
        return None
    return _same(_apply(frame.operation, list(frame.operands)), frame.result)


def frame_row_problems(row: Any) -> list[str]:
    """Why a ``ner_frames`` row breaks its schema (empty list: it is valid)."""
    if row["kind"] == "entity":
        try:
            NEREntity(text=row["text"], type=row["entity_type"], start=0, end=len(row["text"]),
                      canonical=row["canonical"], confidence=row["confidence"])
        except ValidationError as exc:
            return [f"entity: {_short_error(exc)}"]
        return []
    if row["kind"] != "frame":
        return [f"unknown kind {row['kind']!r}"]
    try:
        f = validate_frame(row["frame_json"])
    except (ValidationError, TypeError) as exc:
        return [f"frame: {_short_error(exc) if isinstance(exc, ValidationError) else exc}"]
    if f.frame_type != row["frame_type"]:
        return [f"frame_type column {row['frame_type']!r} != frame {f.frame_type!r}"]
    return []
