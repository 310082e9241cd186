"""Declarative automation under `textguard dev` (webserver + daemon): nothing is launched by hand.

One document, three daemon sessions on the same instance and warehouse, an LLM endpoint (the loopback stand-in)
configured throughout:

1. the document dropped into the corpus is registered by the corpus sensor (which runs ``source_documents``)
   and carried through every free asset by the automation sensor; no asset that calls the LLM runs (the
   rewrite, the markers gate's and the meanings' LLM passes) and the stand-in receives no request;
2. restarted with one protection setting changed: the daemon re-runs ``protected_chunks`` and nothing else
   (its only downstream asset, ``rewritten_chunks``, is paid and not automated);
3. restarted with ``TEXTGUARD_AUTOMATE_PAID=on``, a daily budget and another protection setting: the daemon
   re-runs ``protected_chunks`` and its downstream assets (``rewritten_chunks``, ``rewritten_documents``), which
   now call the LLM and draw on the daily budget, and nothing else.

"Nothing else" is read from the instance (:class:`_Quiet`) and the warehouse's files. A restart that comes before
the daemon saw the last run's materializations (the race that made the earlier version of this test flaky) is
tested with Dagster's evaluator in ``defs_kit/test_automation.py``.
"""

from __future__ import annotations

import shutil
import time

import pytest

from textguard_pipeline.defs_kit.automation import SENSOR_NAME
from textguard_pipeline.defs_kit.runner import BUDGET_TAG
from textguard_pipeline.lib.ledger import DAILY, LedgerBudget
from textguard_pipeline_tests.devservers import wait_until
from textguard_pipeline_tests.e2e._servers import dagster_home, small_corpus
from textguard_pipeline_tests.e2e.test_live_ui import M_START_SENSOR, REPO, dagster_dev

pytestmark = pytest.mark.slow

ROUTE = "POST /v1/chat/completions"
#: with an LLM endpoint configured, the markers gate's and the meanings' LLM passes are on by default
LLM_PASSES = {"gated_markers", "resolved_meanings"}
REWRITE = {"rewritten_chunks", "rewritten_documents"}
FREE = {"source_documents", "parsed_chunks", "protected_chunks", "ner_frames", "citation_maps", "candidate_markers"}
PROTECTED_DOWNSTREAM = {"protected_chunks"} | REWRITE

Q_RUNS = """
{ runsOrError { __typename ... on Runs { results { runId status assetSelection { path } tags { key value } } } } }
"""
Q_BACKFILLS = "{ partitionBackfillsOrError { __typename ... on PartitionBackfills { results { id status } } } }"
Q_TICKS = """
query($sel: SensorSelector!) {
  sensorOrError(sensorSelector: $sel) { __typename
    ... on Sensor { sensorState { ticks(limit: 10) { id status timestamp endTimestamp skipReason
      requestedAssetMaterializationCount error { message } } } } }
}
"""
FINISHED = ("SUCCESS", "FAILURE", "CANCELED")
BACKFILL_DONE = ("COMPLETED", "COMPLETED_SUCCESS", "COMPLETED_FAILED", "FAILED", "CANCELED")


def _runs(gql) -> list[dict]:
    return gql(Q_RUNS)["runsOrError"]["results"]


def _assets(run: dict) -> set[str]:
    return {"/".join(k["path"]) for k in run["assetSelection"] or []}


def _ticks(gql) -> list[dict]:
    sel = {**REPO, "sensorName": SENSOR_NAME}
    return gql(Q_TICKS, sel=sel)["sensorOrError"]["sensorState"]["ticks"]


class _Quiet:
    """True once two automation ticks started after every run and backfill had finished, with no new run
    since, and requested nothing: the daemon has seen every materialization and wants no other run."""

    def __init__(self, gql):
        self.gql, self.n_runs, self.since = gql, -1, time.time()

    def __call__(self) -> bool:
        runs = _runs(self.gql)
        backfills = self.gql(Q_BACKFILLS)["partitionBackfillsOrError"]["results"]
        busy = any(r["status"] not in FINISHED for r in runs) or any(
            b["status"] not in BACKFILL_DONE for b in backfills
        )
        if busy or len(runs) != self.n_runs:
            self.n_runs, self.since = len(runs), time.time()
            return False
        return len([t for t in _ticks(self.gql) if t["timestamp"] > self.since and t["status"] == "SKIPPED"]) >= 2


def _stamps(warehouse, doc: str) -> dict[str, int]:
    return {p.parent.name: p.stat().st_mtime_ns for p in warehouse.glob(f"*/{doc}.parquet")}


def _changed(before: dict[str, int], after: dict[str, int]) -> set[str]:
    return {a for a in after if before.get(a) != after[a]}


