"""`rewritten_chunks` end to end through Dagster against the stand-in mangler: rows, checks, metadata,
the response cache on re-materialization, the opt-in switch, and an outage that fails documents."""

import json
import os
import subprocess
import sys

import pytest
from dagster import DagsterInstance, materialize

from textguard_pipeline.defs_kit.io_manager import read_parquet
from textguard_pipeline.lib.placeholder_audit import originals_kept, residue
from textguard_pipeline.roundtrip.prompt import PROMPT_VERSION
from textguard_pipeline_tests.standin.mangle import MIXED_FAULTS, REALISTIC_MIX

ROUTE = "POST /v1/chat/completions"
DOCS = {
    "a.md": "# Results\n\nAs shown by Smith et al. (2024), the model reaches 95% accuracy with $x^2$ "
    "(Lee & Park, 2023). Smith et al. (2024) also report 96% recall.\n\n"
    "A second paragraph cites (Müller, 2021a) and keeps 0.5% error. It is short.\n\n"
    "Plain text without any term at all.\n",
    "b.md": "Intro.\n\nThe ResNet baseline (He et al., 2016) reaches 76.1% top-1; ResNet is fast.\n",
}
KEYS = sorted(DOCS)


@pytest.fixture
def env(tmp_path, monkeypatch, fresh_standin):
    root = tmp_path / "corpus"
    root.mkdir()
    for name, text in DOCS.items():
        (root / name).write_text(text, encoding="utf-8")
    monkeypatch.setenv("TEXTGUARD_CORPUS_DIR", str(root))
    monkeypatch.setenv("TEXTGUARD_WAREHOUSE", str(tmp_path / "wh"))
    monkeypatch.setenv("TEXTGUARD_PROTECT_TERMS", "ResNet")
    monkeypatch.setenv("TEXTGUARD_PROTECT_NER", "0")
    monkeypatch.setenv("TEXTGUARD_LLM_URL", f"{fresh_standin.base_url}/v1")
    monkeypatch.setenv("TEXTGUARD_LLM_MODEL", "stand-in")
    monkeypatch.setenv("TEXTGUARD_REWRITE_TASK", "paraphrase")
    monkeypatch.setenv("TEXTGUARD_LLM_CACHE_DIR", str(tmp_path / "llm_cache"))
    monkeypatch.setenv("TEXTGUARD_LLM_BACKOFF_S", "0.01")
    monkeypatch.setenv("TEXTGUARD_LLM_MAX_RETRIES", "1")
    monkeypatch.setenv("TEXTGUARD_LLM_PRICE_IN_PER_1K", "0.5")
    monkeypatch.setenv("TEXTGUARD_LLM_PRICE_OUT_PER_1K", "1.5")
    return tmp_path / "wh"


def _assets():
    from textguard_pipeline.ingest.defs import parsed_chunks, source_documents
    from textguard_pipeline.protection.defs import protected_chunks
    from textguard_pipeline.roundtrip import defs as rt_defs

    return [
        source_documents,
        parsed_chunks,
        protected_chunks,
        rt_defs.rewritten_chunks,
        rt_defs.rewritten_documents,
        *rt_defs.CHECKS,
    ]


def _resources():
    from textguard_pipeline.defs_kit.resources import build_resources
    from textguard_pipeline.roundtrip.defs import RewriteResource
    from textguard_pipeline.settings import rewrite_settings

    return {**build_resources(), "rewrite": RewriteResource.from_settings(rewrite_settings())}


def _run(instance, **kw):
    tags = {"dagster/asset_partition_range_start": KEYS[0], "dagster/asset_partition_range_end": KEYS[-1]}
    return materialize(_assets(), instance=instance, resources=_resources(), tags=tags, raise_on_error=False, **kw)


def _instance():
    inst = DagsterInstance.ephemeral()
    inst.add_dynamic_partitions("documents", KEYS)
    return inst


def _checks(result):
    return {e.check_name: e.passed for e in result.get_asset_check_evaluations()}


def _mat(result, asset="rewritten_chunks"):
    return [
        e.event_specific_data.materialization
        for e in result.get_asset_materialization_events()
        if e.asset_key.to_user_string() == asset
    ]


