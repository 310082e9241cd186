"""Several processes at once: creating the instance, registering the same new documents (issue 14 items 1, 7)."""

import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from textguard_pipeline.operations.instance import open_instance

_OPEN = textwrap.dedent("""
    import os, sys, time
    from pathlib import Path
    go = Path(sys.argv[2])
    while not go.exists():
        time.sleep(0.005)
    from textguard_pipeline.operations.instance import open_instance
    from textguard_pipeline.defs_kit.partitions import register_partitions
    instance = open_instance(sys.argv[1])
    keys = [f"doc{i:03d}.txt" for i in range(int(sys.argv[3]))]
    print(len(register_partitions(instance, keys)))
""")


def _race(home, go, n_procs: int, n_keys: int) -> list[subprocess.CompletedProcess]:
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", _OPEN, str(home), str(go), str(n_keys)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(n_procs)
    ]
    time.sleep(3.0)  # every process has imported Dagster and waits at the start line
    go.touch()
    return [subprocess.CompletedProcess(p.args, p.wait(timeout=300), *p.communicate()) for p in procs]


def _alembic_heads(db) -> list[str]:
    with sqlite3.connect(db) as conn:
        return [r[0] for r in conn.execute("select version_num from alembic_version")]


def test_concurrent_first_opens_and_registrations_leave_one_working_instance(tmp_path):
    for trial in range(1):  # (the CLI test in test_cli_reliability.py is a second trial)
        home = tmp_path / f"home{trial}"
        results = _race(home, tmp_path / f"go{trial}", n_procs=4, n_keys=40)
        for r in results:
            assert r.returncode == 0, r.stderr[-2000:]
            assert r.stdout.strip() == "40"
        assert len(_alembic_heads(home / "history" / "runs.db")) == 1
        assert len(_alembic_heads(home / "schedules" / "schedules.db")) == 1
        instance = open_instance(home)  # a later run opens it and sees each document once
        keys = instance.get_dynamic_partitions("documents")
        assert sorted(keys) == [f"doc{i:03d}.txt" for i in range(40)] and len(set(keys)) == 40
        assert instance.get_runs() == []


def test_two_textguard_dev_started_at_once_on_an_empty_home_leave_one_working_instance(tmp_path):
    """`make ui` twice (or beside a scheduled report): `dagster dev` must find a finished instance."""
    import httpx

    from textguard_pipeline.settings import PROJECT_ROOT
    from textguard_pipeline_tests.devservers import start_group, stop_group, wait_until
    from textguard_pipeline_tests.standin.client import free_port

    home = tmp_path / "home"  # does not exist yet: no dagster.yaml, no databases
    venv_bin = Path(sys.executable).parent
    env = {"DAGSTER_HOME": str(home), "PATH": f"{venv_bin}:/usr/bin:/bin", "TEXTGUARD_EXECUTOR": "in_process"}
    # a one-asset code location: the instance is what is tested, and it loads in seconds
    (tmp_path / "tiny.py").write_text("import dagster as dg\n\n\n@dg.asset\ndef one():\n    return 1\n")
    workspace = tmp_path / "workspace.yaml"
    workspace.write_text(f"load_from:\n  - python_file: {tmp_path / 'tiny.py'}\n")
    ports = [free_port(), free_port()]
    procs = []
    try:
        for i, port in enumerate(ports):
            cmd = [str(venv_bin / "textguard"), "dev", "-h", "127.0.0.1", "-p", str(port)]
            cmd += ["-w", str(workspace)]
            procs.append((start_group(cmd, tmp_path / f"dev{i}.log", env=env, cwd=PROJECT_ROOT), port))
        for i, (proc, port) in enumerate(procs):
            url = f"http://127.0.0.1:{port}/server_info"
            wait_until(
                lambda: httpx.get(url, timeout=2).status_code == 200,
                240,
                "textguard dev",
                proc,
                tmp_path / f"dev{i}.log",
            )
    finally:
        for proc, _ in procs:
            stop_group(proc, timeout=20)
    assert (home / "dagster.yaml").read_text() == (PROJECT_ROOT / "deploy" / "sqlite" / "dagster.yaml").read_text()
    assert len(_alembic_heads(home / "history" / "runs.db")) == 1
    assert len(_alembic_heads(home / "schedules" / "schedules.db")) == 1
    assert len(_alembic_heads(home / "history" / "runs" / "index.db")) == 1
    for i in range(2):
        assert "more than one head" not in (tmp_path / f"dev{i}.log").read_text(errors="replace")
    assert open_instance(home).get_runs() == []  # a later process opens it


def test_instance_init_creates_a_finished_instance_once_and_again(tmp_path, capsys):
    """`textguard instance init` (before dagster-webserver / dagster-daemon services) is repeatable."""
    from textguard_pipeline.cli import main

    home = tmp_path / "home"
    for _ in range(2):
        assert main(["instance", "init", "--home", str(home)]) == 0
        assert len(_alembic_heads(home / "history" / "runs.db")) == 1
    assert main(["instance", "init", "--home", str(home), "--migrate"]) == 0
    assert (home / "dagster.yaml").exists() and f"instance ready: {home}" in capsys.readouterr().out
    assert open_instance(home).get_runs() == []
