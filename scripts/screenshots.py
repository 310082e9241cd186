"""Screenshots of the Dagster UI for the README: the global asset graph and an asset's checks.

    python scripts/screenshots.py                 # uses `make ui` at 127.0.0.1:3000 if it answers, else starts one
    python scripts/screenshots.py --out docs/img --port 3000

Needs Debian's headless Chromium (`apt-get install chromium`) and, for the asset graph, the `websockets` package
(installed with Dagster's webserver): the graph is driven through the DevTools protocol, because the UI opens with
its groups folded and the graph partly off screen; the script opens every group (the UI's ``expanded`` query
parameter) and drags the canvas so the whole graph shows. The UI shows the instance in $DAGSTER_HOME (default
data/dagster_home, the one `make run` fills), so run `make run` first for pictures with data.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: the asset groups of the definitions (README "What each asset group does"), all opened in the graph picture
GROUPS = ("ingest", "parse", "analyze", "markers", "meanings", "protect", "rewrite")
GRAPH = "/asset-groups?expanded=" + ",".join(f"global@global:{g}" for g in GROUPS)
#: window of the graph picture, and how far the canvas is dragged down so the top group (markers) is in view
GRAPH_WINDOW, GRAPH_DRAG = (1400, 1250), 170
PAGES = {"asset-checks.png": "/assets/protected_chunks?view=checks"}
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
    "--window-size=1400,860",
    "--virtual-time-budget=20000",
]


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url + "/server_info", timeout=2) as r:
            return r.status == 200
    except OSError:
        return False


def _start_ui(port: int) -> subprocess.Popen:
    env = dict(os.environ)
    env.setdefault("DAGSTER_HOME", str(ROOT / "data" / "dagster_home"))
    # `textguard dev` creates the instance (and its dagster.yaml) under the instance lock, then runs `dagster dev`
    exe = Path(sys.executable).with_name("textguard")
    # Its own process group: `dagster dev` from a non-interactive shell ignores SIGTERM to itself alone.
    return subprocess.Popen(
        [str(exe), "dev", "-h", "127.0.0.1", "-p", str(port), "-w", "workspace.yaml"],
        cwd=ROOT,
        env=env,
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def shoot(url: str, out: Path, chromium: str) -> None:
    with tempfile.TemporaryDirectory() as profile:
        subprocess.run(
            [chromium, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", f"--screenshot={out}", url],
            check=True,
            timeout=120,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )


async def _shoot_graph(url: str, out: Path, chromium: str, port: int = 9333) -> None:
    """The global asset graph, every group open, dragged into view (DevTools protocol over a websocket)."""
    import websockets  # lazy: only this picture needs it

    w, h = GRAPH_WINDOW
    with tempfile.TemporaryDirectory() as profile:
        browser = subprocess.Popen(
            [
                chromium,
                *CHROMIUM_FLAGS[:-2],
                f"--window-size={w},{h}",
                f"--remote-debugging-port={port}",
                f"--user-data-dir={profile}",
                "about:blank",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            page = None
            for _ in range(150):
                try:
                    with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=2) as r:
                        page = next(t for t in json.load(r) if t["type"] == "page")
                    break
                except (OSError, StopIteration, ValueError):
                    time.sleep(0.2)
            if page is None:
                raise RuntimeError("chromium's DevTools endpoint did not answer")
            async with websockets.connect(page["webSocketDebuggerUrl"], max_size=64_000_000) as ws:
                ids = iter(range(1, 1_000_000))

                async def call(method: str, **params):
                    my = next(ids)
                    await ws.send(json.dumps({"id": my, "method": method, "params": params}))
                    while True:
                        msg = json.loads(await ws.recv())
                        if msg.get("id") == my:
                            return msg.get("result", {})

                async def mouse(kind: str, x: float, y: float, **extra):
                    await call("Input.dispatchMouseEvent", type=kind, x=x, y=y, **extra)

                await call("Emulation.setDeviceMetricsOverride", width=w, height=h, deviceScaleFactor=1, mobile=False)
                await call("Page.navigate", url=url)
                await asyncio.sleep(12)  # the graph's layout runs in a web worker after the data arrives
                x, y = w * 0.7, h * 0.5
                await mouse("mousePressed", x, y, button="left", buttons=1, clickCount=1)
                for i in range(1, 11):
                    await mouse("mouseMoved", x, y + GRAPH_DRAG * i / 10, button="left", buttons=1)
                await mouse("mouseReleased", x, y + GRAPH_DRAG, button="left", clickCount=1)
                await mouse("mouseMoved", 5, h - 5)  # no tooltip over a node
                await asyncio.sleep(1.5)
                shot = await call("Page.captureScreenshot", format="png")
            out.write_bytes(base64.b64decode(shot["data"]))
        finally:
            browser.terminate()
            browser.wait(timeout=30)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--port", type=int, default=3000)
    p.add_argument("--out", type=Path, default=ROOT / "docs" / "img")
    args = p.parse_args(argv)
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        print("chromium not found: apt-get install --no-install-recommends chromium", file=sys.stderr)
        return 2
    url = f"http://127.0.0.1:{args.port}"
    server = None if _answers(url) else _start_ui(args.port)
    try:
        deadline = time.monotonic() + 180
        while not _answers(url):
            if time.monotonic() > deadline or (server is not None and server.poll() is not None):
                print(f"the Dagster UI did not come up at {url}", file=sys.stderr)
                return 1
            time.sleep(1)
        args.out.mkdir(parents=True, exist_ok=True)
        asyncio.run(_shoot_graph(url + GRAPH, args.out / "asset-graph.png", chromium))
        print(f"{args.out / 'asset-graph.png'}  ←  {url}{GRAPH}")
        for name, path in PAGES.items():
            shoot(url + path, args.out / name, chromium)
            print(f"{args.out / name}  ←  {url}{path}")
    finally:
        if server is not None:
            os.killpg(server.pid, signal.SIGTERM)
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(server.pid, signal.SIGKILL)
    return 0


if __name__ == "__main__":
    sys.exit(main())
