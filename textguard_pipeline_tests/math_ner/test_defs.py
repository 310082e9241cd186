"""`ner_frames` through Dagster: rule-based by default, HTTP backend by env var, failures isolated per document."""

import json
import sys

import pytest
from dagster import DagsterInstance

from textguard_pipeline.defs_kit.io_manager import read_parquet
from textguard_pipeline.math_ner import NER_COLUMNS
from textguard_pipeline_tests.standin.client import free_port, process

SELECT = "source_documents parsed_chunks ner_frames"
MATH_MD = (
    "# Maths\n\nAddition is commutative: $3 + 4 = 4 + 3$.\n\n3 dodać 4 równa się 7, ale 2 + 2 = 5.\n\n"
    "To add:\n\n1. align the digits\n2. add the ones\n\n```\n9 + 9 = 18\n```\n"
)


@pytest.fixture
def corpus(tmp_path, monkeypatch):
    root = tmp_path / "corpus"
    root.mkdir()
    (root / "a_math.md").write_text(MATH_MD, encoding="utf-8")
    (root / "b_plain.txt").write_text(
        "Suma to wynik dodawania. Sto minus jeden to dziewięćdziesiąt dziewięć.\n", encoding="utf-8"
    )
    wh = tmp_path / "warehouse"
    monkeypatch.setenv("TEXTGUARD_CORPUS_DIR", str(root))
    monkeypatch.setenv("TEXTGUARD_WAREHOUSE", str(wh))
    monkeypatch.delenv("TEXTGUARD_NER_URL", raising=False)
    monkeypatch.setenv("TEXTGUARD_NER_MAX_RETRIES", "0")
    return root, wh


def run(instance=None, **kw):
    from textguard_pipeline.operations.report import materialize_corpus

    instance = instance or DagsterInstance.ephemeral()
    return materialize_corpus(instance=instance, select=SELECT, log=lambda *_: None, **kw)


def partition_metadata(instance, key: str) -> dict:
    from dagster import AssetKey

    records = instance.fetch_materializations(AssetKey("ner_frames"), limit=100).records
    (record,) = [r for r in records if r.partition_key == key]
    return {k: v.value for k, v in record.asset_materialization.metadata.items()}


def frames_of(df):
    fr = df[df["kind"] == "frame"]
    return sorted((r.frame_type, r.start, r.end, r.frame_json) for r in fr.itertuples())


def test_rule_based_by_default(corpus):
    root, wh = corpus
    instance = DagsterInstance.ephemeral()
    res = run(instance)
    assert res.ok, (res.failed, res.step_failures)
    # per-document metadata: the counts of that document's rows
    meta = partition_metadata(instance, "a_math.md")
    assert meta["wrong_arith_examples"] == 1 and meta["invalid_frames"] == 0
    assert meta["frames_by_type"]["ARITH_EXAMPLE"] == 4 and set(meta["frames_by_type"]) == {
        "ARITH_EXAMPLE",
        "PROPERTY",
        "PROCEDURE",
    }
    assert (
        "ARITH_EXAMPLE" in meta["preview"] and partition_metadata(instance, "b_plain.txt")["wrong_arith_examples"] == 0
    )
    checks = {o.check for o in res.outcomes if o.status == "passed"}
    assert {"ner_frames/ner_frames_char_ranges", "ner_frames/ner_frames_schema"} <= checks
    # the wrong example is reported by the (non-blocking, WARN) arithmetic check
    warn = [o for o in res.outcomes if o.check == "ner_frames/ner_frames_arithmetic" and o.status == "failed"]
    assert [o.doc_id for o in warn] == ["a_math.md"] and warn[0].severity == "WARN"

    df = read_parquet(wh / "ner_frames" / "a_math.md.parquet")
    assert list(df.columns) == NER_COLUMNS and set(df["backend"]) == {"rule_based"}
    text = (root / "a_math.md").read_text(encoding="utf-8")
    for r in df.itertuples():
        assert text[r.start : r.end] == r.text
    fr = df[df["kind"] == "frame"]
    arith = fr[fr["frame_type"] == "ARITH_EXAMPLE"]
    # inline math is included; the fenced code block is not
    assert sorted(tuple(json.loads(j)["operands"]) for j in arith["frame_json"]) == [(2, 2), (3, 4), (3, 4), (4, 3)]
    assert "9 + 9 = 18" not in " ".join(df["text"])
    assert sorted(arith["arith_correct"].tolist()) == [False, True, True, True]
    assert set(fr["frame_type"]) == {"ARITH_EXAMPLE", "PROPERTY", "PROCEDURE"}
    b = read_parquet(wh / "ner_frames" / "b_plain.txt.parquet")
    assert set(b[b["kind"] == "frame"]["frame_type"]) == {"DEFINITION", "ARITH_EXAMPLE"}


