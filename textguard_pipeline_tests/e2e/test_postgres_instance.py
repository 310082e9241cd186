"""deploy/postgres/dagster.yaml against a real throw-away PostgreSQL server on 127.0.0.1."""

import os
from contextlib import contextmanager

import pytest
from dagster import AssetKey, DagsterInstance, DagsterRunStatus
from dagster._core.storage.tags import ASSET_PARTITION_RANGE_END_TAG, ASSET_PARTITION_RANGE_START_TAG

from textguard_pipeline.settings import PROJECT_ROOT
from textguard_pipeline_tests.devservers import with_stock_event_log
from textguard_pipeline_tests.e2e._servers import dagster_home, postgres_server, small_corpus
from textguard_pipeline_tests.forked import in_forked_child

DEPLOY_YAML = PROJECT_ROOT / "deploy" / "postgres" / "dagster.yaml"

pytestmark = pytest.mark.slow


def test_multi_partition_materialization_is_stored_in_postgres(tmp_path, monkeypatch):
    from dagster_postgres import PostgresEventLogStorage, PostgresRunStorage

    from textguard_pipeline.operations.instance_storage import PooledPostgresEventLogStorage, PooledPostgresRunStorage
    from textguard_pipeline.operations.report import materialize_corpus

    monkeypatch.delenv("DAGSTER_EVENT_BATCH_SIZE", raising=False)  # the storage sets it; undone after the test

    docs = small_corpus(tmp_path / "corpus")
    monkeypatch.setenv("TEXTGUARD_CORPUS_DIR", str(tmp_path / "corpus"))
    monkeypatch.setenv("TEXTGUARD_WAREHOUSE", str(tmp_path / "warehouse"))
    home = dagster_home(tmp_path / "home", DEPLOY_YAML)

    with postgres_server() as pg:
        for k, v in pg.env().items():
            monkeypatch.setenv(k, v)
        with DagsterInstance.from_config(str(home)) as instance:
            assert isinstance(instance.run_storage, PooledPostgresRunStorage)
            assert isinstance(instance.run_storage, PostgresRunStorage)
            assert isinstance(instance.event_log_storage, PooledPostgresEventLogStorage)
            assert isinstance(instance.event_log_storage, PostgresEventLogStorage)
            assert os.environ["DAGSTER_EVENT_BATCH_SIZE"] == "100"  # from the yaml's event_batch_size

            res = materialize_corpus(
                instance=instance, batch_size=2, select="source_documents parsed_chunks", log=lambda *_: None
            )
            assert res.ok, (res.step_failures, [o for o in res.failed])
            assert len(res.runs) == (len(docs) + 1) // 2  # several documents per run

            # through the instance API
            runs = instance.get_runs()
            assert {r.run_id for r in runs} == set(res.runs)
            assert all(r.status == DagsterRunStatus.SUCCESS for r in runs)
            assert all(
                ASSET_PARTITION_RANGE_START_TAG in r.tags and ASSET_PARTITION_RANGE_END_TAG in r.tags for r in runs
            )
            mats = instance.fetch_materializations(AssetKey("parsed_chunks"), limit=100).records
            assert sorted(m.partition_key for m in mats) == docs
            assert instance.get_dynamic_partitions("documents") == docs

        # and in the database itself (psql-level), not in some SQLite file
        with pg.connect() as conn, conn.cursor() as cur:
            cur.execute("SELECT count(*) FROM runs WHERE status = 'SUCCESS'")
            assert cur.fetchone()[0] == len(res.runs)
            cur.execute(
                "SELECT count(DISTINCT partition) FROM event_logs "
                "WHERE dagster_event_type = 'ASSET_MATERIALIZATION' AND asset_key = %s",
                (AssetKey("source_documents").to_string(),),
            )
            assert cur.fetchone()[0] == len(docs)
            cur.execute(
                "SELECT check_name, execution_status, count(*) FROM asset_check_executions "
                "GROUP BY check_name, execution_status"
            )
            rows = cur.fetchall()
            by_check = {name: (status, n) for name, status, n in rows}
            assert "source_documents_readable" in by_check and "parsed_chunks_tiling" in by_check, rows
            assert all(status == "SUCCEEDED" for status, _ in by_check.values()), rows
            # one evaluation per multi-partition run and check
            assert by_check["parsed_chunks_tiling"][1] == len(res.runs)
            cur.execute("SELECT partition FROM dynamic_partitions WHERE partitions_def_name = 'documents' ORDER BY id")
            assert [r[0] for r in cur.fetchall()] == docs


