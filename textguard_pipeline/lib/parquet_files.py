"""The warehouse's files, Dagster-free: one Parquet file per (asset, document), its path checked, written
atomically (a temporary sibling renamed into place), read back with MAP columns as dicts, stamped with what it was
built from. The IO manager (``defs_kit/io_manager.py``) and Dagster-free readers (``roundtrip/export.py``) share it.
"""

from __future__ import annotations

import json
import os
import posixpath
import unicodedata
import uuid
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
from upath import UPath

from . import written

#: Parquet metadata key of a file's stamp (``{"sha256": …, "code_version": …}``), set from ``frame.attrs``
STAMP_KEY = "textguard.stamp"


#: the longest key in UTF-8 bytes: key + ".parquet" + the temporary-file decoration stays ≤ 255 bytes
MAX_KEY_BYTES = 200


class InvalidPartitionKey(ValueError):
    """A partition key that cannot be a file name inside the warehouse."""


def partition_key_problem(key: Any) -> str | None:
    """Why ``key`` cannot name a Parquet file in the warehouse, or None when it can.

    Refused: empty, ``.``/``..``, a leading dot (reserved for temporary files), path
    separators, control and other invisible format characters, unpaired surrogates,
    more than :data:`MAX_KEY_BYTES` bytes. Other Unicode is allowed.
    """
    if not isinstance(key, str) or not key:
        return "empty partition key"
    if key.startswith("."):
        return "a partition key may not start with '.'"
    if "/" in key or "\\" in key:
        return "a partition key may not contain a path separator"
    bad = next((ch for ch in key if unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp")), None)
    if bad is not None:
        return f"a partition key may not contain the character U+{ord(bad):04X}"
    if len(key.encode("utf-8")) > MAX_KEY_BYTES:
        return f"a partition key may have at most {MAX_KEY_BYTES} bytes in UTF-8"
    return None


def as_upath(path: UPath | str | os.PathLike[str]) -> UPath:
    """``path`` as a UPath; one that already is one is used as is (``UPath(upath)`` copies it, several times per
    document and asset of a backfill)."""
    return path if isinstance(path, UPath) else UPath(path)


def partition_path(base: UPath | str, asset_dir: str, key: str, extension: str = ".parquet") -> UPath:
    """``base/asset_dir/key<extension>``, or InvalidPartitionKey when ``key`` is refused or the path leaves ``base``."""
    problem = partition_key_problem(key)
    if problem:
        raise InvalidPartitionKey(f"partition key {key!r}: {problem}")
    base = as_upath(base)
    path = base / asset_dir / f"{key}{extension}"
    if not _inside(base, path):
        raise InvalidPartitionKey(f"partition key {key!r}: {path} leaves {base}")
    return path


def _inside(base: UPath | str, path: UPath | str) -> bool:
    """Lexically inside (no symlink resolution: a warehouse may itself be a link)."""
    root = posixpath.normpath(str(base)).rstrip("/") + "/"
    return posixpath.normpath(str(path)).startswith(root)


_STR_MAP = pa.map_(pa.string(), pa.string())


#: columns whose Arrow type cannot be inferred from a document that has no value in them (an empty list)
COLUMN_TYPES: dict[str, pa.DataType] = {
    "markup_spans": pa.list_(pa.struct([("start", pa.int64()), ("end", pa.int64()), ("kind", pa.string())])),
}


def frame_to_table(frame: pd.DataFrame) -> pa.Table:
    """Arrow table of a frame; columns of ``dict[str, str]`` become Parquet MAPs."""
    arrays, names = [], []
    for name in frame.columns:
        col = frame[name]
        sample = next((v for v in col if v is not None), None) if col.dtype == object else None
        if name in COLUMN_TYPES:
            arrays.append(pa.array(col.tolist(), type=COLUMN_TYPES[name]))
        elif isinstance(sample, dict):
            arrays.append(pa.array([None if v is None else list(v.items()) for v in col], type=_STR_MAP))
        else:
            arrays.append(pa.Array.from_pandas(col))
        names.append(str(name))
    table = pa.Table.from_arrays(arrays, names=names)
    stamp = frame.attrs.get(STAMP_KEY)
    if stamp:
        table = table.replace_schema_metadata({**(table.schema.metadata or {}), STAMP_KEY: json.dumps(stamp)})
    return table


def read_parquet(path: UPath | str) -> pd.DataFrame:
    """Read one file back; MAP columns come back as dicts."""
    return _read_parquet_sized(path)[0]


def _read_parquet_sized(path: UPath | str) -> tuple[pd.DataFrame, int]:
    with as_upath(path).open("rb") as fh:
        table = pq.read_table(fh)
    return table_to_frame(table), table.nbytes


def table_to_frame(table: pa.Table) -> pd.DataFrame:
    """The frame of an Arrow table as a read gives it: MAP columns become dicts."""
    # A document's table (≈ 1 ms to convert) is converted faster in one thread: the pool cost ≈ 28 % more on
    # the sample documents' tables. A large one still uses the pool.
    frame = table.to_pandas(use_threads=table.num_rows >= 50_000)
    for field in table.schema:
        if pa.types.is_map(field.type):
            frame[field.name] = [None if v is None else dict(v) for v in frame[field.name]]
    return frame


def is_local(path: UPath | str) -> bool:
    """Whether ``path`` (a UPath) is on the local file system (a plain string is)."""
    return getattr(path, "protocol", "") in ("", "file", "local")


def write_parquet_atomic(frame: pd.DataFrame, path: UPath | str) -> tuple[pa.Table, tuple[int, int, int] | None]:
    """Write to a temporary sibling, then rename: readers never see half a file.

    Returns the Arrow table written and, for a local file, the identity it got (inode, mtime, size), taken
    from the temporary file before the rename: a rename keeps both, and a writer that replaces the file
    afterwards gives it another inode, so the identity never names someone else's file."""
    path = as_upath(path)
    table = written.stamp(frame_to_table(frame), path)
    # The writer's pid in the name lets a sweep tell an orphan (writer killed) from a file being written.
    tmp = path.with_name(f".{path.name}.{os.getpid()}-{uuid.uuid4().hex}.tmp")
    if is_local(path):
        local_tmp, local_path = os.fspath(tmp), os.fspath(path)
        os.makedirs(os.path.dirname(local_path), exist_ok=True)
        try:
            with open(local_tmp, "wb") as fh:
                pq.write_table(table, fh)
                fh.flush()
                os.fsync(fh.fileno())  # the bytes are on disk before the name points at them
            st = os.stat(local_tmp)
            os.replace(local_tmp, local_path)
            _fsync_dir(os.path.dirname(local_path))  # and the rename itself survives a power loss
        finally:
            if os.path.exists(local_tmp):
                os.unlink(local_tmp)
        return table, (st.st_ino, st.st_mtime_ns, st.st_size)
    # Object stores commit a PUT whole; the temp name still keeps listers away.
    with tmp.open("wb") as fh:
        pq.write_table(table, fh)
    tmp.rename(path)
    return table, None


def _fsync_dir(directory: str) -> None:
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
