"""Event-log and run storages for the PostgreSQL instance, tuned for multi-partition backfills.

A backfill of N documents over the eight assets stores ≈ 16·N asset events (one
``ASSET_MATERIALIZATION_PLANNED`` and one ``ASSET_MATERIALIZATION`` per asset and document).
Stock ``PostgresEventLogStorage`` opens a new server connection for every one of them
(``NullPool``: a TCP handshake, authentication and a forked backend each time) and stores
planned events one by one. Measured with ``make bench``, that was Dagster's whole overhead
per document. :class:`PooledPostgresEventLogStorage` keeps the schema, the queries and
every behaviour of the stock class and changes these things:

* a small connection pool per process (``pool_size``, ``max_overflow``; a connection idle for more
  than :data:`IDLE_PING_SECONDS` is pinged before use and ``pool_recycle`` replaces old ones, against
  dropped connections; a forked child never reuses its parent's sockets);
* Dagster's own event batching is switched on in the process that uses the storage
  (``DAGSTER_EVENT_BATCH_SIZE``, default ``event_batch_size: 100``; an explicit environment
  value wins, ``0`` turns it off): a step's per-partition materializations are written as
  one multi-row insert (stock dagster-postgres code path);
* a batch of planned events is one multi-row insert too, and the asset-key row is updated
  once per asset with the last event of the batch (what the stock batch path does for
  materializations; the row only holds the last run id and timestamp);
* an event that is not batched is inserted and NOTIFYed in one statement (stock: two round trips);
* schema probes (does the dynamic-partitions table exist, does the asset-key table have a column)
  remember a positive answer instead of querying the catalog on every call.

:class:`PooledPostgresRunStorage` is the stock run storage with the same per-process pool.
Configure them in ``dagster.yaml`` as ``event_log_storage`` and ``run_storage`` (see
``deploy/postgres/dagster.yaml``); they accept the stock ``postgres_db``/``postgres_url`` config plus
the fields above.
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping, Sequence
from typing import Any

import dagster._check as check
import sqlalchemy as db
from dagster import Field
from dagster._core.events import ASSET_CHECK_EVENTS, ASSET_EVENTS, DagsterEventType
from dagster._core.events.log import EventLogEntry
from dagster._core.storage.event_log.schema import SqlEventLogStorageTable
from dagster._serdes import ConfigurableClassData
from dagster_postgres.event_log import PostgresEventLogStorage
from dagster_postgres.event_log.event_log import CHANNEL_NAME
from dagster_postgres.run_storage import PostgresRunStorage
from dagster_postgres.utils import create_pg_engine, get_token_provider_from_config, pg_config, pg_url_from_config
from sqlalchemy import event as sa_event
from sqlalchemy import exc as sa_exc

from .. import settings


class _PooledEngine:
    """The ``_engine`` of a dagster-postgres storage as a per-process pool.

    The engine is read through this property everywhere in the parent classes: a process forked after the
    pool was created (multiprocess executor, celery prefork) gets a fresh pool instead of sharing the
    parent's sockets (SQLAlchemy's documented fork pattern)."""

    def __init__(
        self,
        postgres_url: str,
        should_autocreate_tables: bool = True,
        inst_data: ConfigurableClassData | None = None,
        token_provider: Any = None,
        pool_size: int = 2,
        max_overflow: int = 4,
        pool_recycle: int = 3600,
    ):
        # the stock storage's constructor (it builds a NullPool engine), then the pool replaces that engine
        super().__init__(postgres_url, should_autocreate_tables, inst_data, token_provider)  # type: ignore[call-arg]
        self._pool(pool_size, max_overflow, pool_recycle)

    def _pool(self, pool_size: int, max_overflow: int, pool_recycle: int) -> None:
        engine = create_pg_engine(
            self.postgres_url,
            self._token_provider,
            isolation_level="AUTOCOMMIT",
            pool_size=pool_size,
            max_overflow=max_overflow,
            pool_recycle=pool_recycle,
        )
        _ping_when_idle(engine)
        self._engine = engine

    @property
    def _engine(self):
        engine = self.__dict__["_tg_engine"]
        if self.__dict__.get("_tg_pid") != os.getpid():
            engine.dispose(close=False)
            self.__dict__["_tg_pid"] = os.getpid()
        return engine

    @_engine.setter
    def _engine(self, engine) -> None:
        # Replaced by our __init__ and by Dagster's optimize_for_webserver: close the old pool.
        previous = self.__dict__.get("_tg_engine")
        self.__dict__["_tg_engine"] = engine
        self.__dict__["_tg_pid"] = os.getpid()
        if previous is not None and previous is not engine:
            previous.dispose()

    def dispose(self) -> None:
        super().dispose()  # type: ignore[misc]
        self.__dict__["_tg_engine"].dispose()


#: a pooled connection unused for longer than this is pinged before it is handed out
IDLE_PING_SECONDS = 2.0


def _ping_when_idle(engine) -> None:
    """Pessimistic disconnect handling for connections that sat idle (SQLAlchemy's documented custom
    checkout ping): a dropped connection is replaced before use. ``pool_pre_ping`` would ping on every
    checkout, ≈ 750 round trips per backfill run, where a connection is checked in and out again within
    milliseconds; a connection idle for seconds (webserver, daemon, the next run) is pinged as before."""

    @sa_event.listens_for(engine, "checkin")
    def _checkin(dbapi_connection, record) -> None:
        record.info["tg_idle_since"] = time.monotonic()

    @sa_event.listens_for(engine, "checkout")
    def _checkout(dbapi_connection, record, proxy) -> None:
        since = record.info.get("tg_idle_since")
        if since is None or time.monotonic() - since <= IDLE_PING_SECONDS:
            return  # new (just connected) or in use a moment ago
        try:
            with dbapi_connection.cursor() as cur:
                cur.execute("SELECT 1")
        except Exception as exc:
            raise sa_exc.DisconnectionError() from exc  # the pool discards it and connects again


class PooledPostgresEventLogStorage(_PooledEngine, PostgresEventLogStorage):
    """``PostgresEventLogStorage`` with a per-process connection pool and batched asset events."""

    def __init__(self, *args: Any, event_batch_size: int = 100, **kwargs: Any):
        super().__init__(*args, **kwargs)
        if event_batch_size > 0:
            settings.default_dagster_event_batch_size(event_batch_size)

    @classmethod
    def config_type(cls):
        return {
            **pg_config(),
            **_pool_config(),
            "event_batch_size": Field(
                int,
                is_required=False,
                default_value=100,
                description="DAGSTER_EVENT_BATCH_SIZE when the environment does not set it; 0 = off.",
            ),
        }

    @classmethod
    def from_config_value(cls, inst_data: ConfigurableClassData | None, config_value: Mapping[str, Any]):
        return cls(
            inst_data=inst_data,
            **_storage_args(config_value),
            event_batch_size=config_value.get("event_batch_size", 100),
        )

    # Schema probes. Stock code asks PostgreSQL's catalog on every call: has_table("dynamic_partitions")
    # before each partition lookup (≈ 110 per run), the asset-key columns before each asset event.
    # Migrations only ever add tables and columns, so a "yes" is remembered; a "no" is asked again.
    def has_table(self, table_name: str) -> bool:
        present = self.__dict__.setdefault("_tg_tables", set())
        if table_name in present:
            return True
        if super().has_table(table_name):
            present.add(table_name)
            return True
        return False

    def _has_asset_key_col_on_connection(self, conn, column_name: str) -> bool:
        present = self.__dict__.setdefault("_tg_asset_key_cols", set())
        if column_name in present:
            return True
        if super()._has_asset_key_col_on_connection(conn, column_name):
            present.add(column_name)
            return True
        return False

    def store_event(self, event: EventLogEntry) -> None:
        """The stock method with its INSERT and its NOTIFY (kept for older webservers) in one statement:
        one round trip per event instead of two (≈ 240 events per run are not batched: step, input,
        output and check events)."""
        check.inst_param(event, "event", EventLogEntry)
        table = SqlEventLogStorageTable
        ins = self.prepare_insert_event(event).returning(table.c.run_id, table.c.id).cte("ins")
        notify = db.func.pg_notify(CHANNEL_NAME, ins.c.run_id + "_" + db.cast(ins.c.id, db.Text))
        with self._connect() as conn:
            row = conn.execute(db.select(ins.c.id, notify)).fetchone()
        event_id = int(row[0])
        if event.is_dagster_event and event.dagster_event_type in ASSET_EVENTS and event.dagster_event.asset_key:
            with self.index_transaction() as conn:
                self._store_asset_event_tags(conn, [event], [event_id])
                self._store_asset_event(conn, event, event_id)
        if event.is_dagster_event and event.dagster_event_type in ASSET_CHECK_EVENTS:
            self.store_asset_check_event(event, event_id)

    def store_event_batch(self, events: Sequence[EventLogEntry]) -> None:
        planned = [e for e in events if e.dagster_event_type == DagsterEventType.ASSET_MATERIALIZATION_PLANNED]
        rest = [e for e in events if e.dagster_event_type != DagsterEventType.ASSET_MATERIALIZATION_PLANNED]
        if len(planned) > 1:
            self._store_planned_batch(planned)
        elif planned:
            rest = events
        if rest:
            super().store_event_batch(rest)

    def _store_planned_batch(self, events: Sequence[EventLogEntry]) -> None:
        with self._connect() as conn:
            result = conn.execute(self.prepare_insert_event_batch(events).returning(SqlEventLogStorageTable.c.id))
            ids = [int(row[0]) for row in result.fetchall()]
        last: dict[Any, tuple[EventLogEntry, int]] = {}
        for event, event_id in zip(events, ids):
            last[event.get_dagster_event().asset_key] = (event, event_id)
        with self.index_transaction() as conn:
            self._store_asset_event_tags(conn, events, ids)
            for event, event_id in last.values():
                self._store_asset_event(conn, event, event_id)


class PooledPostgresRunStorage(_PooledEngine, PostgresRunStorage):
    """``PostgresRunStorage`` with a per-process connection pool: stock code opens a new server connection
    (``NullPool``) for every query, ≈ 70 per run of a backfill (run and step events, tags, snapshots)."""

    @classmethod
    def config_type(cls):
        return {**pg_config(), **_pool_config()}

    @classmethod
    def from_config_value(cls, inst_data: ConfigurableClassData | None, config_value: Mapping[str, Any]):
        return cls(inst_data=inst_data, **_storage_args(config_value))


def _storage_args(config_value: Mapping[str, Any]) -> dict[str, Any]:
    """The constructor arguments both pooled storages read from their config."""
    return {
        "postgres_url": pg_url_from_config(config_value),
        "should_autocreate_tables": config_value.get("should_autocreate_tables", True),
        "token_provider": get_token_provider_from_config(config_value),
        "pool_size": config_value.get("pool_size", 2),
        "max_overflow": config_value.get("max_overflow", 4),
        "pool_recycle": config_value.get("pool_recycle", 3600),
    }


def _pool_config() -> dict[str, Field]:
    return {
        "pool_size": Field(int, is_required=False, default_value=2, description="Connections kept open per process."),
        "max_overflow": Field(
            int, is_required=False, default_value=4, description="Extra connections allowed above pool_size under load."
        ),
        "pool_recycle": Field(
            int,
            is_required=False,
            default_value=3600,
            description="Seconds after which a pooled connection is replaced.",
        ),
    }
