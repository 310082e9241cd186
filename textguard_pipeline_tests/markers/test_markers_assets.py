"""candidate_markers / gated_markers through Dagster: decisions, checks, rollback switch, LLM endpoint."""

import json
import shutil
from pathlib import Path

import pytest
from dagster import DagsterInstance

from textguard_pipeline.defs_kit.io_manager import read_parquet

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "data" / "corpus" / "classified_report_public_footer.txt"
SELECT = "source_documents parsed_chunks candidate_markers gated_markers"
SILENT = "".join(f"Chapter {i}: part {i}\n\nThe chapter is short.\n\n\f" for i in range(1, 6))
SOFT = "Intro.\n\nEXTERNAL 2: partners\n\nThe Galaxy 5 was compared with the Pixel 8.\n"


@pytest.fixture
def corpus(tmp_path, monkeypatch):
    root = tmp_path / "corpus"
    root.mkdir()
    wh = tmp_path / "warehouse"
    monkeypatch.setenv("TEXTGUARD_CORPUS_DIR", str(root))
    monkeypatch.setenv("TEXTGUARD_WAREHOUSE", str(wh))
    monkeypatch.delenv("TEXTGUARD_LLM_URL", raising=False)
    for var in ("GATE", "SEQUENCE_THRESHOLD", "SOFT_FLAG_ACTION", "FALLBACK_MAX"):
        monkeypatch.delenv(f"TEXTGUARD_MARKERS_{var}", raising=False)
    return root, wh


def run(root):
    from textguard_pipeline.operations.report import materialize_corpus

    res = materialize_corpus(instance=DagsterInstance.ephemeral(), batch_size=10, select=SELECT, log=lambda *_: None)
    assert not res.step_failures, res.step_failures
    return res


def test_markers_assets_reject_footers_keep_iphone(corpus):
    root, wh = corpus
    shutil.copy(SAMPLE, root / SAMPLE.name)
    (root / "silent.txt").write_text(SILENT, encoding="utf-8")
    (root / "code.md").write_text("The iPhone 15 again.\n\n```\nPython 3.11\n```\n", encoding="utf-8")
    res = run(root)
    outcomes = {(o.check, o.doc_id): o.status for o in res.outcomes if "markers" in o.check}
    assert outcomes and set(outcomes.values()) == {"passed"}
    assert ("gated_markers/gated_markers_decisions_follow_matrix", SAMPLE.name) in outcomes
    assert ("candidate_markers/candidate_markers_char_ranges", "code.md") in outcomes

    occ = read_parquet(wh / "candidate_markers" / f"{SAMPLE.name}.parquet")
    assert list(occ.columns) == [
        "doc_id",
        "start",
        "end",
        "text",
        "prefix",
        "number",
        "kind",
        "is_weak_candidate",
        "line",
        "page",
        "filtered_by",
    ]
    footers = occ[occ["prefix"] == "PUBLIC"]
    assert footers["page"].tolist() == list(range(1, 13)) and footers["is_weak_candidate"].all()

    gm = read_parquet(wh / "gated_markers" / f"{SAMPLE.name}.parquet").set_index("value")
    for i in range(1, 13):
        row = gm.loc[f"PUBLIC {i}"]
        assert (row["decision"], bool(row["kept"]), int(row["s1_sequence"])) == ("HARD_REJECT", False, 12)
        assert list(row["pages"]) == [i]
    assert gm.loc["iPhone 15", "decision"] == "LOW" and bool(gm.loc["iPhone 15", "kept"])
    text = SAMPLE.read_text(encoding="utf-8")
    first = gm.loc["iPhone 15"]
    assert text[first["start"] : first["end"]] == first["text"] == "iPhone 15"

    silent = read_parquet(wh / "gated_markers" / "silent.txt.parquet")
    assert silent["fallback"].sum() == 3 and (silent.loc[silent["fallback"], "structure_risk"] == "FALLBACK").all()
    code = read_parquet(wh / "gated_markers" / "code.md.parquet")
    assert code["value"].tolist() == ["iPhone 15"]  # nothing mined inside the code block


def test_gate_switched_off_by_config(corpus, monkeypatch):
    root, wh = corpus
    shutil.copy(SAMPLE, root / SAMPLE.name)
    monkeypatch.setenv("TEXTGUARD_MARKERS_GATE", "off")
    res = run(root)
    assert not [o for o in res.outcomes if "markers" in o.check and o.status != "passed"]
    gm = read_parquet(wh / "gated_markers" / f"{SAMPLE.name}.parquet")
    assert set(gm["decision"]) == {"GATE_OFF"} and gm["kept"].all() and not gm["gate_enabled"].any()
    assert "PUBLIC 7" in set(gm["value"])


def test_soft_flag_confirmed_by_configured_llm(corpus, monkeypatch, fresh_standin):
    root, wh = corpus
    (root / "soft.txt").write_text(SOFT, encoding="utf-8")
    reply = {"decisions": [{"value": "EXTERNAL 2", "keep": False, "reason": "section label"}]}
    fresh_standin.script({"POST /v1/chat/completions": [fresh_standin.chat_reply(json.dumps(reply))]})
    monkeypatch.setenv("TEXTGUARD_LLM_URL", f"{fresh_standin.base_url}/v1")
    run(root)
    gm = read_parquet(wh / "gated_markers" / "soft.txt.parquet").set_index("value")
    assert gm.loc["EXTERNAL 2", "decision"] == "SOFT_FLAG" and gm.loc["EXTERNAL 2", "action"] == "llm_reject"
    assert not bool(gm.loc["EXTERNAL 2", "kept"]) and "section label" in gm.loc["EXTERNAL 2", "reason"]
    assert gm.loc["Pixel 8", "decision"] == "LOW" and bool(gm.loc["Pixel 8", "kept"])
    assert len(fresh_standin.requests()) == 1
