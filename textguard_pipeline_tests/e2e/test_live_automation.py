"""Declarative automation under `textguard dev` (webserver + daemon): nothing is launched by hand.

A document dropped into the corpus is registered by the corpus sensor (which runs ``source_documents``) and
carried through every free asset by the automation sensor; no LLM-spending asset runs. After a restart with a
setting that changes one asset's code version, the daemon re-runs that asset and nothing else.
"""

import shutil
import time

import pytest

from textguard_pipeline_tests.devservers import wait_until
from textguard_pipeline_tests.e2e._servers import dagster_home, small_corpus
from textguard_pipeline_tests.e2e.test_live_ui import EXPECTED_ASSETS, M_START_SENSOR, REPO, dagster_dev

pytestmark = pytest.mark.slow

PAID = ("rewritten_chunks", "rewritten_documents")
Q_RUNS = """
{ runsOrError { __typename ... on Runs { results { runId status assetSelection { path } tags { key value } } } } }
"""
FINISHED = ("SUCCESS", "FAILURE", "CANCELED")


def _runs(gql) -> list[dict]:
    return gql(Q_RUNS)["runsOrError"]["results"]


def _settled(gql, at_least: int):
    """The runs, once there are ``at_least`` and every one has finished."""
    runs = _runs(gql)
    return runs if len(runs) >= at_least and all(r["status"] in FINISHED for r in runs) else None


def _assets(run: dict) -> set[str]:
    return {"/".join(k["path"]) for k in run["assetSelection"] or []}


def _stamps(warehouse, doc: str) -> dict[str, int]:
    return {a: (warehouse / a / f"{doc}.parquet").stat().st_mtime_ns for a in sorted(EXPECTED_ASSETS)}


def test_the_daemon_materializes_a_dropped_document_and_reruns_only_what_a_setting_changes(tmp_path):
    (doc,) = small_corpus(tmp_path / "staging", names=("comply_policy_encryption.md",))
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    warehouse = tmp_path / "warehouse"
    env = {
        "DAGSTER_HOME": str(dagster_home(tmp_path / "home")),
        "TEXTGUARD_CORPUS_DIR": str(corpus),
        "TEXTGUARD_WAREHOUSE": str(warehouse),
        "TEXTGUARD_EXECUTOR": "in_process",
        "TEXTGUARD_SENSOR_INTERVAL_S": "5",
        "TEXTGUARD_AUTOMATION_INTERVAL_S": "5",
    }
    with dagster_dev(tmp_path, env, ready_s=300) as (gql, proc, log):
        # the automation sensor is running from the start; the corpus sensor is turned on as an operator would
        started = gql(M_START_SENSOR, sel={**REPO, "sensorName": "corpus_sensor"})["startSensor"]
        assert started["__typename"] == "Sensor", started
        shutil.copy(tmp_path / "staging" / doc, corpus / doc)

        def every_free_asset_written():
            return all((warehouse / a / f"{doc}.parquet").exists() for a in EXPECTED_ASSETS)

        wait_until(every_free_asset_written, 600, "every free asset of the dropped document", proc, log)
        runs = wait_until(lambda: _settled(gql, 2), 120, "runs to finish", proc, log)
        assert all(r["status"] == "SUCCESS" for r in runs), runs
        by_sensor = [r for r in runs if {"key": "dagster/sensor_name", "value": "corpus_sensor"} in r["tags"]]
        assert [_assets(r) for r in by_sensor] == [{"source_documents"}], runs
        assert set().union(*map(_assets, runs)) == EXPECTED_ASSETS  # every free asset, no paid one
        automated = [r for r in runs if r not in by_sensor]
        assert all({"key": "textguard/budget_scope", "value": "daily"} in r["tags"] for r in automated), automated
        assert not any((warehouse / a).exists() for a in PAID)
        first = _stamps(warehouse, doc)
        n_runs = len(runs)

    # a setting that changes what gated_markers writes: its code version changes, and only its
    env["TEXTGUARD_MARKERS_GATE"] = "off"
    with dagster_dev(tmp_path, env, ready_s=300) as (gql, proc, log):
        wait_until(lambda: _stamps(warehouse, doc)["gated_markers"] != first["gated_markers"], 300, "re-run", proc, log)
        runs = wait_until(lambda: _settled(gql, n_runs + 1), 120, "runs to finish", proc, log)
        new = runs[: len(runs) - n_runs]  # newest first
        assert [_assets(r) for r in new] == [{"gated_markers"}], new
        assert all(r["status"] == "SUCCESS" for r in new), new
        time.sleep(15)  # three more automation ticks: nothing else is requested
        assert len(_runs(gql)) == len(runs)
        second = _stamps(warehouse, doc)
        assert {a for a in first if first[a] != second[a]} == {"gated_markers"}
        assert not any((warehouse / a).exists() for a in PAID)
