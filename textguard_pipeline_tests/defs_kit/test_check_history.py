"""A check's failing documents accumulate across runs; a document leaves when a later run passes it (issue 53)."""

import json
import multiprocessing
import os
import subprocess
import sys

from textguard_pipeline.defs_kit.check_history import forget, history_path, table_markdown, update


def test_a_document_leaves_only_when_a_run_that_checked_it_passes(tmp_path):
    path = history_path(str(tmp_path), "parsed_chunks", "parsed_chunks_tiling")
    update(path, ["a", "b"], {"a": "| a | gap |"}, "run1")
    table = update(path, ["c"], {"c": "| c | overlap |"}, "run2")
    assert sorted(table) == ["a", "c"] and table["a"]["since"] == "run1"
    table = update(path, ["a"], {"a": "| a | gap again |"}, "run3")
    assert table["a"] == {"since": "run1", "run": "run3", "detail": "| a | gap again |"}
    table = update(path, ["a", "b"], {}, "run4")
    assert sorted(table) == ["c"] and json.loads(path.read_text()) == table
    # a truncated list of failures: a checked document not listed may still fail, so it stays
    assert sorted(update(path, ["c", "d"], {"d": ""}, "run5", complete=False)) == ["c", "d"]
    assert "| c | run2 | run2 | \\| c \\| overlap \\| |" in table_markdown(table)  # the detail's pipes escaped
    assert history_path("s3://bucket/wh", "a", "b") is None


def _fail_one(args):
    path, doc = args
    update(path, [doc], {doc: doc}, f"run-{doc}")


def test_concurrent_evaluations_lose_no_document(tmp_path):
    path = history_path(str(tmp_path), "x", "x_ok")
    docs = [f"d{i}" for i in range(24)]
    # spawn, then close and join: a forked worker inherits the signal handlers earlier tests installed in this
    # process (SIGTERM caught, not fatal), and the pool's terminate() on exit then waited on it for ever
    pool = multiprocessing.get_context("spawn").Pool(4)
    try:
        pool.map_async(_fail_one, [(path, d) for d in docs]).get(timeout=300)
    finally:
        pool.close()
        pool.join()
    assert sorted(json.loads(path.read_text())) == sorted(docs)


def _report(tmp_path, corpus):
    env = {**os.environ, "DAGSTER_HOME": str(tmp_path / "home")}
    cmd = [sys.executable, "-m", "textguard_pipeline.cli", "report", "--corpus", str(corpus)]
    cmd += [
        "--warehouse",
        str(tmp_path / "wh"),
        "--select",
        "source_documents",
        "--batch-size",
        "1",
        "--workers",
        "1",
        "--quiet",
    ]
    return subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=300)


def _latest_failing(tmp_path) -> tuple[int, str]:
    """documents_failing of source_documents_readable in the newest run (what the UI shows): b.md's alone."""
    from dagster import DagsterEventType

    from textguard_pipeline.operations.instance import open_instance

    instance = open_instance(tmp_path / "home")
    newest = instance.get_runs(limit=1)[0]
    assert newest.tags["dagster/asset_partition_range_start"] == "b.md"  # one process: a.txt, then b.md
    (event,) = [
        e.dagster_event.event_specific_data
        for e in instance.all_logs(newest.run_id, of_type=DagsterEventType.ASSET_CHECK_EVALUATION)
        if e.dagster_event.event_specific_data.check_name == "source_documents_readable"
    ]
    instance.dispose()
    return event.metadata["documents_failing_count"].value, event.metadata["documents_failing"].value


def test_the_latest_evaluation_lists_failing_documents_of_every_run(tmp_path):
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "a.txt").write_bytes(b"bad \xff byte")  # its own run, first
    (corpus / "b.md").write_text("# B\n\nFine.\n")  # the last run: passes
    r = _report(tmp_path, corpus)
    assert r.returncode == 1, r.stdout + r.stderr
    count, table = _latest_failing(tmp_path)
    assert count == 1 and "| a.txt |" in table and "not valid UTF-8" in table and "b.md" not in table

    (corpus / "a.txt").write_text("now fine\n")
    r = _report(tmp_path, corpus)
    assert r.returncode == 0, r.stdout + r.stderr
    assert _latest_failing(tmp_path) == (0, "no document fails this check")


def test_prune_forgets_documents_that_left_the_corpus_in_every_table(tmp_path):
    tiling = history_path(str(tmp_path), "parsed_chunks", "parsed_chunks_tiling")
    readable = history_path(str(tmp_path), "source_documents", "source_documents_readable")
    update(tiling, ["gone", "kept"], {"gone": "", "kept": ""}, "run1")
    update(readable, ["gone"], {"gone": ""}, "run1")
    assert forget(str(tmp_path), ["gone", "never-listed"]) == 2
    assert sorted(json.loads(tiling.read_text())) == ["kept"] and json.loads(readable.read_text()) == {}
    assert forget(str(tmp_path), ["gone"]) == 0 and forget(str(tmp_path / "nothing-here"), ["kept"]) == 0
