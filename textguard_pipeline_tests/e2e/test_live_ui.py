"""`dagster dev` (webserver + daemon) with workspace.yaml, driven through its GraphQL API."""

from contextlib import contextmanager

import httpx
import pytest

from textguard_pipeline.operations.jobs import refresh_cron
from textguard_pipeline.settings import PROJECT_ROOT
from textguard_pipeline_tests.devservers import start_group, stop_group, wait_until
from textguard_pipeline_tests.e2e._servers import VENV_BIN, dagster_home, postgres_server, small_corpus
from textguard_pipeline_tests.standin.client import free_port

pytestmark = pytest.mark.slow

EXPECTED_ASSETS = {
    "source_documents",
    "parsed_chunks",
    "protected_chunks",
    "ner_frames",
    "citation_maps",
    "candidate_markers",
    "gated_markers",
    "resolved_meanings",
}
LOCATION = "textguard_pipeline"
REPO = {"repositoryLocationName": LOCATION, "repositoryName": "__repository__"}

Q_ASSETS = """
{ assetNodes { assetKey { path } groupName partitionKeys
    assetChecksOrError { __typename ... on AssetChecks { checks { name blocking } } } } }
"""
Q_AUTOMATIONS = """
query($repo: RepositorySelector!) {
  sensorsOrError(repositorySelector: $repo) { __typename ... on Sensors { results { name } } }
  schedulesOrError(repositorySelector: $repo) { __typename ... on Schedules { results { name cronSchedule } } }
}
"""
M_ADD_PARTITION = """
mutation($repo: RepositorySelector!, $key: String!) {
  addDynamicPartition(repositorySelector: $repo, partitionsDefName: "documents", partitionKey: $key) {
    __typename ... on PythonError { message } ... on UnauthorizedError { message }
  }
}
"""
M_LAUNCH = """
mutation($params: ExecutionParams!) {
  launchRun(executionParams: $params) {
    __typename
    ... on LaunchRunSuccess { run { runId } }
    ... on PythonError { message stack }
    ... on InvalidSubsetError { message }
    ... on RunConfigValidationInvalid { errors { message } }
  }
}
"""
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
    ... on PartitionBackfill { status isAssetBackfill runs(limit: 20) { runId status tags { key value } } } }
}
"""
M_START_SENSOR = """
mutation($sel: SensorSelector!) {
  startSensor(sensorSelector: $sel) { __typename ... on PythonError { message } ... on Sensor { name } }
}
"""
Q_SENSOR_TICKS = """
query($sel: SensorSelector!) {
  sensorOrError(sensorSelector: $sel) { __typename
    ... on Sensor { sensorState { status ticks(limit: 5) { status runIds skipReason error { message } } } } }
}
"""
Q_RUN = """
query($id: ID!) { runOrError(runId: $id) { __typename ... on Run { status tags { key value } } } }
"""


class GraphQL:
    def __init__(self, url: str):
        self.url = url

    def __call__(self, query: str, **variables):
        r = httpx.post(self.url, json={"query": query, "variables": variables}, timeout=60)
        r.raise_for_status()
        body = r.json()
        assert not body.get("errors"), body["errors"]
        return body["data"]


def _location_loaded(gql: GraphQL) -> bool:
    data = gql(
        "{ workspaceOrError { ... on Workspace { locationEntries { name loadStatus "
        "locationOrLoadError { __typename ... on PythonError { message } } } } } }"
    )
    for entry in data["workspaceOrError"]["locationEntries"]:
        if entry["name"] == LOCATION and entry["loadStatus"] == "LOADED":
            err = entry["locationOrLoadError"]
            if err and err["__typename"] == "PythonError":
                raise AssertionError(f"code location failed to load: {err['message']}")
            return True
    return False


@contextmanager
def dagster_dev(tmp_path, env: dict, ready_s: float = 120):
    """`dagster dev` on 127.0.0.1 with workspace.yaml; yields (GraphQL client, process, log) once the
    code location is loaded; stops the whole process group afterwards."""
    port = free_port()
    env = {"PATH": f"{VENV_BIN}:/usr/bin:/bin:/usr/local/bin", **env}
    log = tmp_path / "dagster_dev.log"
    # dagster dev launched from a non-interactive shell ignores SIGTERM: own process group, signal the group
    proc = start_group(
        [
            str(VENV_BIN / "textguard"),  # as `make ui`: the instance is made under the lock, then `dagster dev`
            "dev",
            "-h",
            "127.0.0.1",
            "-p",
            str(port),
            "-w",
            str(PROJECT_ROOT / "workspace.yaml"),
        ],
        log,
        env=env,
        cwd=PROJECT_ROOT,
    )
    try:
        base = f"http://127.0.0.1:{port}"
        wait_until(
            lambda: httpx.get(f"{base}/server_info", timeout=2).status_code == 200, ready_s, "dagster dev", proc, log
        )
        gql = GraphQL(f"{base}/graphql")
        wait_until(lambda: _location_loaded(gql), ready_s, "code location", proc, log)
        yield gql, proc, log
    finally:
        stop_group(proc, timeout=20)


def _range_run_params(docs: list[str], assets=("source_documents", "parsed_chunks")) -> dict:
    """launchRun parameters for one run over the documents' range (a multi-partition run)."""
    return {
        "selector": {**REPO, "jobName": "__ASSET_JOB", "assetSelection": [{"path": [a]} for a in assets]},
        "executionMetadata": {
            "tags": [
                {"key": "dagster/asset_partition_range_start", "value": docs[0]},
                {"key": "dagster/asset_partition_range_end", "value": docs[-1]},
            ]
        },
    }


