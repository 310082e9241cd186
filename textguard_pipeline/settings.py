"""Paths and knobs read from the environment, with defaults for a fresh clone."""

from __future__ import annotations

import os
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

#: The repository root (where data/ and workspace.yaml live).
PROJECT_ROOT = Path(__file__).resolve().parents[1]


def _path(env: str, default: Path) -> str:
    value = os.environ.get(env)
    return value if value else str(default)


def corpus_dir() -> str:
    return _path("TEXTGUARD_CORPUS_DIR", PROJECT_ROOT / "data" / "corpus")


def warehouse() -> str:
    """Base path of the Parquet warehouse: a directory or any fsspec URL."""
    return _path("TEXTGUARD_WAREHOUSE", PROJECT_ROOT / "data" / "warehouse")


def max_partitions_per_run() -> int:
    return max(1, int(os.environ.get("TEXTGUARD_MAX_PARTITIONS_PER_RUN", "50")))


@contextmanager
def restored_environ(*names: str) -> Iterator[None]:
    """Put the environment variables ``names`` back as they were (set or unset) on exit."""
    saved = {k: os.environ.get(k) for k in names}
    try:
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


# --- ops (instance home)
def dagster_home() -> str:
    """The Dagster instance directory: ``$DAGSTER_HOME``, else data/dagster_home (what the Makefile uses)."""
    return _path("DAGSTER_HOME", PROJECT_ROOT / "data" / "dagster_home")


# --- scale
def report_workers() -> int:
    """Processes `textguard report` runs document ranges in (TEXTGUARD_REPORT_WORKERS; 0 or unset: one per core)."""
    raw = os.environ.get("TEXTGUARD_REPORT_WORKERS", "").strip()
    value = int(raw) if raw else 0
    if value < 0:
        raise ValueError(f"TEXTGUARD_REPORT_WORKERS={raw!r}: expected 0 (one per core) or a positive number")
    if value:
        return value
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1
