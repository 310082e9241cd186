"""A document whose frame breaks a blocking check is isolated in a multi-document run: the other documents
go downstream, the blocking check passes on what was written and ``<asset>_documents_ok`` reports it.

The asset under test is a real ``per_document`` asset whose build quotes one document wrongly (a span whose
text is not ``source[start:end]``): the shared char-range rule, the grouped check step and the runner run
for real on a real instance."""

import pandas as pd
from dagster import AssetSelection, DagsterInstance, Definitions, asset, define_asset_job
from dagster._core.storage.tags import ASSET_PARTITION_RANGE_END_TAG, ASSET_PARTITION_RANGE_START_TAG

from textguard_pipeline.defs_kit.check_steps import group_checks
from textguard_pipeline.defs_kit.checks import char_range_check, documents_ok_check
from textguard_pipeline.defs_kit.runner import ISOLATE_TAG, asset_kwargs, per_document

from ._corpus import small_corpus

DOCS = {"a.md": "Alpha text here.\n", "b.md": "Bravo text here.\n", "c.md": "Charlie text here.\n"}
BAD = "b.md"


@asset(**asset_kwargs("test", {"python"}, "1"))
def first_words(context, source_documents):
    """The first word of each document as a span; for ``BAD`` the span's text is off by one character."""

    def build(doc_id: str, src: pd.DataFrame) -> pd.DataFrame:
        text = src.iloc[0]["text"]
        end = text.index(" ")
        start = 1 if doc_id == BAD else 0  # the bug: the text no longer equals source[start:end]
        return pd.DataFrame([{"doc_id": doc_id, "start": 0, "end": end, "text": text[start:end]}])

    return per_document(context, build, source_documents)


@asset(**asset_kwargs("test", {"python"}, "1"))
def word_lengths(context, first_words):
    """Downstream of first_words: held back by its blocking check."""
    return per_document(
        context, lambda doc_id, df: df.assign(length=df["end"] - df["start"])[["doc_id", "length"]], first_words
    )


@asset(**asset_kwargs("test", {"python"}, "1"))
def echoed_words(context, first_words):
    """first_words again, with no source_documents input: its char-range rule reads the stored document text.
    ``ECHO_BAD``'s span is shifted here."""

    def build(doc_id: str, df: pd.DataFrame) -> pd.DataFrame:
        return df.assign(start=df["start"] + 1) if doc_id == ECHO_BAD else df

    return per_document(context, build, first_words)


ECHO_BAD = "c.md"


def _run(tmp_path, monkeypatch, keys, tags=None):
    from textguard_pipeline.defs_kit.partitions import documents_partitions
    from textguard_pipeline.defs_kit.resources import build_resources
    from textguard_pipeline.ingest.defs import source_documents

    small_corpus(tmp_path, monkeypatch, DOCS)
    checks = group_checks(
        [
            char_range_check("first_words"),
            documents_ok_check("first_words"),
            char_range_check("echoed_words"),
            documents_ok_check("echoed_words"),
        ]
    )
    job = define_asset_job(
        "t", selection=AssetSelection.all() | AssetSelection.all_asset_checks(), partitions_def=documents_partitions
    )
    defs = Definitions(
        assets=[source_documents, first_words, word_lengths, echoed_words],
        asset_checks=checks,
        jobs=[job],
        resources=build_resources(),
    )
    instance = DagsterInstance.ephemeral()
    instance.add_dynamic_partitions("documents", list(DOCS))
    result = defs.resolve_job_def("t").execute_in_process(
        instance=instance,
        raise_on_error=False,
        tags={ASSET_PARTITION_RANGE_START_TAG: keys[0], ASSET_PARTITION_RANGE_END_TAG: keys[-1], **(tags or {})},
    )
    checks = {e.check_name: e for e in result.get_asset_check_evaluations()}
    mats = {(e.asset_key.to_user_string(), e.partition) for e in result.get_asset_materialization_events()}
    return result, checks, mats, tmp_path / "wh"


def test_a_document_breaking_a_blocking_check_is_isolated_and_the_others_go_on(tmp_path, monkeypatch):
    result, checks, mats, wh = _run(tmp_path, monkeypatch, list(DOCS))
    assert checks["first_words_char_ranges"].passed  # on the documents that were written
    ok = checks["first_words_documents_ok"]
    assert not ok.passed and ok.metadata["failing_documents"].value == [BAD]
    # the other documents went downstream in the same run; the bad one has no file anywhere
    assert {p.name for p in (wh / "word_lengths").iterdir()} == {"a.md.parquet", "c.md.parquet"}
    assert {p.name for p in (wh / "first_words").iterdir()} == {"a.md.parquet", "c.md.parquet"}
    mat = next(e for e in result.get_asset_materialization_events() if e.asset_key.to_user_string() == "first_words")
    failed = mat.materialization.metadata["failed_documents"].value
    assert list(failed) == [BAD] and "first_words_char_ranges fails" in failed[BAD]
    # an asset without source_documents among its inputs checks against the stored text
    assert checks["echoed_words_char_ranges"].passed
    assert checks["echoed_words_documents_ok"].metadata["failing_documents"].value == [BAD, ECHO_BAD]
    assert {p.name for p in (wh / "echoed_words").iterdir()} == {"a.md.parquet"}


def test_alone_the_bad_document_still_fails_its_blocking_check_and_blocks(tmp_path, monkeypatch):
    result, checks, mats, wh = _run(tmp_path, monkeypatch, [BAD])
    assert not checks["first_words_char_ranges"].passed
    assert checks["first_words_char_ranges"].metadata["failing_documents"].value == [BAD]
    assert ("first_words", BAD) in mats and not any(a == "word_lengths" for a, _ in mats)


def test_a_one_document_run_tagged_to_isolate_isolates_its_bad_document_as_a_longer_run_does(tmp_path, monkeypatch):
    # `textguard report` tags its runs so that its schedule may give a dear document a run of its own
    result, checks, mats, wh = _run(tmp_path, monkeypatch, [BAD], tags={ISOLATE_TAG: "1"})
    assert checks["first_words_char_ranges"].passed  # nothing was written to break it
    ok = checks["first_words_documents_ok"]
    assert not ok.passed and ok.metadata["failing_documents"].value == [BAD]
    mat = next(e for e in result.get_asset_materialization_events() if e.asset_key.to_user_string() == "first_words")
    assert "first_words_char_ranges fails" in mat.materialization.metadata["failed_documents"].value[BAD]
    assert not (wh / "first_words" / f"{BAD}.parquet").exists()
    assert not (wh / "word_lengths" / f"{BAD}.parquet").exists()
