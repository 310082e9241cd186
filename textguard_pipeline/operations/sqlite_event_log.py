"""Event-log storage for the default (SQLite) instance, tuned for multi-partition backfills.

Stock ``SqliteEventLogStorage`` keeps one database per run (``history/runs/<run_id>.db``) plus an
index shard (``history/runs/index.db``) that mirrors asset, asset-check and run-status events. For
every single event it builds a new SQLAlchemy engine, opens the file, runs one transaction and
throws the engine away; an asset event does that twice (run shard, then index shard), and every
dynamic-partition lookup first opens yet another engine to ask whether the partitions table exists.
A backfill of N documents over the eight assets stores ≈ 16·N asset events, so that open/close
work was most of Dagster's cost per document on the default instance.

:class:`BatchedSqliteEventLogStorage` keeps the files, schema, queries and every behaviour of the
stock class (it *is* a ``SqliteEventLogStorage``: an existing ``DAGSTER_HOME`` reads the same
way) and changes four things:

* **one engine per shard and process**, each keeping its connection open (a small pool; at most
  ``max_open_shards`` run shards stay open, least recently used closed first). A process forked
  after the engines were made (multiprocess executor, celery prefork) drops them without closing
  its parent's file handles and opens its own;
* every connection runs in **WAL** mode with a **busy timeout** (``busy_timeout_seconds``) and
  ``synchronous=NORMAL`` (configurable): readers never block the writer, and writers from
  several processes wait for each other instead of failing. WAL with NORMAL survives a crash of
  any process; a power cut can lose the last transactions but never corrupts the file;
* **batched writes**: Dagster's event batching is switched on in the process that uses the
  storage (``DAGSTER_EVENT_BATCH_SIZE``, from ``event_batch_size``, default 100; an explicit
  environment value wins, ``0`` turns it off), and a batch is one transaction on the run shard
  and one on the index shard (the events keep their order, so the index assigns the same
  relative ids as stock storage);
* schema probes (``has_table``) remember a positive answer instead of opening an engine per call.

Instance creation is untouched: the index shard is created and stamped by the stock code (with its
own retry on concurrent creation), so a migrate-once lock taken around the first instance of a
``DAGSTER_HOME`` covers this class exactly as it covers the stock one.

Configure it in ``dagster.yaml`` (``base_dir`` is optional: by default the stock location,
``$DAGSTER_HOME/history/runs``, taken from the instance, so an existing home keeps its history)::

    event_log_storage:
      module: textguard_pipeline.operations.sqlite_event_log
      class: BatchedSqliteEventLogStorage
"""

from __future__ import annotations

import os
import sqlite3
import threading
import uuid
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

import sqlalchemy as db
from dagster import Field, StringSource
from dagster._core.events import ASSET_CHECK_EVENTS, ASSET_EVENTS, EVENT_TYPE_TO_PIPELINE_RUN_STATUS
from dagster._core.events.log import EventLogEntry
from dagster._core.storage.event_log.schema import (
    AssetKeyTable,
    DynamicPartitionsTable,
    SqlEventLogStorageMetadata,
    SqlEventLogStorageTable,
)
from dagster._core.storage.event_log.sqlite.sqlite_event_log import (
    INDEX_SHARD_NAME,
    SqliteEventLogStorage,
    SqliteEventLogStorageWatchdog,
)
from dagster._core.storage.sqlite import SQLITE_BUSY_TIMEOUT_SECONDS
from dagster._serdes import ConfigurableClassData
from sqlalchemy import exc as db_exc
from sqlalchemy.engine import Connection, Engine
from watchdog.observers import Observer

from .. import settings

SYNCHRONOUS_MODES = ("OFF", "NORMAL", "FULL", "EXTRA")


