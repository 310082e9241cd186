"""Issue 14, replayed through the real CLI: nothing lost, nothing silently wrong, every failure named.

Each test starts `textguard report` / `textguard prune` as separate processes on a throw-away
corpus, warehouse and DAGSTER_HOME. Full-disk and read-only cases mount a small tmpfs (skipped
where the machine does not allow mounts).
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import string
import subprocess
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from dagster import DagsterRunStatus, RunsFilter

from textguard_pipeline.defs_kit.check_history import history_path, update
from textguard_pipeline.operations.instance import open_instance

from ._cli import assert_no_torn_files, parquet_files, place, write_docs

pytestmark = pytest.mark.timeout(600)


def _heads(db: Path) -> list[str]:
    with sqlite3.connect(db) as conn:
        return [r[0] for r in conn.execute("select version_num from alembic_version")]


def test_concurrent_first_reports_on_an_empty_home_leave_one_working_instance(tmp_path):
    p = place(tmp_path)
    docs = write_docs(p.corpus, 6)
    procs = [p.start_report(out=tmp_path / f"out{i}") for i in range(3)]
    for proc in procs:
        out, err = proc.communicate(timeout=600)
        assert proc.returncode == 0, err[-3000:]
    assert len(_heads(p.home / "history" / "runs.db")) == 1
    again = p.report()
    assert again.returncode == 0, again.stderr[-3000:]
    assert sorted(open_instance(p.home).get_dynamic_partitions("documents")) == docs
    assert_no_torn_files(p.warehouse)


def test_a_killed_report_is_marked_failed_and_the_next_report_completes(tmp_path):
    p = place(tmp_path)
    docs = write_docs(p.corpus, 24, words=400)
    proc = p.start_report("--batch-size", "3")
    instance = None
    deadline = time.time() + 300
    started = []
    while time.time() < deadline and not started:
        if instance is None and (p.home / "history" / "runs.db").exists():
            instance = open_instance(p.home)
        if instance is not None:
            started = instance.get_runs(RunsFilter(statuses=[DagsterRunStatus.STARTED]))
        time.sleep(0.2)
    assert started, "no run started within 300 s"
    os.killpg(proc.pid, signal.SIGKILL)
    proc.communicate()
    killed = started[0].run_id
    assert instance.get_run_by_id(killed).status == DagsterRunStatus.STARTED  # what a SIGKILL leaves behind

    again = p.report("--batch-size", "12")
    assert again.returncode == 0, again.stderr[-3000:]
    assert instance.get_run_by_id(killed).status == DagsterRunStatus.FAILURE
    assert not instance.get_runs(RunsFilter(statuses=[DagsterRunStatus.STARTED]))
    md = p.markdown()
    assert "## Housekeeping" in md and f"run {killed}" in md and "marked FAILED" in md
    assert_no_torn_files(p.warehouse)
    assert sorted(f.name for f in (p.warehouse / "parsed_chunks").iterdir()) == [f"{d}.parquet" for d in docs]


def test_a_truncated_parquet_file_is_named_and_fails_only_its_document(tmp_path):
    p = place(tmp_path)
    write_docs(p.corpus, 3)
    first = p.report()
    assert first.returncode == 0, first.stderr[-3000:]
    bad = p.warehouse / "parsed_chunks" / "doc001.txt.parquet"
    bad.write_bytes(bad.read_bytes()[: bad.stat().st_size // 2])

    res = p.report(select="ner_frames")
    assert res.returncode == 1
    md = p.markdown()
    assert "### document `doc001.txt`" in md and f"unreadable file {bad}" in md
    assert "doc000.txt" not in md.split("## Failures", 1)[1] and "doc002.txt" not in md.split("## Failures", 1)[1]
    for doc in ("doc000.txt", "doc002.txt"):  # the other documents are unaffected
        assert pq.read_table(p.warehouse / "ner_frames" / f"{doc}.parquet").num_rows >= 0
    assert not (p.warehouse / "ner_frames" / "doc001.txt.parquet").exists()
    root = ET.parse(p.out / "asset-checks.xml").getroot()
    assert any(tc.get("name") == "doc001.txt" and tc.find("failure") is not None for tc in root.iter("testcase"))


@pytest.fixture
def small_tmpfs(tmp_path):
    """A 256 kB tmpfs, unmounted afterwards (skipped where mounting is not allowed)."""
    mnt = tmp_path / "tmpfs"
    mnt.mkdir()
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=256k,mode=0755", "tmpfs", str(mnt)], capture_output=True, text=True
    )
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip()}")
    try:
        yield mnt
    finally:
        subprocess.run(["umount", "-l", str(mnt)], check=False)


def _incompressible_docs(corpus: Path, n: int, chars: int) -> None:
    rng = __import__("random").Random(7)
    for i in range(n):
        words = ("".join(rng.choices(string.ascii_letters, k=rng.randint(2, 9))) for _ in range(chars // 6))
        (corpus / f"big{i}.txt").write_text(" ".join(words) + "\n", encoding="utf-8")


def test_a_full_disk_is_named_in_the_failures_and_leaves_no_torn_file(tmp_path, small_tmpfs):
    p = place(tmp_path, warehouse=small_tmpfs / "warehouse")
    _incompressible_docs(p.corpus, 4, 120_000)
    res = p.report()
    assert res.returncode == 1
    md = p.markdown()
    assert "## Failures" in md and "No space left on device" in md
    assert f"cannot write {p.warehouse}/" in md
    assert_no_torn_files(p.warehouse)


def test_a_read_only_warehouse_is_refused_before_any_work_naming_it(tmp_path, small_tmpfs):
    subprocess.run(["mount", "-o", "remount,ro", str(small_tmpfs)], check=True)
    p = place(tmp_path, warehouse=small_tmpfs / "warehouse")
    write_docs(p.corpus, 2)
    res = p.report()
    assert res.returncode == 2
    assert f"the warehouse (TEXTGUARD_WAREHOUSE / --warehouse) {p.warehouse} cannot be written" in res.stderr
    assert "Read-only file system" in res.stderr
    assert not (p.home / "history").exists()  # refused before the instance was touched


def test_stale_documents_are_reported_and_removed_only_by_prune(tmp_path):
    p = place(tmp_path)
    write_docs(p.corpus, 3)
    assert p.report().returncode == 0
    (p.corpus / "doc002.txt").unlink()

    res = p.report()
    assert res.returncode == 0, res.stderr[-3000:]  # reported, not a failure
    md = p.markdown()
    assert "## Stale documents" in md and "`doc002.txt`" in md and "textguard prune" in md
    stale_files = [f for f in parquet_files(p.warehouse) if f.name == "doc002.txt.parquet"]
    assert len(stale_files) == 2  # the report removed nothing

    dry = subprocess.run(p.command("prune", "--dry-run"), env=p.env(), capture_output=True, text=True, timeout=300)
    assert dry.returncode == 0, dry.stderr[-3000:]
    assert "would remove partition doc002.txt" in dry.stdout and all(f.exists() for f in stale_files)

    # a failing-documents row of the stale document (as a failed check would leave it) goes with it
    history = history_path(str(p.warehouse), "parsed_chunks", "parsed_chunks_tiling")
    update(history, ["doc002.txt", "doc001.txt"], {"doc002.txt": "gap", "doc001.txt": "gap"}, "run-x")

    done = subprocess.run(p.command("prune", "--yes"), env=p.env(), capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "removed 1 partition(s) and 2 file(s)" in done.stdout
    assert "removed 1 row(s) of the checks' documents-failing tables" in done.stdout
    assert sorted(json.loads(history.read_text())) == ["doc001.txt"]
    assert not any(f.exists() for f in stale_files)
    assert sorted(open_instance(p.home).get_dynamic_partitions("documents")) == ["doc000.txt", "doc001.txt"]
    assert p.report().returncode == 0 and "## Stale documents" not in p.markdown()


def test_a_corpus_emptied_by_accident_is_not_pruned(tmp_path):
    p = place(tmp_path)
    done = subprocess.run(p.command("prune"), env=p.env(), capture_output=True, text=True, timeout=300)
    assert done.returncode != 0 and "refusing to prune everything" in done.stderr


def test_unreadable_and_oversized_files_are_flagged_rows_and_a_failing_report(tmp_path):
    p = place(tmp_path)
    p.extra["TEXTGUARD_MAX_DOCUMENT_BYTES"] = "4000"  # the documented limit, made small (default 10 MiB)
    write_docs(p.corpus, 2)  # about 1.5 kB each: under the limit
    (p.corpus / "gone.txt").symlink_to(tmp_path / "nowhere.txt")  # a dangling link (CI runs as root)
    (p.corpus / "huge.txt").write_text("word " * 1000, encoding="utf-8")  # 5,000 bytes: over it
    res = p.report(timeout=300)
    assert res.returncode == 1
    failures = p.markdown().split("## Failures", 1)[-1]
    assert "gone.txt" in failures
    assert "huge.txt: 5,000 bytes is over the per-document limit of 4,000 bytes" in failures
    assert "TEXTGUARD_MAX_DOCUMENT_BYTES" in failures
    rows = {
        d: pq.read_table(p.warehouse / "source_documents" / f"{d}.parquet").to_pylist()[0]
        for d in ("huge.txt", "doc000.txt", "doc001.txt")
    }
    assert rows["huge.txt"]["status"] == "error" and rows["huge.txt"]["text"] == ""
    for doc in ("doc000.txt", "doc001.txt"):  # the other documents are unaffected
        assert rows[doc]["status"] == "ok"
        assert pq.read_table(p.warehouse / "parsed_chunks" / f"{doc}.parquet").num_rows > 0
    assert "doc000.txt" not in failures and "doc001.txt" not in failures


def test_a_one_document_run_whose_document_went_bad_leaves_none_of_its_earlier_files(tmp_path):
    p = place(tmp_path)
    write_docs(p.corpus, 1)
    first = p.report()
    assert first.returncode == 0, first.stderr[-3000:]
    chunks = p.warehouse / "parsed_chunks" / "doc000.txt.parquet"
    assert chunks.exists()

    res = p.report(extra_env={"TEXTGUARD_MAX_DOCUMENT_BYTES": "100"})  # now over the limit: its own failure
    assert res.returncode == 1
    assert "over the per-document limit" in p.markdown()
    assert not chunks.exists()  # the earlier chunks do not outlive the document's failure
    # nor does anything downstream of them, which Dagster skipped (the failing step removed it)
    left = sorted(f.parent.name for f in p.warehouse.glob("*/doc000.txt.parquet"))
    assert left == ["source_documents"], left
    row = pq.read_table(p.warehouse / "source_documents" / "doc000.txt.parquet").to_pylist()[0]
    assert row["status"] == "error"
