"""Screenshots of the Dagster UI for the README: the global asset graph and an asset's checks.

    python scripts/screenshots.py                 # uses `make ui` at 127.0.0.1:3000 if it answers, else starts one
    python scripts/screenshots.py --out docs/img --port 3000

Needs Debian's headless Chromium (`apt-get install chromium`). The UI shows the instance in $DAGSTER_HOME
(default data/dagster_home, the one `make run` fills), so run `make run` first for pictures with data.
"""

from __future__ import annotations

import argparse
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
PAGES = {
    "asset-graph.png": "/asset-groups",  # the global asset lineage: every asset, by group
    "asset-checks.png": "/assets/protected_chunks?view=checks",
}
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
