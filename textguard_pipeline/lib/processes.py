"""Is a process of this host still running? One rule for the run housekeeping and the warehouse sweep.

Dagster-free. A process counts as gone when its pid is free, when it is a zombie (killed, not yet reaped:
a ``textguard report`` worker whose parent was SIGKILLed too waits for init, seen for ≈ 1.5 s) and, when
its start time is known, when the pid now belongs to a process started later (a reused pid).
"""

from __future__ import annotations

import os
from pathlib import Path


def _stat_fields(pid: int) -> list[str]:
    """``/proc/<pid>/stat`` after the command name (the state first); [] when unknown (not Linux, or gone)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return []
    return stat.rsplit(")", 1)[1].split()


def _start_of(fields: list[str]) -> str:
    return fields[19] if len(fields) > 19 else ""  # field 22 of stat: start time in clock ticks since boot


def start_time(pid: int) -> str:
    """The process start time in clock ticks since boot (Linux), '' when unknown: tells a reused pid apart."""
    return _start_of(_stat_fields(pid))


def process_alive(pid: int, start: str = "") -> bool:
    """True while ``pid`` is a live process (started at ``start``, when given) that can still do work."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass  # exists, owned by someone else
    fields = _stat_fields(pid)
    if fields and fields[0] in ("Z", "X"):  # zombie or dead: executes nothing, writes nothing
        return False
    return not start or _start_of(fields) in ("", start)
