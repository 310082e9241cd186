"""lib/processes.py: which pids still count as a running process (run housekeeping, warehouse sweep)."""

import subprocess
import sys
import time
from pathlib import Path

import pytest

from textguard_pipeline.lib.processes import process_alive, start_time

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc (Linux)")


def _state(pid: int) -> str:
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]


def test_a_running_process_is_alive_and_a_reused_pid_is_not():
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        start = start_time(proc.pid)
        assert start.isdigit()
        assert process_alive(proc.pid) and process_alive(proc.pid, start)
        assert not process_alive(proc.pid, str(int(start) + 1))  # the pid now belongs to a later process
    finally:
        proc.kill()
        proc.wait()
    assert not process_alive(proc.pid)


def test_a_killed_process_not_yet_reaped_is_gone():
    # What a SIGKILLed `textguard report` leaves: its pool workers are zombies until init reaps them, and a
    # report starting meanwhile must mark their runs FAILED (test_cli_reliability failed 1 time in 3 without this).
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    start = start_time(proc.pid)
    proc.kill()
    deadline = time.time() + 10
    while _state(proc.pid) != "Z" and time.time() < deadline:
        time.sleep(0.01)
    try:
        assert _state(proc.pid) == "Z"  # still in the process table: signal 0 reaches it
        assert not process_alive(proc.pid, start)
        assert not process_alive(proc.pid)
    finally:
        proc.wait()
