"""Declarative automation under `textguard dev` (webserver + daemon): nothing is launched by hand.

A document dropped into the corpus is registered by the corpus sensor (which runs ``source_documents``) and
carried through every free asset by the automation sensor; no LLM-spending asset runs. That a settings change
re-runs only what it affects is tested with Dagster's own evaluator in ``defs_kit/test_automation.py``: the live
version of it (restart ``dg dev`` with another setting) was flaky here and is not kept.
"""

import shutil

import pytest

from textguard_pipeline.defs_kit.runner import BUDGET_TAG
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


def test_the_daemon_materializes_a_dropped_document_through_every_free_asset_and_no_paid_one(tmp_path):
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
        assert all({"key": BUDGET_TAG, "value": "daily"} in r["tags"] for r in automated), automated
        assert not any((warehouse / a).exists() for a in PAID)
