"""Keep the last good output of a document that failed for a reason outside it, while it is still valid.

An endpoint outage, a spent budget or a missing setting says nothing about the document: deleting the
rewrite paid for yesterday because the endpoint answers 500 today loses work and money. So such a failure
(:func:`textguard_pipeline.lib.outage.outage_of`) keeps the document's file — but only while the document's
sha256 and the asset's code version are those the file was built from (its stamp, written by the IO manager
from ``frame.attrs``); otherwise the file is removed, as for a failure that is the document's own. A kept
document's materialization says ``stale`` with the reason, the step's ``stale_documents`` metadata lists it,
and ``textguard report`` counts it in its headline and exits non-zero.
"""

from __future__ import annotations

from typing import Any, Iterable

import pandas as pd
from dagster import AssetExecutionContext

from .io_manager import STAMP_KEY, KeepFile, ParquetIOManager

#: joins an asset's logic version and the hash of its settings in its code version (defs_kit/automation.py)
SETTINGS_MARK = "+s"


def logic_version(code_version: str) -> str:
    """``code_version`` without its settings part: what the last good output is stamped with, so that an
    outage or a missing setting keeps the earlier file (marked stale) instead of deleting paid work because a
    setting differs; a changed logic version still removes it."""
    return code_version.split(SETTINGS_MARK, 1)[0]


def code_version(context: AssetExecutionContext) -> str:
    """The asset's logic version: its code version without the settings part (:func:`logic_version`;
    "" when it has none or this is not a single-asset step)."""
    try:
        key = context.assets_def.key
        return logic_version(str(context.assets_def.code_versions_by_key.get(key) or ""))
    except Exception:
        return ""


def _manager(context: AssetExecutionContext) -> ParquetIOManager | None:
    manager = getattr(context.resources, "parquet_io_manager", None)
    return manager if isinstance(manager, ParquetIOManager) else None


def document_sha256(context: AssetExecutionContext, key: str, frames: Iterable[Any]) -> str | None:
    """The document's sha256: from a ``source_documents`` row among ``frames``, else from the stored
    ``source_documents`` partition; None when neither has a readable document."""
    for df in frames:
        if isinstance(df, pd.DataFrame) and {"sha256", "text"} <= set(df.columns) and len(df) == 1:
            row = df.iloc[0]
            return str(row["sha256"]) if row.get("status", "ok") == "ok" and row["sha256"] else None
    manager = _manager(context)
    if manager is not None:
        stored = manager.read_partition("source_documents", key)
        if isinstance(stored, pd.DataFrame) and len(stored) == 1 and stored.iloc[0].get("status", "ok") == "ok":
            return str(stored.iloc[0]["sha256"]) or None
    return None


def stamp(context: AssetExecutionContext, key: str, frames: Iterable[Any]) -> dict[str, str] | None:
    """What a file of ``key`` built now is built from, or None when the document cannot be identified."""
    sha = document_sha256(context, key, frames)
    return {"sha256": sha, "code_version": code_version(context)} if sha else None


def stamp_frame(context: AssetExecutionContext, key: str, df: Any, frames: list[Any]) -> None:
    """Mark ``df`` with its stamp (the IO manager writes it into the file's metadata)."""
    if isinstance(df, pd.DataFrame):
        current = stamp(context, key, [*frames, df])
        if current:
            df.attrs[STAMP_KEY] = current


def keep_last_good(context: AssetExecutionContext, key: str, frames: list[Any], reason: str) -> KeepFile | None:
    """KeepFile(reason) when the stored file of ``key`` was built from this very document and code version,
    else None (the file, if any, is then removed)."""
    manager = _manager(context)
    if manager is None:
        return None
    stored = manager.stamp("/".join(context.assets_def.key.path), key)
    current = stamp(context, key, frames)
    if not stored or not current or any(stored.get(k) != v for k, v in current.items()):
        return None
    return KeepFile(reason)


def drop_file(context: AssetExecutionContext, key: str) -> None:
    """Remove the stored file of ``key``, and its files of every asset downstream: the document failed in a step
    that writes nothing (a one-document run), so Dagster skips the downstream steps, and no earlier file may
    outlive the failure any more than in a multi-document run (where each downstream step removes its own)."""
    manager = _manager(context)
    if manager is None:
        return
    for asset_key in (context.assets_def.key, *_descendants(context)):
        manager.remove_partition("/".join(asset_key.path), key)


def _descendants(context: AssetExecutionContext) -> list:
    """The document-partitioned assets downstream of the running one in this run's job (the steps Dagster skips
    after it fails; none when the graph cannot be read)."""
    try:
        graph = context.job_def.asset_layer.asset_graph
        start = context.assets_def.key
        partitions = graph.get(start).partitions_def
    except Exception:  # a direct call with no job: the asset's own file only
        return []
    seen, todo = set(), list(graph.get(start).child_keys)
    while todo:
        key = todo.pop()
        if key in seen or not graph.has(key):
            continue
        seen.add(key)
        todo.extend(graph.get(key).child_keys)
    return sorted((k for k in seen if graph.get(k).partitions_def == partitions), key=lambda k: k.to_user_string())


def keep_all(context: AssetExecutionContext, reason: str) -> tuple[dict[str, KeepFile | None], dict[str, str]]:
    """Every partition of the run failed for ``reason`` (outside the documents, e.g. a missing setting): the
    outputs (KeepFile for a still-valid file, None otherwise) and the kept ones' reasons."""
    out = {key: keep_last_good(context, key, [], reason) for key in context.partition_keys}
    return out, {k: v.reason for k, v in out.items() if v is not None}
