"""The IO manager's read cache: a repeated input is read once, a rewritten file never served stale."""

import pandas as pd
import pytest

from textguard_pipeline.defs_kit import io_manager as io_managers
from textguard_pipeline.defs_kit.io_manager import _ReadCache, write_parquet_atomic
from textguard_pipeline.lib import parquet_files


def test_cache_serves_the_current_file_and_private_copies(tmp_path, monkeypatch):
    reads = []
    real = parquet_files._read_parquet_sized
    monkeypatch.setattr(parquet_files, "_read_parquet_sized", lambda p: reads.append(str(p)) or real(p))
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


def test_write_through_serves_what_a_read_of_the_file_gives(tmp_path, monkeypatch):
    """A file this process wrote is served without decoding it again, as the very frame a read returns."""
    reads = []
    real = parquet_files._read_parquet_sized
    monkeypatch.setattr(parquet_files, "_read_parquet_sized", lambda p: reads.append(str(p)) or real(p))
    frames = {
        "mixed": pd.DataFrame(
            {
                "doc_id": ["d", "d", "d"],
                "start": [0, 5, 9],
                "score": [0.5, float("nan"), 1.0],
                "maybe": [None, "x", "ü 𝛼"],
                "flag": [True, False, True],
                "ids": [["a"], [], ["b", "c"]],
                "m": [{"k": "v"}, None, {}],
            }
        ),
        "filtered": pd.DataFrame({"text": ["a", "b", "c"], "n": [1, 2, 3]}).iloc[[0, 2]],  # index 0, 2
        "empty": pd.DataFrame({"text": pd.Series([], dtype=object), "n": pd.Series([], dtype="int64")}),
    }
    cache = _ReadCache()
    monkeypatch.setattr(io_managers, "_READ_CACHE", cache)
    for name, frame in frames.items():
        path = tmp_path / f"{name}.parquet"
        assert io_managers.ParquetIOManager._write(frame, path) is not None
        served = cache.read(path)
        assert reads == []  # from the table just written, not from the file
        pd.testing.assert_frame_equal(served, real(path)[0])  # same values, dtypes, index as a read
        assert cache.read(path) is not served  # a private copy, as for any cached read

    # another writer replaces the file: its identity changes and the file is read
    path = tmp_path / "mixed.parquet"
    write_parquet_atomic(pd.DataFrame({"doc_id": ["e"]}), path)
    assert cache.read(path)["doc_id"].tolist() == ["e"] and reads == [str(path)]


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


# -- partition keys are file names only when safe (issue 14 item 3) ------------------------------

import os  # noqa: E402
import string  # noqa: E402

import dagster as dg  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from textguard_pipeline.defs_kit.io_manager import (  # noqa: E402
    MAX_KEY_BYTES,
    InvalidPartitionKey,
    MissingPartition,
    ParquetIOManager,
    partition_key_problem,
    partition_path,
    read_parquet,
)
from textguard_pipeline.defs_kit.runner import per_document  # noqa: E402

HOSTILE = [
    "../../../victim/important",
    "..",
    ".",
    "",
    "a/b",
    "a\\b",
    "/etc/passwd",
    ".hidden",
    "x\x1b[31m",
    "nul\x00",
    "line\nbreak",
    "rtl\u202eoverride",
    "é" * (MAX_KEY_BYTES // 2 + 1),
    "bad\u2028sep",
]
FINE = ["a.txt", "notes_.._x", "café.md", "日本語.txt", "x" * MAX_KEY_BYTES, "a..b", "-dash", "~tilde"]


@pytest.mark.parametrize("key", HOSTILE)
def test_hostile_keys_are_refused_with_a_reason(key):
    assert partition_key_problem(key)
    with pytest.raises(InvalidPartitionKey, match="partition key"):
        partition_path("/w", "asset", key)


@pytest.mark.parametrize("key", FINE)
def test_ordinary_and_unicode_keys_are_file_names(tmp_path, key):
    assert partition_key_problem(key) is None
    path = partition_path(tmp_path, "asset", key)
    write_parquet_atomic(pd.DataFrame({"k": [key]}), path)  # the file system takes the name too
    assert os.listdir(tmp_path / "asset") == [f"{key}.parquet"]


_KEY_PARTS = st.one_of(
    st.text(min_size=0, max_size=12),  # any code point but lone surrogates
    st.sampled_from(["..", ".", "/", "\\", "\x00", "\x1b[2J", "\n", "\u202e", "\ufeff", "é" * 70, "x" * 120]),
    st.text(string.ascii_letters + "._-", min_size=1, max_size=8),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_KEY_PARTS, min_size=1, max_size=4).map("".join))
