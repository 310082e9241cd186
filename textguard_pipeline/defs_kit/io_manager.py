"""ParquetIOManager: one Parquet file per (asset, partition), written atomically.

Outputs of partitioned assets are always ``{partition_key: DataFrame}``: the
stock UPathIOManager refuses outputs that cover several partitions, so
``handle_output`` writes one file per key. Inputs of partitioned assets are
always loaded as such a dict too (one key or many), so asset code has one shape.
A document that failed upstream has no file; it loads as :class:`MissingPartition`.
A document whose output is :class:`KeepFile` keeps the file it has (the runner decided it is still valid:
the document failed for a reason outside it); ``None`` removes the file. Each file carries, in its Parquet
metadata, the stamp it was built from (:data:`STAMP_KEY`: the document's sha256 and the asset's code version).

Partition keys come from anyone who can add a partition (UI, API), so a key is a
file name only after :func:`partition_key_problem` accepts it, and every path is
checked to stay inside the base path: a bad key is never touched on disk — it
loads as a :class:`MissingPartition` with the reason and cannot be written. A file
that exists but cannot be read (truncated, not Parquet) loads as a
:class:`MissingPartition` naming the file and the error, for that document only.
"""

from __future__ import annotations

import json
import os
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
from dagster import InputContext, MetadataValue, OutputContext, UPathIOManager
from upath import UPath

from .. import settings
from ..lib import parquet_files
from ..lib.parquet_files import (  # noqa: F401  (the IO manager's public names, as before)
    MAX_KEY_BYTES,
    STAMP_KEY,
    InvalidPartitionKey,
    _inside,
    as_upath,
    frame_to_table,
    is_local,
    partition_key_problem,
    partition_path,
    read_parquet,
    table_to_frame,
    write_parquet_atomic,
)
from .rule_memo import MEMO
from .run_keys import run_partition_keys


@dataclass(frozen=True)
class MissingPartition:
    """Placeholder for a partition with no usable file: none (its document failed), unreadable, or a bad key."""

    partition_key: str
    path: str
    #: empty when the file does not exist; else why it could not be used (names the file)
    reason: str = ""


@dataclass(frozen=True)
class KeepFile:
    """An output that leaves the partition's file as it is (its last good output, kept while still valid)."""

    reason: str


