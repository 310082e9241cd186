"""Documents failing a check, accumulated across runs (the UI's Checks tab shows every one, issue 53).

A check evaluation sees only its run's documents. Each evaluation updates
``<warehouse>/_checks/<asset>/<check>.json`` — {doc_id: {"since": run id, "run": last failing run id,
"detail": row}} — under a file lock, written atomically: a document of the run that failed enters
(or stays), a document of the run that passed leaves, documents of other runs are untouched. The
evaluation's metadata then carries the whole table (``documents_failing``). Local warehouses only
(an object-store warehouse gets the run's subset, as before).
"""

from __future__ import annotations

import fcntl
import json
from collections.abc import Iterable, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ..lib.atomic import write_text_atomic
from .checks import FAILING_DOCS_CAP

#: rows shown in the metadata table (the JSON file keeps every document)
SHOWN = 200


def history_path(warehouse: str, asset: str, check: str) -> Path | None:
    if "://" in warehouse and not warehouse.startswith("file://"):
        return None
    return Path(warehouse.removeprefix("file://")) / "_checks" / asset / f"{check}.json"


@contextmanager
def _locked(path: Path):
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path.with_name(f".{path.name}.lock"), "a+") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def _read(path: Path) -> dict[str, dict[str, str]]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):  # none yet, or unreadable: start again (the next runs refill it)
        return {}
    return {str(k): v for k, v in data.items() if isinstance(v, dict)} if isinstance(data, dict) else {}


def update(
    path: Path,
    checked: Iterable[str],
    failing: Mapping[str, str],
    run_id: str,
    complete: bool = True,
) -> dict[str, dict[str, str]]:
    """Apply one evaluation to the table at ``path``; return the whole table.

    ``failing``: doc_id → detail. ``complete=False`` when ``failing`` was truncated: then a checked
    document not listed may still fail, and is left as it was.
    """
    with _locked(path):
        table = _read(path)
        if complete:
            for doc in checked:
                if doc not in failing:
                    table.pop(doc, None)
        for doc, detail in failing.items():
            since = table.get(doc, {}).get("since", run_id)
            table[doc] = {"since": since, "run": run_id, "detail": detail}
        _write(path, table)
    return table


def _write(path: Path, table: Mapping[str, Any]) -> None:
    write_text_atomic(path, json.dumps(dict(sorted(table.items())), ensure_ascii=False, indent=0))


def forget(warehouse: str, doc_ids: Iterable[str]) -> int:
    """Drop ``doc_ids`` from every check's table (``textguard prune``: documents that left the corpus no longer
    fail anything); return the rows removed."""
    root = history_path(warehouse, "-", "-")
    gone, removed = set(doc_ids), 0
    if root is None or not gone or not root.parent.parent.is_dir():
        return 0
    for path in sorted(root.parent.parent.glob("*/*.json")):
        with _locked(path):
            table = _read(path)
            kept = {doc: row for doc, row in table.items() if doc not in gone}
            if len(kept) != len(table):
                removed += len(table) - len(kept)
                _write(path, kept)
    return removed


def details(markdown: str, doc_ids: Iterable[str]) -> dict[str, str]:
    """doc_id → the other cells of its first row in a ``failures_markdown`` table, joined (or "")."""
    rows = (markdown or "").splitlines()
    out = {}
    for doc in doc_ids:
        row = next((r for r in rows if r.startswith(f"| {doc} |")), "")
        out[doc] = "; ".join(c.strip() for c in row[len(f"| {doc} |") :].rstrip(" |").split(" | ") if c.strip())
    return out


def table_markdown(table: Mapping[str, Mapping[str, str]], limit: int = SHOWN) -> str:
    if not table:
        return "no document fails this check"
    lines = ["| document | failing since run | last failing run | detail |", "|---|---|---|---|"]
    for doc, row in list(table.items())[:limit]:
        detail = str(row.get("detail", "")).replace("|", "\\|")[:200]
        lines.append(f"| {doc} | {str(row.get('since', ''))[:8]} | {str(row.get('run', ''))[:8]} | {detail} |")
    if len(table) > limit:
        lines.append(f"\n… and {len(table) - limit} more (all in the check's JSON file)")
    return "\n".join(lines)


def _data(value: Any) -> Any:
    return getattr(value, "data", getattr(value, "value", value))


def accumulated_metadata(
    warehouse: str, asset: str, check: str, checked: list[str], passed: bool, metadata: Mapping[str, Any], run_id: str
) -> dict[str, Any] | None:
    """``documents_failing`` (Markdown) and its count after this evaluation, or None when not kept.

    ``checked``: the run's documents this evaluation looked at.
    """
    path = history_path(warehouse, asset, check)
    listed = _data(metadata.get("failing_documents"))
    if path is None or not checked or (not passed and not isinstance(listed, list)):
        return None  # a failure that names no document: cannot say which documents fail
    failing = [] if passed else [str(d) for d in listed]
    complete = len(failing) < FAILING_DOCS_CAP
    rows = details(str(_data(metadata.get("first_failures")) or ""), failing)
    table = update(path, checked, rows, run_id, complete)
    return {"documents_failing": table_markdown(table), "documents_failing_count": len(table)}
