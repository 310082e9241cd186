"""Scale-out: a multi-partition run through dagster-celery (Redis broker, two workers) equals the in-process run."""

import json
import os
import re
import subprocess
import sys

import pandas as pd
import pytest

from textguard_pipeline.defs_kit.io_manager import read_parquet
from textguard_pipeline.settings import PROJECT_ROOT
from textguard_pipeline_tests.devservers import start_group, stop_group, wait_until
from textguard_pipeline_tests.e2e._servers import VENV_BIN, dagster_home, redis_server, small_corpus

pytestmark = pytest.mark.slow

ASSETS = ["source_documents", "parsed_chunks"]


def _run(env: dict, first: str, last: str) -> dict:
    r = subprocess.run(
        [sys.executable, "-m", "textguard_pipeline_tests.e2e._run_job", first, last, *ASSETS],
        env={**os.environ, **env},
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        timeout=180,
    )
    lines = [ln for ln in r.stdout.splitlines() if ln.startswith("{")]
    assert lines, f"runner printed no result (exit {r.returncode}):\n{r.stdout[-2000:]}\n{r.stderr[-3000:]}"
    return json.loads(lines[-1])


def test_celery_run_equals_in_process_run(tmp_path):
    from celery import Celery
    from dagster import DagsterInstance

    docs = small_corpus(tmp_path / "corpus")
    home = dagster_home(tmp_path / "home")  # persistent SQLite instance shared by the workers
    with DagsterInstance.from_config(str(home)) as instance:
        instance.add_dynamic_partitions("documents", docs)
    base_env = {
        "DAGSTER_HOME": str(home),
        "TEXTGUARD_CORPUS_DIR": str(tmp_path / "corpus"),
        "PYTHONPATH": str(PROJECT_ROOT),
    }

    # 1. the reference: in-process
    wh_local = tmp_path / "wh_in_process"
    ref = _run(
        {**base_env, "TEXTGUARD_EXECUTOR": "in_process", "TEXTGUARD_WAREHOUSE": str(wh_local)}, docs[0], docs[-1]
    )
    assert ref["success"], ref

    # 2. the same run through Celery
    wh_celery = tmp_path / "wh_celery"
    with redis_server() as redis_url:
        broker, backend = f"{redis_url}/0", f"{redis_url}/1"
        env = {
            **base_env,
            "TEXTGUARD_EXECUTOR": "celery",
            "TEXTGUARD_WAREHOUSE": str(wh_celery),
            "TEXTGUARD_CELERY_BROKER": broker,
            "TEXTGUARD_CELERY_BACKEND": backend,
            "PATH": f"{VENV_BIN}:{os.environ.get('PATH', '/usr/bin:/bin')}",
        }
        cfg = tmp_path / "celery.yaml"
        cfg.write_text(f"execution:\n  config:\n    broker: '{broker}'\n    backend: '{backend}'\n")
        workers, logs = [], []
        try:
            for i in (1, 2):
                log = tmp_path / f"worker{i}.log"
                logs.append(log)
                workers.append(
                    start_group(
                        [
                            str(VENV_BIN / "dagster-celery"),
                            "worker",
                            "start",
                            "-A",
                            "dagster_celery.app",
                            "-y",
                            str(cfg),
                            "-n",
                            f"tg{i}",
                            "-l",
                            "INFO",
                            "--",
                            "--concurrency=1",
                        ],
                        log,
                        env=env,
                        cwd=PROJECT_ROOT,
                    )
                )
            app = Celery(broker=broker, backend=backend)
            for proc, log in zip(workers, logs):
                assert proc.poll() is None, log.read_text(errors="replace")[-2000:]
            wait_until(lambda: len(app.control.ping(timeout=1.0)) >= 2, 90, "two celery workers", workers[0], logs[0])

            res = _run(env, docs[0], docs[-1])
            assert res["success"], (res, [lg.read_text(errors="replace")[-2000:] for lg in logs])
        finally:
            for proc in workers:
                stop_group(proc)

    # the steps really ran in the workers
    done = [len(re.findall(r"Task execute_plan\[[^\]]+\] succeeded", lg.read_text(errors="replace"))) for lg in logs]
    with DagsterInstance.from_config(str(home)) as instance:
        run = instance.get_run_by_id(res["run_id"])
        assert run.is_success
        n_steps = len(instance.get_execution_plan_snapshot(run.execution_plan_snapshot_id).steps)
    print(f"celery tasks per worker: {done}, steps: {n_steps}")
    assert sum(done) == n_steps >= len(ASSETS), (done, n_steps)

    # 3. identical Parquet outputs, one file per (asset, document)
    for asset in ASSETS:
        for doc in docs:
            a = read_parquet(wh_local / asset / f"{doc}.parquet")
            b = read_parquet(wh_celery / asset / f"{doc}.parquet")
            pd.testing.assert_frame_equal(a, b)
        assert sorted(p.name for p in (wh_celery / asset).iterdir()) == [f"{d}.parquet" for d in docs]
