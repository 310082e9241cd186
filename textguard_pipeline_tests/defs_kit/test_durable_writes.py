"""write_parquet_atomic: the bytes and the rename reach the disk, and each file says textguard wrote it."""

import os
import shutil

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from textguard_pipeline.defs_kit import io_manager
from textguard_pipeline.defs_kit.io_manager import write_parquet_atomic
from textguard_pipeline.lib.written import written_by_textguard


def test_the_file_is_fsynced_before_the_rename_and_its_directory_after(tmp_path, monkeypatch):
    events = []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(fd):
        events.append(("fsync", os.readlink(f"/proc/self/fd/{fd}")))
        return real_fsync(fd)

    def replace(src, dst):
        events.append(("replace", os.fspath(dst)))
        return real_replace(src, dst)

    monkeypatch.setattr(io_manager.os, "fsync", fsync)
    monkeypatch.setattr(io_manager.os, "replace", replace)
    target = tmp_path / "asset" / "doc.txt.parquet"
    write_parquet_atomic(pd.DataFrame({"x": [1, 2]}), target)
    kinds = [k for k, _ in events]
    assert kinds == ["fsync", "replace", "fsync"], events
    assert events[0][1].endswith(".tmp") and os.path.basename(events[0][1]).startswith(".doc.txt.parquet.")
    assert events[2][1] == str(target.parent)


def test_a_written_file_says_textguard_wrote_it_and_a_copy_or_a_foreign_file_does_not(tmp_path):
    target = tmp_path / "asset" / "doc.txt.parquet"
    write_parquet_atomic(pd.DataFrame({"x": [1]}), target)
    assert written_by_textguard(target)
    assert pq.read_table(target).column("x").to_pylist() == [1]  # the stamp changes nothing a reader sees
    shutil.copy(target, tmp_path / "asset" / "other.txt.parquet")
    assert not written_by_textguard(tmp_path / "asset" / "other.txt.parquet")
    pq.write_table(pa.table({"x": [1]}), tmp_path / "asset" / "foreign.parquet")
    assert not written_by_textguard(tmp_path / "asset" / "foreign.parquet")
    (tmp_path / "asset" / "junk.parquet").write_bytes(b"not parquet")
    assert not written_by_textguard(tmp_path / "asset" / "junk.parquet")
