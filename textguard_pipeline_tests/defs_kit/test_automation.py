"""Declarative automation: conditions per asset, settings-aware code versions, the daemon's decisions
(Dagster's own evaluator over the real definitions and a real instance; no run is launched)."""

import pytest
from dagster import (
    AssetKey,
    AssetMaterialization,
    build_sensor_context,
    evaluate_automation_conditions,
    instance_for_test,
)

from textguard_pipeline.definitions import build_definitions
from textguard_pipeline.defs_kit.automation import ROOT, SENSOR_NAME
from textguard_pipeline.defs_kit.runner import BUDGET_TAG
from textguard_pipeline.lib.ledger import DAILY
from textguard_pipeline.operations import sensors

PAID = {"rewritten_chunks", "rewritten_documents"}


def _graph(defs):
    graph = defs.resolve_asset_graph()
    return {k.to_user_string(): graph.get(k) for k in graph.materializable_asset_keys}


def _requested(result) -> dict[str, set[str]]:
    by_key = result._requested_partitions_by_asset_key  # noqa: SLF001 (the tester's own summary)
    return {k.to_user_string(): set(v) for k, v in by_key.items() if v}


@pytest.fixture
def llm_off(monkeypatch):
    for var in ("TEXTGUARD_LLM_URL", "TEXTGUARD_AUTOMATE_PAID", "TEXTGUARD_MARKERS_GATE", "TEXTGUARD_AUTOMATION"):
        monkeypatch.delenv(var, raising=False)


def test_free_assets_are_automated_and_paid_ones_only_when_the_setting_says_so(llm_off, monkeypatch):
    nodes = _graph(build_definitions())
    assert {a for a, n in nodes.items() if n.automation_condition is None} == PAID
    assert "eager" not in str(nodes[ROOT].automation_condition)  # the corpus sensor requests the root
    assert "eager" in str(nodes["parsed_chunks"].automation_condition)
    sensor = build_definitions().resolve_sensor_def(SENSOR_NAME)
    assert sensor.run_tags == {BUDGET_TAG: DAILY}  # automated LLM spending draws on the daily cap

    monkeypatch.setenv("TEXTGUARD_AUTOMATE_PAID", "on")
    assert all(n.automation_condition is not None for n in _graph(build_definitions()).values())


def test_an_llm_pass_counts_as_paid_once_an_endpoint_is_configured(llm_off, monkeypatch):
    monkeypatch.setenv("TEXTGUARD_LLM_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("TEXTGUARD_MEANINGS_LLM", "on")
    nodes = _graph(build_definitions())
    assert nodes["resolved_meanings"].automation_condition is None
    assert nodes["parsed_chunks"].automation_condition is not None


def test_a_settings_change_changes_the_code_version_of_what_it_affects_only(llm_off, monkeypatch):
    before = {a: n.code_version for a, n in _graph(build_definitions()).items()}
    monkeypatch.setenv("TEXTGUARD_LLM_TIMEOUT_S", "5")  # how a request runs, not what it writes
    assert {a: n.code_version for a, n in _graph(build_definitions()).items()} == before
    monkeypatch.setenv("TEXTGUARD_MARKERS_GATE", "off")
    after = {a: n.code_version for a, n in _graph(build_definitions()).items()}
    assert {a for a in before if before[a] != after[a]} == {"gated_markers"}


def test_the_daemon_carries_a_new_document_through_every_free_asset_then_reruns_a_changed_setting(llm_off, monkeypatch):
    defs = build_definitions()
    free = set(_graph(defs)) - PAID
    with instance_for_test() as instance:
        first = evaluate_automation_conditions(defs, instance)
        instance.add_dynamic_partitions("documents", ["a.md", "b.md"])
        tick = evaluate_automation_conditions(defs, instance, cursor=first.cursor)
        assert _requested(tick) == {}  # nothing before the root is materialized (the corpus sensor's run)

        instance.report_runless_asset_event(AssetMaterialization(ROOT, partition="a.md"))
        tick = evaluate_automation_conditions(defs, instance, cursor=tick.cursor)
        assert _requested(tick) == {a: {"a.md"} for a in free - {ROOT}}

        for asset in free:
            for key in ("a.md", "b.md"):
                instance.report_runless_asset_event(AssetMaterialization(asset, partition=key))
        tick = evaluate_automation_conditions(defs, instance, cursor=tick.cursor)
        tick = evaluate_automation_conditions(defs, instance, cursor=tick.cursor)
        assert _requested(tick) == {}

        monkeypatch.setenv("TEXTGUARD_MARKERS_GATE", "off")
        changed = evaluate_automation_conditions(build_definitions(), instance, cursor=tick.cursor)
        assert _requested(changed) == {"gated_markers": {"a.md", "b.md"}}


def test_a_settings_change_seen_with_an_update_the_previous_daemon_never_evaluated_still_reruns(llm_off, monkeypatch):
    """The daemon stopped right after a run: its last tick predates that run's materializations. After the
    restart with another setting, the first tick sees the change and that update at once; the update must not
    count as the re-run (it was written by the old code)."""
    defs = build_definitions()
    free = set(_graph(defs)) - PAID
    with instance_for_test() as instance:
        instance.add_dynamic_partitions("documents", ["a.md"])
        for asset in free:
            instance.report_runless_asset_event(AssetMaterialization(asset, partition="a.md"))
        tick = evaluate_automation_conditions(defs, instance)
        tick = evaluate_automation_conditions(defs, instance, cursor=tick.cursor)
        assert _requested(tick) == {}

        instance.report_runless_asset_event(AssetMaterialization("gated_markers", partition="a.md"))
        monkeypatch.setenv("TEXTGUARD_MARKERS_GATE", "off")
        changed = evaluate_automation_conditions(build_definitions(), instance, cursor=tick.cursor)
        assert _requested(changed) == {"gated_markers": {"a.md"}}
        again = evaluate_automation_conditions(build_definitions(), instance, cursor=changed.cursor)
        assert _requested(again) == {}  # requested once: the request is what handles the change


def test_the_corpus_sensor_requests_only_the_root_while_automation_is_on(tmp_path, monkeypatch, llm_off):
    (tmp_path / "a.md").write_text("# A\n\nOne document.\n", encoding="utf-8")
    monkeypatch.setenv("TEXTGUARD_CORPUS_DIR", str(tmp_path))
    with instance_for_test() as instance:
        result = sensors.corpus_sensor(build_sensor_context(instance=instance))
        assert [r.asset_selection for r in result.run_requests] == [[AssetKey(ROOT)]]
        monkeypatch.setenv("TEXTGUARD_AUTOMATION", "off")
        result = sensors.corpus_sensor(build_sensor_context(instance=instance))
        assert [r.asset_selection for r in result.run_requests] == [None]
