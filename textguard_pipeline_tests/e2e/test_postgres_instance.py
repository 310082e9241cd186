"""deploy/postgres/dagster.yaml against a real throw-away PostgreSQL server on 127.0.0.1."""

import pytest
from dagster import AssetKey, DagsterInstance, DagsterRunStatus
from dagster._core.storage.tags import ASSET_PARTITION_RANGE_END_TAG, ASSET_PARTITION_RANGE_START_TAG

from textguard_pipeline.settings import PROJECT_ROOT
from textguard_pipeline_tests.e2e._servers import dagster_home, postgres_server, small_corpus

pytestmark = pytest.mark.slow


def test_multi_partition_materialization_is_stored_in_postgres(tmp_path, monkeypatch):
    from dagster_postgres import PostgresEventLogStorage, PostgresRunStorage

    from textguard_pipeline.report import materialize_corpus

    docs = small_corpus(tmp_path / "corpus")
    monkeypatch.setenv("TEXTGUARD_CORPUS_DIR", str(tmp_path / "corpus"))
    monkeypatch.setenv("TEXTGUARD_WAREHOUSE", str(tmp_path / "warehouse"))
    home = dagster_home(tmp_path / "home", PROJECT_ROOT / "deploy" / "postgres" / "dagster.yaml")

    with postgres_server() as pg:
        for k, v in pg.env().items():
            monkeypatch.setenv(k, v)
        with DagsterInstance.from_config(str(home)) as instance:
            assert isinstance(instance.run_storage, PostgresRunStorage)
            assert isinstance(instance.event_log_storage, PostgresEventLogStorage)

            res = materialize_corpus(instance=instance, batch_size=2, select="source_documents parsed_chunks",
                                     log=lambda *_: None)
            assert res.ok, (res.step_failures, [o for o in res.failed])
            assert len(res.runs) == (len(docs) + 1) // 2  # several documents per run

            # through the instance API
            runs = instance.get_runs()
            assert {r.run_id for r in runs} == set(res.runs)
            assert all(r.status == DagsterRunStatus.SUCCESS for r in runs)
            assert all(ASSET_PARTITION_RANGE_START_TAG in r.tags and ASSET_PARTITION_RANGE_END_TAG in r.tags for r in runs)
            mats = instance.fetch_materializations(AssetKey("parsed_chunks"), limit=100).records
            assert sorted(m.partition_key for m in mats) == docs
            assert instance.get_dynamic_partitions("documents") == docs

        # and in the database itself (psql-level), not in some SQLite file
        with pg.connect() as conn, conn.cursor() as cur:
            cur.execute("SELECT count(*) FROM runs WHERE status = 'SUCCESS'")
            assert cur.fetchone()[0] == len(res.runs)
            cur.execute("SELECT count(DISTINCT partition) FROM event_logs "
                        "WHERE dagster_event_type = 'ASSET_MATERIALIZATION' AND asset_key = %s",
                        (AssetKey("source_documents").to_string(),))
            assert cur.fetchone()[0] == len(docs)
            cur.execute("SELECT check_name, execution_status, count(*) FROM asset_check_executions "
                        "GROUP BY check_name, execution_status")
            rows = cur.fetchall()
            by_check = {name: (status, n) for name, status, n in rows}
            assert "source_documents_readable" in by_check and "parsed_chunks_tiling" in by_check, rows
            assert all(status == "SUCCEEDED" for status, _ in by_check.values()), rows
            # one evaluation per multi-partition run and check
            assert by_check["parsed_chunks_tiling"][1] == len(res.runs)
            cur.execute("SELECT partition FROM dynamic_partitions WHERE partitions_def_name = 'documents' ORDER BY id")
            assert [r[0] for r in cur.fetchall()] == docs
