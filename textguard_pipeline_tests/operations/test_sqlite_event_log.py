"""The batched SQLite event log against Dagster's stock SQLite event log, on real instances."""

import multiprocessing
import os
import sqlite3
from pathlib import Path

import pytest
import yaml
from dagster import AssetKey, DagsterInstance

from textguard_pipeline.settings import PROJECT_ROOT
from textguard_pipeline_tests.e2e._servers import small_corpus
from textguard_pipeline_tests.forked import in_forked_child

STORAGE = {"module": "textguard_pipeline.operations.sqlite_event_log", "class": "BatchedSqliteEventLogStorage"}
ASSETS = ("source_documents", "parsed_chunks")


def _home(dest: Path, batched: bool) -> Path:
    cfg = yaml.safe_load((PROJECT_ROOT / "deploy" / "sqlite" / "dagster.yaml").read_text()) or {}
    cfg.pop("event_log_storage", None)
    if batched:
        cfg["event_log_storage"] = dict(STORAGE)
    dest.mkdir(parents=True)
    (dest / "dagster.yaml").write_text(yaml.safe_dump(cfg))
    return dest


def _scenario(home: Path, corpus: Path, docs: list[str]):
    """A multi-partition run over good documents, then one run per document with an unreadable one
    added (its parsed_chunks step fails). Per-partition status, last run per asset, check results."""
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
        runs_in_order = [r.run_id for r in reversed(instance.get_runs())]
        last_runs = {
            r.asset_entry.asset_key.to_user_string(): runs_in_order.index(r.asset_entry.last_run_id)
            for r in instance.get_asset_records([AssetKey(a) for a in ASSETS])
        }
        mats = {
            a: sorted(m.partition_key for m in instance.fetch_materializations(AssetKey(a), limit=1000).records)
            for a in ASSETS
        }
        failures = sorted(
            r.run_id in second.runs and runs_in_order.index(r.run_id)
            for r in instance.get_runs()
            if r.status.value == "FAILURE"
        )
        per_run_events = [
            sorted(
                (
                    e.dagster_event_type.value if e.dagster_event_type else "log",
                    e.dagster_event.partition if e.is_dagster_event else None,
                )
                for e in instance.all_logs(run_id)
                if e.dagster_event_type is None or "ENGINE" not in e.dagster_event_type.value
            )
            for run_id in runs_in_order
        ]
    (corpus / "zz_bad.txt").unlink()
    return {
        "status": status,
        "last_runs": last_runs,
        "mats": mats,
        "failed_runs": failures,
        "index": _index_counts(home),
        "run_shards": _run_shard_schemas(home),
        "run_events": [len(e) for e in per_run_events],
    }


def _index_counts(home: Path) -> dict:
    """Rows of the index shard (asset and check events, run status mirrors, asset rows, check executions)."""
    with sqlite3.connect(home / "history" / "runs" / "index.db") as conn:
        events = {
            tuple(r[:3]): r[3]
            for r in conn.execute(
                "SELECT dagster_event_type, asset_key, partition, count(*) FROM event_logs GROUP BY 1, 2, 3"
            )
        }
        checks = sorted(
            conn.execute(
                "SELECT check_name, partition, execution_status, count(*) FROM asset_check_executions GROUP BY 1, 2, 3"
            )
        )
        assets = sorted(r[0] for r in conn.execute("SELECT asset_key FROM asset_keys"))
    return {"events": events, "checks": checks, "assets": assets}


def _run_shard_schemas(home: Path) -> list:
    """Per run shard: its schema (tables, indexes) and alembic revision; the distinct ones, with a count."""
    out: dict = {}
    for path in (home / "history" / "runs").glob("*.db"):
        if path.stem == "index":
            continue
        with sqlite3.connect(path) as conn:
            schema = tuple(sorted(r for r in conn.execute("SELECT type, name, sql FROM sqlite_master")))
            revision = conn.execute("SELECT version_num FROM alembic_version").fetchall()
        out[(schema, tuple(revision))] = out.get((schema, tuple(revision)), 0) + 1
    return sorted(out.items())


def test_batched_sqlite_event_log_matches_stock(tmp_path, monkeypatch):
    """The same runs against Dagster's stock SQLite event log and against ours: the same partition
    status (FAILED for the document whose run failed), materializations, last run per asset, failed
    runs, events per run, index rows (asset events per partition, check executions) and run shards
    (schema and alembic stamp: ours stamps the shards after the first one itself)."""
    from textguard_pipeline.operations.sqlite_event_log import BatchedSqliteEventLogStorage

    docs = small_corpus(tmp_path / "corpus")[:3]
    for extra in sorted((tmp_path / "corpus").iterdir())[3:]:
        extra.unlink()
    monkeypatch.setenv("TEXTGUARD_CORPUS_DIR", str(tmp_path / "corpus"))
    results = {}
    for name in ("stock", "batched"):
        monkeypatch.delenv("DAGSTER_EVENT_BATCH_SIZE", raising=False)
        monkeypatch.setenv("TEXTGUARD_WAREHOUSE", str(tmp_path / f"warehouse_{name}"))
        home = _home(tmp_path / f"home_{name}", batched=name == "batched")
        monkeypatch.setenv("DAGSTER_HOME", str(home))
        with DagsterInstance.from_config(str(home)) as instance:
            assert isinstance(instance.event_log_storage, BatchedSqliteEventLogStorage) == (name == "batched")
        results[name] = _scenario(home, tmp_path / "corpus", docs)
        assert (os.environ.get("DAGSTER_EVENT_BATCH_SIZE") == "100") == (name == "batched")

    stock, batched = results["stock"], results["batched"]
    assert batched["status"]["parsed_chunks"]["zz_bad.txt"] == "FAILED", batched["status"]
    assert all(batched["status"][a][d] == "MATERIALIZED" for a in ASSETS for d in docs)
    for key in stock:
        assert batched[key] == stock[key], key
    planned = {k: n for k, n in batched["index"]["events"].items() if k[0] == "ASSET_MATERIALIZATION_PLANNED"}
    assert len(planned) == len(ASSETS) * (len(docs) + 1)  # one per asset and document, as stock
    ((_, shards),) = batched["run_shards"]  # every shard alike
    assert shards == len(docs) + 2


