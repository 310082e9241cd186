"""Paths and knobs read from the environment, with defaults for a fresh clone."""

from __future__ import annotations

import os
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Mapping

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


# --- ingest/citations/markers


def env_bool(value: str) -> bool:
    """1/true/yes/on → True, 0/false/no/off → False; anything else is an error (never a silent default)."""
    v = value.strip().lower()
    if v in ("1", "true", "yes", "on"):
        return True
    if v in ("0", "false", "no", "off"):
        return False
    raise ValueError(f"not a boolean: {value!r}")


@dataclass(frozen=True)
class MarkersGateSettings:
    """The StructureNumberingGate's switches (seed 004 §5/§10): ``TEXTGUARD_MARKERS_GATE`` (on/off),
    ``TEXTGUARD_MARKERS_SEQUENCE_THRESHOLD``, ``TEXTGUARD_MARKERS_SOFT_FLAG_ACTION``,
    ``TEXTGUARD_MARKERS_FALLBACK_MAX``. Validated by ``markers.StructureGateConfig``."""

    enabled: bool = True
    sequence_threshold: int = 3
    soft_flag_action: str = "llm"
    fallback_max_markers: int = 3

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> "MarkersGateSettings":
        env = os.environ if env is None else env
        d = cls()
        return cls(
            enabled=env_bool(env.get("TEXTGUARD_MARKERS_GATE", "on")),
            sequence_threshold=int(env.get("TEXTGUARD_MARKERS_SEQUENCE_THRESHOLD", d.sequence_threshold)),
            soft_flag_action=env.get("TEXTGUARD_MARKERS_SOFT_FLAG_ACTION", d.soft_flag_action).strip(),
            fallback_max_markers=int(env.get("TEXTGUARD_MARKERS_FALLBACK_MAX", d.fallback_max_markers)),
        )
