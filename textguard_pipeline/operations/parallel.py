"""Running a report's document ranges on every core, with progress a person can follow.

``textguard report`` materializes contiguous ranges of documents, one Dagster run per range.
One process keeps one core busy: spaCy, WordNet and the Parquet work are CPU-bound Python.
:func:`run_ranges` hands the ranges to ``workers`` processes (started with *spawn*, as a fork of a
process holding Dagster's threads is unsafe; *fork* when no other thread runs), each of which opens
the same instance (under the migrate-once lock of :mod:`.instance`), loads the definitions and
spaCy once and then takes ranges from a shared queue, so a slow range does not hold an idle core.
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
    """One run: the documents ``keys`` (``first`` … ``last`` in partition order)."""

    index: int
    first: str
    last: str
    keys: tuple[str, ...]


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


def weighted_split(keys: Sequence[str], weights: Sequence[float], parts: int) -> list[list[str]]:
    """``keys`` cut, in order, into at most ``parts`` consecutive groups of about equal total weight.

    Splitting by count leaves a worker idle when the long documents fall into one range (42 documents,
    ranges of 0.36 and 0.67 MB: 1.37× sooner on 2 cores instead of nearly 2×); cutting by bytes evens that out,
    and :func:`document_costs` adds what a document costs beyond its bytes (its format only roughly: see
    :data:`FORMAT_COST`).
    """
    total = float(sum(weights))
    if parts <= 1 or total <= 0:
        return [list(keys)] if keys else []
    groups: list[list[str]] = []
    current: list[str] = []
    acc = 0.0
    for key, weight in zip(keys, weights):
        target = total * (len(groups) + 1) / parts
        # cut before a document that would overshoot the target by more than stopping short of it
        if current and len(groups) < parts - 1 and acc + weight - target > target - acc:
            groups.append(current)
            current = []
        current.append(key)
        acc += weight
        if len(groups) < parts - 1 and acc >= total * (len(groups) + 1) / parts:
            groups.append(current)
            current = []
    if current:
        groups.append(current)
    return groups


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
) -> Iterator[tuple[RangeTask, Any]]:
    """Yield ``(task, run_one(task))`` as ranges finish: in this process when ``workers`` ≤ 1, else
    in ``workers`` spawned processes (``initializer(*initargs)`` runs once in each). ``run_one``
    and ``initializer`` must be module-level functions (they are pickled by name)."""
    if workers <= 1 or len(tasks) <= 1:
        for task in tasks:
            yield task, run_one(task)
        return
    ctx = multiprocessing.get_context(start_method())
    with ProcessPoolExecutor(
        max_workers=min(workers, len(tasks)), mp_context=ctx, initializer=initializer, initargs=initargs
    ) as pool:
        pending = {pool.submit(run_one, task): task for task in tasks}
        while pending:
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for fut in done:
                yield pending.pop(fut), fut.result()
