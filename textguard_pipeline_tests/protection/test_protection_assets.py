"""protected_chunks through Dagster: stored rows restore exactly; a corrupted row fails the blocking check and blocks downstream."""

import pytest
from dagster import AssetSelection, DagsterInstance, asset, materialize

from textguard_pipeline.defs_kit.io_manager import read_parquet, write_parquet_atomic

DOC = (
    "# Results\n\n"
    "As shown by Smith et al. (2024), the ResNet model reaches 95% accuracy with $x^2$ "
    "(Lee & Park, 2023; Müller, 2021a). ResNet is fast.\n\n"
    "A literal ⟨TERM_001⟩ and a lone ⟨ bracket, `code ⟨MATH_000⟩` and [@key] stay exact.\n"
)


@pytest.fixture
def one_doc(tmp_path, monkeypatch):
    root = tmp_path / "corpus"
    root.mkdir()
    (root / "paper.md").write_text(DOC, encoding="utf-8")
    monkeypatch.setenv("TEXTGUARD_CORPUS_DIR", str(root))
    monkeypatch.setenv("TEXTGUARD_WAREHOUSE", str(tmp_path / "wh"))
    monkeypatch.setenv("TEXTGUARD_PROTECT_TERMS", "ResNet")
    monkeypatch.setenv("TEXTGUARD_PROTECT_NER", "0")  # the NER path is covered in core tests; keep this fast
    return tmp_path / "wh"


def _defs():
    from textguard_pipeline.defs_kit.partitions import documents_partitions
    from textguard_pipeline.ingest.defs import parsed_chunks, source_documents
    from textguard_pipeline.protection import defs as protection

    @asset(partitions_def=documents_partitions, deps=["protected_chunks"])
    def after_protection():
        """Stands for any consumer of protected_chunks (e.g. an LLM paraphrase step)."""
        return 1

    return [source_documents, parsed_chunks, protection.protected_chunks, after_protection, *protection.CHECKS]


def _checks(result):
    return {e.check_name: e.passed for e in result.get_asset_check_evaluations()}


def test_stored_rows_restore_and_corruption_blocks_downstream(one_doc):
    from textguard_pipeline.defs_kit.resources import build_resources

    wh = one_doc
    inst = DagsterInstance.ephemeral()
    inst.add_dynamic_partitions("documents", ["paper.md"])
    assets = _defs()
    res = materialize(
        assets, partition_key="paper.md", instance=inst, resources=build_resources(), raise_on_error=False
    )
    assert res.success
    assert _checks(res) == {
        "protected_chunks_restoration": True,
        "protected_chunks_char_ranges": True,
        "protected_chunks_term_char_ranges": True,
        "protected_chunks_markup_boundaries": True,
        "protected_chunks_documents_ok": True,
    }
    path = wh / "protected_chunks" / "paper.md.parquet"
    df = read_parquet(path)
    assert list(df.columns) == [
        "doc_id",
        "chunk_index",
        "start",
        "end",
        "text",
        "protected_text",
        "term_placeholders",
        "math_placeholders",
        "terms",
        "n_terms",
        "language",  # issue 17
        "language_confidence",
        "ner_model",
        "ner_skipped_reason",
        "markup_spans",  # issue 45
    ]
    first = df.iloc[0]
    assert first["text"] == DOC[first["start"] : first["end"]]
    assert first["protected_text"].startswith("As shown by ⟨TERM_000⟩, the ⟨TERM_001⟩ model reaches ⟨TERM_002⟩")
    assert first["term_placeholders"]["⟨TERM_000⟩"] == "Smith et al. (2024)"
    assert first["math_placeholders"] == {"⟨MATH_000⟩": "$x^2$"}
    # "ResNet" occurs twice and reuses one placeholder; every occurrence has its own absolute offsets
    resnet = [t for t in first["terms"] if t["original"] == "ResNet"]
    assert len(resnet) == 2 and {t["placeholder"] for t in resnet} == {"⟨TERM_001⟩"}
    assert all(DOC[t["start"] : t["end"]] == t["original"] for r in df["terms"] for t in r)
    sources = {t["source"] for r in df["terms"] for t in r}
    assert {"citation", "custom", "number", "literal"} <= sources

    # Corrupt one stored row: a term placeholder is replaced by a paraphrase of the term.
    bad = df.copy()
    bad.loc[0, "protected_text"] = bad.loc[0, "protected_text"].replace("⟨TERM_000⟩", "Smith and colleagues (2024)", 1)
    write_parquet_atomic(bad, path)
    sel = AssetSelection.assets("after_protection") | AssetSelection.checks_for_assets("protected_chunks")
    res = materialize(
        assets,
        selection=sel,
        partition_key="paper.md",
        instance=inst,
        resources=build_resources(),
        raise_on_error=False,
    )
    assert not res.success
    assert _checks(res)["protected_chunks_restoration"] is False
    assert _checks(res)["protected_chunks_char_ranges"] is True  # the source slice itself is intact
    ev = next(e for e in res.get_asset_check_evaluations() if e.check_name == "protected_chunks_restoration")
    assert ev.metadata["failures"].value == 1
    assert (
        "differs from source" in ev.metadata["first_failures"].value or "absent" in ev.metadata["first_failures"].value
    )
    mats = {e.asset_key.to_user_string() for e in res.get_asset_materialization_events()}
    assert "after_protection" not in mats  # blocked downstream
    skipped = [e for e in res.all_events if e.step_key == "after_protection" and e.event_type_value == "STEP_SKIPPED"]
    assert skipped or "after_protection" not in {
        e.step_key for e in res.all_events if e.event_type_value == "STEP_SUCCESS"
    }


def test_corrupted_term_offsets_fail_the_term_char_range_check(one_doc):
    from textguard_pipeline.defs_kit.resources import build_resources

    wh = one_doc
    inst = DagsterInstance.ephemeral()
    inst.add_dynamic_partitions("documents", ["paper.md"])
    assets = _defs()
    assert materialize(assets, partition_key="paper.md", instance=inst, resources=build_resources()).success
    path = wh / "protected_chunks" / "paper.md.parquet"
    df = read_parquet(path)
    terms = [dict(t) for t in df.loc[0, "terms"]]
    terms[0]["start"] += 1  # off by one
    df.at[0, "terms"] = terms
    write_parquet_atomic(df, path)
    sel = AssetSelection.assets("after_protection") | AssetSelection.checks_for_assets("protected_chunks")
    res = materialize(
        assets,
        selection=sel,
        partition_key="paper.md",
        instance=inst,
        resources=build_resources(),
        raise_on_error=False,
    )
    assert not res.success
    checks = _checks(res)
    assert checks["protected_chunks_term_char_ranges"] is False
    assert checks["protected_chunks_restoration"] is True
