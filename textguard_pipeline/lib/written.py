"""Which warehouse files textguard wrote: each Parquet file carries key metadata naming the asset directory and
file it was written as, so ``textguard prune`` never removes a file it did not write (an asset folder may be a
link to a shared directory). Dagster-free."""

from __future__ import annotations

import os
from pathlib import PurePath

import pyarrow as pa
import pyarrow.parquet as pq

#: Parquet key metadata: ``<asset dir>/<file name>`` as written
WRITTEN_AS = b"textguard.written_as"


def written_as(path) -> str:
    """``<asset dir>/<file name>`` of a path (a str, a Path or a UPath of any store)."""
    p = path if isinstance(path, PurePath) or hasattr(path, "parent") else PurePath(os.fspath(path))
    return f"{p.parent.name}/{p.name}"


def stamp(table: pa.Table, path) -> pa.Table:
    """``table`` with the key metadata saying textguard wrote it as ``path``."""
    return table.replace_schema_metadata({**(table.schema.metadata or {}), WRITTEN_AS: written_as(path).encode()})


def written_by_textguard(path: str | os.PathLike[str]) -> bool:
    """True when the Parquet file at ``path`` says textguard wrote it there (reads the footer only)."""
    try:
        meta = pq.read_schema(path).metadata or {}
    except (OSError, pa.ArrowException):  # unreadable, not Parquet, torn: not provably ours
        return False
    return meta.get(WRITTEN_AS, b"").decode("utf-8", "replace") == written_as(path)