def test_http_backend_via_env_gives_the_same_rows(corpus, monkeypatch):
    root, wh = corpus
    assert run().ok
    local = {p.name: read_parquet(p) for p in (wh / "ner_frames").glob("*.parquet")}
    port = free_port()
    url = f"http://127.0.0.1:{port}/ner"
    cmd = [sys.executable, "-m", "textguard_pipeline.cli", "ner-serve", "--port", str(port)]
    with process(cmd, f"http://127.0.0.1:{port}/health"):
        monkeypatch.setenv("TEXTGUARD_NER_URL", url)
        res = run()
    assert res.ok, (res.failed, res.step_failures)
    for name, df in local.items():
        remote = read_parquet(wh / "ner_frames" / name)
        assert set(remote["backend"]) == {url}
        assert frames_of(remote) == frames_of(df)
        cols = ["kind", "start", "end", "text", "entity_type", "canonical"]
        assert remote[cols].equals(df[cols])


def test_backend_failure_fails_only_that_document(corpus, monkeypatch, fresh_standin):
    root, wh = corpus
    good = {"entities": [], "frames": [{"frame_type": "DEFINITION", "term": "sum", "definition": "x"}], "unmapped": []}
    # each document is one unit (adjacent prose chunks are sent together): a gets JSON, b does not
    fresh_standin.script(
        {
            "POST /ner": [
                {"status": 200, "json": good},
                {"status": 200, "body": "upstream exploded", "content_type": "text/plain"},
            ]
        }
    )
    monkeypatch.setenv("TEXTGUARD_NER_URL", f"{fresh_standin.base_url}/ner")
    res = run(batch_size=10)
    assert not res.step_failures  # isolated: the run went on
    failed = [(o.check, o.doc_id) for o in res.outcomes if o.status == "failed"]
    assert failed == [("ner_frames/ner_frames_documents_ok", "b_plain.txt")]
    assert (wh / "ner_frames" / "a_math.md.parquet").exists()
    assert not (wh / "ner_frames" / "b_plain.txt.parquet").exists()
    assert [r["body"][:8] for r in fresh_standin.requests()] == ["Addition", "Suma to "]


def test_unreachable_backend_fails_the_document_with_503(corpus, monkeypatch):
    root, wh = corpus
    (root / "b_plain.txt").unlink()
    monkeypatch.setenv("TEXTGUARD_NER_URL", f"http://127.0.0.1:{free_port()}/ner")
    res = run()
    assert res.step_failures and "503" in res.step_failures[0][1] and "unreachable" in res.step_failures[0][1]


