"""Throw-away local servers for the tests and benchmarks: PostgreSQL, Redis, process groups.

Every server listens on 127.0.0.1 on a free port, runs in its own process group
(or is stopped by its own control tool) and lives in a temp directory that is
removed afterwards. A missing Debian package is installed with apt-get when
possible; otherwise :class:`ServerUnavailable` says why (the tests skip on it).
"""

from __future__ import annotations

import glob
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from textguard_pipeline.settings import PROJECT_ROOT


class ServerUnavailable(RuntimeError):
    """A server binary is missing and could not be installed here."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# -- system packages ---------------------------------------------------------------


def _apt_install(package: str) -> str | None:
    """Install a Debian package; return None on success, else why not."""
    if not shutil.which("apt-get"):
        return "apt-get not available"
    if os.geteuid() != 0:
        return "not root: cannot apt-get install"
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    cmd = ["apt-get", "install", "-y", "-qq", "--no-install-recommends", package]
    if subprocess.run(cmd, env=env, capture_output=True).returncode == 0:
        return None
    subprocess.run(["apt-get", "update", "-qq"], env=env, capture_output=True)
    r = subprocess.run(cmd, env=env, capture_output=True, text=True)
    return None if r.returncode == 0 else f"apt-get install {package} failed: {r.stderr[-500:]}"


def require_binary(find, package: str) -> str:
    """Path of a server binary (``find()``), installing ``package`` when it is missing."""
    path = find()
    if path:
        return path
    why = _apt_install(package)
    path = find()
    if not path:
        raise ServerUnavailable(f"{package} is not installed and could not be installed: {why}")
    return path


def _pg_bindir() -> str | None:
    for d in sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(Path(p).parent.name), reverse=True):
        if os.path.exists(os.path.join(d, "pg_ctl")):
            return d
    exe = shutil.which("pg_ctl")
    return str(Path(exe).resolve().parent) if exe else None


def stop_group(proc: subprocess.Popen, timeout: float = 15.0) -> None:
    """SIGTERM the process group of ``proc``, then SIGKILL whatever is left."""
    if proc.poll() is None:
        try:
            os.killpg(proc.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            pass
    try:  # children may outlive the leader: kill the whole group regardless
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        pass


def start_group(cmd: list[str], log: Path, env: dict | None = None, cwd: str | Path | None = None) -> subprocess.Popen:
    """Start ``cmd`` in a new session/process group, output to ``log`` (a pipe could fill and block it)."""
    fh = open(log, "wb")
    try:
        return subprocess.Popen(
            cmd,
            env={**os.environ, **(env or {})},
            cwd=str(cwd or PROJECT_ROOT),
            stdout=fh,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    finally:
        fh.close()


def wait_until(pred, timeout: float, what: str, proc: subprocess.Popen | None = None, log: Path | None = None):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            tail = log.read_text(errors="replace")[-3000:] if log and log.exists() else ""
            raise RuntimeError(f"{what}: process exited with {proc.returncode}\n{tail}")
        try:
            value = pred()
        except Exception:
            value = None
        if value:
            return value
        time.sleep(0.25)
    tail = log.read_text(errors="replace")[-3000:] if log and log.exists() else ""
    raise TimeoutError(f"{what} not ready within {timeout}s\n{tail}")


# -- PostgreSQL ------------------------------------------------------------------------


@dataclass
class Postgres:
    host: str
    port: int
    user: str
    db: str

    def env(self) -> dict[str, str]:
        return {
            "DAGSTER_PG_HOST": self.host,
            "DAGSTER_PG_PORT": str(self.port),
            "DAGSTER_PG_USER": self.user,
            "DAGSTER_PG_PASSWORD": "unused-trust-auth",
            "DAGSTER_PG_DB": self.db,
        }

    def connect(self, db: str | None = None):
        import psycopg2

        return psycopg2.connect(host=self.host, port=self.port, user=self.user, dbname=db or self.db)

    def create_database(self, name: str) -> "Postgres":
        """A second database on the same server (same user); returns its handle."""
        conn = self.connect()
        try:
            conn.autocommit = True
            with conn.cursor() as cur:
                cur.execute(f'CREATE DATABASE "{name}"')
        finally:
            conn.close()
        return Postgres(self.host, self.port, self.user, name)


@contextmanager
def postgres_server(db: str = "dagster", durable: bool = False) -> Iterator[Postgres]:
    """initdb + pg_ctl start in a temp dir (as user postgres when root), on 127.0.0.1:free port.

    ``durable=False`` (tests) runs with ``fsync=off``; benchmarks pass ``durable=True`` so every
    commit costs what it costs on a real server.
    """
    bindir = require_binary(_pg_bindir, "postgresql")
    as_root = os.geteuid() == 0
    run_as: list[str] = []
    if as_root:
        runuser = shutil.which("runuser")
        if not runuser:
            raise ServerUnavailable("running as root without runuser: cannot start PostgreSQL as user postgres")
        run_as = [runuser, "-u", "postgres", "--"]
    base = Path(tempfile.mkdtemp(prefix="tg_pg_"))
    if as_root:
        shutil.chown(base, "postgres", "postgres")
    data = base / "data"
    port = free_port()
    log = base / "server.log"

    def pg(tool: str, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        r = subprocess.run(run_as + [os.path.join(bindir, tool), *args], capture_output=True, text=True, cwd=base)
        if check and r.returncode != 0:
            raise RuntimeError(
                f"{tool} {' '.join(args)} failed ({r.returncode}): {r.stdout[-1500:]} {r.stderr[-1500:]}"
            )
        return r

    started = False
    try:
        pg("initdb", "-D", str(data), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-locale")
        opts = f"-c listen_addresses=127.0.0.1 -p {port} -k {base}" + ("" if durable else " -c fsync=off")
        pg("pg_ctl", "-D", str(data), "-o", opts, "-l", str(log), "-w", "-t", "60", "start")
        started = True
        pg("createdb", "-h", "127.0.0.1", "-p", str(port), "-U", "postgres", db)
        yield Postgres("127.0.0.1", port, "postgres", db)
    finally:
        if started:
            pg("pg_ctl", "-D", str(data), "-m", "immediate", "-w", "stop", check=False)
        shutil.rmtree(base, ignore_errors=True)


# -- Redis -------------------------------------------------------------------------------


@contextmanager
def redis_server() -> Iterator[str]:
    """redis-server on 127.0.0.1:free port, no persistence; yields its URL prefix redis://127.0.0.1:PORT."""
    exe = require_binary(
        lambda: shutil.which("redis-server") or (os.path.exists("/usr/bin/redis-server") and "/usr/bin/redis-server"),
        "redis-server",
    )
    import redis

    base = Path(tempfile.mkdtemp(prefix="tg_redis_"))
    port = free_port()
    log = base / "redis.log"
    proc = start_group(
        [
            exe,
            "--bind",
            "127.0.0.1",
            "--port",
            str(port),
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            str(base),
            "--protected-mode",
            "yes",
        ],
        log,
        cwd=base,
    )
    try:
        client = redis.Redis(host="127.0.0.1", port=port, socket_connect_timeout=1)
        wait_until(client.ping, 20, "redis-server", proc, log)
        yield f"redis://127.0.0.1:{port}"
    finally:
        stop_group(proc)
        shutil.rmtree(base, ignore_errors=True)


def with_stock_event_log(instance_yaml: str) -> str:
    """``deploy/postgres/dagster.yaml`` with dagster-postgres' stock event log and run storages instead of
    :mod:`~textguard_pipeline.operations.instance_storage`'s pooled ones (for comparisons)."""
    import yaml
    from dagster_postgres.utils import pg_config

    cfg = yaml.safe_load(instance_yaml)
    for key, module, cls in (
        ("event_log_storage", "dagster_postgres.event_log", "PostgresEventLogStorage"),
        ("run_storage", "dagster_postgres.run_storage", "PostgresRunStorage"),
    ):
        st = cfg[key]
        st["module"], st["class"] = module, cls
        st["config"] = {k: v for k, v in st["config"].items() if k in pg_config()}
    return yaml.safe_dump(cfg, sort_keys=False)
