"""core.pipeline: run_document gives exactly the tables the Dagster assets write (one implementation)."""

import shutil
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest

from textguard_pipeline import settings
from textguard_pipeline.defs_kit.io_manager import read_parquet, write_parquet_atomic
from textguard_pipeline.pipeline import ASSETS, components_from_env, run_document

SAMPLES = ["alce_asqa_answers.md", "math_examples_en_pl.md"]


@pytest.fixture(scope="module")
def dagster_and_core(tmp_path_factory):
    """Both sides over the same two-document corpus: Dagster's warehouse and run_document's frames."""
    from dagster import DagsterInstance

    from textguard_pipeline.operations.report import materialize_corpus

    tmp = tmp_path_factory.mktemp("pipeline")
    corpus, warehouse = tmp / "corpus", tmp / "warehouse"
    corpus.mkdir()
    for name in SAMPLES:
        shutil.copy(settings.PROJECT_ROOT / "data" / "corpus" / name, corpus / name)
    mp = pytest.MonkeyPatch()
    mp.setenv("TEXTGUARD_CORPUS_DIR", str(corpus))
    mp.setenv("TEXTGUARD_WAREHOUSE", str(warehouse))
    for var in ("TEXTGUARD_LLM_URL", "TEXTGUARD_NER_URL", "TEXTGUARD_PROTECT_TERMS"):
        mp.delenv(var, raising=False)
    try:
        with DagsterInstance.ephemeral() as instance:
            res = materialize_corpus(instance=instance, log=lambda _m: None)
        assert res.ok, (res.step_failures, [o for o in res.failed][:3])
        assert len(res.runs) == 1
        with components_from_env(run_id=res.runs[0]) as comps:
            core = {p.name: run_document(p, corpus, comps) for p in sorted(corpus.iterdir())}
    finally:
        mp.undo()
    return warehouse, core, tmp


def test_run_document_gives_all_eight_tables(dagster_and_core):
    _, core, _ = dagster_and_core
    assert sorted(core) == SAMPLES
    for frames in core.values():
        assert list(frames) == list(ASSETS)
        assert all(isinstance(df, pd.DataFrame) for df in frames.values())
    # the sample documents are not trivial: the comparison below compares rows, not empty tables
    for asset in ("parsed_chunks", "protected_chunks", "ner_frames", "resolved_meanings", "candidate_markers"):
        assert sum(len(f[asset]) for f in core.values()) > 0, asset


@pytest.mark.parametrize("asset", ASSETS)
def test_same_parquet_as_the_dagster_asset(dagster_and_core, asset):
    warehouse, core, tmp = dagster_and_core
    for doc_id, frames in core.items():
        assert frames["source_documents"].iloc[0]["doc_id"] == doc_id
        ours = tmp / "ours" / asset / f"{doc_id}.parquet"
        write_parquet_atomic(frames[asset], ours)
        theirs = warehouse / asset / f"{doc_id}.parquet"
        assert theirs.exists(), theirs
        # byte-level schema and values, then the frames as read back
        assert pq.read_table(ours).equals(pq.read_table(theirs)), (asset, doc_id)
        pd.testing.assert_frame_equal(read_parquet(ours), read_parquet(theirs))


def test_unreadable_document_gives_only_the_error_row(tmp_path):
    (tmp_path / "bad.txt").write_bytes(b"fine text \xff\xfe broken")
    comps = components_from_env()
    frames = run_document(tmp_path / "bad.txt", tmp_path, comps)
    assert list(frames) == ["source_documents"]
    row = frames["source_documents"].iloc[0]
    assert row["status"] == "error" and "byte" in row["error"] and row["path"] == "bad.txt"


def test_on_frame_sees_each_table_in_order(tmp_path):
    path = Path(tmp_path / "a.md")
    path.write_text("# Title\n\nChapter 1 says 2 + 2 = 4, see [1].\n\n## References\n\n[1] A. Author, 2020.\n")
    seen = []
    frames = run_document(path, tmp_path, components_from_env(), on_frame=lambda name, df: seen.append((name, len(df))))
    assert [n for n, _ in seen] == list(ASSETS)
    assert [k for k in frames] == list(ASSETS)
    assert frames["source_documents"].iloc[0]["doc_id"] == "a.md"
    assert len(frames["citation_maps"]) == 1 and bool(frames["citation_maps"].iloc[0]["valid"])
