"""Rewritten documents as files: ``<out>/rewritten/<path relative to the corpus>`` with the review page beside
it (``<path>.review.html``), so ``diff -r corpus out/rewritten`` shows what the model changed. Dagster-free."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from ..lib.atomic import write_text_atomic
from ..lib.parquet_files import partition_path, read_parquet


@dataclass
class Exported:
    written: list[Path] = field(default_factory=list)
    missing: dict[str, str] = field(default_factory=dict)  # doc_id → why it has no rewritten document


def export_rewritten(warehouse: str, doc_ids: Iterable[str], out_dir: str | os.PathLike[str]) -> Exported:
    """Write every document's ``rewritten_documents`` text (and review page) under ``out_dir/rewritten``."""
    root = (Path(out_dir) / "rewritten").resolve()
    res = Exported()
    for doc_id in doc_ids:
        parquet = partition_path(warehouse, "rewritten_documents", doc_id)
        if not parquet.exists():
            res.missing[doc_id] = "no rewritten_documents file (the document failed or rewriting was off)"
            continue
        (row,) = read_parquet(parquet).to_dict("records")
        target = (root / str(row["path"])).resolve()
        if root not in target.parents:  # a path from the warehouse never writes outside the output folder
            res.missing[doc_id] = f"path {row['path']!r} leaves {root}"
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        write_text_atomic(target, str(row["text"]))
        res.written.append(target)
        page = partition_path(warehouse, "rewritten_documents", doc_id, ".html")
        if page.exists():
            write_text_atomic(target.with_name(target.name + ".review.html"), page.read_text(encoding="utf-8"))
    return res
