"""`textguard dev` (what `make ui` runs) stops on SIGTERM and SIGINT, children included, also when a
non-interactive shell started it in the background (issue 53)."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import httpx
import pytest

from textguard_pipeline.settings import PROJECT_ROOT
from textguard_pipeline_tests.devservers import wait_until
from textguard_pipeline_tests.e2e._servers import VENV_BIN, dagster_home
from textguard_pipeline_tests.standin.client import free_port

pytestmark = pytest.mark.slow


def _processes_with(marker: str) -> list[int]:
    """Pids whose environment holds ``marker`` (every process `textguard dev` starts inherits it)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            if marker.encode() in (entry / "environ").read_bytes():
                found.append(int(entry.name))
        except OSError:
            continue
    return found


def _kill_all(pids: list[int]) -> None:
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_textguard_dev_started_in_the_background_stops_on_a_signal_leaving_no_process(tmp_path, sig):
    home = dagster_home(tmp_path / "home")
    port = free_port()
    marker = f"TEXTGUARD_TEST_DEV_MARK={tmp_path.name}-{sig}"
    key, value = marker.split("=", 1)
    pidfile, log = tmp_path / "pid", tmp_path / "dev.log"
    cmd = f"{VENV_BIN / 'textguard'} dev -h 127.0.0.1 -p {port} -w {PROJECT_ROOT / 'workspace.yaml'}"
    # as `make ui &` from a script: a background job of a non-interactive shell gets SIGINT ignored
    shell = subprocess.Popen(
        ["bash", "-c", f"{cmd} >{log} 2>&1 & echo $! >{pidfile}; wait"],
        env={**os.environ, "DAGSTER_HOME": str(home), key: value, "PATH": f"{VENV_BIN}:{os.environ['PATH']}"},
        cwd=PROJECT_ROOT,
    )
    try:
        wait_until(lambda: pidfile.exists() and pidfile.read_text().strip(), 30, "pid file")
        wait_until(
            lambda: httpx.get(f"http://127.0.0.1:{port}/server_info", timeout=2).status_code == 200,
            180,
            "dagster dev",
            log=log,
        )
        assert len(_processes_with(marker)) >= 3  # textguard dev, dagster dev, webserver/daemon …
        # the instance reads the dagster.yaml the docs name (DAGSTER_HOME's): no warning about another one
        assert "dagster.yaml" not in log.read_text(errors="replace"), log.read_text(errors="replace")[-2000:]
        os.kill(int(pidfile.read_text()), sig)
        deadline = time.monotonic() + 60
        while _processes_with(marker) and time.monotonic() < deadline:
            time.sleep(0.5)
        assert _processes_with(marker) == [], log.read_text(errors="replace")[-2000:]
        assert shell.wait(timeout=10) == 0
    finally:
        _kill_all(_processes_with(marker))
        shell.kill()