def test_fuzzed_keys_never_name_a_file_outside_the_asset_directory(tmp_path_factory, key):
    base = tmp_path_factory.mktemp("wh")
    try:
        path = partition_path(base, "asset", key)
    except InvalidPartitionKey:
        assert partition_key_problem(key)
        return
    assert partition_key_problem(key) is None
    write_parquet_atomic(pd.DataFrame({"k": [key]}), path)
    found = [os.path.relpath(os.path.join(d, f), base) for d, _, files in os.walk(base) for f in files]
    assert found == [os.path.join("asset", f"{key}.parquet")]
    assert read_parquet(path)["k"].tolist() == [key]


def test_a_run_with_hostile_keys_writes_only_inside_the_warehouse_and_names_them(tmp_path):
    """Through Dagster: keys added by the API; the good document is written, the bad ones are failures."""
    parts = dg.DynamicPartitionsDefinition(name="documents")
    keys = ["ok.txt", "../../../victim/important", "..", "x\x1b[31m"]

    @dg.asset(partitions_def=parts, io_manager_key="parquet_io_manager")
    def up(context: dg.AssetExecutionContext):
        return per_document(context, lambda key: pd.DataFrame({"doc_id": [key], "n": [1]}))

    @dg.asset(partitions_def=parts, io_manager_key="parquet_io_manager")
    def down(context: dg.AssetExecutionContext, up):
        return per_document(context, lambda key, frame: frame.assign(n=frame["n"] + 1), up)

    warehouse = tmp_path / "deep" / "warehouse"
    with dg.instance_for_test() as instance:
        instance.add_dynamic_partitions("documents", keys)
        result = dg.materialize(
            [up, down],
            instance=instance,
            resources={"parquet_io_manager": ParquetIOManager(str(warehouse))},
            tags={"dagster/asset_partition_range_start": keys[0], "dagster/asset_partition_range_end": keys[-1]},
        )
        assert result.success
        written = sorted(os.path.relpath(os.path.join(d, f), tmp_path) for d, _, fs in os.walk(tmp_path) for f in fs)
        assert written == ["deep/warehouse/down/ok.txt.parquet", "deep/warehouse/up/ok.txt.parquet"]
        mats = result.asset_materializations_for_node("down")
        failed = next(m.metadata["failed_documents"].data for m in mats if "failed_documents" in m.metadata)
    assert set(failed) == set(keys[1:])
    assert all("partition key" in failed[k] for k in keys[1:])


def test_a_truncated_file_loads_as_a_named_missing_partition_for_that_document_only(tmp_path):
    parts = dg.DynamicPartitionsDefinition(name="documents")

    @dg.asset(partitions_def=parts, io_manager_key="parquet_io_manager")
    def up(context: dg.AssetExecutionContext):
        return per_document(context, lambda key: pd.DataFrame({"doc_id": [key], "n": [1]}))

    @dg.asset(partitions_def=parts, io_manager_key="parquet_io_manager")
    def down(context: dg.AssetExecutionContext, up):
        return per_document(context, lambda key, frame: frame.assign(n=frame["n"] + 1), up)

    resources = {"parquet_io_manager": ParquetIOManager(str(tmp_path))}
    tags = {"dagster/asset_partition_range_start": "a", "dagster/asset_partition_range_end": "b"}
    with dg.instance_for_test() as instance:
        instance.add_dynamic_partitions("documents", ["a", "b"])
        assert dg.materialize([up], instance=instance, resources=resources, tags=tags).success
        bad = tmp_path / "up" / "a.parquet"
        bad.write_bytes(bad.read_bytes()[:-20])  # truncated: the footer is gone
        result = dg.materialize([up, down], selection=[down], instance=instance, resources=resources, tags=tags)
        assert result.success  # the other document went on
        failed = next(
            m.metadata["failed_documents"].data
            for m in result.asset_materializations_for_node("down")
            if "failed_documents" in m.metadata
        )
    assert list(failed) == ["a"] and str(bad) in failed["a"] and "unreadable file" in failed["a"]
    assert read_parquet(tmp_path / "down" / "b.parquet")["n"].tolist() == [2]
    assert not (tmp_path / "down" / "a.parquet").exists()
    assert MissingPartition("a", "p").reason == ""  # the old two-field form still builds
