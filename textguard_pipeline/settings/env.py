"""The environment's readers (typed, checked), the paths and the sizes of runs."""

from __future__ import annotations

import os
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, Mapping

from ..lib import setting_rules as rules
from ..lib.setting_rules import SettingsError, checked

#: The repository root (where data/ and workspace.yaml live).
PROJECT_ROOT = Path(__file__).resolve().parents[2]


def environ(env: Mapping[str, str] | None = None) -> Mapping[str, str]:
    """``env`` or the process environment (read now)."""
    return os.environ if env is None else env


def env_str(name: str, default: str = "", env: Mapping[str, str] | None = None) -> str:
    """The stripped value of ``name``; ``default`` when unset or blank."""
    value = environ(env).get(name, "").strip()
    return value if value else default


def env_bool(name: str, default: bool, env: Mapping[str, str] | None = None) -> bool:
    """1/true/yes/on or 0/false/no/off (any case); unset or blank → ``default``; anything else is an error."""
    value = env_str(name, "", env)
    return rules.parse_bool(name, value) if value else default


def _number(name: str, default, env, kind, minimum, maximum):
    raw = env_str(name, "", env)
    return rules.parse_number(name, raw, kind, minimum, maximum) if raw else default


def env_int(name: str, default, env: Mapping[str, str] | None = None, minimum: int | None = None, maximum=None):
    return _number(name, default, env, int, minimum, maximum)


def env_float(name: str, default, env: Mapping[str, str] | None = None, minimum: float | None = None, maximum=None):
    return _number(name, default, env, float, minimum, maximum)


def env_choice(name: str, default: str, choices: tuple[str, ...], env: Mapping[str, str] | None = None) -> str:
    """One of ``choices`` (lower-cased; unset or blank → ``default``); anything else names the variable."""
    return rules.choice(name, env_str(name, default, env).lower(), choices)


def env_existing_path(name: str, default: Path | str, env: Mapping[str, str] | None = None) -> str:
    """A path that must exist when the variable sets it (a mistyped path would silently mean "nothing")."""
    return rules.existing_path(name, env_str(name, "", env)) or str(default)


def env_list(name: str, sep: str = "|", env: Mapping[str, str] | None = None) -> tuple[str, ...]:
    """Items of ``name`` separated by ``sep``, stripped, blanks dropped."""
    return tuple(t.strip() for t in environ(env).get(name, "").split(sep) if t.strip())


def env_path(name: str, default: Path | str, env: Mapping[str, str] | None = None) -> str:
    return env_str(name, "", env) or str(default)


@contextmanager
def restored_environ(*names: str, values: Mapping[str, str | None] | None = None) -> Iterator[None]:
    """Put the environment variables ``names`` back as they were (set or unset) on exit; ``values``: set
    (a str) or unset (None) these first, e.g. a snapshot taken earlier (they are put back on exit too)."""
    saved = {k: os.environ.get(k) for k in (*names, *(values or ()))}
    try:
        if values:
            _apply_environ(values)
        yield
    finally:
        _apply_environ(saved)


def _apply_environ(values: Mapping[str, str | None]) -> None:
    for k, v in values.items():
        if v is None:
            os.environ.pop(k, None)
        else:
            os.environ[k] = v


def default_dagster_event_batch_size(size: int) -> None:
    """Set Dagster's ``DAGSTER_EVENT_BATCH_SIZE`` to ``size`` unless the environment already chose one.

    Dagster reads the variable on every event (not at import), so the instance storages call this when they are
    built; an explicit value in the environment wins.
    """
    if size > 0:
        os.environ.setdefault("DAGSTER_EVENT_BATCH_SIZE", str(size))