class BatchedSqliteEventLogStorage(SqliteEventLogStorage):
    """``SqliteEventLogStorage`` with per-process engines, WAL + busy timeout and batched writes."""

    def __init__(
        self,
        base_dir: str | None = None,
        inst_data: ConfigurableClassData | None = None,
        event_batch_size: int = 100,
        busy_timeout_seconds: int = SQLITE_BUSY_TIMEOUT_SECONDS,
        synchronous: str = "NORMAL",
        max_open_shards: int = 8,
    ):
        if synchronous.upper() not in SYNCHRONOUS_MODES:
            raise ValueError(f"synchronous={synchronous!r}: expected one of {', '.join(SYNCHRONOUS_MODES)}")
        self._tg_inst_data = inst_data
        self._tg_busy_timeout = max(1, int(busy_timeout_seconds))
        self._tg_synchronous = synchronous.upper()
        self._tg_max_open = max(1, int(max_open_shards))
        self._tg_engines: OrderedDict[str, Engine] = OrderedDict()
        self._tg_pid = os.getpid()
        self._tg_tables: set[str] = set()
        self._tg_asset_key_cols: set[str] = set()
        self._tg_partitions: dict[str, tuple[tuple, tuple[str, ...]]] = {}
        self._tg_started = False
        if event_batch_size > 0:
            settings.default_dagster_event_batch_size(event_batch_size)
        if base_dir is not None:
            self._tg_start(base_dir)

    def _tg_start(self, base_dir: str) -> None:
        self._tg_started = True
        super().__init__(base_dir, inst_data=self._tg_inst_data)

    def register_instance(self, instance) -> None:
        # Without base_dir: the stock default location under the instance's home (what Dagster gives
        # SqliteEventLogStorage when dagster.yaml names no storage), known only once the instance exists.
        if not self._tg_started:
            self._tg_start(os.path.join(instance.root_directory, "history", "runs"))
        super().register_instance(instance)

    @classmethod
    def config_type(cls):
        return {
            "base_dir": Field(
                StringSource,
                is_required=False,
                description="Directory of the run shards; default $DAGSTER_HOME/history/runs.",
            ),
            "event_batch_size": Field(
                int,
                is_required=False,
                default_value=100,
                description="DAGSTER_EVENT_BATCH_SIZE when the environment does not set it; 0 = off.",
            ),
            "busy_timeout_seconds": Field(
                int,
                is_required=False,
                default_value=SQLITE_BUSY_TIMEOUT_SECONDS,
                description="How long a writer waits for another process's write.",
            ),
            "synchronous": Field(
                str,
                is_required=False,
                default_value="NORMAL",
                description="PRAGMA synchronous (WAL + NORMAL: crash-safe, fsync at checkpoints).",
            ),
            "max_open_shards": Field(
                int,
                is_required=False,
                default_value=8,
                description="Run shards kept open per process (least recently used closed).",
            ),
        }

    @classmethod
    def from_config_value(cls, inst_data: ConfigurableClassData | None, config_value):
        return cls(inst_data=inst_data, **dict(config_value))

    @property
    def inst_data(self) -> ConfigurableClassData | None:
        return self._tg_inst_data

    # -- engines: one per shard and process ---------------------------------------------------------

    def _tg_engine(self, shard: str) -> Engine:
        if self._tg_pid != os.getpid():
            # Forked: the parent's connections belong to the parent (SQLAlchemy's fork pattern: drop,
            # do not close). The lock may have been copied while held by another thread: replace it.
            for engine in self._tg_engines.values():
                engine.dispose(close=False)
            self._tg_engines.clear()
            self._tg_pid = os.getpid()
            self._db_lock = threading.Lock()
        engine = self._tg_engines.get(shard)
        if engine is not None:
            self._tg_engines.move_to_end(shard)
            return engine
        engine = db.create_engine(
            self.conn_string_for_shard(shard),
            pool_size=1,
            max_overflow=2,
            pool_pre_ping=False,
            connect_args={"timeout": self._tg_busy_timeout, "check_same_thread": False},
        )
        db.event.listen(engine, "connect", self._tg_on_connect)
        self._tg_engines[shard] = engine
        run_shards = [s for s in self._tg_engines if s != INDEX_SHARD_NAME]
        while len(run_shards) > self._tg_max_open:
            self._tg_engines.pop(run_shards.pop(0)).dispose()
        return engine

    def _tg_on_connect(self, dbapi_conn, _record) -> None:
        cur = dbapi_conn.cursor()
        try:
            cur.execute(f"PRAGMA busy_timeout = {self._tg_busy_timeout * 1000}")
            try:
                cur.execute("PRAGMA journal_mode = WAL")  # persistent; stock sets it when creating a shard
            except Exception:  # another process holds an old rollback-journal file: keep its mode
                pass
            cur.execute(f"PRAGMA synchronous = {self._tg_synchronous}")
        finally:
            cur.close()

    @contextmanager
    def _connect(self, shard: str) -> Iterator[Connection]:
        with self._db_lock:
            engine = self._tg_engine(shard)
            if shard not in self._initialized_dbs:
                self._initdb(engine)
                self._initialized_dbs.add(shard)
            with engine.connect() as conn, conn.begin():
                yield conn

    def has_table(self, table_name: str) -> bool:
        # Migrations only ever add tables: a "yes" is remembered, a "no" asked again.
        if table_name in self._tg_tables:
            return True
        # Without _db_lock, as stock: Dagster asks while it holds an index connection (the pool lends a second one).
        engine = self._tg_engine(INDEX_SHARD_NAME)
        with engine.connect() as conn:
            found = bool(engine.dialect.has_table(conn, table_name))
        if found:
            self._tg_tables.add(table_name)
        return found

    def _has_asset_key_col_on_connection(self, conn: Connection, column_name: str) -> bool:
        # Stock reflects the asset_keys table for every asset event (2,000 reflections to plan a backfill
        # of 1,000 documents over two assets). Migrations only add columns: a "yes" is remembered.
        if column_name in self._tg_asset_key_cols:
            return True
        found = super()._has_asset_key_col_on_connection(conn, column_name)
        if found:
            self._tg_asset_key_cols.add(column_name)
        return found

    # -- new run shards: the stock schema and stamp, without loading the migration scripts each time -----
    # Stock ``_initdb`` builds alembic's script directory (every migration module) twice per new run
    # shard: ≈ 0.2–0.5 s a run, paid for every run a backfill plans. The first shard of a process goes
    # through it; its alembic_version table (DDL and revision) is remembered and written as is into
    # the next new shards, after the same ``create_all``. Any error falls back to the stock path.

    def _initdb(self, engine: Engine, for_index_shard: bool = False) -> None:
        if for_index_shard:
            return super()._initdb(engine, for_index_shard=True)
        with engine.connect() as conn:
            if _alembic_revision(conn):
                return  # an existing shard: stock does nothing either
        stamp = _STAMP.get("run-shard")
        if stamp is not None:
            try:
                SqlEventLogStorageMetadata.create_all(engine)
                with engine.connect() as conn, conn.begin():
                    conn.execute(db.text(stamp[0]))
                    conn.execute(db.text("INSERT INTO alembic_version (version_num) VALUES (:v)"), {"v": stamp[1]})
                return
            except (db_exc.DatabaseError, sqlite3.DatabaseError):  # a concurrent creator: let stock sort it out
                pass
        super()._initdb(engine)
        with engine.connect() as conn:
            revision = _alembic_revision(conn)
            ddl = conn.execute(
                db.text("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'alembic_version'")
            ).scalar()
        if revision and ddl:
            _STAMP["run-shard"] = (str(ddl), str(revision))

    # -- dynamic partitions: the list once, then a cheap "changed?" probe ----------------------------
    # Dagster reads every key of the `documents` partitions for each input and output context of a
    # step (to turn a key range into a subset): 100,000 rows several times per step. The list is kept
    # per process with a stamp (row count, highest id) that changes with every add and delete; a call
    # whose stamp matches returns the kept list instead of reading every row again. SQLite reuses the
    # highest id after a delete, so every add and delete also renews a generation file next to index.db
    # (every process of a home uses this class: they share dagster.yaml).

    def _tg_generation_path(self) -> str:
        return os.path.join(self._base_dir, ".textguard-partitions-generation")

    def _tg_generation(self) -> str:
        try:
            with open(self._tg_generation_path(), encoding="ascii") as fh:
                return fh.read()
        except FileNotFoundError:
            return ""

    def _tg_bump_generation(self) -> None:
        path = self._tg_generation_path()
        tmp = f"{path}.{os.getpid()}.{uuid.uuid4().hex}"
        with open(tmp, "w", encoding="ascii") as fh:
            fh.write(uuid.uuid4().hex)
        os.replace(tmp, path)

    def add_dynamic_partitions(self, partitions_def_name: str, partition_keys: Sequence[str]) -> None:
        try:
            super().add_dynamic_partitions(partitions_def_name, partition_keys)
        finally:
            self._tg_bump_generation()

    def delete_dynamic_partition(self, partitions_def_name: str, partition_key: str) -> None:
        try:
            super().delete_dynamic_partition(partitions_def_name, partition_key)
        finally:
            self._tg_bump_generation()

    def get_dynamic_partitions(self, partitions_def_name: str) -> Sequence[str]:
        self._check_partitions_table()
        table = DynamicPartitionsTable
        probe = db.select(db.func.count(), db.func.max(table.c.id)).where(
            table.c.partitions_def_name == partitions_def_name
        )
        with self.index_connection() as conn:
            stamp = (*conn.execute(probe).fetchone(), self._tg_generation())
        kept = self._tg_partitions.get(partitions_def_name)
        if kept is not None and kept[0] == stamp:
            return list(kept[1])
        keys = super().get_dynamic_partitions(partitions_def_name)
        # read after the stamp: a concurrent add makes the next stamp differ, so the list is read again
        self._tg_partitions[partitions_def_name] = (stamp, tuple(keys))
        return keys

    # -- batched writes ---------------------------------------------------------------------------

    def store_event_batch(self, events: Sequence[EventLogEntry]) -> None:
        """The stock per-event writes of ``store_event``, grouped: one transaction per run shard,
        one on the index shard (same order, so the same relative ids), then the check rows.

        Each event is serialized once for both shards (stock: once per shard), and each shard gets one
        compiled INSERT run over all its rows (the index's returns the new ids in the rows' order)."""
        rows = [self._event_to_row(e) for e in events]
        by_run: dict[str, list[dict]] = {}
        for event, row in zip(events, rows):
            by_run.setdefault(event.run_id, []).append(row)
        for run_id, run_rows in by_run.items():
            with self.run_connection(run_id) as conn:
                conn.execute(SqlEventLogStorageTable.insert(), run_rows)

        mirrored = [
            (e, row)
            for e, row in zip(events, rows)
            if e.is_dagster_event
            and (
                e.dagster_event_type in ASSET_EVENTS
                or e.dagster_event_type in ASSET_CHECK_EVENTS
                or e.dagster_event_type in EVENT_TYPE_TO_PIPELINE_RUN_STATUS
            )
        ]
        if not mirrored:
            return
        asset_rows: list[tuple[EventLogEntry, int]] = []
        check_rows: list[tuple[EventLogEntry, int]] = []
        insert = SqlEventLogStorageTable.insert().returning(SqlEventLogStorageTable.c.id, sort_by_parameter_order=True)
        with self.index_transaction() as conn:
            ids = [r[0] for r in conn.execute(insert, [row for _, row in mirrored])]
            for (event, _), event_id in zip(mirrored, ids, strict=True):
                if event.dagster_event_type in ASSET_EVENTS:
                    asset_rows.append((event, event_id))
                elif event.dagster_event_type in ASSET_CHECK_EVENTS:
                    check_rows.append((event, event_id))
            if asset_rows:
                self._store_asset_event_tags(conn, [e for e, _ in asset_rows], [i for _, i in asset_rows])
                self._tg_store_asset_keys(conn, asset_rows)
        for event, event_id in check_rows:
            self.store_asset_check_event(event, event_id)

    def _tg_store_asset_keys(self, conn: Connection, rows: list[tuple[EventLogEntry, int]]) -> None:
        """Stock ``_store_asset_event`` for each row, as one upsert per asset key: each stock upsert sets
        only its event's columns, so applying the batch's values in order and writing once per key leaves
        the same row (2,000 upserts → 2 for a 1,000-document plan of two assets)."""
        has_index_cols = self._has_asset_key_index_cols_on_connection(conn)
        merged: dict[str, dict] = {}
        for event, event_id in rows:
            if not (event.dagster_event and event.dagster_event.asset_key):
                continue
            values = self._get_asset_entry_values(event, event_id, has_index_cols)
            if values:
                merged.setdefault(event.dagster_event.asset_key.to_string(), {}).update(values)
        for key, values in merged.items():
            try:
                conn.execute(AssetKeyTable.insert().values(asset_key=key, **values))
            except db_exc.IntegrityError:
                conn.execute(AssetKeyTable.update().values(**values).where(AssetKeyTable.c.asset_key == key))

    def dispose(self) -> None:
        super().dispose()
        if self._tg_pid == os.getpid():
            for engine in self._tg_engines.values():
                engine.dispose()
        self._tg_engines.clear()

    # -- live watching (the UI's run page) ----------------------------------------------------------
    # Stock connections close after every event, so SQLite checkpoints the WAL into ``<run>.db`` at
    # once and the file watcher sees ``<run>.db`` change. Ours stay open: new events land in
    # ``<run>.db-wal`` until a checkpoint, so the watcher listens to both files.

    def watch(self, run_id: str, cursor: str | None, callback) -> None:
        if not self._obs:
            self._obs = Observer()
            self._obs.start()
        watchdog = _WalAwareWatchdog(self, run_id, callback, cursor)
        self._watchers[run_id][callback] = (watchdog, self._obs.schedule(watchdog, self._base_dir, recursive=True))


#: per process: the alembic_version DDL and revision of a run shard stamped by the stock code
_STAMP: dict[str, tuple[str, str]] = {}


def _alembic_revision(conn: Connection) -> str | None:
    try:
        return conn.execute(db.text("SELECT version_num FROM alembic_version")).scalar()
    except db_exc.OperationalError as exc:
        if "no such table" in str(exc):  # a new shard
            return None
        raise


class _WalAwareWatchdog(SqliteEventLogStorageWatchdog):
    def __init__(self, event_log_storage, run_id: str, callback, cursor: str | None):
        super().__init__(event_log_storage, run_id, callback, cursor)
        path = event_log_storage.path_for_shard(run_id)
        self._patterns = [path, path + "-wal"]

    def on_modified(self, event) -> None:
        self._process_log()
