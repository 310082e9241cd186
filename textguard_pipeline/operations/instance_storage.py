"""Event-log storage for the PostgreSQL instance, tuned for multi-partition backfills.

A backfill of N documents over the eight assets stores ≈ 16·N asset events (one
``ASSET_MATERIALIZATION_PLANNED`` and one ``ASSET_MATERIALIZATION`` per asset and document).
Stock ``PostgresEventLogStorage`` opens a new server connection for every one of them
(``NullPool``: a TCP handshake, authentication and a forked backend each time) and stores
planned events one by one. Measured with ``make bench``, that was Dagster's whole overhead
per document. :class:`PooledPostgresEventLogStorage` keeps the schema, the queries and
every behaviour of the stock class and changes four things:

* a small connection pool per process (``pool_size``, ``max_overflow``; pre-ping and
  recycle guard against dropped connections; a forked child never reuses its parent's
  sockets);
* Dagster's own event batching is switched on in the process that uses the storage
  (``DAGSTER_EVENT_BATCH_SIZE``, default ``event_batch_size: 100``; an explicit environment
  value wins, ``0`` turns it off): a step's per-partition materializations are written as
  one multi-row insert (stock dagster-postgres code path);
* a batch of planned events is one multi-row insert too, and the asset-key row is updated
  once per asset with the last event of the batch (what the stock batch path does for
  materializations; the row only holds the last run id and timestamp);
* schema probes (does the dynamic-partitions table exist, does the asset-key table have a column)
  remember a positive answer instead of querying the catalog on every call.

Configure it in ``dagster.yaml`` as ``event_log_storage`` (see ``deploy/postgres/dagster.yaml``);
it accepts the stock ``postgres_db``/``postgres_url`` config plus the fields above.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

from dagster import Field
from dagster._core.events import DagsterEventType
from dagster._core.events.log import EventLogEntry
from dagster._core.storage.event_log.schema import SqlEventLogStorageTable
from dagster._serdes import ConfigurableClassData
from dagster_postgres.event_log import PostgresEventLogStorage
from dagster_postgres.run_storage import PostgresRunStorage
from dagster_postgres.utils import create_pg_engine, get_token_provider_from_config, pg_config, pg_url_from_config

from .. import settings


class _PooledEngine:
    """The ``_engine`` of a dagster-postgres storage as a per-process pool.

    The engine is read through this property everywhere in the parent classes: a process forked after the
    pool was created (multiprocess executor, celery prefork) gets a fresh pool instead of sharing the
    parent's sockets (SQLAlchemy's documented fork pattern)."""

    def _pool(self, pool_size: int, max_overflow: int, pool_recycle: int) -> None:
        self._engine = create_pg_engine(
            self.postgres_url,
            self._token_provider,
            isolation_level="AUTOCOMMIT",
            pool_pre_ping=True,
            pool_size=pool_size,
            max_overflow=max_overflow,
            pool_recycle=pool_recycle,
        )

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


class PooledPostgresEventLogStorage(_PooledEngine, PostgresEventLogStorage):
    """``PostgresEventLogStorage`` with a per-process connection pool and batched asset events."""

    def __init__(
        self,
        postgres_url: str,
        should_autocreate_tables: bool = True,
        inst_data: ConfigurableClassData | None = None,
        token_provider: Any = None,
        pool_size: int = 2,
        max_overflow: int = 4,
        pool_recycle: int = 3600,
        event_batch_size: int = 100,
    ):
        super().__init__(postgres_url, should_autocreate_tables, inst_data, token_provider)
        self._pool(pool_size, max_overflow, pool_recycle)
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
            postgres_url=pg_url_from_config(config_value),
            should_autocreate_tables=config_value.get("should_autocreate_tables", True),
            token_provider=get_token_provider_from_config(config_value),
            pool_size=config_value.get("pool_size", 2),
            max_overflow=config_value.get("max_overflow", 4),
            pool_recycle=config_value.get("pool_recycle", 3600),
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
        super().__init__(postgres_url, should_autocreate_tables, inst_data, token_provider)
        self._pool(pool_size, max_overflow, pool_recycle)

    @classmethod
    def config_type(cls):
        return {**pg_config(), **_pool_config()}

    @classmethod
    def from_config_value(cls, inst_data: ConfigurableClassData | None, config_value: Mapping[str, Any]):
        return cls(
            inst_data=inst_data,
            postgres_url=pg_url_from_config(config_value),
            should_autocreate_tables=config_value.get("should_autocreate_tables", True),
            token_provider=get_token_provider_from_config(config_value),
            pool_size=config_value.get("pool_size", 2),
            max_overflow=config_value.get("max_overflow", 4),
            pool_recycle=config_value.get("pool_recycle", 3600),
        )


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