ASSETS = ("source_documents", "parsed_chunks")


def _scenario(home, corpus, docs):
    """A multi-partition run over good documents, then one run per document with a bad one added
    (its parsed_chunks run fails). Returns per-partition status and per-partition event counts."""
    from textguard_pipeline.defs_kit.partitions import documents_partitions
    from textguard_pipeline.operations.report import materialize_corpus

    with DagsterInstance.from_config(str(home)) as instance:
        first = materialize_corpus(
            instance=instance, batch_size=len(docs), select=" ".join(ASSETS), log=lambda *_: None
        )
        assert first.ok and len(first.runs) == 1
        (corpus / "zz_bad.txt").write_bytes(b"abc \xff")
        second = materialize_corpus(instance=instance, batch_size=1, select=" ".join(ASSETS), log=lambda *_: None)
        assert len(second.runs) == len(docs) + 1
        keys = instance.get_dynamic_partitions("documents")
        status = {
            a: {
                k: (v.value if v else None)
                for k, v in instance.get_status_by_partition(AssetKey(a), keys, documents_partitions).items()
            }
            for a in ASSETS
        }
        last_runs = {
            r.asset_entry.asset_key.to_user_string(): r.asset_entry.last_run_id
            for r in instance.get_asset_records([AssetKey(a) for a in ASSETS])
        }
        runs_in_order = [r.run_id for r in reversed(instance.get_runs())]
    (corpus / "zz_bad.txt").unlink()
    return status, last_runs, runs_in_order


def _event_counts(pg, db):
    with pg.connect(db) as conn, conn.cursor() as cur:
        cur.execute(
            "SELECT dagster_event_type, asset_key, partition, count(*) FROM event_logs "
            "WHERE asset_key IS NOT NULL GROUP BY 1, 2, 3"
        )
        return {tuple(r[:3]): r[3] for r in cur.fetchall()}


def test_pooled_event_log_keeps_stock_partition_status(tmp_path, monkeypatch):
    """The same runs against dagster-postgres' stock event log and against ours: the same partition
    status (including FAILED for the document whose run failed, which one planned event per run
    would lose), the same per-partition planned/materialization events, the same last run per asset."""
    docs = small_corpus(tmp_path / "corpus")[:3]
    for extra in sorted((tmp_path / "corpus").iterdir())[3:]:
        extra.unlink()
    monkeypatch.setenv("TEXTGUARD_CORPUS_DIR", str(tmp_path / "corpus"))
    results = {}
    with postgres_server() as pg:
        for name, yaml_text in (
            ("stock", with_stock_event_log(DEPLOY_YAML.read_text())),
            ("pooled", DEPLOY_YAML.read_text()),
        ):
            monkeypatch.delenv("DAGSTER_EVENT_BATCH_SIZE", raising=False)
            db = pg.create_database(name)
            for k, v in db.env().items():
                monkeypatch.setenv(k, v)
            monkeypatch.setenv("TEXTGUARD_WAREHOUSE", str(tmp_path / f"warehouse_{name}"))
            home = tmp_path / f"home_{name}"
            home.mkdir()
            (home / "dagster.yaml").write_text(yaml_text)
            status, last_runs, runs = _scenario(home, tmp_path / "corpus", docs)
            # last run per asset: the run that materialized it last, by position (run ids differ)
            results[name] = (status, {a: runs.index(r) for a, r in last_runs.items()}, _event_counts(pg, name))
            if name == "stock":
                assert "DAGSTER_EVENT_BATCH_SIZE" not in os.environ
            else:
                assert os.environ.get("DAGSTER_EVENT_BATCH_SIZE") == "100"

    stock, pooled = results["stock"], results["pooled"]
    assert pooled[0] == stock[0]
    assert pooled[0]["parsed_chunks"]["zz_bad.txt"] == "FAILED", pooled[0]
    assert all(pooled[0][a][d] == "MATERIALIZED" for a in ASSETS for d in docs), pooled[0]
    assert pooled[1] == stock[1]
    assert pooled[2] == stock[2]
    planned = {k: n for k, n in pooled[2].items() if k[0] == "ASSET_MATERIALIZATION_PLANNED"}
    assert len(planned) == len(ASSETS) * (len(docs) + 1)  # one per asset and document, as stock


