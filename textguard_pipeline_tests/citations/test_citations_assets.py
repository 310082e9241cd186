"""citation_maps through Dagster: columns, absolute offsets, source counts, checks, frontend metadata."""

import json
import shutil
from pathlib import Path

import pytest
from dagster import AssetKey, DagsterInstance

from textguard_pipeline.defs_kit.io_manager import read_parquet

SAMPLE = Path(__file__).resolve().parents[2] / "data" / "corpus" / "alce_asqa_answers.md"

PINNED = [
    "doc_id",
    "start",
    "end",
    "text",
    "citation_id",
    "cluster_index",
    "sentence_index",
    "sentence_start",
    "sentence_end",
    "valid",
    "error",
]


@pytest.fixture
def corpus(tmp_path, monkeypatch):
    root = tmp_path / "corpus"
    root.mkdir()
    shutil.copy(SAMPLE, root / "alce.md")
    (root / "refs.md").write_text(
        "# Answer\n\nParis is the capital [1]. It has $x[9]$ math and `a[8]` code [2, 3].\n\n"
        "```\nprint(b[7])\n```\n\n## References\n\n[1] Paris\n[2] France\n",
        encoding="utf-8",
    )
    (root / "side.txt").write_text("Claim one [1-2]. Claim two [3].\n", encoding="utf-8")
    (root / "side.sources.json").write_text(json.dumps([{"title": "a"}, {"title": "b"}, {"title": "c"}]))
    (root / "plain.md").write_text("No source count here [4]. Years like [2023] are not citations.\n")
    (root / "none.md").write_text("Nothing to cite.\n")
    wh = tmp_path / "warehouse"
    monkeypatch.setenv("TEXTGUARD_CORPUS_DIR", str(root))
    monkeypatch.setenv("TEXTGUARD_WAREHOUSE", str(wh))
    return root, wh


def test_citation_maps(corpus):
    from textguard_pipeline.operations.report import materialize_corpus

    root, wh = corpus
    inst = DagsterInstance.ephemeral()
    res = materialize_corpus(instance=inst, select="source_documents parsed_chunks citation_maps", log=lambda *_: None)
    assert not res.step_failures
    # blocking checks pass everywhere; the non-blocking range check flags only refs.md ([3] has no source)
    failed = sorted({(o.check, o.doc_id, o.severity) for o in res.outcomes if o.status == "failed"})
    assert failed == [("citation_maps/citation_maps_ids_in_range", "refs.md", "WARN")]
    assert res.ok
    assert {o.check for o in res.outcomes} >= {
        "citation_maps/citation_maps_char_ranges",
        "citation_maps/citation_maps_sentences",
    }

    frames = {
        p.stem.removesuffix(".md").removesuffix(".txt"): read_parquet(p)
        for p in (wh / "citation_maps").glob("*.parquet")
    }
    assert list(frames["refs"].columns)[: len(PINNED)] == PINNED

    refs = frames["refs"]
    text = (root / "refs.md").read_text(encoding="utf-8")
    # math, inline code and the code block are not citations; the references entries are not either
    assert refs[["citation_id", "text", "valid"]].values.tolist() == [[1, "[1]", True], [2, "2", True], [3, "3", False]]
    for r in refs.itertuples():
        assert text[r.start : r.end] == r.text  # absolute offsets
        assert text[r.sentence_start : r.sentence_end] == r.sentence_text
    assert refs["error"].tolist()[2] == "Citation [3] exceeds number of sources (2)"
    assert refs["sentence_index"].tolist() == [0, 1, 1] and refs["cluster_index"].tolist() == [0, 1, 1]

    side = frames["side"]
    assert side[["citation_id", "valid"]].values.tolist() == [[1, True], [2, True], [3, True]]
    assert set(side["validation"]) == {"checked: 3 sources (sidecar side.sources.json)"}

    plain = frames["plain"]
    assert plain[["citation_id", "valid"]].values.tolist() == [[4, True]]
    assert plain["error"].isna().all() and set(plain["validation"]) == {"skipped: no source count"}

    assert len(frames["none"]) == 0 and list(frames["none"].columns)[: len(PINNED)] == PINNED

    alce = frames["alce"]
    assert alce["citation_id"].tolist() == [3, 3, 1, 2, 3, 1, 2, 2, 1] and alce["valid"].all()

    # each document's materialization carries its own metadata
    by_doc = {}
    for rec in inst.fetch_materializations(AssetKey("citation_maps"), limit=100).records:
        by_doc.setdefault(rec.asset_materialization.partition, rec.asset_materialization.metadata)
    assert set(by_doc) == {"alce.md", "refs.md", "side.txt", "plain.md", "none.md"}
    frontend = {k: md["frontend_json"].data[k] for k, md in by_doc.items() if k in md["frontend_json"].data}
    assert set(frontend) == {"alce.md", "refs.md", "side.txt", "plain.md"}
    assert by_doc["refs.md"]["dagster/row_count"].value == 3
    assert frontend["refs.md"]["citation_map"] == {
        "1": [{"sentence_index": 0, "sentence_text": "Paris is the capital [1]."}],
        "2": [{"sentence_index": 1, "sentence_text": refs["sentence_text"].iloc[1]}],
        "3": [{"sentence_index": 1, "sentence_text": refs["sentence_text"].iloc[1]}],
    }
    assert by_doc["plain.md"]["validation"].data["plain.md"] == "skipped: no source count"
    assert by_doc["refs.md"]["invalid_citations"].value == 1
    assert by_doc["alce.md"]["invalid_citations"].value == 0


def test_sentence_rule_uses_the_char_range_rule():
    """A sentence that does not quote the document, or a citation outside its sentence, is a failure."""
    import pandas as pd

    from textguard_pipeline.citations.defs import sentence_rule

    source = "Paris is the capital [1]. Rome too [2]."
    good = {
        "start": 21,
        "end": 24,
        "text": "[1]",
        "sentence_start": 0,
        "sentence_end": 25,
        "sentence_text": source[0:25],
    }
    assert sentence_rule("d", pd.DataFrame([good]), source) == []
    wrong_quote = dict(good, sentence_text="Paris is the capitol [1].")
    outside = dict(good, start=35, end=38, text="[2]")
    failures = sentence_rule("d", pd.DataFrame([wrong_quote, outside]), source)
    reasons = [f["reason"] for f in failures]
    assert len(failures) == 2, failures
    assert reasons[0].startswith("sentence: ") and "[1]" not in reasons[1]
    assert reasons[1] == "citation outside its sentence range"
    assert sentence_rule("d", pd.DataFrame([good]), None) == [{"reason": "sentence: source document not available"}]
