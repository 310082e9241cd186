"""100,000 registered documents: what a sensor tick, a backfill, report start-up and the UI cost.

Dagster looks dynamic partitions up many times per run and per tick, so the number of *registered*
documents matters even when a run touches few of them. This tier builds a corpus of
``BENCH_SCALE_DOCS`` (default 100,000) small synthetic files, registers all but ``BENCH_SCALE_NEW``
(default 1,000) of them as ``documents`` partitions on the default instance (the project's
``dagster.yaml``), materializes the root assets for a sample of ``BENCH_SCALE_SAMPLE`` documents,
and times:

* registering the partitions (one ``add_dynamic_partitions`` call);
* a ``corpus_sensor`` tick that meets the new documents (evaluation + registering them) and a steady
  tick that meets nothing new;
* a ``corpus_refresh`` tick (compares the corpus with what ``source_documents`` recorded);
* ``textguard report`` start-up: from the command to its first run starting (then stopped);
* through ``dagster dev`` on 127.0.0.1 (started here; runs stay queued): the UI's partition page
  query for one asset, the asset graph query, and a backfill of the new documents launched as the
  UI does (``launchPartitionBackfill``), until the daemon has planned all its runs.

Goals (issue 18): a sensor tick under 5 s, backfill planning of 1,000 documents under 30 s.
``BENCH_SCALE_UI=0`` skips the ``dagster dev`` part.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import yaml

SENSOR_GOAL_S = 5.0
BACKFILL_GOAL_S = 30.0

SAMPLE_TEXT = (
    "# Note {i}\n\nThe encryption policy requires AES-256 for data at rest (see RFC 5246, section 7).\n\n"
    "- Rotate keys every 90 days.\n- Record each rotation in the audit log.\n"
)

Q_PARTITION_PAGE = """
query($key: AssetKeyInput!) {
  assetNodeOrError(assetKey: $key) { __typename ... on AssetNode {
    partitionKeysByDimension { name partitionKeys }
    assetPartitionStatuses { __typename
      ... on DefaultPartitionStatuses { materializedPartitions failedPartitions unmaterializedPartitions
                                        materializingPartitions } } } }
}
"""
Q_GRAPH = "{ assetNodes { assetKey { path } isPartitioned partitionDefinition { description } } }"
M_BACKFILL = """
mutation($params: LaunchBackfillParams!) {
  launchPartitionBackfill(backfillParams: $params) {
    __typename ... on LaunchBackfillSuccess { backfillId } ... on PythonError { message stack }
  }
}
"""
Q_BACKFILL = """
query($id: String!) {
  partitionBackfillOrError(backfillId: $id) { __typename
    ... on PartitionBackfill { status numPartitions runs(limit: 1000) { runId creationTime } } }
}
"""


def _timed(label: str, rows: list, fn, goal: float | None = None):
    t = time.perf_counter()
    value = fn()
    secs = time.perf_counter() - t
    rows.append((label, secs, goal))
    print(
        f"  {label}: {secs:.2f} s" + (f" (goal < {goal:.0f} s: {'met' if secs < goal else 'NOT met'})" if goal else ""),
        flush=True,
    )
    return value


def write_corpus(dest: Path, n: int) -> list[str]:
    """``n`` small unique documents, ``s000000.md`` …; returns their doc_ids in order."""
    dest.mkdir(parents=True, exist_ok=True)
    keys = [f"s{i:06d}.md" for i in range(n)]
    for i, key in enumerate(keys):
        (dest / key).write_text(SAMPLE_TEXT.format(i=i), encoding="utf-8")
    return keys


def _home(dest: Path) -> Path:
    """The project's dagster.yaml, with the run queue closed: runs a backfill requests stay queued."""
    from textguard_pipeline import settings

    cfg = yaml.safe_load((settings.PROJECT_ROOT / "deploy" / "sqlite" / "dagster.yaml").read_text()) or {}
    cfg["run_queue"] = {"max_concurrent_runs": 0}
    dest.mkdir(parents=True)
    (dest / "dagster.yaml").write_text(yaml.safe_dump(cfg))
    return dest


