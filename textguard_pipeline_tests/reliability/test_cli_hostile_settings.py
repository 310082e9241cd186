"""Issue 49, replayed through the real CLI: no setting taken on faith, no single path that aborts a whole run,
a lock holder named, and prune that deletes only its own (each case failed before the change)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from dagster import build_sensor_context, instance_for_test

from textguard_pipeline.operations import sensors

from ._cli import place, write_docs

pytestmark = pytest.mark.timeout(600)


def _run(p, *args: str, stdin=subprocess.DEVNULL, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run(p.command(*args), env=p.env(), stdin=stdin, capture_output=True, text=True, timeout=timeout)


@pytest.mark.parametrize(
    "variable,value,says",
    [
        ("TEXTGUARD_LLM_MAX_COST", "nan", "must be a finite number"),
        ("TEXTGUARD_LLM_MAX_RETRY_AFTER_S", "nan", "must be a finite number"),
        ("TEXTGUARD_LLM_TIMEOUT_S", "inf", "must be a finite number"),
        ("TEXTGUARD_NER_MAX_RETRIES", "-1", "must be at least 0"),
        ("TEXTGUARD_NER_TIMEOUT_MS", "-5", "must be at least 1"),
        ("TEXTGUARD_MAX_DOCUMENT_BYTES", "abc", "is not an integer"),
        ("TEXTGUARD_REFRESH_CRON", "not a cron", "is not a cron expression"),
        ("TEXTGUARD_REFRESH_TZ", "Mars/Olympus", "is not a time zone"),
        ("TEXTGUARD_SUPPRESSIONS", "/no/such/suppressions.csv", "names no such file"),
        ("TEXTGUARD_NER_BACKEND", "rulez", "is not one of rules, llm, hybrid"),
        ("TEXTGUARD_WN_LEXICON", "oewn 2024", "is not a wn lexicon specifier"),
    ],
)
def test_a_bad_setting_is_refused_before_any_work_naming_the_variable(tmp_path, variable, value, says):
    p = place(tmp_path)
    write_docs(p.corpus, 1)
    p.extra[variable] = value
    res = p.report()
    assert res.returncode == 2, res.stderr[-2000:]
    assert f"textguard report: {variable}={value!r} {says}" in res.stderr
    assert "Traceback" not in res.stderr
    assert not p.home.exists() and not p.warehouse.exists()  # nothing was done


def test_a_bad_cron_also_stops_prune_naming_the_variable(tmp_path):
    p = place(tmp_path)
    write_docs(p.corpus, 1)
    p.extra["TEXTGUARD_REFRESH_CRON"] = "0 2 30 2 *"  # five fields, but February 30th: Dagster's own rule refuses it
    res = _run(p, "prune", "--dry-run")
    assert res.returncode == 2 and "TEXTGUARD_REFRESH_CRON='0 2 30 2 *'" in res.stderr, res.stderr[-2000:]


def test_a_mistyped_lexicon_never_changes_what_later_runs_use(tmp_path):
    p = place(tmp_path)
    write_docs(p.corpus, 1, words=80)
    p.extra["TEXTGUARD_WN_DATA"] = str(tmp_path / "wn")  # an empty WordNet folder: nothing chosen yet
    p.extra["TEXTGUARD_WN_LEXICON"] = "oewm:2024"  # a typo of oewn, valid as a specifier
    res = p.report(select="*resolved_meanings", timeout=900)
    assert res.returncode == 1
    assert "TEXTGUARD_WN_LEXICON='oewm:2024' is not installed" in p.markdown()
    # before: the run installed the small lexicon and recorded it as the choice of every later run
    assert not [f for f in (tmp_path / "wn").rglob("*") if f.is_file() and "textguard" in f.name]
    status = _run(p, "wordnet", "status")
    assert "no WordNet lexicon installed" in status.stdout, status.stdout + status.stderr


def test_a_symlink_loop_an_undecodable_ignore_file_and_an_escape_in_a_name_leave_the_rest_processed(tmp_path):
    p = place(tmp_path)
    docs = write_docs(p.corpus, 2)
    os.symlink("loop.txt", p.corpus / "loop.txt")
    os.symlink("ping.txt", p.corpus / "pong.txt")
    os.symlink("pong.txt", p.corpus / "ping.txt")
    (p.corpus / ".textguardignore").write_bytes(b"doc001.txt\n# caf\xe9 notes\n")
    (p.corpus / "\x1b[2Jcleared.txt").write_bytes(b"not utf-8 \xff\n")  # a flagged row: Dagster logs an ERROR line
    res = p.report()
    assert res.returncode == 1, res.stderr[-3000:]  # the flagged rows fail the report; nothing aborted it
    assert "\x1b" not in res.stdout + res.stderr  # Dagster's own ERROR line included
    assert "\\x1b[2Jcleared.txt" in res.stderr
    md = p.markdown()
    assert "loop.txt: symlink loop (to 'loop.txt')" in md and "ping.txt: symlink loop" in md
    assert ".textguardignore: not valid UTF-8 at byte offset 16" in md
    produced = sorted(f.name for f in (p.warehouse / "parsed_chunks").iterdir())
    assert f"{docs[0]}.parquet" in produced and f"{docs[1]}.parquet" not in produced  # its other line still applies
    dry = _run(p, "prune", "--dry-run")
    assert dry.returncode == 0 and "would remove 0 partition(s)" in dry.stdout, dry.stderr[-2000:]


def test_the_corpus_sensor_ticks_over_a_symlink_loop_and_an_undecodable_ignore_file(tmp_path, monkeypatch):
    p = place(tmp_path)
    write_docs(p.corpus, 1)
    os.symlink("loop.txt", p.corpus / "loop.txt")
    (p.corpus / ".textguardignore").write_bytes(b"\xff\n")
    monkeypatch.setenv("TEXTGUARD_CORPUS_DIR", str(p.corpus))
    with instance_for_test() as instance:
        result = sensors.corpus_sensor(build_sensor_context(instance=instance))
    keys = result.dynamic_partitions_requests[0].partition_keys
    assert keys == ["doc000.txt", "loop.txt", "textguardignore"]


def test_out_as_a_file_and_a_full_or_unwritable_home_are_refused_before_any_work(tmp_path):
    p = place(tmp_path)
    write_docs(p.corpus, 1)
    (tmp_path / "file").write_text("x")
    res = p.report(out=tmp_path / "file")
    assert res.returncode == 2
    assert f"the report folder (--out) {tmp_path / 'file'} is not a folder" in res.stderr
    assert not (p.home / "history").exists() and not list(p.warehouse.rglob("*.parquet"))  # before the run
    p.home = tmp_path / "file" / "home"
    res = p.report()
    assert res.returncode == 2 and "the Dagster instance folder (DAGSTER_HOME)" in res.stderr


def test_a_full_instance_folder_is_named(tmp_path, request):
    mnt = tmp_path / "tiny"
    mnt.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=200k", "tmpfs", str(mnt)], capture_output=True)
    if done.returncode != 0:
        pytest.skip("cannot mount a tmpfs here")
    request.addfinalizer(lambda: subprocess.run(["umount", "-l", str(mnt)], check=False))
    p = place(tmp_path)
    p.home = mnt / "home"
    write_docs(p.corpus, 1)
    res = p.report()
    assert res.returncode == 2, res.stderr[-3000:]
    assert f"the Dagster instance folder {p.home} is full" in res.stderr
    assert "sqlalchemy" not in res.stderr


def test_a_stopped_lock_holder_is_named_and_the_report_gives_up(tmp_path):
    p = place(tmp_path)
    write_docs(p.corpus, 1)
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            textwrap.dedent(
                f"""
                import os, signal
                from textguard_pipeline.operations.instance import instance_lock
                with instance_lock({str(p.home)!r}, wait_s=5):
                    print("held", flush=True)
                    os.kill(os.getpid(), signal.SIGSTOP)
                """
            ),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "held"
        time.sleep(0.3)
        p.extra["TEXTGUARD_LOCK_WAIT_S"] = "2"
        t = time.monotonic()
        res = p.report(timeout=120)
        assert res.returncode == 2, res.stderr[-3000:]
        assert time.monotonic() - t < 60
        assert f"is held by pid {holder.pid} (stopped), started " in res.stderr
        assert "instance_lock" in res.stderr  # the holder's command
        assert "gave up after 2 s (TEXTGUARD_LOCK_WAIT_S)" in res.stderr
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait()


def test_prune_removes_only_files_textguard_wrote_and_asks_first(tmp_path):
    shared = tmp_path / "shared"
    shared.mkdir()
    p = place(tmp_path)
    write_docs(p.corpus, 2)
    (p.warehouse / "source_documents").parent.mkdir(parents=True)
    os.symlink(shared, p.warehouse / "source_documents")  # an asset folder that is a shared directory
    assert p.report(select="source_documents").returncode == 0
    (p.corpus / "doc001.txt").unlink()
    pq.write_table(pa.table({"x": [1]}), shared / "someone_else.parquet")  # not ours, and no document's name
    (shared / "doc000.txt.parquet").rename(shared / "renamed.parquet")
    (shared / "doc001.txt.parquet").replace(shared / "elsewhere.parquet")
    pq.write_table(pa.table({"x": [1]}), shared / "doc001.txt.parquet")  # same name, written by someone else
    pq.write_table(pa.table({"x": [2]}), shared / "gone.txt.parquet")

    asked = _run(p, "prune")  # stdin is not a terminal: lists, removes nothing
    assert asked.returncode == 2 and "pass --yes" in asked.stderr
    assert "will remove partition doc001.txt" in asked.stdout
    done = _run(p, "prune", "--yes")
    assert done.returncode == 0, done.stderr[-2000:]
    kept = p.warehouse / "source_documents" / "doc001.txt.parquet"
    assert f"keep file {kept} (textguard did not write it)" in done.stdout
    assert "removed 1 partition(s)" in done.stdout
    assert "removed 1 partition(s) and 0 file(s)" in done.stdout
    for name in (
        "someone_else.parquet",
        "renamed.parquet",
        "elsewhere.parquet",
        "doc001.txt.parquet",
        "gone.txt.parquet",
    ):
        assert (shared / name).exists(), name