def test_rewritten_chunks_through_dagster(env, fresh_standin):
    fresh_standin.script({ROUTE: [{"mangle": {"mix": REALISTIC_MIX, "seed": 7}}]})
    inst = _instance()
    res = _run(inst)
    assert res.success
    assert _checks(res) == {
        "rewritten_chunks_terms_kept": True,
        "rewritten_chunks_char_ranges": True,
        "rewritten_chunks_fallback_share": True,
        "rewritten_chunks_documents_ok": True,
        "rewritten_documents_verbatim": True,
        "rewritten_documents_terms_kept": True,
        "rewritten_documents_skeleton": True,
        "rewritten_documents_share_rewritten": True,
    }
    sent = len(fresh_standin.requests())
    assert sent >= 4
    total = accepted = 0
    first_texts = {}
    for key in KEYS:
        df = read_parquet(env / "rewritten_chunks" / f"{key}.parquet")
        protected = read_parquet(env / "protected_chunks" / f"{key}.parquet")
        assert list(df["chunk_index"]) == list(protected["chunk_index"])
        assert {
            "doc_id",
            "chunk_index",
            "start",
            "end",
            "text",
            "protected_text",
            "llm_output",
            "rewritten_text",
            "status",
            "attempts",
            "repairs",
            "problems",
            "model",
            "prompt_version",
            "prompt_tokens",
            "completion_tokens",
            "latency_s",
        } <= set(df.columns)
        for r in df.to_dict("records"):
            assert r["text"] == DOCS[key][r["start"] : r["end"]]
            if r["status"] == "fallback":
                assert r["rewritten_text"] == r["text"]
            else:
                assert not originals_kept(r["rewritten_text"], r["protected_text"], r["placeholders"])
                assert not residue(r["rewritten_text"], r["text"])
            assert r["model"] == "stand-in" and r["prompt_version"] == PROMPT_VERSION and r["attempts"] >= 1
        total += len(df)
        first_texts[key] = list(df["rewritten_text"])
        accepted += int((df["status"] != "fallback").sum())
    mats = _mat(res)
    md = mats[0].metadata  # the run's figures (run_*) are on every document's materialization
    assert sum(md["run_by_status"].value.values()) == total
    assert md["run_requests"].value == sent and md["run_prompt_tokens"].value > 0 and md["run_cost_usd"].value > 0
    assert md["run_requests_per_second"].value > 0 and "run_repairs_by_kind" in md
    assert sum(m.metadata["requests"].value for m in mats) == sent  # and each document its own
    assert sum(m.metadata["cost_usd"].value for m in mats) == pytest.approx(md["run_cost_usd"].value, abs=1e-5)
    assert all("| doc_id | chunks |" in m.metadata["summary"].value for m in mats)

    # Re-materialization: every accepted answer comes from the response cache; only answers that failed the
    # audit are asked again (they were never cached: a bad answer must not poison later runs).
    fresh_standin.clear()
    res2 = _run(inst)
    assert res2.success and len(fresh_standin.requests()) == sent - accepted
    assert _mat(res2)[0].metadata["run_cache_hits"].value == accepted
    for key in KEYS:
        assert list(read_parquet(env / "rewritten_chunks" / f"{key}.parquet")["rewritten_text"]) == first_texts[key]


def test_an_outage_fails_the_documents_with_no_rows(env, fresh_standin):
    fresh_standin.script({ROUTE: [{"status": 503, "json": {"error": "overloaded"}}]})
    res = _run(_instance())
    for key in KEYS:
        assert not (env / "rewritten_chunks" / f"{key}.parquet").exists()
    (mat,) = _mat(res)[:1]
    failed = mat.metadata["failed_documents"].value
    assert set(failed) == set(KEYS) and all("503" in v for v in failed.values())
    assert _checks(res)["rewritten_chunks_documents_ok"] is False
    # one document: the step itself fails with the endpoint's error
    res1 = materialize(
        _assets(), instance=_instance(), resources=_resources(), partition_key="a.md", raise_on_error=False
    )
    assert not res1.success
    failure = next(e for e in res1.get_step_failure_events() if e.step_key == "rewritten_chunks")
    assert "503" in failure.event_specific_data.error.message


def test_off_unless_both_url_and_task_are_set(env, fresh_standin, monkeypatch):
    monkeypatch.delenv("TEXTGUARD_REWRITE_TASK")
    res = _run(_instance())
    assert res.success and fresh_standin.requests() == []
    assert not (env / "rewritten_chunks").exists() and not (env / "rewritten_documents").exists()
    md = _mat(res)[0].metadata
    assert md["rewriting"].value == "off" and "TEXTGUARD_REWRITE_TASK" in md["reason"].value
    assert all(_checks(res).values())


