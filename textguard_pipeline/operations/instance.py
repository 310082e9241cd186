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
import json
import os
import shutil
import socket
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from dagster import DagsterInstance, DagsterRunStatus, RunsFilter
from dagster._core.instance.ref import InstanceRef

from .. import settings
from ..lib.processes import process_alive, start_time
from .preflight import LockBusy
from .safe_text import one_line

LOCK_NAME = ".textguard-instance.lock"
#: the local instance's configuration, copied into a DAGSTER_HOME that has none (not at the project root:
#: `dagster dev` warns that a dagster.yaml in its working directory "will not be used")
INSTANCE_TEMPLATE = settings.PROJECT_ROOT / "deploy" / "sqlite" / "dagster.yaml"
#: internal run tags start with "." so that they sort after the tags people set and read apart from them
#: (Dagster allows "." in a tag namespace; it hides only its own ".dagster/" tags)
PID_TAG, HOST_TAG, START_TAG = ".textguard/pid", ".textguard/host", ".textguard/pid_start"
#: the same tags on runs of earlier versions (a run left STARTED by one is still found)
_LEGACY_TAGS = ("textguard/pid", "textguard/host", "textguard/pid_start")


@contextmanager
def instance_lock(home: str | os.PathLike[str], wait_s: float | None = None) -> Iterator[None]:
    """An exclusive lock on ``home`` shared by every textguard process on this machine.

    Waits at most ``wait_s`` (None: ``TEXTGUARD_LOCK_WAIT_S``), then raises :class:`LockBusy` naming the
    holder: a stopped process (SIGSTOP, a debugger) keeps a lock for ever, and the next report must say so
    rather than hang. The holder writes its pid, start time and command into the lock file.
    """
    Path(home).mkdir(parents=True, exist_ok=True)
    wait_s = settings.operations_settings().lock_wait_s if wait_s is None else wait_s
    path = Path(home) / LOCK_NAME
    with open(path, "a+") as fh:
        deadline = time.monotonic() + wait_s
        while True:
            try:
                fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise LockBusy(
                        f"the instance lock {path} {_holder(path)}; gave up after {wait_s:g} s (TEXTGUARD_LOCK_WAIT_S)"
                    ) from None
                time.sleep(min(0.1, max(0.0, deadline - time.monotonic())))
        try:
            fh.seek(0)
            fh.truncate()
            fh.write(json.dumps({"pid": os.getpid(), "start": _started_at(os.getpid()), "command": _command()}))
            fh.flush()
            yield
        finally:
            fcntl.flock(fh.fileno(), fcntl.LOCK_UN)


def _holder(path: Path) -> str:
    try:
        who = json.loads(path.read_text(encoding="utf-8") or "{}")
    except (OSError, ValueError):
        who = {}
    if not who.get("pid"):
        return "is held by another process (it did not say which)"
    state = "" if process_alive(int(who["pid"])) else " (gone)"
    stopped = " (stopped)" if _state(int(who["pid"])) == "T" else ""
    return (
        f"is held by pid {who['pid']}{state}{stopped}, started {who.get('start') or '?'}, "
        f"command {one_line(str(who.get('command') or '?'))}"
    )


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return ""


def _started_at(pid: int) -> str:
    """The process start as local time (from /proc; '' when unknown)."""
    try:
        ticks = int(start_time(pid))
        uptime = float(Path("/proc/uptime").read_text().split()[0])
    except (ValueError, OSError):
        return ""
    started = time.time() - uptime + ticks / os.sysconf("SC_CLK_TCK")
    return time.strftime("%Y-%m-%d %H:%M:%S %Z", time.localtime(started))


def _command() -> str:
    try:
        return Path("/proc/self/cmdline").read_bytes().replace(b"\0", b" ").decode("utf-8", "replace").strip()
    except OSError:
        return " ".join(sys.argv)


def _install_config(home: Path) -> None:
    """Copy the project's dagster.yaml into a home that has none (atomically: no half-read file)."""
    target = home / "dagster.yaml"
    source = INSTANCE_TEMPLATE
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
    failed = []
    for pid_tag, host_tag, start_tag in ((PID_TAG, HOST_TAG, START_TAG), _LEGACY_TAGS):
        failed += _fail_orphans(instance, host, pid_tag, host_tag, start_tag)
    return failed


def _fail_orphans(instance: DagsterInstance, host: str, pid_tag: str, host_tag: str, start_tag: str):
    runs = instance.get_runs(
        RunsFilter(statuses=[DagsterRunStatus.STARTED, DagsterRunStatus.STARTING], tags={host_tag: host})
    )
    failed = []
    for run in runs:
        pid = run.tags.get(pid_tag, "")
        if not pid.isdigit() or process_alive(int(pid), run.tags.get(start_tag, "")):
            continue
        instance.report_run_failed(
            run,
            f"the process executing this run (pid {pid} on {host}) is gone "
            "(killed or crashed); marked failed by the next textguard report",
        )
        failed.append((run.run_id, int(pid)))
    return failed