def test_invalid_frames_from_a_backend_are_flagged_by_the_schema_check(corpus, monkeypatch, fresh_standin):
    root, wh = corpus
    (root / "a_math.md").unlink()
    bad = {
        "entities": [{"text": "Suma", "type": "CONCEPT", "start": 0, "end": 4, "canonical": "sum", "confidence": 0.9}],
        "frames": [{"frame_type": "ARITH_EXAMPLE", "operation": "addition", "operands": [1], "result": 1}],
        "unmapped": [],
    }
    fresh_standin.script({"POST /ner": [{"status": 200, "json": bad}]})
    monkeypatch.setenv("TEXTGUARD_NER_URL", f"{fresh_standin.base_url}/ner")
    instance = DagsterInstance.ephemeral()
    res = run(instance)
    assert partition_metadata(instance, "b_plain.txt")["invalid_frames"] == 1
    failed = [o for o in res.failed if o.check == "ner_frames/ner_frames_schema"]
    assert failed and "operation" in failed[0].message
    df = read_parquet(wh / "ner_frames" / "b_plain.txt.parquet")
    assert df[df["kind"] == "frame"]["valid"].tolist() == [False]


def _ner_metadata(instance):
    from dagster import AssetKey

    records = instance.fetch_materializations(AssetKey("ner_frames"), limit=100).records
    merged = {}
    for r in records:
        merged.update({k: v.value for k, v in r.asset_materialization.metadata.items()})
    return merged


def test_hybrid_backend_reads_word_problems_and_reports_units_tokens_cost(corpus, monkeypatch, fresh_standin):
    from textguard_pipeline_tests.math_ner.llm_script import ROUTE, WORD_OUTPUT, WORD_PROBLEM, chat, chat_requests

    root, wh = corpus
    (root / "c_problem.md").write_text(f"# Problem\n\n{WORD_PROBLEM}\n\nThe end.\n", encoding="utf-8")
    fresh_standin.script({ROUTE: [chat(WORD_OUTPUT, prompt_tokens=1000, completion_tokens=200)]})
    monkeypatch.setenv("TEXTGUARD_LLM_URL", f"{fresh_standin.base_url}/v1")
    monkeypatch.setenv("TEXTGUARD_LLM_MODEL", "standin-model")
    monkeypatch.setenv("TEXTGUARD_LLM_CACHE", "off")  # count every request at the stand-in
    # an LLM is configured, but TEXTGUARD_NER_BACKEND does not ask for it: the rules run, nothing is sent
    assert run().ok and chat_requests(fresh_standin) == []
    rules_only = read_parquet(wh / "ner_frames" / "c_problem.md.parquet")
    assert rules_only[rules_only["kind"] == "frame"].empty

    monkeypatch.setenv("TEXTGUARD_NER_BACKEND", "hybrid")
    monkeypatch.setenv("TEXTGUARD_LLM_PRICE_IN_PER_1K", "0.0025")
    monkeypatch.setenv("TEXTGUARD_LLM_PRICE_OUT_PER_1K", "0.01")
    instance = DagsterInstance.ephemeral()
    from textguard_pipeline.operations.report import materialize_corpus

    res = materialize_corpus(instance=instance, select=SELECT, log=lambda *_: None)
    assert res.ok, (res.failed, res.step_failures)
    sent = [r["messages"][1]["content"] for r in chat_requests(fresh_standin)]
    assert len(sent) == 1 and WORD_PROBLEM in sent[0]  # a_math.md and b_plain.txt are read by the rules
    df = read_parquet(wh / "ner_frames" / "c_problem.md.parquet")
    fr = df[df["kind"] == "frame"]
    assert fr["text"].tolist() == [WORD_PROBLEM] and json.loads(fr["frame_json"].iloc[0])["operands"] == [3, 4]
    text = (root / "c_problem.md").read_text(encoding="utf-8")
    assert all(text[r.start : r.end] == r.text for r in df.itertuples())
    meta = _ner_metadata(instance)
    assert meta["ner_units_by_route"]["llm"] == 1 and meta["ner_units_by_route"]["rules"] >= 2
    assert (meta["llm_requests"], meta["llm_prompt_tokens"], meta["llm_completion_tokens"]) == (1, 1000, 200)
    assert meta["llm_cost_usd"] == pytest.approx(1000 * 0.0025 / 1000 + 200 * 0.01 / 1000)