class ParquetIOManager(UPathIOManager):
    extension = ".parquet"

    def __init__(self, base_path: str | os.PathLike[str]):
        super().__init__(base_path=UPath(base_path))

    # -- keys and paths ------------------------------------------------------
    def get_path_for_partition(self, context, path: UPath, partition: str) -> UPath:
        """``path/partition`` (no extension yet), only for a valid key that stays inside the base path."""
        full = partition_path(path.parent, path.name, partition, extension="")
        if not _inside(self._base_path, full):  # an asset key with odd parts
            raise InvalidPartitionKey(f"partition key {partition!r}: {full} leaves the warehouse {self._base_path}")
        return full

    def _split_paths(self, context: InputContext | OutputContext) -> tuple[dict[str, UPath], dict[str, str]]:
        """(key → path for valid keys, key → reason for refused keys)."""
        asset_path = self._get_path_without_extension(context)
        paths: dict[str, UPath] = {}
        refused: dict[str, str] = {}
        # The run's own documents (one partition query per run), not every registered one: a check's input
        # would otherwise cover all partitions of the asset.
        keys = run_partition_keys(context)
        for key in keys if keys is not None else context.asset_partition_keys:
            try:
                paths[key] = self._with_extension(self.get_path_for_partition(context, asset_path, key))
            except InvalidPartitionKey as exc:
                refused[key] = str(exc)
        return paths, refused

    # -- writing -----------------------------------------------------------
    def dump_to_path(self, context: OutputContext, obj: pd.DataFrame, path: UPath) -> None:
        self._write(obj, path)

    @staticmethod
    def _write(frame: pd.DataFrame, path: UPath) -> tuple[int, int, int] | None:
        """Write one file; the identity it got (None: not a local file)."""
        table, ident = write_parquet_atomic(frame, path)
        if ident is not None:  # the check step and the downstream steps of this process load it next
            _READ_CACHE.put(os.fspath(path), ident, table)
        return ident

    def handle_output(self, context: OutputContext, obj: Any) -> None:
        if not context.has_asset_partitions:
            return super().handle_output(context, obj)
        if not isinstance(obj, dict):
            raise TypeError(
                f"{context.asset_key.to_user_string()}: partitioned outputs must be {{partition_key: DataFrame}}"
            )
        paths, refused = self._split_paths(context)
        written_bad = sorted(k for k in refused if obj.get(k) is not None)
        if written_bad:
            raise InvalidPartitionKey("; ".join(refused[k] for k in written_bad[:5]))
        rows = 0
        for key, path in paths.items():
            frame = obj.get(key)
            if isinstance(frame, KeepFile):  # failed outside the document: its last good file stays
                continue
            if frame is None:
                # The document failed in this run for a reason of its own: remove any earlier file.
                path.unlink(missing_ok=True)
                continue
            # No per-partition log line: every context.log call is an event row stored in the
            # instance (even DEBUG), which made logging cost as much as writing the files.
            try:
                self.make_directory(path.parent)
                ident = self._write(frame, path)
            except OSError as exc:  # disk full, read-only: say which file, keep the cause
                raise OSError(exc.errno, f"cannot write {path}: {exc.strerror or exc}") from exc
            if ident is not None:
                MEMO.bind(context.asset_key.to_user_string(), key, frame, os.fspath(path), ident)
            rows += len(frame)
        extra = set(obj) - set(paths) - set(refused)
        if extra:
            raise KeyError(f"output has partitions outside this run: {sorted(extra)[:5]}")
        metadata: dict[str, Any] = {
            "path": MetadataValue.path(
                str(self._get_path_without_extension(context)) if len(paths) != 1 else str(next(iter(paths.values())))
            ),
            "partitions_written": sum(1 for k in paths if isinstance(obj.get(k), pd.DataFrame)),
        }
        if refused:
            metadata["invalid_partition_keys"] = MetadataValue.json(refused)
        context.add_output_metadata(metadata)

    # -- reading -----------------------------------------------------------
    def read_partition(self, asset_dir: str, key: str) -> pd.DataFrame | MissingPartition:
        """One stored partition of ``asset_dir`` (a single-part asset key) outside an input context."""
        try:
            path = partition_path(self._base_path, asset_dir, key)
        except InvalidPartitionKey as exc:
            return MissingPartition(key, "", str(exc))
        try:
            return _READ_CACHE.read(path)
        except FileNotFoundError:
            return MissingPartition(key, str(path))
        except Exception as exc:  # a truncated or foreign file
            return MissingPartition(key, str(path), f"unreadable file {path}: {type(exc).__name__}: {exc}")

    def remove_partition(self, asset_dir: str, key: str) -> None:
        """Remove the stored file of ``key`` (a document that failed for a reason of its own in a step that
        writes no output); a refused key names no file and nothing is touched."""
        try:
            path = partition_path(self._base_path, asset_dir, key)
        except InvalidPartitionKey:
            return
        path.unlink(missing_ok=True)

    def stamp(self, asset_dir: str, key: str) -> dict[str, str] | None:
        """The stamp of the stored file of ``key`` (what it was built from), or None (no file, no stamp)."""
        try:
            path = partition_path(self._base_path, asset_dir, key)
            with path.open("rb") as fh:
                meta = pq.read_schema(fh).metadata or {}
            value = json.loads(meta.get(STAMP_KEY.encode(), b"null"))
        except Exception:  # no file, unreadable, a bad key: nothing to keep
            return None
        return value if isinstance(value, dict) else None

    def load_from_path(self, context: InputContext, path: UPath) -> pd.DataFrame:
        return _READ_CACHE.read(path)

    def load_input(self, context: InputContext) -> Any:
        if not context.has_asset_key or not context.has_asset_partitions:
            return super().load_input(context)
        paths, refused = self._split_paths(context)
        out: dict[str, Any] = {key: MissingPartition(key, "", reason) for key, reason in refused.items()}
        for_check = _is_check_step(context)
        for key, path in paths.items():
            try:
                if for_check:  # the rule results the asset step computed for this very file, if any
                    frame, ident = _READ_CACHE.read_with_ident(path)
                    MEMO.annotate(os.fspath(path), ident, frame)
                    out[key] = frame
                else:
                    out[key] = self.load_from_path(context, path)
            except FileNotFoundError:
                out[key] = MissingPartition(key, str(path))
            except Exception as exc:  # a truncated or foreign file: this document only, named
                out[key] = MissingPartition(key, str(path), f"unreadable file {path}: {type(exc).__name__}: {exc}")
        return out


