"""Splitting a report across workers, progress figures, and the sensor's remembered hashes."""

import io
import os

from textguard_pipeline.core.documents import file_sha256
from textguard_pipeline.defs_kit import file_hashes
from textguard_pipeline.operations.parallel import (
    FORMAT_COST,
    Progress,
    RangeTask,
    Throughput,
    document_costs,
    expected_cost,
    run_ranges,
    split_size,
    weighted_split,
)


def test_split_size_gives_every_worker_a_range_within_the_run_limit():
    assert split_size(42, 50, 2) == 21
    assert split_size(42, 50, 1) == 50
    assert split_size(400, 50, 4) == 50  # never above the per-run limit
    assert split_size(3, 50, 8) == 1


def test_weighted_split_evens_out_bytes_not_counts():
    keys = [f"d{i:02d}" for i in range(10)]
    # a heavy document near the end: a count split gives 5 light vs 4 light + the heavy one
    weights = [10] * 8 + [100, 10]
    groups = weighted_split(keys, weights, 2)
    assert [k for g in groups for k in g] == keys  # order kept, every key once
    assert len(groups) == 2 and all(groups)
    sums = [sum(weights[keys.index(k)] for k in g) for g in groups]
    assert max(sums) <= 110 < 140  # 140: the heavier half of the count split
    assert weighted_split(keys, [1] * 10, 2) == [keys[:5], keys[5:]]
    assert weighted_split(keys, weights, 1) == [keys]
    assert weighted_split([], [], 3) == []
    assert len(weighted_split(keys[:2], [1, 1], 5)) == 2  # never more groups than keys


def test_markdown_costs_more_per_byte_than_plain_text_and_an_unknown_ending_costs_as_plain_text(tmp_path):
    sizes = {"b.md": 10_000, "c.txt": 10_000, "d.log": 10_000}
    for name, size in sizes.items():
        (tmp_path / name).write_text("x" * size)
    md, txt, other = document_costs([tmp_path / n for n in sizes])
    assert md > txt and other == txt
    assert document_costs([tmp_path / "gone.md"]) == document_costs([tmp_path / "gone.txt"])  # unreadable: one row
    assert expected_cost("a.txt", 20_000) < 2 * expected_cost("a.txt", 10_000)  # a document costs beyond its bytes


def test_an_expensive_format_among_plain_text_documents_is_split_by_expected_cost_not_bytes():
    # one document of the dearest format, then four plain-text ones: by bytes the cut falls after the first plain
    # one (3 + 1 MB against 3 MB), by expected cost the dear document is a range of its own
    dear = max(FORMAT_COST, key=FORMAT_COST.__getitem__)
    assert FORMAT_COST[dear] > 1.0
    names = [f"a{dear}"] + [f"b{i}.txt" for i in range(1, 5)]
    size = [3_000_000] + [1_000_000] * 4
    costs = [expected_cost(n, s) for n, s in zip(names, size)]

    def imbalance(groups):  # expected cost of the longer range over the shorter one
        sums = sorted(sum(costs[names.index(k)] for k in g) for g in groups)
        return sums[-1] / sums[0]

    by_cost, by_bytes = weighted_split(names, costs, 2), weighted_split(names, size, 2)
    assert by_bytes == [names[:2], names[2:]]
    assert by_cost == [names[:1], names[1:]]
    assert imbalance(by_cost) < imbalance(by_bytes)


def _square(task: RangeTask) -> int:
    return len(task.keys) ** 2


def test_run_ranges_in_processes_returns_every_range_once():
    tasks = [RangeTask(i, f"k{i}", f"k{i}", tuple(f"k{j}" for j in range(i))) for i in range(1, 6)]
    serial = dict((t.index, r) for t, r in run_ranges(tasks, _square, 1))
    parallel = dict((t.index, r) for t, r in run_ranges(tasks, _square, 2))
    assert serial == parallel == {i: i * i for i in range(1, 6)}


def test_progress_figures_and_no_bar_off_a_terminal():
    stream = io.StringIO()  # not a terminal: no bar, nothing written
    p = Progress(10, stream=stream)
    p.advance(4)
    text = p.figures()
    assert text.startswith("4/10 documents, ") and "docs/s" in text and "left" in text
    p.close()
    assert stream.getvalue() == ""
    t = Throughput(documents=10, seconds=5.0, workers=2, cpu_seconds=9.0)
    assert (t.rate, t.busy_cores) == (2.0, 1.8)
    assert "10 documents in 5.0 s (2.00 documents/s), 2 process(es), 1.80 cores busy" in t.line()


def test_cached_sha256_reads_again_only_when_the_file_changed(tmp_path):
    file_hashes.forget()
    f = tmp_path / "a.md"
    f.write_text("one")
    assert file_hashes.cached_sha256(f) == file_sha256(f)
    st = f.stat()
    f.write_text("two")  # same size; mtime differs
    os.utime(f, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))
    assert file_hashes.cached_sha256(f) == file_sha256(f)
    # a rewrite that restores size and mtime is the documented blind spot (corpus_refresh hashes everything)
    sha_two = file_sha256(f)
    st2 = f.stat()
    f.write_text("six")
    os.utime(f, ns=(st2.st_atime_ns, st2.st_mtime_ns))
    assert file_hashes.cached_sha256(f) == sha_two != file_sha256(f)
