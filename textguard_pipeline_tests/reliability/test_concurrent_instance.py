"""Several processes at once: creating the instance, registering the same new documents (issue 14 items 1, 7)."""

import sqlite3
import subprocess
import sys
import textwrap
import time

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
