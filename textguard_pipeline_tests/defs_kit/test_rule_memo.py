"""Frame-check rules applied once per document: in the asset's own step, reused by its check step in the same
process for the very file written and the very text checked, evaluated again for anything else."""

import os

import pandas as pd
from dagster import AssetCheckKey, AssetSelection, DagsterInstance, Definitions, asset, define_asset_job
from dagster._core.storage.tags import ASSET_PARTITION_RANGE_END_TAG, ASSET_PARTITION_RANGE_START_TAG

from textguard_pipeline.defs_kit.check_steps import group_checks
from textguard_pipeline.defs_kit.checks import char_range_rule, frame_check
from textguard_pipeline.defs_kit.io_manager import write_parquet_atomic
from textguard_pipeline.defs_kit.rule_memo import ATTR, RuleMemo, precomputed, text_fingerprint
from textguard_pipeline.defs_kit.runner import asset_kwargs, per_document

from ._corpus import small_corpus

DOCS = {"a.md": "Alpha text here.\n", "b.md": "Bravo text here.\n", "c.md": "Charlie text here.\n"}
CALLS: list[tuple[str, str]] = []


def counted(name, rule):
    def _rule(doc_id, df, source):
        CALLS.append((name, doc_id))
        log = os.environ.get("TEXTGUARD_TEST_RULE_LOG")
        if log:  # calls made in other processes (multiprocess executor)
            with open(log, "a", encoding="utf-8") as fh:
                fh.write(f"{name} {doc_id}\n")
        return rule(doc_id, df, source)

    return _rule


def short_words(doc_id, df, source):
    """Non-blocking: a word longer than five letters is reported."""
    return [{"text": t} for t in df["text"] if len(t) > 5]


@asset(**asset_kwargs("test", {"python"}, "1"))
def memo_words(context, source_documents):
    def build(doc_id: str, src: pd.DataFrame) -> pd.DataFrame:
        text = src.iloc[0]["text"]
        end = text.index(" ")
        return pd.DataFrame([{"doc_id": doc_id, "start": 0, "end": end, "text": text[:end]}])

    return per_document(context, build, source_documents)


CHECKS = [
    frame_check(
        "memo_words",
        "memo_words_char_ranges",
        counted("ranges", char_range_rule),
        description="blocking, needs the text",
    ),
    frame_check(
        "memo_words",
        "memo_words_short",
        counted("short", short_words),
        description="non-blocking, frame only",
        blocking=False,
        with_sources=False,
    ),
]


def _defs(tmp_path, monkeypatch):
    from textguard_pipeline.defs_kit.resources import build_resources
    from textguard_pipeline.ingest.defs import source_documents

    small_corpus(tmp_path, monkeypatch, DOCS)
    everything = define_asset_job("all", selection=AssetSelection.all() | AssetSelection.all_asset_checks())
    keys = [AssetCheckKey(memo_words.key, n) for n in ("memo_words_char_ranges", "memo_words_short")]
    checks_only = define_asset_job("checks_only", selection=AssetSelection.checks(*keys))
    defs = Definitions(
        assets=[source_documents, memo_words],
        asset_checks=group_checks(CHECKS),
        jobs=[everything, checks_only],
        resources=build_resources(),
    )
    instance = DagsterInstance.ephemeral()
    instance.add_dynamic_partitions("documents", list(DOCS))
    return defs, instance


def _execute(defs, instance, job):
    keys = list(DOCS)
    result = defs.resolve_job_def(job).execute_in_process(
        instance=instance,
        raise_on_error=False,
        tags={ASSET_PARTITION_RANGE_START_TAG: keys[0], ASSET_PARTITION_RANGE_END_TAG: keys[-1]},
    )
    return {e.check_name: e for e in result.get_asset_check_evaluations()}


