"""A document that fails for a reason outside it keeps its last good file while the file is still valid
(defs_kit/last_good.py), for every document asset; a failure of its own removes the file."""

import pandas as pd
import pyarrow.parquet as pq
import pytest
from dagster import DagsterInstance, asset, materialize
from dagster._core.storage.tags import ASSET_PARTITION_RANGE_END_TAG, ASSET_PARTITION_RANGE_START_TAG

from textguard_pipeline.defs_kit.io_manager import STAMP_KEY
from textguard_pipeline.defs_kit.runner import asset_kwargs, per_document
from textguard_pipeline.lib.outage import Outage

from ._corpus import small_corpus

DOCS = {"a.md": "Alpha text here.\n", "b.md": "Bravo text here, with Smith et al. (2020).\n", "c.md": "Charlie.\n"}
FAIL: dict[str, Exception] = {}  # doc_id → what the build raises in the next run
ONLY: set[str] = set()  # when not empty: the assets whose build raises (every one but source_documents else)


def _words(doc_id: str, src: pd.DataFrame) -> pd.DataFrame:
    if doc_id in FAIL:
        raise FAIL[doc_id]
    return pd.DataFrame({"doc_id": doc_id, "word": src.iloc[0]["text"].split()})


@asset(**asset_kwargs("test", {"python"}, "1"), name="words")
def words_v1(context, source_documents):
    """Words of each document."""
    return per_document(context, _words, source_documents)


@asset(**asset_kwargs("test", {"python"}, "2"), name="words")
def words_v2(context, source_documents):
    """The same asset with another code version."""
    return per_document(context, _words, source_documents)


@asset(**asset_kwargs("test", {"python"}, "1"))
def word_counts(context, words):
    """How many words each document has (downstream of ``words``)."""
    return per_document(context, lambda doc_id, w: pd.DataFrame({"doc_id": [doc_id], "n": [len(w)]}), words)


def _run(tmp_path, keys, words=words_v1, extra=()):
    from textguard_pipeline.defs_kit.resources import build_resources
    from textguard_pipeline.ingest.defs import source_documents

    tags = {ASSET_PARTITION_RANGE_START_TAG: keys[0], ASSET_PARTITION_RANGE_END_TAG: keys[-1]}
    if len(keys) == 1:
        tags = {}
    instance = DagsterInstance.ephemeral()
    instance.add_dynamic_partitions("documents", list(DOCS))
    kw = {"partition_key": keys[0]} if len(keys) == 1 else {"tags": tags}
    res = materialize(
        [source_documents, words, *extra], instance=instance, resources=build_resources(), raise_on_error=False, **kw
    )
    return res, tmp_path / "wh" / "words"


def _mats(res, asset="words"):
    return {
        e.partition: e.event_specific_data.materialization.metadata
        for e in res.get_asset_materialization_events()
        if e.asset_key.to_user_string() == asset
    }


@pytest.fixture
def corpus(tmp_path, monkeypatch):
    FAIL.clear()
    ONLY.clear()
    root = small_corpus(tmp_path, monkeypatch, DOCS)
    yield root
    FAIL.clear()
    ONLY.clear()


def test_an_outage_keeps_the_file_marked_stale_and_a_failure_of_the_document_removes_it(tmp_path, corpus):
    res, folder = _run(tmp_path, sorted(DOCS))
    assert res.success and len(list(folder.glob("*.parquet"))) == 3
    stamp = pq.read_schema(folder / "a.md.parquet").metadata[STAMP_KEY.encode()]
    assert b'"code_version": "1"' in stamp
    before = pq.read_table(folder / "a.md.parquet")

    FAIL.update({"a.md": Outage("LLM http: answered 500"), "b.md": ValueError("the document is odd")})
    res, folder = _run(tmp_path, sorted(DOCS))
    assert pq.read_table(folder / "a.md.parquet").equals(before)  # kept
    assert not (folder / "b.md.parquet").exists()  # its own failure: removed as before
    mats = _mats(res)
    assert mats["a.md"]["stale"].value is True and "outage" in mats["a.md"]["stale_reason"].value
    assert set(mats["a.md"]["stale_documents"].value) == {"a.md"}
    assert set(mats["a.md"]["failed_documents"].value) == {"b.md"}


def test_a_changed_document_or_code_version_no_longer_keeps_the_file(tmp_path, corpus):
    assert _run(tmp_path, sorted(DOCS))[0].success
    FAIL.update({k: Outage("down") for k in DOCS})
    (corpus / "a.md").write_text("Alpha changed.\n", encoding="utf-8")
    res, folder = _run(tmp_path, sorted(DOCS))
    assert sorted(f.name for f in folder.glob("*.parquet")) == ["b.md.parquet", "c.md.parquet"]
    res, folder = _run(tmp_path, sorted(DOCS), words=words_v2)
    assert list(folder.glob("*.parquet")) == []  # built by another code version: removed
    assert set(_mats(res)["b.md"]["failed_documents"].value) == set(DOCS)