def _materialize_sample(instance, sample: list[str]) -> None:
    from dagster import AssetSelection, Definitions, define_asset_job
    from dagster._core.storage.tags import ASSET_PARTITION_RANGE_END_TAG, ASSET_PARTITION_RANGE_START_TAG

    from textguard_pipeline.definitions import build_definitions
    from textguard_pipeline.defs_kit.partitions import documents_partitions

    job_def = define_asset_job(
        "bench_scale_sample",
        partitions_def=documents_partitions,
        selection=AssetSelection.assets("source_documents", "parsed_chunks"),
    )
    job = Definitions.merge(build_definitions(), Definitions(jobs=[job_def])).resolve_job_def("bench_scale_sample")
    result = job.execute_in_process(
        instance=instance,
        raise_on_error=False,
        run_config={"loggers": {"console": {"config": {"log_level": "WARNING"}}}},
        tags={ASSET_PARTITION_RANGE_START_TAG: sample[0], ASSET_PARTITION_RANGE_END_TAG: sample[-1]},
    )
    if not result.success:
        raise RuntimeError("sample materialization failed")


def instance_timings(rows: list, home: Path, corpus: Path, keys: list[str], n_new: int, n_sample: int) -> None:
    from dagster import DagsterInstance, SensorResult, build_sensor_context

    from textguard_pipeline.core.documents import file_sha256
    from textguard_pipeline.defs_kit import file_hashes
    from textguard_pipeline.defs_kit.file_hashes import file_stamp
    from textguard_pipeline.defs_kit.partitions import documents_partitions, encode_cursor
    from textguard_pipeline.operations.jobs import refresh_requests
    from textguard_pipeline.operations.sensors import corpus_sensor

    registered = keys[: len(keys) - n_new]
    with DagsterInstance.from_config(str(home)) as instance:
        _timed(
            f"register {len(registered):,} partitions (one add_dynamic_partitions call)",
            rows,
            lambda: instance.add_dynamic_partitions(documents_partitions.name, registered),
        )
        _timed(
            f"materialize a sample of {n_sample} documents (2 assets + checks, one run)",
            rows,
            lambda: _materialize_sample(instance, registered[:n_sample]),
        )
        # the sensor's cursor after its previous tick, in another process: the hash and file stamp of every
        # registered document (not timed; this process has not read any file yet, as a restarted code server)
        cursor = encode_cursor(
            {k: file_sha256(corpus / k) for k in registered}, {k: file_stamp(corpus / k) for k in registered}
        )
        file_hashes.forget()

        def sensor_tick(cur):
            result = corpus_sensor(build_sensor_context(instance=instance, cursor=cur))
            if isinstance(result, SensorResult):
                for req in result.dynamic_partitions_requests:
                    instance.add_dynamic_partitions(req.partitions_def_name, list(req.partition_keys))
            return result

        result = _timed(
            f"corpus_sensor tick: {n_new:,} new among {len(keys):,} (evaluate + register)",
            rows,
            lambda: sensor_tick(cursor),
            SENSOR_GOAL_S,
        )
        runs = len(result.run_requests) if isinstance(result, SensorResult) else 0
        print(f"    → {runs} run requests; cursor {len(result.cursor or '') / 1e6:.1f} MB", flush=True)
        steady = _timed("corpus_sensor tick: nothing new", rows, lambda: sensor_tick(result.cursor), SENSOR_GOAL_S)
        print(f"    → {type(steady).__name__}", flush=True)
        tick = _timed(
            f"corpus_refresh tick over {len(keys):,} registered",
            rows,
            lambda: refresh_requests(instance, str(corpus)),
            SENSOR_GOAL_S,
        )
        print(f"    → {len(tick.run_requests)} run requests (every never-materialized document)", flush=True)
        assert len(instance.get_dynamic_partitions(documents_partitions.name)) == len(keys)


