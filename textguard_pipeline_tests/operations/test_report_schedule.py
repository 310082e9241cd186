"""A two-worker report takes its runs from a queue, dearest first (a dear document alone), and writes what one
process writes."""

import os
import subprocess
import sys

import pyarrow.parquet as pq


def _report(tmp_path, corpus, tag: str, workers: int) -> subprocess.CompletedProcess:
    env = {**os.environ, "DAGSTER_HOME": str(tmp_path / tag / "home")}
    cmd = [sys.executable, "-m", "textguard_pipeline.cli", "report", "--corpus", str(corpus)]
    cmd += ["--warehouse", str(tmp_path / tag / "wh"), "--out", str(tmp_path / tag / "out")]
    cmd += ["--select", "source_documents parsed_chunks", "--workers", str(workers)]
    return subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600)


def _ranges_by_start(home) -> list[tuple[str, str]]:
    """(first, last) document of each run of the instance in ``home``, in the order the runs started."""
    from textguard_pipeline.operations.instance import open_instance

    instance = open_instance(home)
    try:
        records = sorted(instance.get_run_records(), key=lambda r: r.create_timestamp)
        tags = [r.dagster_run.tags for r in records]
    finally:
        instance.dispose()
    return [(t["dagster/asset_partition_range_start"], t["dagster/asset_partition_range_end"]) for t in tags]


def _tables(warehouse) -> dict[str, list[dict]]:
    """Every Parquet file's rows (without the columns that name the run), by path under the warehouse."""
    out = {}
    for path in sorted(warehouse.rglob("*.parquet")):
        table = pq.read_table(path)
        rows = table.drop([c for c in table.column_names if c in ("run_id", "created_at")]).to_pylist()
        out[str(path.relative_to(warehouse))] = rows
    return out


def test_a_skewed_corpus_on_two_workers_runs_several_ranges_dearest_first_and_writes_what_one_process_writes(
    tmp_path,
):
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for i in range(9):  # small documents around one large one
        (corpus / f"a{i}.md").write_text(f"# Note {i}\n\nA short note about item {i}.\n")
    (corpus / "m_large.txt").write_text("A longer plain text paragraph about the schedule. " * 4000)
    for i in range(9):
        (corpus / f"z{i}.txt").write_text(f"Another small document, number {i}.\n")
    one, two = _report(tmp_path, corpus, "one", 1), _report(tmp_path, corpus, "two", 2)
    assert one.returncode == 0, one.stdout + one.stderr
    assert two.returncode == 0, two.stdout + two.stderr
    ranges = _ranges_by_start(tmp_path / "two" / "home")
    assert len(ranges) > 2, two.stdout  # more ranges than workers
    # the dearest range is among the first two the two workers started (dearest first)
    assert any(first <= "m_large.txt" <= last for first, last in ranges[:2]), ranges
    # the dear document runs alone (its runs isolate a failure even then), so the other worker is not idle at the end
    assert ("m_large.txt", "m_large.txt") in ranges[:2], ranges
    assert _tables(tmp_path / "one" / "wh") == _tables(tmp_path / "two" / "wh")
    assert (tmp_path / "one" / "out" / "asset-checks.md").read_text().count("| ") == (
        tmp_path / "two" / "out" / "asset-checks.md"
    ).read_text().count("| ")