def _child_writes(home: str, queue, n: int) -> None:
    """Open the instance in a new process and store ``n`` partitions (a write on the index shard)."""
    try:
        with DagsterInstance.from_config(home) as instance:
            instance.add_dynamic_partitions("documents", [f"p{os.getpid()}_{i}" for i in range(n)])
            queue.put(("ok", len(instance.get_dynamic_partitions("documents"))))
    except Exception as exc:  # pragma: no cover - reported to the parent
        queue.put(("error", repr(exc)))


def _engine_and_probe(storage) -> tuple[int, bool]:
    """(id of the index engine this process uses, the dynamic-partitions probe) — in a forked child."""
    return id(storage._tg_engine("index")), storage.has_table("dynamic_partitions")


def test_wal_busy_timeout_fork_and_concurrent_writers(tmp_path, monkeypatch):
    """Connections run in WAL with a busy timeout; a forked child builds its own engines; writers in
    several processes at once all succeed; positive schema probes are remembered."""
    from textguard_pipeline.operations.sqlite_event_log import BatchedSqliteEventLogStorage

    monkeypatch.delenv("DAGSTER_EVENT_BATCH_SIZE", raising=False)
    home = _home(tmp_path / "home", batched=True)
    monkeypatch.setenv("DAGSTER_HOME", str(home))
    with DagsterInstance.from_config(str(home)) as instance:
        storage = instance.event_log_storage
        assert isinstance(storage, BatchedSqliteEventLogStorage)
        assert storage._base_dir == str(home / "history" / "runs")  # the stock location
        with storage.index_connection() as conn:
            assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
            assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar() == 30_000
            assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == 1  # NORMAL
        parent_engine = id(storage._tg_engine("index"))
        assert id(storage._tg_engine("index")) == parent_engine  # one engine per shard and process

        child_engine, has = in_forked_child(_engine_and_probe, storage)
        assert has is True
        assert child_engine != parent_engine
        assert id(storage._tg_engine("index")) == parent_engine
        assert storage.get_records_for_run("nope").records == []  # parent still works

        spawn = multiprocessing.get_context("spawn")
        queue = spawn.Queue()
        writers = [spawn.Process(target=_child_writes, args=(str(home), queue, 200)) for _ in range(3)]
        for w in writers:
            w.start()
        outcomes = [queue.get(timeout=180) for _ in writers]
        for w in writers:
            w.join(60)
        assert all(o[0] == "ok" for o in outcomes), outcomes
        assert len(instance.get_dynamic_partitions("documents")) == 600

        storage._tg_tables.clear()
        assert storage.has_table("dynamic_partitions") and storage.has_table("dynamic_partitions")
        assert not storage.has_table("no_such_table") and not storage.has_table("no_such_table")
        assert "dynamic_partitions" in storage._tg_tables and "no_such_table" not in storage._tg_tables


def test_bad_synchronous_value_is_a_clear_error():
    from textguard_pipeline.operations.sqlite_event_log import BatchedSqliteEventLogStorage

    with pytest.raises(ValueError, match="synchronous"):
        BatchedSqliteEventLogStorage(synchronous="sometimes")


def test_dynamic_partitions_list_is_kept_and_follows_adds_and_deletes(tmp_path, monkeypatch):
    """The kept list of partition keys is returned only while nothing was added or deleted (by any process)."""
    monkeypatch.delenv("DAGSTER_EVENT_BATCH_SIZE", raising=False)
    home = _home(tmp_path / "home", batched=True)
    monkeypatch.setenv("DAGSTER_HOME", str(home))
    with DagsterInstance.from_config(str(home)) as a, DagsterInstance.from_config(str(home)) as b:
        a.add_dynamic_partitions("documents", ["x", "y"])
        assert a.get_dynamic_partitions("documents") == ["x", "y"]
        kept = a.event_log_storage._tg_partitions["documents"]
        assert a.get_dynamic_partitions("documents") == ["x", "y"]
        assert a.event_log_storage._tg_partitions["documents"] is kept  # not read again
        b.add_dynamic_partitions("documents", ["z"])  # another instance (process) adds
        assert a.get_dynamic_partitions("documents") == ["x", "y", "z"]
        b.delete_dynamic_partition("documents", "x")
        assert a.get_dynamic_partitions("documents") == ["y", "z"]
        b.delete_dynamic_partition("documents", "z")
        b.add_dynamic_partitions("documents", ["w"])  # same count as before: the highest id differs
        assert a.get_dynamic_partitions("documents") == ["y", "w"]
        assert a.has_dynamic_partition("documents", "w") and not a.has_dynamic_partition("documents", "x")
