"""Where the whole report's CPU goes, asset by asset, in parses of its prose (issue 50, item 3).

One process, the public dev corpus (../shared/corpus): the report parent's preload and a worker's
``components_from_env`` (start-up, charged apart), then ``run_document`` over every document writing the eight Parquet files and running every
asset check's body on its rows, as the report's steps do (``bench_backfill``'s core loop + checks). Each asset's
build, its Parquet write and its checks are charged separately in CPU seconds (``time.process_time``: on a
shared machine CPU time moves less than wall time). The yardstick is ``bench_meanings``' own: spaCy's full
English pipeline (every component, one core) over the prose chunks the run's ``parsed_chunks`` holds, once
before and once after the documents, best of the two.

``BENCH_REPORT_STEPS_REPORT=1`` also runs the two-worker ``textguard report`` once (``bench_meanings._report``)
and prints its wall time over the parse's wall time and its CPU (every process's) over the parse's CPU:
what Dagster, the start-up of each worker and the schedule add to the sum of the steps.
"""

from __future__ import annotations

import os
import resource
import shutil
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from benchmarks import SHARED_CORPUS
from benchmarks.bench_backfill import check_functions
from benchmarks.bench_meanings import _parse, _report
from textguard_pipeline.ingest.documents import discover_documents
from textguard_pipeline.lib.nlp import load_spacy
from textguard_pipeline.lib.parquet_files import write_parquet_atomic

CORPUS = SHARED_CORPUS


def _timed_parse(nlp, prose: list[str]) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of ``bench_meanings._parse``."""
    cpu = time.process_time()
    wall = _parse(nlp, prose)
    return time.process_time() - cpu, wall


def run_steps(corpus: Path, warehouse: Path) -> tuple[dict[str, float], list[str], dict[str, float]]:
    """CPU seconds by row of the table, the prose chunks of ``parsed_chunks``, and the start-up's CPU seconds."""
    from textguard_pipeline.operations.preload import preload_shared
    from textguard_pipeline.pipeline import components_from_env, run_document

    # as a report starts: the parent preloads the shared models, each (forked) worker builds its components
    startup = {"preload (once per report)": preload_shared()}
    t = time.process_time()
    comps = components_from_env()
    startup["components (once per worker)"] = time.process_time() - t
    checks = check_functions()
    cpu: dict[str, float] = defaultdict(float)
    prose: list[str] = []
    with comps:
        for doc_id, path in sorted(discover_documents(corpus).items()):
            frames: dict = {}
            clock = [time.process_time()]

            def on_frame(asset: str, df, doc_id: str = doc_id, frames: dict = frames, clock: list = clock) -> None:
                t0 = time.process_time()
                cpu[asset] += t0 - clock[0]
                write_parquet_atomic(df, warehouse / asset / f"{doc_id}.parquet")
                t1 = time.process_time()
                cpu["Parquet writes"] += t1 - t0
                frames[asset] = df
                sources = {doc_id: frames["source_documents"]}
                for fn, needs_sources, resources in checks.get(asset, ()):
                    extra = {"source_documents": sources} if needs_sources else {}
                    fn(context=None, value={doc_id: df}, **resources, **extra)
                cpu["asset checks (bodies)"] += time.process_time() - t1
                clock[0] = time.process_time()

            run_document(path, corpus, comps, on_frame=on_frame)
            if "parsed_chunks" in frames:
                df = frames["parsed_chunks"]
                prose += [t for k, t in zip(df["chunk_type"], df["text"]) if k == "prose" and t.strip()]
    return cpu, prose, startup


def main() -> None:
    if not CORPUS.is_dir():
        print(f"skipped: {CORPUS} is absent")
        return
    full = load_spacy(None, profile="full")
    with tempfile.TemporaryDirectory(prefix="bench-steps-") as tmp:
        corpus = Path(tmp) / "corpus"  # as bench_meanings.report_parses: the documents, not the list of sources
        shutil.copytree(CORPUS, corpus, ignore=shutil.ignore_patterns("SOURCES.md"))
        cpu, prose, startup = run_steps(corpus, Path(tmp) / "warehouse")
        _parse(full, prose[:20])
        parses = [_timed_parse(full, prose) for _ in range(2)]
        report = None
        if os.environ.get("BENCH_REPORT_STEPS_REPORT", "0") == "1":
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            wall = _report(corpus, Path(tmp) / "report")
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            kids = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
            parses.append(_timed_parse(full, prose))
            report = (wall, kids)
    parse_cpu = min(c for c, _ in parses)
    parse_wall = min(w for _, w in parses)
    steps = sum(cpu.values())
    print(f"{len(prose)} prose chunks, {sum(map(len, prose)):,} characters")
    print(f"spaCy full pipeline over them, one core: CPU {', '.join(f'{c:.1f}' for c, _ in parses)} s")
    print("| asset or step | CPU s | share of the steps | parses |")
    print("|---|---:|---:|---:|")
    for name, secs in sorted(cpu.items(), key=lambda kv: -kv[1]):
        print(f"| {name} | {secs:.1f} | {secs / steps:.1%} | {secs / parse_cpu:.3f} |")
    print(f"| **every step, one process** | {steps:.1f} | 100 % | **{steps / parse_cpu:.2f}** |")
    for name, secs in startup.items():
        print(f"| start-up: {name} | {secs:.1f} | | {secs / parse_cpu:.3f} |")
    if report is not None:
        wall, kids = report
        print(
            f"two-worker report: wall {wall:.1f} s, **{wall / parse_wall:.2f} × the parse's wall time**; "
            f"CPU {kids:.1f} s (every process), {kids / parse_cpu:.2f} × the parse's CPU, "
            f"{kids - steps:.1f} s more than the steps in one process"
        )


if __name__ == "__main__":
    main()