def report_startup(rows: list, tmp: Path, home: Path, env: dict) -> None:
    """``textguard report`` until it prints that its first run starts; then stopped."""
    from textguard_pipeline_tests.devservers import stop_group

    log = tmp / "report.log"
    bin_dir = Path(sys.executable).parent
    t = time.perf_counter()
    with open(log, "wb") as fh:
        proc = subprocess.Popen(
            [str(bin_dir / "textguard"), "report", "--out", str(tmp / "reports")],
            env={**os.environ, **env, "DAGSTER_HOME": str(home)},
            stdout=fh,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        while True:
            text = log.read_text(errors="replace")
            if " process(es)" in text or proc.poll() is not None:
                break
            time.sleep(0.05)
        secs = time.perf_counter() - t
    finally:
        stop_group(proc, timeout=20)
    if " process(es)" not in text:
        print(f"  textguard report start-up: exited before its first run\n{text[-2000:]}")
        return
    rows.append(("textguard report start-up (to its first run)", secs, None))
    print(f"  textguard report start-up (to its first run): {secs:.2f} s", flush=True)


def ui_timings(rows: list, tmp: Path, home: Path, env: dict, new_keys: list[str]) -> None:
    from textguard_pipeline import settings
    from textguard_pipeline_tests.devservers import free_port, start_group, stop_group, wait_until

    port = free_port()
    log = tmp / "dagster_dev.log"
    bin_dir = Path(sys.executable).parent
    proc = start_group(
        [
            str(bin_dir / "textguard"),  # the instance is made under the lock, then `dagster dev`
            "dev",
            "-h",
            "127.0.0.1",
            "-p",
            str(port),
            "-w",
            str(settings.PROJECT_ROOT / "workspace.yaml"),
        ],
        log,
        env={**env, "DAGSTER_HOME": str(home), "PATH": f"{bin_dir}:{os.environ.get('PATH', '')}"},
        cwd=settings.PROJECT_ROOT,
    )
    base = f"http://127.0.0.1:{port}"

    def gql(query: str, **variables):
        r = httpx.post(f"{base}/graphql", json={"query": query, "variables": variables}, timeout=300)
        r.raise_for_status()
        body = r.json()
        if body.get("errors"):
            raise RuntimeError(body["errors"])
        return body["data"]

    try:
        wait_until(
            lambda: httpx.get(f"{base}/server_info", timeout=2).status_code == 200, 300, "dagster dev", proc, log
        )
        wait_until(lambda: gql(Q_GRAPH)["assetNodes"], 300, "code location", proc, log)
        gql(Q_GRAPH)  # warm
        _timed("UI asset graph query (GraphQL)", rows, lambda: gql(Q_GRAPH))
        page = _timed(
            "UI partition page of parsed_chunks (GraphQL: keys + statuses)",
            rows,
            lambda: gql(Q_PARTITION_PAGE, key={"path": ["parsed_chunks"]}),
        )
        node = page["assetNodeOrError"]
        n_keys = len(node["partitionKeysByDimension"][0]["partitionKeys"])
        print(f"    → {n_keys:,} partition keys", flush=True)

        t = time.perf_counter()
        launched = gql(
            M_BACKFILL,
            params={
                "assetSelection": [{"path": ["source_documents"]}, {"path": ["parsed_chunks"]}],
                "partitionNames": new_keys,
            },
        )["launchPartitionBackfill"]
        mutation_s = time.perf_counter() - t
        if launched["__typename"] != "LaunchBackfillSuccess":
            raise RuntimeError(launched)
        rows.append((f"UI backfill of {len(new_keys):,} documents: launch (GraphQL mutation)", mutation_s, None))
        print(f"  UI backfill of {len(new_keys):,} documents: launch {mutation_s:.2f} s", flush=True)
        expected = -(-len(new_keys) // settings.max_partitions_per_run())

        def planned():
            b = gql(Q_BACKFILL, id=launched["backfillId"])["partitionBackfillOrError"]
            if b.get("status") in ("FAILED", "CANCELED"):
                raise RuntimeError(b)
            return b if len(b.get("runs") or []) >= expected else None

        launched_at = time.time() - (time.perf_counter() - t)
        done = wait_until(planned, 600, "backfill runs", proc, log)
        secs = time.perf_counter() - t
        created = sorted(r["creationTime"] for r in done["runs"])
        rows.append(
            (
                f"UI backfill of {len(new_keys):,} documents: launched → {expected} runs planned by the daemon",
                secs,
                None,  # includes the wait for the daemon's poll; the goal is on the planning row below
            )
        )
        print(
            f"  … {expected} runs planned by the daemon after {secs:.2f} s "
            "(from the launch: includes the wait for the daemon's next poll)",
            flush=True,
        )
        # the daemon wakes every 30 s: the first run's creation shows when its iteration began planning
        print(
            f"    → first run created {created[0] - launched_at:.1f} s after the launch, the last "
            f"{created[-1] - created[0]:.1f} s after the first",
            flush=True,
        )
        rows.append(("  of which: first → last run created", created[-1] - created[0], None))
        began = _daemon_began(log, launched["backfillId"])
        if began is not None:
            rows.append(
                (
                    "  of which: the daemon's iteration, from 'Evaluating asset backfill' to the last run created",
                    created[-1] - began,
                    BACKFILL_GOAL_S,
                )
            )
            plan_s = created[-1] - began
            print(
                f"    → the daemon began evaluating {began - launched_at:.0f} s after the launch (Dagster's backfill "
                f"daemon wakes every 30 s) and planned the {expected} runs in {plan_s:.1f} s "
                f"(goal < {BACKFILL_GOAL_S:.0f} s: {'met' if plan_s < BACKFILL_GOAL_S else 'NOT met'})",
                flush=True,
            )
    finally:
        stop_group(proc, timeout=30)


def _daemon_began(log: Path, backfill_id: str) -> float | None:
    """When the daemon's log says it began evaluating the backfill (second resolution), as a timestamp."""
    import re
    from datetime import datetime

    for line in log.read_text(errors="replace").splitlines():
        if f"Evaluating asset backfill {backfill_id}" in line:
            m = re.search(r"(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d) ([+-]\d{4})", line)
            if m:
                return datetime.strptime(f"{m[1]} {m[2]}", "%Y-%m-%d %H:%M:%S %z").timestamp()
    return None


def main() -> None:
    n = int(os.environ.get("BENCH_SCALE_DOCS", "100000"))
    n_new = min(n // 2, int(os.environ.get("BENCH_SCALE_NEW", "1000")))
    n_sample = min(n - n_new, int(os.environ.get("BENCH_SCALE_SAMPLE", "20")))
    tmp = Path(tempfile.mkdtemp(prefix="tg_bench_scale_"))
    from textguard_pipeline.settings import restored_environ

    rows: list = []
    try:
        with restored_environ(
            "TEXTGUARD_CORPUS_DIR", "TEXTGUARD_WAREHOUSE", "DAGSTER_HOME", "DAGSTER_EVENT_BATCH_SIZE"
        ):
            corpus = tmp / "corpus"
            t = time.perf_counter()
            keys = write_corpus(corpus, n)
            print(
                f"{n:,} synthetic documents written in {time.perf_counter() - t:.1f} s "
                f"({n - n_new:,} registered, {n_new:,} new, {n_sample} materialized)",
                flush=True,
            )
            env = {
                "TEXTGUARD_CORPUS_DIR": str(corpus),
                "TEXTGUARD_WAREHOUSE": str(tmp / "warehouse"),
                "TEXTGUARD_EXECUTOR": "in_process",
            }
            os.environ.update(env)
            home = _home(tmp / "home")
            os.environ["DAGSTER_HOME"] = str(home)
            instance_timings(rows, home, corpus, keys, n_new, n_sample)
            report_startup(rows, tmp, home, env)
            if os.environ.get("BENCH_SCALE_UI", "1") != "0":
                ui_timings(rows, tmp, home, env, keys[-n_new:])
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"\n{'measurement (' + format(n, ',') + ' registered documents)':<92} {'seconds':>8}")
    for label, secs, goal in rows:
        mark = "" if goal is None else ("  ok" if secs < goal else f"  > {goal:.0f} s goal")
        print(f"{label:<92} {secs:>8.2f}{mark}")


if __name__ == "__main__":
    main()