def _run_finished(gql: GraphQL, run_id: str):
    run = gql(Q_RUN, id=run_id)["runOrError"]
    return run if run["status"] in ("SUCCESS", "FAILURE", "CANCELED") else None


def test_dagster_dev_serves_assets_checks_automations_and_runs(tmp_path):
    docs = small_corpus(tmp_path / "corpus", names=("comply_policy_encryption.md", "evaluate_bleu_readme.md"))
    home = dagster_home(tmp_path / "home")
    warehouse = tmp_path / "warehouse"
    env = {
        "DAGSTER_HOME": str(home),
        "TEXTGUARD_CORPUS_DIR": str(tmp_path / "corpus"),
        "TEXTGUARD_WAREHOUSE": str(warehouse),
        "TEXTGUARD_EXECUTOR": "in_process",  # one process per run: fast on 2 cores
        "TEXTGUARD_AUTOMATION": "off",  # the corpus sensor runs every asset itself (automation: test_live_automation)
    }
    with dagster_dev(tmp_path, env) as (gql, proc, log):
        # register the documents through the API (what the corpus sensor/schedule do in the daemon)
        for key in docs:
            res = gql(M_ADD_PARTITION, repo=REPO, key=key)["addDynamicPartition"]
            assert res["__typename"] == "AddDynamicPartitionSuccess", res

        nodes = {"/".join(n["assetKey"]["path"]): n for n in gql(Q_ASSETS)["assetNodes"]}
        # (the list of the eight assets is asserted at the end, so that the rest is verified meanwhile)
        assert all(n["partitionKeys"] == docs for n in nodes.values()), "every asset is partitioned by documents"
        checks = {a: {c["name"] for c in (n["assetChecksOrError"].get("checks") or [])} for a, n in nodes.items()}
        assert "source_documents_readable" in checks["source_documents"]
        assert "parsed_chunks_tiling" in checks["parsed_chunks"]
        no_checks = sorted(a for a in nodes if not checks[a])
        assert not no_checks, f"assets without asset checks: {no_checks}"

        auto = gql(Q_AUTOMATIONS, repo=REPO)
        assert {"corpus_sensor", "textguard_automation"} <= {s["name"] for s in auto["sensorsOrError"]["results"]}
        schedules = {s["name"]: s["cronSchedule"] for s in auto["schedulesOrError"]["results"]}
        assert schedules.get("corpus_refresh") == refresh_cron()

        # launch one run over both documents (a partition range: a multi-partition run)
        params = _range_run_params(docs)
        launched = gql(M_LAUNCH, params=params)["launchRun"]
        assert launched["__typename"] == "LaunchRunSuccess", launched
        run_id = launched["run"]["runId"]

        # and a backfill, as the UI's "Materialize → all partitions" does: multi_run policy → one run for both documents
        backfill = gql(
            M_BACKFILL, params={"assetSelection": params["selector"]["assetSelection"], "partitionNames": docs}
        )["launchPartitionBackfill"]
        assert backfill["__typename"] == "LaunchBackfillSuccess", backfill

        # the daemon evaluates the corpus sensor: the registered documents have no recorded hash yet,
        # so it requests one run over their range (its run is not awaited: it runs every asset)
        sel = {**REPO, "sensorName": "corpus_sensor"}
        started = gql(M_START_SENSOR, sel=sel)["startSensor"]
        assert started["__typename"] == "Sensor", started

        def requested():
            ticks = gql(Q_SENSOR_TICKS, sel=sel)["sensorOrError"]["sensorState"]["ticks"]
            failed = [t["error"]["message"] for t in ticks if t["status"] == "FAILURE"]
            assert not failed, failed
            return next((t for t in ticks if t["status"] == "SUCCESS" and t["runIds"]), None)

        run = wait_until(lambda: _run_finished(gql, run_id), 150, f"run {run_id}", proc, log)
        assert run["status"] == "SUCCESS", log.read_text(errors="replace")[-3000:]

        def backfill_done():  # its run finished (the daemon marks the backfill COMPLETED on a later tick)
            b = gql(Q_BACKFILL, id=backfill["backfillId"])["partitionBackfillOrError"]
            done = b["runs"] and all(r["status"] in ("SUCCESS", "FAILURE", "CANCELED") for r in b["runs"])
            return b if done or b["status"] in ("FAILED", "CANCELED", "COMPLETED_FAILED") else None

        b = wait_until(backfill_done, 150, "backfill", proc, log)
        assert b["isAssetBackfill"] and b["status"] not in ("FAILED", "CANCELED", "COMPLETED_FAILED"), b
        assert len(b["runs"]) == 1 and b["runs"][0]["status"] == "SUCCESS", b
        btags = {t["key"]: t["value"] for t in b["runs"][0]["tags"]}
        assert (btags["dagster/asset_partition_range_start"], btags["dagster/asset_partition_range_end"]) == (
            docs[0],
            docs[-1],
        )
        for key in docs:
            assert (warehouse / "parsed_chunks" / f"{key}.parquet").exists()

        tick = wait_until(requested, 90, "corpus_sensor tick", proc, log)
        sensor_run = gql(Q_RUN, id=tick["runIds"][0])["runOrError"]
        tags = {t["key"]: t["value"] for t in sensor_run["tags"]}
        assert tags["dagster/asset_partition_range_start"] == docs[0]
        assert tags["dagster/asset_partition_range_end"] == docs[-1]
        assert tags["dagster/sensor_name"] == "corpus_sensor"

        missing = EXPECTED_ASSETS - set(nodes)
        assert not missing, f"assets missing from the UI: {sorted(missing)} (present: {sorted(nodes)})"


