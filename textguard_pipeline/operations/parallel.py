"""Running a report's document ranges on every core, with progress a person can follow.

``textguard report`` materializes contiguous ranges of documents, one Dagster run per range.
One process keeps one core busy: spaCy, WordNet and the Parquet work are CPU-bound Python.
:func:`run_ranges` hands the ranges to ``workers`` processes (started with *spawn*, as a fork of a
process holding Dagster's threads is unsafe; *fork* when no other thread runs), each of which opens
the same instance (under the migrate-once lock of :mod:`.instance`), loads the definitions and
spaCy once and then takes ranges from one queue, dearest first (:func:`cost_units` cuts a few ranges per
worker, :func:`lpt_order` orders them), so a slow range starts early and does not hold an idle core.
Every document is still written by exactly one run, to the same Parquet files; the partial
results come back to the parent, which merges them in range order (the report does not depend on
which process finished first).

:class:`Progress` shows documents done / total, rate and time left: a ``tqdm`` bar on a terminal,
and nothing extra in a CI log (stderr not a terminal) or with ``--quiet``. The same figures, plus
how many cores were busy on average, go into the report (:class:`Throughput`).
"""

from __future__ import annotations

import multiprocessing
import os
import resource
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tqdm import tqdm

tqdm.monitor_interval = 0  # no monitor thread: the worker pool may fork after the bar exists


@dataclass(frozen=True)
class RangeTask:
    """One run: the documents ``keys`` (``first`` … ``last`` in partition order); ``isolate``: a failed document
    is isolated even when the run holds only it (``defs_kit.runner.ISOLATE_TAG``)."""

    index: int
    first: str
    last: str
    keys: tuple[str, ...]
    isolate: bool = False


@dataclass
class Throughput:
    """What the report says about its own speed."""

    documents: int = 0
    seconds: float = 0.0
    workers: int = 1
    cpu_seconds: float = 0.0

    @property
    def rate(self) -> float:
        return self.documents / self.seconds if self.seconds > 0 else 0.0

    @property
    def busy_cores(self) -> float:
        return self.cpu_seconds / self.seconds if self.seconds > 0 else 0.0

    def line(self) -> str:
        return (
            f"{self.documents} documents in {self.seconds:.1f} s ({self.rate:.2f} documents/s), "
            f"{self.workers} process(es), {self.busy_cores:.2f} cores busy on average"
        )


