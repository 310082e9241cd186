"""Start/stop helpers for loopback server processes used by the tests."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from contextlib import contextmanager
from typing import Iterator

import httpx

from textguard_pipeline_tests.devservers import free_port  # noqa: F401 (re-exported for the tests)


def wait_http(url: str, timeout: float = 30.0, proc: subprocess.Popen | None = None) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"server process exited with {proc.returncode} before answering {url}")
        try:
            if httpx.get(url, timeout=1.0).status_code < 500:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    raise TimeoutError(f"{url} did not answer within {timeout}s")


@contextmanager
def process(
    cmd: list[str], health_url: str, timeout: float = 30.0, env: dict | None = None
) -> Iterator[subprocess.Popen]:
    """Run a server in its own process group; stop the whole group afterwards."""
    proc = subprocess.Popen(
        cmd,
        env={**os.environ, **(env or {})},
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        wait_http(health_url, timeout, proc)
        yield proc
    finally:
        try:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=10)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        if proc.stderr:
            proc.stderr.close()


class StandIn:
    """Handle on a running stand-in server: script routes, read requests."""

    def __init__(self, base_url: str):
        self.base_url = base_url
        self._http: httpx.Client | None = None

    @property
    def http(self) -> httpx.Client:
        """One kept-alive client for scripting (a new httpx client per call costs milliseconds)."""
        if self._http is None:
            self._http = httpx.Client(timeout=5)
        return self._http

    def script(self, routes: dict[str, list[dict]]) -> None:
        self.http.post(f"{self.base_url}/_script", json={"routes": routes}).raise_for_status()

    def requests(self) -> list[dict]:
        return self.http.get(f"{self.base_url}/_requests").json()

    def stats(self) -> dict:
        """``max_inflight``: most requests being answered at once since the last :meth:`clear`."""
        return self.http.get(f"{self.base_url}/_stats").json()

    def clear(self) -> None:
        self.http.delete(f"{self.base_url}/_requests")

    @staticmethod
    def chat_reply(content: str) -> dict:
        """A scripted OpenAI chat-completions response carrying ``content``."""
        return {
            "status": 200,
            "json": {
                "id": "standin",
                "object": "chat.completion",
                "choices": [
                    {"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}
                ],
            },
        }


@contextmanager
def standin_server() -> Iterator[StandIn]:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with process(
        [sys.executable, "-m", "textguard_pipeline_tests.standin.server", "--port", str(port)], f"{base}/_health"
    ):
        s = StandIn(base)
        try:
            yield s
        finally:
            if s._http is not None:
                s._http.close()