def _selected(env_extra: dict) -> list[str]:
    code = (
        "from textguard_pipeline.definitions import defs; "
        "import json; j = defs.resolve_job_def('materialize_all'); "
        "print(json.dumps(sorted(k.to_user_string() for k in j.asset_layer.selected_asset_keys)))"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TEXTGUARD_LLM", "TEXTGUARD_REWRITE"))}
    out = subprocess.run(
        [sys.executable, "-c", code], env={**env, **env_extra}, capture_output=True, text=True, timeout=120, check=True
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.mark.slow
def test_materialize_all_includes_it_only_when_opted_in():
    for half in ({"TEXTGUARD_LLM_URL": "http://127.0.0.1:9/v1"}, {"TEXTGUARD_REWRITE_TASK": "paraphrase"}):
        off = _selected(half)
        assert "rewritten_chunks" not in off and "rewritten_documents" not in off
    on = _selected({"TEXTGUARD_LLM_URL": "http://127.0.0.1:9/v1", "TEXTGUARD_REWRITE_TASK": "paraphrase"})
    assert {"rewritten_chunks", "rewritten_documents", "protected_chunks"} <= set(on)


def test_rewritten_documents_put_whole_documents_back(env, fresh_standin):
    fresh_standin.script({ROUTE: [{"mangle": {"mix": MIXED_FAULTS, "seed": 5}}]})
    res = _run(_instance())
    assert res.success
    checks = _checks(res)
    assert all(v for k, v in checks.items() if k.startswith("rewritten_documents_")), checks
    for key in KEYS:
        (row,) = read_parquet(env / "rewritten_documents" / f"{key}.parquet").to_dict("records")
        chunks = read_parquet(env / "rewritten_chunks" / f"{key}.parquet")
        assert row["doc_id"] == key and row["path"] == key and row["format"] == "md"
        assert row["n_rewritten"] + row["n_fallback"] == len(chunks)
        assert row["share_rewritten"] == pytest.approx(row["n_rewritten"] / len(chunks), abs=1e-4)
        for seg in row["segments"]:  # non-prose byte for byte; prose as its row has it
            out = row["text"][seg["out_start"] : seg["out_end"]]
            if seg["chunk_type"] != "prose":
                assert out == DOCS[key][seg["start"] : seg["end"]]
            else:
                (r,) = chunks[chunks["chunk_index"] == seg["chunk_index"]].to_dict("records")
                assert out == r["rewritten_text"] and seg["status"] == r["status"]
        page = (env / "rewritten_documents" / f"{key}.html").read_text(encoding="utf-8")
        assert "<mark>" in page and "<table>" in page and "<script" not in page
    md = {m.partition: m.metadata for m in _mat(res, "rewritten_documents")}
    assert md["a.md"]["review_page"].value.endswith("rewritten_documents/a.md.html")


def test_a_document_whose_rows_all_fell_back_equals_its_source(env, fresh_standin):
    fresh_standin.script({ROUTE: [{"mangle": {"kind": "one_word"}}]})
    res = _run(_instance())
    assert res.success
    for key in KEYS:
        (row,) = read_parquet(env / "rewritten_documents" / f"{key}.parquet").to_dict("records")
        assert (row["text"], row["status"], row["n_rewritten"]) == (DOCS[key], "source", 0)
        page = (env / "rewritten_documents" / f"{key}.html").read_text(encoding="utf-8")
        assert "too short" in page and "class='fallback'" in page
    checks = _checks(res)
    assert checks["rewritten_documents_verbatim"] and checks["rewritten_documents_share_rewritten"] is False


def test_the_document_rules_catch_a_changed_skeleton_and_lost_bytes():
    from textguard_pipeline.roundtrip.documents import format_skeleton, skeleton_failures, verbatim_failures

    src = "# Title\n\nSee [docs](https://x.org/a).\n\n```\ncode\n```\n"
    seg = [
        {
            "chunk_index": 0,
            "chunk_type": "code",
            "start": 0,
            "end": len(src),
            "out_start": 0,
            "out_end": len(src),
            "status": "verbatim",
            "reason": "",
        }
    ]
    import pandas as pd

    bad = src.replace("https://x.org/a", "https://x.org/b")
    df = pd.DataFrame([{"text": bad, "format": "md", "segments": seg}])
    assert verbatim_failures(df, src) and skeleton_failures(df, src)
    assert format_skeleton("\\begin{a}\\section{x}{", "tex") == {
        "environments": ["begin a"],
        "sectioning commands": ["section"],
        "brace balance": 1,
    }
    assert format_skeleton(".. note::\n\nTitle\n=====\n", "txt") == {
        "section underlines": ["="],
        "directives": ["note"],
    }