def test_dagster_dev_on_the_postgres_instance_with_a_multiprocess_run(tmp_path):
    """deploy/postgres/dagster.yaml under the webserver, the daemon and a run worker whose steps run in
    child processes (multiprocess executor): every process rebuilds the pooled event log from the
    instance config, and the run's per-document events land in PostgreSQL."""
    from dagster import AssetKey

    docs = small_corpus(tmp_path / "corpus", names=("comply_policy_encryption.md", "evaluate_bleu_readme.md"))
    home = dagster_home(tmp_path / "home", PROJECT_ROOT / "deploy" / "postgres" / "dagster.yaml")
    warehouse = tmp_path / "warehouse"
    with postgres_server() as pg:
        env = {
            **pg.env(),
            "DAGSTER_HOME": str(home),
            "TEXTGUARD_CORPUS_DIR": str(tmp_path / "corpus"),
            "TEXTGUARD_WAREHOUSE": str(warehouse),
            "TEXTGUARD_EXECUTOR": "multiprocess",
        }
        with dagster_dev(tmp_path, env) as (gql, proc, log):
            for key in docs:
                res = gql(M_ADD_PARTITION, repo=REPO, key=key)["addDynamicPartition"]
                assert res["__typename"] == "AddDynamicPartitionSuccess", res
            launched = gql(M_LAUNCH, params=_range_run_params(docs))["launchRun"]
            assert launched["__typename"] == "LaunchRunSuccess", launched
            run_id = launched["run"]["runId"]
            run = wait_until(lambda: _run_finished(gql, run_id), 180, f"run {run_id}", proc, log)
            assert run["status"] == "SUCCESS", log.read_text(errors="replace")[-3000:]
            # Dagster falls back to one insert per event, saying so on stderr, when a batch write fails
            assert "Exception while storing event batch" not in log.read_text(errors="replace")

        with pg.connect() as conn, conn.cursor() as cur:
            cur.execute(
                "SELECT dagster_event_type, asset_key, partition FROM event_logs WHERE run_id = %s "
                "AND dagster_event_type IN ('ASSET_MATERIALIZATION_PLANNED', 'ASSET_MATERIALIZATION')",
                (run_id,),
            )
            rows = cur.fetchall()
            cur.execute("SELECT status FROM runs WHERE run_id = %s", (run_id,))
            assert cur.fetchone()[0] == "SUCCESS"
    for kind in ("ASSET_MATERIALIZATION_PLANNED", "ASSET_MATERIALIZATION"):
        for asset in ("source_documents", "parsed_chunks"):
            got = sorted(p for k, a, p in rows if k == kind and a == AssetKey(asset).to_string())
            assert got == docs, (kind, asset, rows)
    for key in docs:
        assert (warehouse / "parsed_chunks" / f"{key}.parquet").exists()
