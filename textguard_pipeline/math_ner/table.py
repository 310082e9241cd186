"""The ``ner_frames`` table: text units of a document, one row per entity and per frame."""

from __future__ import annotations

import json
import uuid
from typing import Any, Iterable

import pandas as pd
from pydantic import ValidationError

from .arith import exact
from .frame_rules import _apply, _same
from .schemas import NEREntity, NerExtractor, _short_error, frame_dict, validate_frame

NER_COLUMNS = [
    "doc_id",
    "kind",
    "start",
    "end",
    "text",
    "chunk_index",
    "entity_type",
    "canonical",
    "confidence",
    "frame_index",
    "frame_type",
    "frame_json",
    "arith_correct",
    "valid",
    "error",
    "backend",
]
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


#: Namespace of the ``source_span_id`` of a text unit: uuid5 of ``doc_id:start:end`` (stable across runs).
SPAN_NAMESPACE = uuid.uuid5(uuid.NAMESPACE_URL, "textguard:ner_frames")


def span_id(doc_id: str, start: int, end: int) -> uuid.UUID:
    """The id of the text unit ``[start, end)`` of ``doc_id`` (the seed's DocSpan.span_id)."""
    return uuid.uuid5(SPAN_NAMESPACE, f"{doc_id}:{start}:{end}")


def ner_frame(doc_id: str, chunks: Iterable[Any], backend: NerExtractor) -> tuple[pd.DataFrame, dict[str, Any]]:
    """The ``ner_frames`` rows of one document and a report (counts, rejected entities, units by route).

    One row per entity (``kind="entity"``) and per frame (``kind="frame"``);
    ``start/end/text`` are absolute: the entity's quote, or the text the frame
    came from. As the seed's adapter does (§5.1 step 5), every frame gets the ``source_span_id`` of
    the text unit it came from. An extractor with ``extract_many`` gets all units of the document at
    once (so it can batch them). A backend error propagates (the document fails, with its status).
    """
    units = text_units(chunks)
    many = getattr(backend, "extract_many", None)
    results = many([u[2] for u in units]) if many is not None else [backend.extract(u[2]) for u in units]
    rows: list[list[Any]] = []
    report: dict[str, Any] = {"rejected_entities": [], "unmapped": [], "units": {}, "windows": []}
    for (chunk_index, base, unit), res in zip(units, results):
        rows += _unit_rows(doc_id, chunk_index, base, unit, res, backend.label)
        report["rejected_entities"] += [{**r, "unit_start": base} for r in res.rejected_entities]
        report["unmapped"] += res.unmapped
        for k, v in res.units.items():
            report["units"][k] = report["units"].get(k, 0) + v
        report["windows"] += [{**w, "start": base + w["start"], "end": base + w["end"]} for w in res.windows]
    df = pd.DataFrame(rows, columns=NER_COLUMNS)
    df["frame_index"] = pd.array([None] * len(df), dtype="Int64")
    frame_pos = df.index[df["kind"] == "frame"]
    df.loc[frame_pos, "frame_index"] = range(len(frame_pos))
    df = df.astype(
        {
            "start": "int64",
            "end": "int64",
            "chunk_index": "int64",
            "confidence": "float64",
            "arith_correct": "boolean",
            "valid": "bool",
        }
    )
    return df, report


def _unit_rows(doc_id: str, chunk_index: int, base: int, unit: str, res: Any, label: str) -> list[list[Any]]:
    rows: list[list[Any]] = []
    sid = str(span_id(doc_id, base, base + len(unit)))
    for k, e in enumerate(res.entities):
        src = res.entity_sources[k] if res.entity_sources else label
        rows.append(
            [
                doc_id,
                "entity",
                base + e.start,
                base + e.end,
                e.text,
                chunk_index,
                e.type,
                e.canonical,
                e.confidence,
                None,
                None,
                None,
                None,
                True,
                None,
                src,
            ]
        )
    for k, f in enumerate(res.frames):
        s, e_ = (f.start, f.end) if f.start is not None and f.end is not None else (0, len(unit))
        correct = getattr(f, "correct", None) if f.frame_type == "ARITH_EXAMPLE" else None
        if f.frame_type == "ARITH_EXAMPLE" and correct is None:
            correct = check_arith(f)
        stored = {**_stored(f), "source_span_id": sid}
        rows.append(
            [
                doc_id,
                "frame",
                base + s,
                base + e_,
                unit[s:e_],
                chunk_index,
                None,
                None,
                None,
                None,
                f.frame_type,
                json.dumps(stored, ensure_ascii=False),
                correct,
                True,
                None,
                res.frame_sources[k] if res.frame_sources else label,
            ]
        )
    for bad in res.invalid_frames:
        ft = bad["frame"].get("frame_type") if isinstance(bad["frame"], dict) else None
        s, e_ = bad.get("start", 0), bad.get("end", len(unit))
        rows.append(
            [
                doc_id,
                "frame",
                base + s,
                base + e_,
                unit[s:e_],
                chunk_index,
                None,
                None,
                None,
                None,
                str(ft) if ft is not None else None,
                json.dumps(bad["frame"], ensure_ascii=False, default=str),
                None,
                False,
                bad["error"],
                bad.get("backend", label),
            ]
        )
    return rows


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
            NEREntity(
                text=row["text"],
                type=row["entity_type"],
                start=0,
                end=len(row["text"]),
                canonical=row["canonical"],
                confidence=row["confidence"],
            )
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
