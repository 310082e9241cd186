"""The IO manager's read cache: a repeated input is read once, a rewritten file never served stale."""

import pandas as pd
import pytest

from textguard_pipeline.defs_kit import io_manager as io_managers
from textguard_pipeline.defs_kit.io_manager import _ReadCache, write_parquet_atomic


def test_cache_serves_the_current_file_and_private_copies(tmp_path, monkeypatch):
    reads = []
    real = io_managers._read_parquet_sized
    monkeypatch.setattr(io_managers, "_read_parquet_sized", lambda p: reads.append(str(p)) or real(p))
    path = tmp_path / "a" / "doc.parquet"
    write_parquet_atomic(pd.DataFrame({"doc_id": ["d"], "text": ["one"], "m": [{"k": "v"}]}), path)
    cache = _ReadCache()

    first = cache.read(path)
    first.loc[0, "text"] = "mutated by a consumer"
    second = cache.read(path)
    assert len(reads) == 1  # the second read came from the cache …
    assert second.loc[0, "text"] == "one" and second.loc[0, "m"] == {"k": "v"}  # … as a fresh copy
    second["text"] = ["replaced column"]
    second.iloc[0, 0] = "other doc"
    again = cache.read(path)
    assert len(reads) == 1 and again.loc[0, "text"] == "one" and again.loc[0, "doc_id"] == "d"

    # a rewrite (same size, same second) is a new file: read again, new content
    write_parquet_atomic(pd.DataFrame({"doc_id": ["d"], "text": ["two"], "m": [{"k": "w"}]}), path)
    third = cache.read(path)
    assert len(reads) == 2 and third.loc[0, "text"] == "two" and third.loc[0, "m"] == {"k": "w"}

    monkeypatch.setenv("TEXTGUARD_IO_CACHE_MB", "0")  # off: every read goes to the file
    cache.read(path)
    cache.read(path)
    assert len(reads) == 4


def test_cache_is_bounded(tmp_path, monkeypatch):
    monkeypatch.setenv("TEXTGUARD_IO_CACHE_MB", "0.01")  # 10 kB of Arrow data
    cache = _ReadCache()
    for i in range(20):
        write_parquet_atomic(pd.DataFrame({"text": [f"{i % 10}" * 2000]}), tmp_path / f"{i}.parquet")
        cache.read(tmp_path / f"{i}.parquet")
    assert 0 < cache._bytes <= 10_000 and len(cache._frames) < 20


def test_missing_file_raises_file_not_found(tmp_path):
    with pytest.raises(FileNotFoundError):  # the IO manager turns it into MissingPartition
        _ReadCache().read(tmp_path / "nope.parquet")