class _ReadCache:
    """Frames read back in this process, keyed by the file's identity (inode, mtime, size).

    In a run, ``source_documents`` and ``parsed_chunks`` are inputs of four assets and of
    most checks: without this, every step re-reads and re-decodes the same files. Files are
    only ever replaced whole (``write_parquet_atomic``: a new inode), so a key never serves
    stale data. Local files only (a stat on an object store costs a request); each caller
    gets its own DataFrame object: a shallow copy, which pandas' copy-on-write (pandas ≥ 3) turns into
    a real copy of whatever the caller modifies, so the cached frame never changes (nested
    dicts/lists are shared, as with a deep copy: inputs are read-only). Size:
    ``TEXTGUARD_IO_CACHE_MB`` (Arrow bytes, default 256; 0 = off).

    Write-through: the IO manager hands over the Arrow table it has just written (:meth:`put`), keyed by the
    identity the file got, and the first read turns it into the frame a read of that file gives
    (:func:`table_to_frame`, the same conversion): in a run, every file an asset step writes is loaded next
    by its check step and by the downstream steps, so none of them decodes Parquet again.
    """

    def __init__(self) -> None:
        self._frames: OrderedDict[str, tuple[tuple[int, int, int], int, pd.DataFrame | pa.Table]] = OrderedDict()
        self._bytes = 0

    @staticmethod
    def _limit() -> int:
        return int(settings.operations_settings().io_cache_mb * 1_000_000)

    def read(self, path: UPath | str) -> pd.DataFrame:
        return self.read_with_ident(path)[0]

    def read_with_ident(self, path: UPath | str) -> tuple[pd.DataFrame, tuple[int, int, int] | None]:
        """The frame and the identity of the file it came from (None: not a local file, or the cache is off)."""
        path = as_upath(path)
        limit = self._limit()
        if limit <= 0 or not is_local(path):
            return parquet_files.read_parquet(path), None
        name = os.fspath(path)
        st = os.stat(name)  # FileNotFoundError as before
        ident = (st.st_ino, st.st_mtime_ns, st.st_size)
        hit = self._frames.get(name)
        if hit is not None and hit[0] == ident:
            self._frames.move_to_end(name)
            cached = hit[2]
            if isinstance(cached, pa.Table):  # written in this process, not read yet
                cached = table_to_frame(cached)
                self._frames[name] = (ident, hit[1], cached)
            return cached.copy(deep=False), ident
        frame, nbytes = parquet_files._read_parquet_sized(path)  # one place to count reads (tests)
        self._store(name, ident, nbytes, frame.copy(deep=False), limit)
        return frame, ident

    def put(self, name: str, ident: tuple[int, int, int], table: pa.Table) -> None:
        """``table`` is what the file ``name`` with identity ``ident`` holds (this process just wrote it)."""
        limit = self._limit()
        if limit > 0:
            self._store(name, ident, table.nbytes, table, limit)

    def _store(
        self, name: str, ident: tuple[int, int, int], nbytes: int, value: pd.DataFrame | pa.Table, limit: int
    ) -> None:
        """Keep ``value`` under ``name`` (``limit``: the byte bound its caller just read from the settings)."""
        old = self._frames.pop(name, None)
        if old is not None:
            self._bytes -= old[1]
        if nbytes <= limit // 4:
            self._frames[name] = (ident, nbytes, value)
            self._bytes += nbytes
            while self._bytes > limit and self._frames:
                _, (_, n, _) = self._frames.popitem(last=False)
                self._bytes -= n


_READ_CACHE = _ReadCache()


def _is_check_step(context: InputContext) -> bool:
    try:
        return bool(context.step_context.is_asset_check_step)
    except Exception:  # no step (a direct load_input call) or another Dagster: load as usual
        return False
