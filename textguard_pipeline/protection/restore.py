"""Stored rows: the table shape of `protected_chunks`, its restoration rule and the term rows."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

import pandas as pd

from ..ingest.parsing import Chunk, ChunkType
from ..lib.placeholder_audit import missing_occurrences
from ..lib.placeholders import PLACEHOLDER_RE, UnknownPlaceholderError, restore_placeholders
from .errors import MissingPlaceholdersError
from .recognizers.ner_language import ner_status

if TYPE_CHECKING:
    from .protector import TermProtector


def restore_protected(
    protected_text: str,
    term_placeholders: dict[str, str],
    math_placeholders: dict[str, str],
    *,
    expected_text: str | None = None,
) -> str:
    """Stored-row restoration (what the asset check runs): merged maps, single strict pass.

    Raises :class:`MissingPlaceholdersError` when an issued placeholder is absent (a parser placeholder
    swallowed by a term lives in that term's original), or, given ``expected_text`` (the protected text
    the answer came from), when one occurs fewer times than there.
    """
    restored = restore_placeholders(protected_text, {**math_placeholders, **term_placeholders}, strict=True)
    missing = [p for p in term_placeholders if p not in protected_text] + [
        p
        for p, o in math_placeholders.items()
        if p not in protected_text and not any(o in t for t in term_placeholders.values())
    ]
    if expected_text is not None:
        missing = missing_occurrences(expected_text, protected_text, {**math_placeholders, **term_placeholders})
    if missing:
        raise MissingPlaceholdersError(missing)
    return restored


PROTECTED_COLUMNS = [
    "doc_id",
    "chunk_index",
    "start",
    "end",
    "text",
    "protected_text",
    "term_placeholders",
    "math_placeholders",
    "terms",
    "n_terms",
    # issue 17: the chunk's language and which NER model read it (or why none did)
    "language",
    "language_confidence",
    "ner_model",
    "ner_skipped_reason",
    # issue 45: the chunk's markup (start, end, kind; absolute offsets), as in parsed_chunks
    "markup_spans",
]
TERM_FIELDS = ["placeholder", "original", "source", "label", "start", "end"]


def protected_frame(doc_id: str, chunks: Sequence[Chunk], protector: "TermProtector"):
    """One row per prose chunk of a document (NER runs once over all of them).

    ``text`` is the source slice (so the shared char-range check applies to
    chunk rows); ``terms`` lists every protected occurrence with absolute offsets.
    """
    prose = [c for c in chunks if str(c.chunk_type) == ChunkType.PROSE]
    rows = []
    # once per language, not per chunk: a model's label reads spaCy's ``nlp.meta``, which lists every
    # label of every component (≈ 1 ms; 1.7 s of the 15 s an RFC of 1,900 chunks took)
    status: dict[str | None, tuple[str | None, str | None]] = {}
    for pc in protector.protect_many(prose):
        c = pc.chunk
        language = getattr(c, "language", None)
        if language not in status:
            status[language] = ner_status(protector, language)
        rows.append(
            [
                doc_id,
                c.index,
                c.start,
                c.end,
                c.source_text(),
                pc.protected_text,
                dict(pc.term_placeholders),
                dict(c.math_placeholders),
                [t.as_row() for t in pc.terms],
                len(pc.terms),
                language,
                getattr(c, "language_confidence", None),
                *status[language],
                [{"start": a, "end": b, "kind": k} for a, b, k in c.markup_spans or ()],
            ]
        )
    df = pd.DataFrame(rows, columns=PROTECTED_COLUMNS)
    return df.astype(
        {
            "chunk_index": "int64",
            "start": "int64",
            "end": "int64",
            "n_terms": "int64",
            "language": "string",
            "language_confidence": "float64",
            "ner_model": "string",
            "ner_skipped_reason": "string",
        }
    )


def _as_dict(v: Any) -> dict[str, str]:
    if v is None:
        return {}
    if isinstance(v, dict):
        return v
    return dict(v)  # pyarrow map → list of pairs


def term_rows(df) -> list[dict[str, Any]]:
    """Flatten the ``terms`` column into span rows ``doc_id, start, end, text, ...``."""
    out = []
    for r in df.itertuples(index=False):
        for t in r.terms if r.terms is not None else []:
            out.append(
                {
                    "doc_id": r.doc_id,
                    "chunk_index": int(r.chunk_index),
                    "start": t["start"],
                    "end": t["end"],
                    "text": t["original"],
                    "placeholder": t["placeholder"],
                    "source": t["source"],
                }
            )
    return out


def restoration_failures(df, source: str) -> list[dict[str, Any]]:
    """Rows of a ``protected_chunks`` frame whose restoration is not byte-exact.

    Checks, per chunk: the single-pass restore of ``protected_text`` over the
    merged maps equals ``source[start:end]``; no placeholder-shaped token is
    unmapped; every issued TERM placeholder occurs in ``protected_text``; every
    term row's placeholder maps to that row's original.
    """
    out: list[dict[str, Any]] = []
    for r in df.itertuples(index=False):
        base = {"chunk_index": int(r.chunk_index), "start": int(r.start), "end": int(r.end)}
        terms_map, math_map = _as_dict(r.term_placeholders), _as_dict(r.math_placeholders)
        expected = source[int(r.start) : int(r.end)]
        try:
            restored = restore_protected(r.protected_text, terms_map, math_map)
        except UnknownPlaceholderError as exc:
            out.append(base | {"reason": f"unmapped placeholder(s) survive: {', '.join(exc.placeholders[:5])}"})
            continue
        except MissingPlaceholdersError as exc:
            out.append(
                base | {"reason": f"placeholder(s) issued but absent from protected_text: {', '.join(exc.missing[:5])}"}
            )
            continue
        if restored != expected:
            i = next(
                (k for k, (a, b) in enumerate(zip(restored, expected)) if a != b), min(len(restored), len(expected))
            )
            out.append(
                base
                | {
                    "reason": f"restored text differs from source[start:end] at offset {i}",
                    "expected": expected[max(0, i - 20) : i + 40],
                    "found": restored[max(0, i - 20) : i + 40],
                }
            )
            continue
        present = {m.group(0) for m in PLACEHOLDER_RE.finditer(r.protected_text)}
        unused = [p for p in terms_map if p not in present]
        if unused:
            out.append(
                base | {"reason": f"placeholder(s) issued but absent from protected_text: {', '.join(unused[:5])}"}
            )
        for t in r.terms if r.terms is not None else []:
            if terms_map.get(t["placeholder"]) != t["original"]:
                out.append(base | {"reason": f"term {t['placeholder']} at {t['start']} does not map to its original"})
                break
    return out