def cpu_seconds() -> float:
    """User + system CPU of this process and of its children that have ended."""
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def available_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def split_size(n_docs: int, max_size: int, workers: int) -> int:
    """Documents per run: at most ``max_size``, and small enough that every worker gets a range."""
    if workers <= 1 or n_docs <= 1:
        return max_size
    return max(1, min(max_size, -(-n_docs // workers)))


#: What one byte of a document costs the whole pipeline (every asset), by file ending, relative to a byte of
#: plain text, and what a document costs whatever its size, in bytes of plain text. Measured three ways on
#: 2026-11-27 (docs/measurements/throughput.md): fits of ``DOCUMENT_COST + bytes × FORMAT_COST`` to the step
#: seconds of two-worker reports (data/corpus; the mixed corpus of ``benchmarks/bench_schedule.py``) and to
#: single-process times divided by a reference parse. Markdown came out 1.54, 1.30 and 0.89 × plain text, LaTeX
#: 1.69, 0.83 and 0.71, reST 1.21 and 0.68, the fixed part 6–27 kB: documents of one format differ 7× per byte
#: (what their prose holds, its language), so these are the rounded means, and the fixed part is the steady
#: finding. An ending not listed costs as plain text (PDF text arrives as ``.txt``).
FORMAT_COST: dict[str, float] = {".txt": 1.0, ".rst": 1.0, ".md": 1.2, ".markdown": 1.2, ".tex": 1.1}
DOCUMENT_COST = 15_000


def expected_cost(path: str | os.PathLike, size: int) -> float:
    """What a document of ``size`` bytes at ``path`` is expected to cost, in bytes of plain text."""
    return DOCUMENT_COST + size * FORMAT_COST.get(Path(path).suffix.lower(), 1.0)


def document_costs(paths: Sequence[str | os.PathLike]) -> list[float]:
    """:func:`expected_cost` of each file (an unreadable entry costs one document: its row is an error)."""
    out = []
    for p in paths:
        try:
            out.append(expected_cost(p, os.lstat(p).st_size))
        except OSError:
            out.append(float(DOCUMENT_COST))
    return out


#: Units per worker the schedule aims at: enough that the dearest-first queue can even the workers out, few
#: enough that each run's own cost (a Dagster run: its steps, its events) stays small.
UNITS_PER_WORKER = 3


def cost_units(
    keys: Sequence[str], weights: Sequence[float], workers: int, max_docs: int, min_docs: int = 2
) -> list[list[str]]:
    """``keys`` (in partition order) cut into consecutive units of about ``total / (workers × UNITS_PER_WORKER)``
    weight each, of at most ``max_docs`` (the per-run limit) and at least ``min_docs`` documents (an untagged
    one-document run fails on its document's error instead of isolating it, :mod:`..defs_kit.runner`; the report
    tags its runs and passes 1), a dear document closing its unit as soon as it has ``min_docs``.

    The units are then run dearest first from one queue (:func:`lpt_order`, :func:`run_ranges`), so a dear
    unit starts early and the cheap ones fill in around it, whatever the cost model got wrong.
    """
    keys, weights = list(keys), [float(w) for w in weights]
    min_docs = max(1, min(min_docs, (max_docs + 1) // 2))
    if len(keys) < 2 * min_docs or workers <= 1:
        return [keys] if keys else []
    target = sum(weights) / (workers * UNITS_PER_WORKER)
    units: list[list[int]] = []
    current: list[int] = []
    acc = 0.0
    for i, w in enumerate(weights):
        # cut before a document that would overshoot the target by more than stopping short of it
        if len(current) >= min_docs and acc + w - target > target - acc:
            units.append(current)
            current, acc = [], 0.0
        current.append(i)
        acc += w
        if len(current) >= max_docs or (len(current) >= min_docs and acc >= target):
            units.append(current)
            current, acc = [], 0.0
    if current:
        units.append(current)
    _fill_small_units(units, weights, min_docs)
    return [[keys[i] for i in unit] for unit in units]


def _fill_small_units(units: list[list[int]], weights: list[float], min_docs: int) -> None:
    """Bring each unit under ``min_docs`` documents up to it: take the adjacent document of a neighbour that can
    spare one (the cheaper such document), else join the cheaper neighbour (which then holds at most
    ``min_docs`` documents: the join stays within a per-run limit of 2 × ``min_docs`` − 1)."""
    i = 0
    while i < len(units):
        if len(units[i]) >= min_docs or len(units) == 1:
            i += 1
            continue
        spare = []
        if i > 0 and len(units[i - 1]) > min_docs:
            spare.append((weights[units[i - 1][-1]], i - 1))
        if i + 1 < len(units) and len(units[i + 1]) > min_docs:
            spare.append((weights[units[i + 1][0]], i + 1))
        if spare:
            _, j = min(spare)
            if j < i:
                units[i].insert(0, units[j].pop())
            else:
                units[i].append(units[j].pop(0))
            continue
        neighbours = [j for j in (i - 1, i + 1) if 0 <= j < len(units)]
        j = min(neighbours, key=lambda n: sum(weights[k] for k in units[n]))
        lo, hi = min(i, j), max(i, j)
        units[lo : hi + 1] = [units[lo] + units[hi]]
        i = lo


def lpt_order(costs: Sequence[float]) -> list[int]:
    """Indices of ``costs``, dearest first (ties in their given order): the order a queue hands units out in."""
    return sorted(range(len(costs)), key=lambda i: (-costs[i], i))


def makespan(costs: Sequence[float], workers: int, order: Sequence[int] | None = None) -> float:
    """When the last of ``workers`` finishes if each takes the next unit (in ``order``) as soon as it is free."""
    free = [0.0] * max(1, workers)
    for i in order if order is not None else range(len(costs)):
        k = free.index(min(free))
        free[k] += costs[i]
    return max(free)


class Progress:
    """Documents done / total, rate and time left; a tqdm bar only on a terminal."""

    def __init__(self, total: int, quiet: bool = False, stream=None):
        self.total, self.done, self.t0 = total, 0, time.perf_counter()
        stream = stream if stream is not None else sys.stderr
        enabled = not quiet and hasattr(stream, "isatty") and stream.isatty()
        self.bar = (
            tqdm(total=total, unit="doc", desc="documents", file=stream, dynamic_ncols=True, smoothing=0.1)
            if enabled
            else None
        )

    def advance(self, n: int) -> None:
        self.done += n
        if self.bar is not None:
            self.bar.update(n)

    def figures(self) -> str:
        """ "12/42 documents, 0.85 docs/s, 35 s left" (for log lines)."""
        secs = time.perf_counter() - self.t0
        rate = self.done / secs if secs > 0 else 0.0
        left = (self.total - self.done) / rate if rate > 0 else float("nan")
        eta = f"{left:.0f} s left" if left == left else "time left unknown"
        return f"{self.done}/{self.total} documents, {rate:.2f} docs/s, {eta}"

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def start_method() -> str:
    """*fork* when this process runs no other thread (workers start at once, sharing the loaded code;
    storages open their own connections after a fork), else *spawn* (a fork could copy a lock held
    by another thread)."""
    return "fork" if threading.active_count() == 1 and "fork" in multiprocessing.get_all_start_methods() else "spawn"


def run_ranges(
    tasks: Sequence[RangeTask],
    run_one: Callable[[RangeTask], Any],
    workers: int,
    initializer: Callable[..., None] | None = None,
    initargs: tuple = (),
    costs: Sequence[float] | None = None,
) -> Iterator[tuple[RangeTask, Any]]:
    """Yield ``(task, run_one(task))`` as ranges finish: in this process when ``workers`` ≤ 1, else in
    ``workers`` processes (``initializer(*initargs)`` runs once in each) that take the ranges from one queue,
    dearest first by ``costs`` (one per task; else in the given order). ``run_one`` and ``initializer`` must be
    module-level functions (they are pickled by name)."""
    if workers <= 1 or len(tasks) <= 1:
        for task in tasks:
            yield task, run_one(task)
        return
    order = lpt_order(costs) if costs is not None else range(len(tasks))
    ctx = multiprocessing.get_context(start_method())
    with ProcessPoolExecutor(
        max_workers=min(workers, len(tasks)), mp_context=ctx, initializer=initializer, initargs=initargs
    ) as pool:
        # the pool's call queue is FIFO: submitted dearest first, each free worker takes the dearest left
        pending = {pool.submit(run_one, tasks[i]): tasks[i] for i in order}
        while pending:
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for fut in done:
                yield pending.pop(fut), fut.result()
