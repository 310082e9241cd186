"""Splitting a report across workers, progress figures, and the sensor's remembered hashes."""

import io
import os

from textguard_pipeline.core.documents import file_sha256
from textguard_pipeline.defs_kit import file_hashes
from textguard_pipeline.operations.parallel import (
    Progress,
    RangeTask,
    Throughput,
    cost_units,
    document_costs,
    expected_cost,
    lpt_order,
    makespan,
    run_ranges,
    split_size,
)


def test_split_size_gives_every_worker_a_range_within_the_run_limit():
    assert split_size(42, 50, 2) == 21
    assert split_size(42, 50, 1) == 50
    assert split_size(400, 50, 4) == 50  # never above the per-run limit
    assert split_size(3, 50, 8) == 1


def _best_contiguous_split(costs, workers=2):
    """The makespan of the best cut of ``costs`` into ``workers`` (2) consecutive ranges, one per worker."""
    return min(max(sum(costs[:i]), sum(costs[i:])) for i in range(1, len(costs)))


def _unit_costs(units, keys, costs):
    return [sum(costs[keys.index(k)] for k in unit) for unit in units]


def test_a_queue_of_units_dearest_first_finishes_sooner_than_one_range_per_worker_on_a_skewed_set():
    # one large document among many small ones, not at an end: whichever way two ranges are cut, one of them
    # holds the large document and half the small ones
    keys = [f"d{i:02d}" for i in range(21)]
    costs = [3.0] * 10 + [40.0] + [3.0] * 10
    units = cost_units(keys, costs, workers=2, max_docs=50)
    assert [k for u in units for k in u] == keys  # every document once, in partition order
    assert len(units) > 2 and all(len(u) >= 2 for u in units)  # more units than workers, none of one document
    unit_costs = _unit_costs(units, keys, costs)
    queued = makespan(unit_costs, 2, lpt_order(unit_costs))
    contiguous = _best_contiguous_split(costs)
    assert contiguous == 70.0
    assert queued < contiguous
    assert queued <= 0.8 * contiguous  # 100 of work on 2 workers: 50 is the floor
    # dearest first is what does it: the same units in partition order finish later
    assert makespan(unit_costs, 2) > queued


def test_lpt_order_is_dearest_first_and_stable_and_makespan_follows_free_workers():
    assert lpt_order([1.0, 5.0, 3.0, 5.0]) == [1, 3, 2, 0]
    assert makespan([4.0, 3.0, 3.0], 2) == 6.0  # 4 | 3 + 3
    assert makespan([3.0, 3.0, 4.0], 2, lpt_order([3.0, 3.0, 4.0])) == 6.0
    assert makespan([5.0, 1.0, 1.0, 1.0], 2) == 5.0


def test_cost_units_never_leave_a_one_document_run_and_keep_the_per_run_limit():
    keys = [f"d{i}" for i in range(9)]
    for costs in (
        [1.0] * 9,
        [100.0] + [1.0] * 8,
        [1.0] * 8 + [100.0],
        [1.0, 100.0, 1.0, 100.0, 1.0, 1.0, 100.0, 1.0, 1.0],
    ):
        units = cost_units(keys, costs, workers=2, max_docs=50)
        assert [k for u in units for k in u] == keys
        assert all(len(u) >= 2 for u in units), (costs, units)
    assert cost_units(keys, [1.0] * 9, workers=1, max_docs=50) == [keys]
    assert cost_units(keys[:3], [1.0] * 3, workers=2, max_docs=50) == [keys[:3]]  # 3 documents: one run
    assert cost_units([], [], workers=2, max_docs=50) == []
    many = [f"k{i:03d}" for i in range(200)]
    units = cost_units(many, [1.0] * 200, workers=2, max_docs=20)
    assert [k for u in units for k in u] == many and max(map(len, units)) <= 20 and min(map(len, units)) >= 2
    assert cost_units(keys, [1.0] * 9, workers=2, max_docs=1) == [[k] for k in keys]  # a limit of one per run


def test_markdown_costs_more_per_byte_than_plain_text_and_an_unknown_ending_costs_as_plain_text(tmp_path):
    sizes = {"b.md": 10_000, "c.txt": 10_000, "d.log": 10_000}
    for name, size in sizes.items():
        (tmp_path / name).write_text("x" * size)
    md, txt, other = document_costs([tmp_path / n for n in sizes])
    assert md > txt and other == txt
    assert document_costs([tmp_path / "gone.md"]) == document_costs([tmp_path / "gone.txt"])  # unreadable: one row
    assert expected_cost("a.txt", 20_000) < 2 * expected_cost("a.txt", 10_000)  # a document costs beyond its bytes


def _square(task: RangeTask) -> int:
    return len(task.keys) ** 2


def test_run_ranges_in_processes_returns_every_range_once():
    tasks = [RangeTask(i, f"k{i}", f"k{i}", tuple(f"k{j}" for j in range(i))) for i in range(1, 6)]
    serial = dict((t.index, r) for t, r in run_ranges(tasks, _square, 1))
    parallel = dict((t.index, r) for t, r in run_ranges(tasks, _square, 2))
    queued = dict((t.index, r) for t, r in run_ranges(tasks, _square, 2, costs=[1.0, 9.0, 3.0, 2.0, 5.0]))
    assert serial == parallel == queued == {i: i * i for i in range(1, 6)}


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