def test_each_rule_runs_once_per_document_and_the_check_reports_the_same(tmp_path, monkeypatch):
    defs, instance = _defs(tmp_path, monkeypatch)
    CALLS.clear()
    checks = _execute(defs, instance, "all")
    assert sorted(CALLS) == sorted((r, d) for r in ("ranges", "short") for d in DOCS)  # once each, not twice
    assert checks["memo_words_char_ranges"].passed
    short = checks["memo_words_short"]
    assert not short.passed and short.metadata["failing_documents"].value == ["c.md"]  # "Charlie"

    # A file that changed since it was checked is evaluated again, and its fault is found.
    wh = tmp_path / "wh" / "memo_words"
    write_parquet_atomic(pd.DataFrame([{"doc_id": "a.md", "start": 0, "end": 5, "text": "Bravo"}]), wh / "a.md.parquet")
    CALLS.clear()
    again = _execute(defs, instance, "checks_only")
    assert ("ranges", "a.md") in CALLS and ("ranges", "b.md") not in CALLS
    assert not again["memo_words_char_ranges"].passed
    assert again["memo_words_char_ranges"].metadata["failing_documents"].value == ["a.md"]
    assert again["memo_words_short"].metadata["failing_documents"].value == ["c.md"]


def test_a_run_without_the_checks_applies_no_rule_it_does_not_need(tmp_path, monkeypatch):
    defs, instance = _defs(tmp_path, monkeypatch)
    job = define_asset_job("bare", selection=AssetSelection.all().without_checks())
    defs = Definitions.merge(defs, Definitions(jobs=[job]))
    CALLS.clear()
    _execute(defs, instance, "bare")
    # blocking rules still guard each document of a multi-document run (isolation); the others wait for a check
    assert sorted(CALLS) == sorted(("ranges", d) for d in DOCS)


def test_results_are_bound_to_the_object_written_and_the_text_checked(tmp_path):
    memo = RuleMemo()
    frame = pd.DataFrame([{"x": 1}])
    path = tmp_path / "f.parquet"
    write_parquet_atomic(frame, path)
    results = {"rule": ([{"row": 0}], text_fingerprint("abc"))}
    memo.offer("asset", "doc", frame, results)
    memo.bind("asset", "doc", frame.copy(), str(path))  # another object: not bound
    loaded = pd.read_parquet(path)
    st = path.stat()
    memo.annotate(str(path), (st.st_ino, st.st_mtime_ns, st.st_size), loaded)
    assert ATTR not in loaded.attrs

    memo.offer("asset", "doc", frame, results)
    memo.bind("asset", "doc", frame, str(path))
    memo.annotate(str(path), (st.st_ino, st.st_mtime_ns, st.st_size + 1), loaded)  # another file
    assert ATTR not in loaded.attrs
    memo.annotate(str(path), (st.st_ino, st.st_mtime_ns, st.st_size), loaded)
    assert precomputed(loaded, "rule", "abc") == [{"row": 0}]
    assert precomputed(loaded, "rule", "abd") is None  # checked against another text
    assert precomputed(loaded, "other", "abc") is None


def _multiprocess_job():
    from textguard_pipeline.defs_kit.resources import build_resources
    from textguard_pipeline.ingest.defs import source_documents

    job = define_asset_job("mp", selection=AssetSelection.all() | AssetSelection.all_asset_checks())
    defs = Definitions(
        assets=[source_documents, memo_words],
        asset_checks=group_checks(CHECKS),
        jobs=[job],
        resources=build_resources(),
    )
    return defs.resolve_job_def("mp")


def test_a_step_alone_in_its_process_applies_only_what_isolation_needs(tmp_path, monkeypatch):
    """Multiprocess executor: the check step runs in another process and could not reuse results, so the
    asset step applies only its blocking rules (isolation); each non-blocking rule still runs once."""
    from dagster import execute_job, reconstructable

    _defs(tmp_path, monkeypatch)  # corpus and warehouse
    log = tmp_path / "calls.log"
    monkeypatch.setenv("TEXTGUARD_TEST_RULE_LOG", str(log))
    keys = list(DOCS)
    (tmp_path / "home").mkdir()
    with DagsterInstance.local_temp(str(tmp_path / "home")) as instance:
        instance.add_dynamic_partitions("documents", keys)
        with execute_job(
            reconstructable(_multiprocess_job),
            instance=instance,
            tags={ASSET_PARTITION_RANGE_START_TAG: keys[0], ASSET_PARTITION_RANGE_END_TAG: keys[-1]},
        ) as result:
            assert result.success
    calls = sorted(tuple(line.split()) for line in log.read_text().splitlines())
    assert calls == sorted([("ranges", d) for d in DOCS] * 2 + [("short", d) for d in DOCS])