def test_a_one_document_run_keeps_the_file_too_and_its_step_succeeds(tmp_path, corpus):
    assert _run(tmp_path, sorted(DOCS))[0].success
    FAIL["c.md"] = Outage("budget: spent", "budget")
    res, folder = _run(tmp_path, ["c.md"])
    assert res.success and (folder / "c.md.parquet").exists()
    assert "budget" in _mats(res)["c.md"]["stale_reason"].value


def test_a_one_document_run_whose_document_fails_removes_its_file(tmp_path, corpus):
    assert _run(tmp_path, sorted(DOCS))[0].success
    FAIL["c.md"] = ValueError("the document is odd")
    res, folder = _run(tmp_path, ["c.md"])
    assert not res.success and not (folder / "c.md.parquet").exists()
    assert (folder / "a.md.parquet").exists()  # the other documents are not touched


def test_a_one_document_run_whose_document_fails_removes_its_downstream_files_too(tmp_path, corpus):
    assert _run(tmp_path, sorted(DOCS), extra=[word_counts])[0].success
    counts = tmp_path / "wh" / "word_counts"
    assert (counts / "c.md.parquet").exists()
    FAIL["c.md"] = ValueError("the document is odd")
    res, folder = _run(tmp_path, ["c.md"], extra=[word_counts])
    assert not res.success and not (folder / "c.md.parquet").exists()
    assert not (counts / "c.md.parquet").exists()  # skipped by Dagster, so removed by the failing step
    assert (counts / "a.md.parquet").exists()


def test_a_one_document_run_through_an_outage_removes_a_file_its_document_outgrew(tmp_path, corpus):
    assert _run(tmp_path, sorted(DOCS))[0].success
    (corpus / "c.md").write_text("Charlie changed.\n", encoding="utf-8")
    FAIL["c.md"] = Outage("down")
    res, folder = _run(tmp_path, ["c.md"])
    assert not res.success and not (folder / "c.md.parquet").exists()


SLICES = ("ingest", "protection", "math_ner", "citations", "markers", "meanings")


def _every_asset(tmp_path, keys):
    from textguard_pipeline.definitions import build_definitions

    instance = DagsterInstance.ephemeral()
    instance.add_dynamic_partitions("documents", list(DOCS))
    job = build_definitions().resolve_job_def("materialize_all")
    tags = {ASSET_PARTITION_RANGE_START_TAG: keys[0], ASSET_PARTITION_RANGE_END_TAG: keys[-1]}
    return job.execute_in_process(instance=instance, tags=tags, raise_on_error=False)


@pytest.mark.slow
def test_every_document_asset_keeps_an_unchanged_documents_file_through_an_outage(tmp_path, corpus, monkeypatch):
    """Each real asset's build raises an outage for b.md (source_documents, which reads the file itself, aside)."""
    import importlib

    for name in SLICES:
        module = importlib.import_module(f"textguard_pipeline.{name}.defs")

        def wrapped(context, build, *ups, _inner=module.per_document, **kw):
            def failing(doc_id, *frames):
                name = context.assets_def.key.to_user_string()
                if doc_id in FAIL and name != "source_documents" and (not ONLY or name in ONLY):
                    raise FAIL[doc_id]
                return build(doc_id, *frames)

            return _inner(context, failing, *ups, **kw)

        monkeypatch.setattr(module, "per_document", wrapped)
    monkeypatch.setenv("TEXTGUARD_PROTECT_NER", "0")
    keys = sorted(DOCS)
    assert _every_asset(tmp_path, keys).success
    wh = tmp_path / "wh"
    assets = sorted(
        d.name for d in wh.iterdir() if d.is_dir() and d.name != "source_documents" and d.name[:1] not in "_."
    )
    assert len(assets) >= 7
    before = {a: pq.read_table(wh / a / "b.md.parquet") for a in assets}

    FAIL["b.md"] = Outage("endpoint down")
    res = _every_asset(tmp_path, keys)
    for a in assets:
        assert pq.read_table(wh / a / "b.md.parquet").equals(before[a]), a
        assert _mats(res, a)["b.md"]["stale"].value is True, a

    # A one-document run whose document fails in an asset removes that asset's file (its downstream assets do
    # not run). Deepest first, so that each asset fails once with its upstream files in place.
    FAIL["b.md"] = ValueError("the document is odd")
    deep, top = {"gated_markers"}, {"parsed_chunks"}
    rounds = [deep, set(assets) - deep - top, top]
    for failing in rounds:
        ONLY.clear()
        ONLY.update(failing)
        assert not _every_asset(tmp_path, ["b.md"]).success
        assert sorted(a for a in failing if (wh / a / "b.md.parquet").exists()) == [], failing
    assert [a for a in assets if (wh / a / "a.md.parquet").exists()] == assets  # the others are not touched

    FAIL.clear()
    ONLY.clear()
    assert _every_asset(tmp_path, keys).success  # b.md's files again, for the last case
    FAIL["b.md"] = Outage("endpoint down")
    (corpus / "b.md").write_text("Bravo has changed.\n", encoding="utf-8")
    _every_asset(tmp_path, keys)
    assert [a for a in assets if (wh / a / "b.md.parquet").exists()] == []