def no_onnxruntime_telemetry() -> None:
    """Keep ONNX Runtime's telemetry off (``ORT_DISABLE_TELEMETRY``) unless the environment chose otherwise.

    The Linux wheel's importer otherwise opens an SQLite event store in ``~/.cache/Microsoft/DeveloperTools``
    and starts an uploader thread: network traffic this project does not make, and an open file a report
    worker's fork would share. Read at import, so the sentence encoder calls this before importing it.
    """
    os.environ.setdefault("ORT_DISABLE_TELEMETRY", "1")


# --- paths and runs
def corpus_dir(env: Mapping[str, str] | None = None) -> str:
    """Corpus root (``TEXTGUARD_CORPUS_DIR``, default data/corpus)."""
    return env_path("TEXTGUARD_CORPUS_DIR", PROJECT_ROOT / "data" / "corpus", env)


def warehouse(env: Mapping[str, str] | None = None) -> str:
    """Base path of the Parquet warehouse: a directory or any fsspec URL (``TEXTGUARD_WAREHOUSE``)."""
    return env_path("TEXTGUARD_WAREHOUSE", PROJECT_ROOT / "data" / "warehouse", env)


@checked
def max_partitions_per_run(env: Mapping[str, str] | None = None) -> int:
    """Documents per run in backfills, sensor runs and reports (``TEXTGUARD_MAX_PARTITIONS_PER_RUN``, ≥ 1)."""
    return env_int("TEXTGUARD_MAX_PARTITIONS_PER_RUN", 50, env, minimum=1)


#: Default per-document size limit: 10 MiB (≥ 10 MB), the size up to which every asset stays under 2.5 GB.
DEFAULT_MAX_DOCUMENT_BYTES = 10 * 1024 * 1024


@checked
def max_document_bytes(env: Mapping[str, str] | None = None) -> int:
    """Largest document read (``TEXTGUARD_MAX_DOCUMENT_BYTES``, ≥ 1); a larger one is a flagged row."""
    return env_int("TEXTGUARD_MAX_DOCUMENT_BYTES", DEFAULT_MAX_DOCUMENT_BYTES, env, minimum=1)


@checked
def chunk_limits(env: Mapping[str, str] | None = None) -> tuple[int, int]:
    """Prose chunk length, cut above / never above (``TEXTGUARD_CHUNK_CHARS`` 4,000, ``_CHUNK_MAX_CHARS`` 12,000)."""
    soft = env_int("TEXTGUARD_CHUNK_CHARS", 4000, env, minimum=200)
    return soft, env_int("TEXTGUARD_CHUNK_MAX_CHARS", max(12000, soft), env, minimum=soft)


def set_paths(
    corpus: str | None = None,
    warehouse: str | None = None,
    home: str | Path | None = None,
    rewrite_task: str | None = None,
) -> None:
    """Command-line options win over the environment: written here, for this process and the workers it
    starts (the CLI's ``--corpus``/``--warehouse``/``--rewrite`` and ``textguard dev``'s instance directory)."""
    if rewrite_task:
        os.environ["TEXTGUARD_REWRITE_TASK"] = rewrite_task
    if corpus:
        os.environ["TEXTGUARD_CORPUS_DIR"] = os.path.abspath(corpus)
    if warehouse:
        os.environ["TEXTGUARD_WAREHOUSE"] = str(warehouse)
    if home:
        os.environ["DAGSTER_HOME"] = str(home)


def dagster_home(env: Mapping[str, str] | None = None) -> str:
    """The Dagster instance directory (``DAGSTER_HOME``, default data/dagster_home)."""
    return env_path("DAGSTER_HOME", PROJECT_ROOT / "data" / "dagster_home", env)


# --- scale


@checked
def report_workers(env: Mapping[str, str] | None = None) -> int:
    """Processes ``textguard report`` runs document ranges in (``TEXTGUARD_REPORT_WORKERS``; 0 or unset: one
    per core)."""
    value = env_int("TEXTGUARD_REPORT_WORKERS", 0, env)
    if value < 0:
        raise SettingsError(f"TEXTGUARD_REPORT_WORKERS={value}: expected 0 (one per core) or a positive number")
    if value:
        return value
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1
