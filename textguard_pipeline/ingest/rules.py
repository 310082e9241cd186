"""Invariants of the root assets, as check rules (``rule(doc_id, frame, source) -> failing rows``).

Dagster-free: ``ingest.defs`` turns them into asset checks with ``checks.frame_check``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import pandas as pd

from ..lib.spans import check_char_ranges
from .documents import file_sha256, is_safe_doc_id
from .frames import MARKUP_COLUMN, chunks_from_frame

Rule = Callable[[str, pd.DataFrame, "str | None"], list[dict[str, Any]]]


def source_rule_factory(corpus_dir_fn: Callable[[], str]) -> Rule:
    def rule(doc_id: str, df: pd.DataFrame, _src: str | None) -> list[dict[str, Any]]:
        out = []
        for r in df.itertuples(index=False):
            if not is_safe_doc_id(r.doc_id):
                out.append({"reason": f"unsafe doc_id {r.doc_id!r}"})
            if r.status != "ok":
                out.append({"path": r.path, "reason": r.error})
                continue
            p = Path(corpus_dir_fn()) / r.path
            if p.exists():
                if file_sha256(p) != r.sha256:
                    out.append({"path": r.path, "reason": "sha256 differs from the file (changed since read?)"})
            if len(r.text) != r.n_chars:
                out.append({"path": r.path, "reason": "n_chars differs from len(text)"})
        return out

    return rule


def chunk_tiling_rule(doc_id: str, df: pd.DataFrame, source: str | None) -> list[dict[str, Any]]:
    """Chunks tile the document and restoring placeholders gives the source slice."""
    if source is None:
        return [{"reason": "source document not available"}]
    out: list[dict[str, Any]] = []
    pos = 0
    for c in chunks_from_frame(df):
        if c.start != pos:
            out.append({"chunk_index": c.index, "start": c.start, "reason": f"gap/overlap: expected start {pos}"})
        try:
            restored = c.source_text()
        except KeyError as exc:
            out.append({"chunk_index": c.index, "reason": f"unrestorable: {exc}"})
        else:
            if restored != source[c.start : c.end]:
                out.append(
                    {
                        "chunk_index": c.index,
                        "start": c.start,
                        "end": c.end,
                        "reason": "restored text differs from source[start:end]",
                    }
                )
        pos = c.end
    if pos != len(source):
        out.append({"reason": f"chunks end at {pos}, document has {len(source)} chars"})
    return out


def markup_spans_rule(doc_id: str, df: pd.DataFrame, source: str | None) -> list[dict[str, Any]]:
    """Every markup span lies in its chunk, in order, and quotes the document: the chunk's own source text at
    ``[start, end)`` is ``source[start:end]`` (the shared char-range rule, absolute offsets)."""
    if MARKUP_COLUMN not in df.columns:
        return [{"reason": f"no {MARKUP_COLUMN} column"}]
    if source is None:
        return [{"reason": "source document not available"}]
    out: list[dict[str, Any]] = []
    rows: list[dict[str, Any]] = []
    for c in chunks_from_frame(df):
        if not c.markup_spans:
            continue
        own = c.source_text()
        last = c.start
        for s, e, kind in c.markup_spans:
            if not (last <= s < e <= c.end):
                out.append({"chunk_index": c.index, "start": s, "end": e, "reason": f"{kind} span out of order "
                            f"or outside its chunk [{c.start}, {c.end})"})  # fmt: skip
                continue
            last = e
            rows.append({"start": s, "end": e, "text": own[s - c.start : e - c.start]})
    return out + [v.as_dict() | {"doc_id": doc_id} for v in check_char_ranges(rows, source, limit=100)]
