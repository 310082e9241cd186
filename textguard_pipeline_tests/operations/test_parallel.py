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


def test_markup_costs_more_per_byte_than_plain_text_and_an_unknown_ending_costs_as_plain_text(tmp_path):
    sizes = {"a.tex": 10_000, "b.md": 10_000, "c.txt": 10_000, "d.log": 10_000}
    for name, size in sizes.items():
        (tmp_path / name).write_text("x" * size)
    tex, md, txt, other = document_costs([tmp_path / n for n in sizes])
    assert tex > txt and md > txt and other == txt
    assert FORMAT_COST[".tex"] > 1.0 and FORMAT_COST[".md"] > 1.0
    assert document_costs([tmp_path / "gone.tex"]) == document_costs([tmp_path / "gone.txt"])  # unreadable: one row


def test_a_latex_document_among_plain_text_ones_is_split_by_expected_cost_not_bytes(tmp_path):
    # two LaTeX documents first, then six plain-text ones of the same bytes each: cut by bytes, the first worker
    # gets both LaTeX files and some plain text and ends long after the second
    names = ["a1.tex", "a2.tex"] + [f"b{i}.txt" for i in range(1, 7)]
    for n in names:
        (tmp_path / n).write_text("word " * 20_000)  # 100 kB: the per-byte part outweighs the per-document one
    paths = [tmp_path / n for n in names]
    costs = document_costs(paths)
    size = [p.stat().st_size for p in paths]

    def imbalance(groups):  # expected cost of the longer range over the shorter one
        sums = sorted(sum(costs[names.index(k)] for k in g) for g in groups)
        return sums[-1] / sums[0]

    by_cost, by_bytes = weighted_split(names, costs, 2), weighted_split(names, size, 2)
    assert [k for g in by_cost for k in g] == names and len(by_cost) == 2
    assert by_cost != by_bytes
    assert imbalance(by_cost) < imbalance(by_bytes)
    assert by_cost[0][:2] == ["a1.tex", "a2.tex"] and len(by_cost[0]) < len(by_bytes[0])


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