@contextmanager
def _deploy_instance(tmp_path, monkeypatch):
    """A throw-away PostgreSQL and an instance from deploy/postgres/dagster.yaml on it."""
    monkeypatch.delenv("DAGSTER_EVENT_BATCH_SIZE", raising=False)
    with postgres_server() as pg:
        for k, v in pg.env().items():
            monkeypatch.setenv(k, v)
        home = dagster_home(tmp_path / "home", DEPLOY_YAML)
        with DagsterInstance.from_config(str(home)) as instance:
            yield pg, instance


def _pool_and_rows(storage) -> tuple[int, int]:
    """(id of the pool this process uses, rows a query read) — evaluated in a forked child."""
    pool = id(storage._engine.pool)
    if hasattr(storage, "get_records_for_run"):
        return pool, len(storage.get_records_for_run("nope").records)
    return pool, len(storage.get_runs())


def test_pooled_event_log_fork_schema_probes_and_webserver_engine(tmp_path, monkeypatch):
    """A forked child gets its own pool (event log and run storage); positive schema probes are remembered; the webserver's engine swap closes ours."""
    from dagster_postgres import PostgresEventLogStorage

    from textguard_pipeline.operations.instance_storage import PooledPostgresEventLogStorage, PooledPostgresRunStorage

    with _deploy_instance(tmp_path, monkeypatch) as (pg, instance):
        storage = instance.event_log_storage
        assert isinstance(storage, PooledPostgresEventLogStorage)
        assert storage.get_records_for_run("nope").records == []  # a connection is now pooled
        parent_pool = id(storage._engine.pool)
        assert storage._engine.pool.checkedin() >= 1
        child_pool, _ = in_forked_child(_pool_and_rows, storage)
        assert child_pool != parent_pool  # the child built its own pool instead of reusing our sockets
        # and the parent's pooled connection still works after the child exited
        assert storage.get_records_for_run("nope").records == []
        assert id(storage._engine.pool) == parent_pool
        # the run storage: the same per-process pool
        runs = instance.run_storage
        assert isinstance(runs, PooledPostgresRunStorage)
        assert runs.get_runs() == [] and runs._engine.pool.checkedin() >= 1
        run_pool = id(runs._engine.pool)
        child_pool, n = in_forked_child(_pool_and_rows, runs)
        assert child_pool != run_pool and n == 0
        assert runs.get_runs() == [] and id(runs._engine.pool) == run_pool
        # schema probes: a table that exists is asked about once, a missing one every time
        asked = []
        real = PostgresEventLogStorage.has_table
        monkeypatch.setattr(
            PostgresEventLogStorage, "has_table", lambda self, name: asked.append(name) or real(self, name)
        )
        assert storage.has_table("dynamic_partitions") and storage.has_table("dynamic_partitions")
        assert not storage.has_table("no_such_table") and not storage.has_table("no_such_table")
        assert asked == ["dynamic_partitions", "no_such_table", "no_such_table"]
        # dagster-webserver swaps in its own engine (statement timeout, pool of 1): ours is closed
        old_engine = storage._engine
        instance.optimize_for_webserver(5000, 3600, 1)
        assert storage._engine is not old_engine and old_engine.pool.checkedin() == 0
        assert storage.get_records_for_run("nope").records == []


def test_pooled_connection_dropped_while_idle_is_replaced(tmp_path, monkeypatch):
    """A pooled connection the server dropped while it sat idle is pinged, found dead and replaced
    before use: the query after it succeeds (runs and event log alike)."""
    from textguard_pipeline.operations import instance_storage

    with _deploy_instance(tmp_path, monkeypatch) as (pg, instance):
        assert instance.get_runs() == [] and instance.event_log_storage.get_records_for_run("x").records == []
        with pg.connect() as conn, conn.cursor() as cur:  # the server drops every other session
            cur.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid <> pg_backend_pid()")
        monkeypatch.setattr(instance_storage, "IDLE_PING_SECONDS", 0.0)  # the pooled ones count as idle
        assert instance.get_runs() == []
        assert instance.event_log_storage.get_records_for_run("x").records == []
