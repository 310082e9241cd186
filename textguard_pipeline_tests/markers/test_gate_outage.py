"""Issue 48, item 5, for the markers gate: a configured LLM that is unreachable fails the document (an
Outage, which the runner turns into "keeps its last good output"), unless falling back is asked for."""

import pytest

from textguard_pipeline.lib.outage import Outage
from textguard_pipeline.markers.build import make_gate
from textguard_pipeline.markers.miner import CandidateMiner, group_occurrences
from textguard_pipeline.markers.model import StructureGateConfig, gate_config_from_env
from textguard_pipeline_tests.markers.test_markers import SOFT_DOC
from textguard_pipeline_tests.standin.client import free_port

ROUTE = "POST /v1/chat/completions"


@pytest.fixture
def llm_env(monkeypatch, tmp_path):
    for name, value in {
        "TEXTGUARD_LLM_MAX_RETRIES": "0",
        "TEXTGUARD_LLM_BACKOFF_S": "0",
        "TEXTGUARD_LLM_CACHE_DIR": str(tmp_path / "llm_cache"),
        "TEXTGUARD_MARKERS_LLM_FALLBACK": "off",
    }.items():
        monkeypatch.setenv(name, value)
    return lambda url: monkeypatch.setenv("TEXTGUARD_LLM_URL", url)


def run(gate):
    return gate.run(group_occurrences(CandidateMiner().find_occurrences(SOFT_DOC)), SOFT_DOC, "d")


def test_an_llm_on_a_closed_port_fails_the_document(llm_env):
    llm_env(f"http://127.0.0.1:{free_port()}/v1")
    with pytest.raises(Outage):
        run(make_gate(StructureGateConfig()))


def test_an_llm_answering_500_fails_the_document(llm_env, fresh_standin):
    llm_env(f"{fresh_standin.base_url}/v1")
    fresh_standin.script({ROUTE: [{"status": 500, "json": {}}]})
    with pytest.raises(Outage):
        run(make_gate(StructureGateConfig()))


def test_the_markers_fallback_setting_keeps_soft_flag_candidates_weak_instead(llm_env, fresh_standin, monkeypatch):
    llm_env(f"{fresh_standin.base_url}/v1")
    monkeypatch.setenv("TEXTGUARD_MARKERS_LLM_FALLBACK", "on")
    fresh_standin.script({ROUTE: [{"status": 500, "json": {}}]})
    res = run(make_gate(gate_config_from_env()))
    assert res.llm_error  # said, in the table's llm_error column
    assert all(c.kept for c in res.candidates) and {c.action for c in res.candidates} == {"weak", "keep"}


def test_the_meanings_fallback_setting_does_not_make_the_markers_gate_fall_back(llm_env, fresh_standin, monkeypatch):
    llm_env(f"{fresh_standin.base_url}/v1")
    monkeypatch.setenv("TEXTGUARD_MEANINGS_LLM_FALLBACK", "on")
    fresh_standin.script({ROUTE: [{"status": 500, "json": {}}]})
    with pytest.raises(Outage):
        run(make_gate(gate_config_from_env()))


def test_a_malformed_answer_is_not_an_outage(llm_env, fresh_standin):
    llm_env(f"{fresh_standin.base_url}/v1")
    fresh_standin.script({ROUTE: [fresh_standin.chat_reply("not json at all")]})
    res = run(make_gate(StructureGateConfig()))
    assert res.llm_error and all(c.kept for c in res.candidates)
