"""The corpus planner shared by corpus_sensor and corpus_refresh, executors."""

import pytest
from dagster import DagsterInstance, SkipReason, build_schedule_context, build_sensor_context, instance_for_test
from dagster._core.storage.tags import ASSET_PARTITION_RANGE_END_TAG as END
from dagster._core.storage.tags import ASSET_PARTITION_RANGE_START_TAG as START

from textguard_pipeline.defs_kit.partitions import contiguous_ranges, decode_cursor, recorded_shas
from textguard_pipeline.operations import executor, jobs, schedules, sensors


@pytest.fixture
def corpus(tmp_path, monkeypatch):
    root = tmp_path / "corpus"
    root.mkdir()
    (root / "a.md").write_text("# A\n\nFirst $x$ document.\n", encoding="utf-8")
    (root / "b.txt").write_text("Second document.\n", encoding="utf-8")
    wh = tmp_path / "warehouse"
    monkeypatch.setenv("TEXTGUARD_CORPUS_DIR", str(root))
    monkeypatch.setenv("TEXTGUARD_WAREHOUSE", str(wh))
    monkeypatch.setenv("TEXTGUARD_MAX_PARTITIONS_PER_RUN", "50")
    return root, wh


@pytest.fixture
def instance():
    """A real (temp, SQLite) instance: schedules need an instance reference."""
    with instance_for_test() as inst:
        yield inst


def _ranges(requests) -> list[tuple[str, str]]:
    return [(r.tags[START], r.tags[END]) for r in requests]


def _materialize_sources(instance: DagsterInstance) -> None:
    """Really materialize source_documents for every registered document (records the sha256s)."""
    from textguard_pipeline.operations.report import materialize_corpus

    res = materialize_corpus(instance=instance, select="source_documents", log=lambda *_: None)
    assert res.ok, res.step_failures


def test_contiguous_ranges_split_on_gaps_and_size():
    ordered = ["a", "b", "c", "d", "e", "f"]
    assert contiguous_ranges(["a", "b", "d", "e", "f"], ordered, 2) == [("a", "b"), ("d", "e"), ("f", "f")]
    assert contiguous_ranges([], ordered, 5) == []
    assert contiguous_ranges(ordered, ordered, 50) == [("a", "f")]


def test_schedule_registers_new_documents_and_skips_unchanged_ones(corpus, instance):
    root, wh = corpus

    # new documents: registered as partitions, one run over the range
    result = schedules.corpus_refresh(build_schedule_context(instance=instance))
    assert instance.get_dynamic_partitions("documents") == ["a.md", "b.txt"]
    assert _ranges(result) == [("a.md", "b.txt")]
    assert all(r.run_key for r in result)

    # not yet materialized: the next tick asks again (nothing was recorded in the warehouse)
    assert _ranges(schedules.corpus_refresh(build_schedule_context(instance=instance))) == [("a.md", "b.txt")]

    _materialize_sources(instance)
    assert set(recorded_shas(str(wh), ["a.md", "b.txt", "nope"])) == {"a.md", "b.txt"}

    # unchanged corpus: skip
    skip = schedules.corpus_refresh(build_schedule_context(instance=instance))
    assert isinstance(skip, SkipReason) and "among 2" in skip.skip_message

    # changed content (new sha256): only that document runs
    (root / "b.txt").write_text("Second document, edited.\n", encoding="utf-8")
    assert _ranges(schedules.corpus_refresh(build_schedule_context(instance=instance))) == [("b.txt", "b.txt")]

    # a new document is registered after the existing ones and runs alone (b.txt still changed)
    (root / "c.md").write_text("Third.\n", encoding="utf-8")
    result = schedules.corpus_refresh(build_schedule_context(instance=instance))
    assert instance.get_dynamic_partitions("documents") == ["a.md", "b.txt", "c.md"]
    assert _ranges(result) == [("b.txt", "c.md")]


def test_schedule_splits_backfills_by_max_partitions_per_run(corpus, monkeypatch, instance):
    root, _ = corpus
    for i in range(5):
        (root / f"n{i}.md").write_text(f"doc {i}\n", encoding="utf-8")
    monkeypatch.setenv("TEXTGUARD_MAX_PARTITIONS_PER_RUN", "3")
    result = schedules.corpus_refresh(build_schedule_context(instance=instance))
    assert _ranges(result) == [("a.md", "n0.md"), ("n1.md", "n3.md"), ("n4.md", "n4.md")]
    assert len({r.run_key for r in result}) == 3


