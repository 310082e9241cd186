"""source_documents / parsed_chunks through Dagster: bad input is isolated, outputs are Parquet files."""

import pandas as pd
import pytest
from dagster import DagsterInstance

from textguard_pipeline.defs_kit.io_manager import read_parquet


@pytest.fixture
def corpus(tmp_path, monkeypatch):
    root = tmp_path / "corpus"
    root.mkdir()
    (root / "good.md").write_text("# Title\n\nProse with $x$ math.\n", encoding="utf-8")
    (root / "paper.tex").write_text("\\section{A}\nText $y$.\n\n\\[ z \\]\n", encoding="utf-8")
    (root / "bad.txt").write_bytes(b"valid start \xc3\x28 invalid")
    (root / "empty.txt").write_bytes(b"")
    big = ("A paragraph of words with $m$ math. " * 20 + "\n\n") * 14_000  # ≈ 10 MB
    (root / "big.md").write_text(big, encoding="utf-8")
    wh = tmp_path / "warehouse"
    monkeypatch.setenv("TEXTGUARD_CORPUS_DIR", str(root))
    monkeypatch.setenv("TEXTGUARD_WAREHOUSE", str(wh))
    return root, wh


def test_bad_documents_are_isolated_and_reported(corpus):
    from textguard_pipeline.operations.report import materialize_corpus, render_markdown

    root, wh = corpus
    res = materialize_corpus(
        instance=DagsterInstance.ephemeral(),
        batch_size=10,
        select="source_documents parsed_chunks",
        log=lambda *_: None,
    )
    # the run went through: the invalid file did not take the others down
    assert not res.step_failures
    failed = [(o.check, o.doc_id) for o in res.failed]
    assert failed == [("source_documents/source_documents_readable", "bad.txt")]
    msg = next(o.message for o in res.failed)
    assert "bad.txt" in msg and "byte offset 12" in msg
    assert not res.ok and "❌" in render_markdown(res)

    src = read_parquet(wh / "source_documents" / "bad.txt.parquet")
    assert src.loc[0, "status"] == "error" and "byte offset 12" in src.loc[0, "error"]
    # downstream skipped the unreadable document instead of writing something wrong
    assert not (wh / "parsed_chunks" / "bad.txt.parquet").exists()

    empty = read_parquet(wh / "parsed_chunks" / "empty.txt.parquet")
    assert len(empty) == 0 and list(empty.columns)[:4] == ["doc_id", "chunk_index", "chunk_type", "start"]

    big = read_parquet(wh / "parsed_chunks" / "big.md.parquet")
    text = (root / "big.md").read_text(encoding="utf-8")
    assert big["end"].iloc[-1] == len(text) and big["start"].iloc[0] == 0
    assert big.loc[0, "math_placeholders"]["⟨MATH_000⟩"] == "$m$"

    good = read_parquet(wh / "parsed_chunks" / "good.md.parquet")
    assert list(good.columns) == [
        "doc_id",
        "chunk_index",
        "chunk_type",
        "start",
        "end",
        "text",
        "math_placeholders",
        "language",
        "language_confidence",
        "markup_spans",
    ]
    assert good["language"].isna().all()  # "Prose with math": too few words to tell
    assert set(big["language"]) == {"en"}
    assert good["chunk_type"].tolist() == ["structural", "prose"]
    assert good.loc[1, "text"] == "Prose with ⟨MATH_000⟩ math.\n"
    # no temporary files are left behind by the atomic writer
    assert not [p for p in wh.rglob("*") if p.name.endswith(".tmp")]


def test_single_document_run_and_rematerialization(corpus):
    from textguard_pipeline.operations.report import materialize_corpus

    root, wh = corpus
    for p in list(root.iterdir()):
        if p.name != "good.md":
            p.unlink()
    inst = DagsterInstance.ephemeral()
    res = materialize_corpus(instance=inst, select="source_documents parsed_chunks", log=lambda *_: None)
    assert res.ok and len(res.runs) == 1
    (root / "good.md").write_text("# Changed\n\nNew text.\n", encoding="utf-8")
    res = materialize_corpus(instance=inst, select="source_documents parsed_chunks", log=lambda *_: None)
    assert res.ok
    df = read_parquet(wh / "parsed_chunks" / "good.md.parquet")
    assert df.loc[1, "text"] == "New text.\n"
    assert inst.get_dynamic_partitions("documents") == ["good.md"]


def test_parquet_writer_maps_and_atomicity(tmp_path):
    from textguard_pipeline.defs_kit.io_manager import write_parquet_atomic

    df = pd.DataFrame({"a": [1, 2], "m": [{"⟨MATH_000⟩": "$x$"}, {}]})
    write_parquet_atomic(df, tmp_path / "x" / "f.parquet")
    back = read_parquet(tmp_path / "x" / "f.parquet")
    assert back["m"].tolist() == [{"⟨MATH_000⟩": "$x$"}, {}]
    bad = pd.DataFrame({"a": [object()]})
    with pytest.raises(Exception):
        write_parquet_atomic(bad, tmp_path / "x" / "f.parquet")
    # the failed write left the previous file intact and no temp file
    assert read_parquet(tmp_path / "x" / "f.parquet")["a"].tolist() == [1, 2]
    assert [p.name for p in (tmp_path / "x").iterdir()] == ["f.parquet"]