def _session(tmp_path, n: int):
    """A directory of its own for session ``n``'s log."""
    path = tmp_path / f"session{n}"
    path.mkdir()
    return path


def _settle(gql, before: set[str], expected: set[str], proc, log) -> list[dict]:
    """The runs started since ``before``, once they cover ``expected``, all succeeded, and the daemon is quiet."""

    def covered():
        new = [r for r in _runs(gql) if r["runId"] not in before]
        done = all(r["status"] in FINISHED for r in new)
        return new if done and expected <= set().union(set(), *map(_assets, new)) else None

    try:
        wait_until(covered, 420, f"runs of {sorted(expected)}", proc, log)
        wait_until(_Quiet(gql), 120, "the daemon to settle", proc, log)
    except TimeoutError as exc:  # what the daemon decided meanwhile: tells a slow run from no request
        raise TimeoutError(f"{exc}\nautomation ticks: {_ticks(gql)}\nruns: {_runs(gql)}") from None
    new = [r for r in _runs(gql) if r["runId"] not in before]
    assert all(r["status"] == "SUCCESS" for r in new), new
    return new


def test_the_daemon_runs_every_free_asset_of_a_dropped_document_and_after_a_settings_change_only_what_it_affects(
    tmp_path, fresh_standin
):
    fresh_standin.script({ROUTE: [{"mangle": {"kind": "none"}}]})  # an answer that keeps every placeholder
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
        "TEXTGUARD_LLM_URL": f"{fresh_standin.base_url}/v1",
        "TEXTGUARD_LLM_CACHE": "off",
        "TEXTGUARD_REWRITE_TASK": "paraphrase",
    }

    # 1. a dropped document: every free asset, no paid one, no LLM request
    with dagster_dev(_session(tmp_path, 1), env, ready_s=300) as (gql, proc, log):
        # the automation sensor is running from the start; the corpus sensor is turned on as an operator would
        started = gql(M_START_SENSOR, sel={**REPO, "sensorName": "corpus_sensor"})["startSensor"]
        assert started["__typename"] == "Sensor", started
        shutil.copy(tmp_path / "staging" / doc, corpus / doc)

        runs = _settle(gql, set(), FREE, proc, log)
        by_sensor = [r for r in runs if {"key": "dagster/sensor_name", "value": "corpus_sensor"} in r["tags"]]
        assert [_assets(r) for r in by_sensor] == [{"source_documents"}], runs
        assert set().union(*map(_assets, runs)) == FREE, runs  # every free asset, no paid one
        automated = [r for r in runs if r not in by_sensor]
        assert all({"key": BUDGET_TAG, "value": DAILY} in r["tags"] for r in automated), automated
    assert set(_stamps(warehouse, doc)) == FREE
    assert fresh_standin.requests() == []

    # 2. one setting that changes what protected_chunks writes (its code version): it re-runs, nothing else
    ids, first = {r["runId"] for r in runs}, _stamps(warehouse, doc)
    env["TEXTGUARD_PROTECT_YEAR_ONLY"] = "on"
    with dagster_dev(_session(tmp_path, 2), env, ready_s=300) as (gql, proc, log):
        new = _settle(gql, ids, {"protected_chunks"}, proc, log)
    assert [_assets(r) for r in new] == [{"protected_chunks"}], new
    second = _stamps(warehouse, doc)
    assert _changed(first, second) == {"protected_chunks"}
    assert fresh_standin.requests() == []

    # 3. paid assets automated, with a daily budget, and another protection setting: protected_chunks and its
    # downstream assets re-run, the rewrite calls the LLM under the daily budget; the LLM passes of assets
    # whose inputs did not change do not run (eager does not fill partitions missing before it applied)
    ids |= {r["runId"] for r in new}
    env.update(
        TEXTGUARD_AUTOMATE_PAID="on",
        TEXTGUARD_LLM_MAX_COST_PER_DAY="5",
        TEXTGUARD_LLM_PRICE_IN_PER_1K="0.01",
        TEXTGUARD_LLM_PRICE_OUT_PER_1K="0.01",
        TEXTGUARD_PROTECT_TERMS="encryption key",
    )
    with dagster_dev(_session(tmp_path, 3), env, ready_s=300) as (gql, proc, log):
        new = _settle(gql, ids, PROTECTED_DOWNSTREAM, proc, log)
    assert set().union(*map(_assets, new)) == PROTECTED_DOWNSTREAM, new
    assert all({"key": BUDGET_TAG, "value": DAILY} in r["tags"] for r in new), new
    assert _changed(second, _stamps(warehouse, doc)) == PROTECTED_DOWNSTREAM
    assert fresh_standin.requests(), "the rewrite called the LLM"
    cost, tokens = LedgerBudget(warehouse / ".llm-ledger.sqlite").spent(DAILY)
    assert 0 < cost <= 5 and tokens > 0