def test_sensor_uses_its_cursor_and_the_same_planner(corpus):
    root, _ = corpus
    instance = DagsterInstance.ephemeral()
    ctx = build_sensor_context(instance=instance)
    result = sensors.corpus_sensor(ctx)
    assert _ranges(result.run_requests) == [("a.md", "b.txt")]
    assert result.dynamic_partitions_requests[0].partition_keys == ["a.md", "b.txt"]
    cursor = result.cursor
    assert set(decode_cursor(cursor)) == {"a.md", "b.txt"}
    instance.add_dynamic_partitions("documents", ["a.md", "b.txt"])  # what the daemon does with the request

    # same content: skip, even though nothing was materialized (the sensor remembers what it requested)
    skip = sensors.corpus_sensor(build_sensor_context(instance=instance, cursor=cursor))
    assert isinstance(skip, SkipReason)

    (root / "a.md").write_text("# A\n\nFirst document, changed.\n", encoding="utf-8")
    result = sensors.corpus_sensor(build_sensor_context(instance=instance, cursor=cursor))
    assert _ranges(result.run_requests) == [("a.md", "a.md")]
    assert not result.dynamic_partitions_requests
    # run keys depend on content: an identical tick yields identical keys (Dagster dedups them)
    again = sensors.corpus_sensor(build_sensor_context(instance=instance, cursor=cursor))
    assert [r.run_key for r in again.run_requests] == [r.run_key for r in result.run_requests]


def test_sensor_cursor_carries_file_stamps_across_processes(corpus, instance):
    """A new code server (empty per-process cache) reads only the files whose stamp changed since the cursor:
    a same-size rewrite with its mtime set back is trusted (proof it was not read); the nightly
    corpus_refresh, which hashes every file, still catches it."""
    import os

    from textguard_pipeline.defs_kit import file_hashes
    from textguard_pipeline.defs_kit.partitions import read_cursor

    root, _ = corpus
    first = sensors.corpus_sensor(build_sensor_context(instance=instance))
    instance.add_dynamic_partitions("documents", ["a.md", "b.txt"])
    shas, stamps = read_cursor(first.cursor)
    assert set(stamps) == {"a.md", "b.txt"} and shas == decode_cursor(first.cursor)

    b = root / "b.txt"
    st = os.stat(b)
    b.write_text("Second documenT.\n", encoding="utf-8")  # same size, then the old mtime back
    os.utime(b, ns=(st.st_atime_ns, st.st_mtime_ns))
    (root / "a.md").write_text("# A\n\nFirst document, edited.\n", encoding="utf-8")
    file_hashes.forget()  # a restarted code server
    tick = sensors.corpus_sensor(build_sensor_context(instance=instance, cursor=first.cursor))
    assert _ranges(tick.run_requests) == [("a.md", "a.md")]  # b.txt trusted from its stamp: not read
    assert read_cursor(tick.cursor)[0]["b.txt"] == shas["b.txt"]
    refresh = schedules.corpus_refresh(build_schedule_context(instance=instance))
    assert _ranges(refresh) == [("a.md", "b.txt")]  # nothing materialized yet, both planned; b.txt read afresh
    assert jobs.plan_tick(str(root), ["a.md", "b.txt"], shas).plan.shas["b.txt"] != shas["b.txt"]

    # an old cursor (hashes only) still works: files are read once, and the stamps are added
    old = sensors.corpus_sensor(build_sensor_context(instance=instance, cursor=json_hashes_only(tick.cursor)))
    assert read_cursor(old.cursor)[1].keys() == {"a.md", "b.txt"}


def json_hashes_only(cursor: str) -> str:
    import json

    return json.dumps(decode_cursor(cursor))


def test_unreadable_document_is_planned_not_crashing(corpus):
    root, _ = corpus
    (root / "bad.txt").write_bytes(b"\xff\xfe broken")
    tick = jobs.plan_tick(str(root), [], {})
    assert tick.new_keys == ["a.md", "b.txt", "bad.txt"]


def test_executor_is_chosen_by_config(monkeypatch):
    assert executor.executor_from_env("in_process").name == "in_process"
    assert executor.executor_from_env("multiprocess").name == "multiprocess"
    monkeypatch.setenv("TEXTGUARD_CELERY_BROKER", "redis://127.0.0.1:1/0")
    celery = executor.executor_from_env("celery")
    assert celery.name == "celery"
    monkeypatch.setenv("TEXTGUARD_EXECUTOR", "in-process")
    assert executor.executor_from_env().name == "in_process"
    monkeypatch.delenv("TEXTGUARD_EXECUTOR")
    assert executor.executor_from_env().name == "multiprocess"
    with pytest.raises(ValueError, match="TEXTGUARD_EXECUTOR"):
        executor.executor_from_env("k8s")


def test_definitions_expose_jobs_sensors_and_schedule():
    from textguard_pipeline.definitions import defs

    assert {"materialize_all", "rematerialize_all"} <= {j.name for j in defs.jobs}
    assert {"corpus_sensor", "textguard_automation"} <= {s.name for s in defs.sensors}
    sched = defs.resolve_schedule_def("corpus_refresh")
    assert sched.cron_schedule == jobs.refresh_cron()
    assert sched.job_name == "materialize_all"
