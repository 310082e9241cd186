"""Orphan temporary files and stale documents in the warehouse (issue 14 items 8, 9)."""

import os
import signal
import subprocess
import sys
import time

import pandas as pd

from textguard_pipeline.defs_kit.io_manager import write_parquet_atomic
from textguard_pipeline.operations.warehouse import find_stale, orphan_tmp_files, remove_files

HEX = "0123456789abcdef" * 2


def _age(path, seconds):
    t = time.time() - seconds
    os.utime(path, (t, t))


def test_temporary_files_of_dead_writers_are_orphans_and_live_ones_are_not(tmp_path):
    asset = tmp_path / "parsed_chunks"
    asset.mkdir()
    # a writer that was SIGKILLed after creating its temporary file (a real process, really killed)
    code = f"import os,time; open(os.path.join({str(asset)!r}, f'.a.txt.parquet.{{os.getpid()}}-{HEX}.tmp'),'w'); time.sleep(60)"
    proc = subprocess.Popen([sys.executable, "-c", code])
    deadline = time.time() + 30
    while not list(asset.glob(".a.txt.parquet.*.tmp")) and time.time() < deadline:
        time.sleep(0.05)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    dead = next(asset.glob(".a.txt.parquet.*.tmp"))
    live = asset / f".b.txt.parquet.{os.getpid()}-{HEX}.tmp"  # this process is alive
    old_format = asset / f".c.txt.parquet.{HEX}.tmp"
    fresh_dead = asset / f".d.txt.parquet.{proc.pid}-{HEX.replace('0', '1')}.tmp"
    for p in (live, old_format, fresh_dead):
        p.write_bytes(b"partial")
    for p in (dead, live, old_format):
        _age(p, 120)
    write_parquet_atomic(pd.DataFrame({"x": [1]}), asset / "e.txt.parquet")

    assert orphan_tmp_files(str(tmp_path)) == sorted([dead, old_format])  # not the live one, not the fresh one
    _age(live, 7200)
    assert live in orphan_tmp_files(str(tmp_path))  # an hour old: whoever wrote it is not writing any more
    assert remove_files([dead, dead]) == [dead] and not dead.exists()
    assert (asset / "e.txt.parquet").exists()


def test_a_finished_write_leaves_no_temporary_file(tmp_path):
    write_parquet_atomic(pd.DataFrame({"x": [1]}), tmp_path / "a" / "k.parquet")
    assert os.listdir(tmp_path / "a") == ["k.parquet"]


def test_stale_lists_partitions_and_files_of_documents_gone_from_the_corpus_only_for_document_assets(tmp_path):
    for asset in ("source_documents", "parsed_chunks", "not_ours"):
        for key in ("kept.txt", "gone.txt"):
            write_parquet_atomic(pd.DataFrame({"x": [1]}), tmp_path / asset / f"{key}.parquet")
    stale = find_stale(
        str(tmp_path),
        ["kept.txt", "gone.txt", "never_written.txt"],
        {"kept.txt"},
        {"source_documents", "parsed_chunks"},
    )
    assert stale.partitions == ["gone.txt", "never_written.txt"]
    assert sorted(p.relative_to(tmp_path).as_posix() for p in stale.files) == [
        "parsed_chunks/gone.txt.parquet",
        "source_documents/gone.txt.parquet",
    ]
    assert stale.documents() == ["gone.txt", "never_written.txt"]
    assert not find_stale(str(tmp_path), ["kept.txt"], {"kept.txt", "gone.txt"}, {"source_documents"})
    assert not find_stale("s3://bucket/w", ["kept.txt"], {"kept.txt"}, {"source_documents"}).files


def test_files_of_writers_known_dead_are_orphans_at_any_age(tmp_path):
    asset = tmp_path / "a"
    asset.mkdir()
    fresh = asset / f".k.parquet.4242-{HEX}.tmp"
    fresh.write_bytes(b"partial")
    assert orphan_tmp_files(str(tmp_path), dead_pids={4242}) == [fresh]
    assert orphan_tmp_files(str(tmp_path), dead_pids={4243}) == []
