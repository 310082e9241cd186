"""Opening the Dagster instance safely when several processes start at once, and runs that lost their process.

Dagster creates its SQLite databases on first use with a check-then-create (``runs.db``,
``schedules.db``, the event-log index): two processes on an empty ``DAGSTER_HOME`` can both
stamp the alembic version, leaving two heads and an instance that refuses every later run.
:func:`open_instance` builds the instance (which creates and stamps every storage) while
holding an exclusive file lock in the home directory, so exactly one process initialises it
and the others then open a finished one. The lock does not depend on the storage classes
configured in ``dagster.yaml`` (SQLite, PostgreSQL, or our own event-log storages): whatever
the instance does when it is constructed happens once at a time. Keep every construction of
the CLI's instance behind it. Dagster's own processes (``dagster dev``, the webserver, the daemon)
open the instance without the lock, so every way the project starts them goes through
:func:`prepare_instance` first (``textguard dev``, ``textguard instance init``).

A run executed in process by ``textguard report`` carries its process identity in tags;
:func:`fail_orphaned_runs` marks runs whose process is gone (SIGKILL, OOM, power loss) as
FAILED instead of leaving them STARTED for ever.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import socket
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from dagster import DagsterInstance, DagsterRunStatus, RunsFilter
from dagster._core.instance.ref import InstanceRef

from .. import settings
from ..lib.processes import process_alive, start_time

LOCK_NAME = ".textguard-instance.lock"
PID_TAG, HOST_TAG, START_TAG = "textguard/pid", "textguard/host", "textguard/pid_start"


@contextmanager
def instance_lock(home: str | os.PathLike[str]) -> Iterator[None]:
    """An exclusive lock on ``home`` shared by every textguard process on this machine (blocks until free)."""
    Path(home).mkdir(parents=True, exist_ok=True)
    with open(Path(home) / LOCK_NAME, "a+") as fh:
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh.fileno(), fcntl.LOCK_UN)


def _install_config(home: Path) -> None:
    """Copy the project's dagster.yaml into a home that has none (atomically: no half-read file)."""
    target = home / "dagster.yaml"
    source = settings.PROJECT_ROOT / "dagster.yaml"
    if target.exists() or not source.exists():
        return
    fd, tmp = tempfile.mkstemp(dir=home, prefix=".dagster.yaml.")
    os.close(fd)
    shutil.copyfile(source, tmp)
    os.replace(tmp, target)


def open_instance(home: str | os.PathLike[str] | None = None) -> DagsterInstance:
    """The instance of ``home`` (default :func:`settings.dagster_home`), created under the lock."""
    home = Path(home or settings.dagster_home()).resolve()
    with instance_lock(home):
        _install_config(home)
        return DagsterInstance.from_ref(InstanceRef.from_dir(str(home)))


def prepare_instance(home: str | os.PathLike[str] | None = None, migrate: bool = False) -> Path:
    """Create (and with ``migrate``, upgrade) the instance of ``home`` under the lock, then close it.

    For processes that open the instance themselves — ``dagster dev``, ``dagster-webserver``,
    ``dagster-daemon``, which cannot take our lock: run this first (``textguard dev`` and
    ``textguard instance init`` do), so they all open a finished instance. Returns the home.
    """
    home = Path(home or settings.dagster_home()).resolve()
    with instance_lock(home):
        _install_config(home)
        instance = DagsterInstance.from_ref(InstanceRef.from_dir(str(home)))
        try:
            if migrate:
                instance.upgrade()
        finally:
            instance.dispose()
    return home


# -- runs whose process is gone -----------------------------------------------------------


def owner_tags() -> dict[str, str]:
    """Tags naming this process as the one executing a run."""
    pid = os.getpid()
    return {PID_TAG: str(pid), HOST_TAG: socket.gethostname(), START_TAG: start_time(pid)}


def fail_orphaned_runs(instance: DagsterInstance) -> list[tuple[str, int]]:
    """Mark STARTED/STARTING runs of this host whose executing process is gone as FAILED; return (run id, pid)."""
    host = socket.gethostname()
    runs = instance.get_runs(
        RunsFilter(statuses=[DagsterRunStatus.STARTED, DagsterRunStatus.STARTING], tags={HOST_TAG: host})
    )
    failed = []
    for run in runs:
        pid = run.tags.get(PID_TAG, "")
        if not pid.isdigit() or process_alive(int(pid), run.tags.get(START_TAG, "")):
            continue
        instance.report_run_failed(
            run,
            f"the process executing this run (pid {pid} on {host}) is gone "
            "(killed or crashed); marked failed by the next textguard report",
        )
        failed.append((run.run_id, int(pid)))
    return failed
