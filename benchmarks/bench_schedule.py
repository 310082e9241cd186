"""Scheduling two workers (issue 50, item 3): the two-worker report with one contiguous range per worker (before)
against a few ranges per worker taken dearest first from one queue (now, ``operations.parallel.cost_units``),
and what each format costs per byte, in one run.

The corpus is skewed on purpose and small, so the bench takes minutes, not the ≈ 25 of its first version (25
documents, 0.39 MB, with reST pages and licence texts): the dev corpus's Markdown and LaTeX (../shared/corpus)
and the first 60 kB of its plain-text RFC (whole pages), ≈ 0.3 MB in 17 documents.

``textguard report`` on two workers over it, a fresh warehouse and instance each time, with one range per
worker (``UNITS_PER_WORKER = 1``: what the report did before) and with the queue, interleaved, best of
``BENCH_SCHEDULE_REPEATS`` (default 1) each. Then, from the last report's own step timings (the ``seconds``
every asset records per document), what each format costs per 100 kB and relative to plain text: the figures
behind ``operations.parallel.FORMAT_COST``, printed next to the constants.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks import SHARED_CORPUS

SHARED = SHARED_CORPUS
# the report's "before": one contiguous range per worker
_ONE_RANGE_PER_WORKER = (
    "import sys, textguard_pipeline.operations.parallel as p; p.UNITS_PER_WORKER = 1; "
    "from textguard_pipeline.cli import main; sys.argv[0] = 'textguard'; sys.exit(main())"
)
#: how much of the RFC the corpus holds (the whole RFC is 60 % of the dev corpus and a long run)
RFC_HEAD = 60_000


def mixed_corpus(dest: Path) -> Path:
    """The skewed corpus under ``dest``: Markdown and LaTeX of the dev corpus, the RFC's first pages."""
    for sub in ("md", "tex"):
        if (SHARED / sub).is_dir():
            shutil.copytree(SHARED / sub, dest / sub, dirs_exist_ok=True)
    rfc = SHARED / "txt" / "rfc8446.txt"
    if rfc.is_file():
        text = rfc.read_text(encoding="utf-8")
        (dest / "txt").mkdir(parents=True, exist_ok=True)
        (dest / "txt" / "rfc8446_head.txt").write_text(text[: text.rfind("\f", 0, RFC_HEAD) + 1], encoding="utf-8")
    return dest


def format_costs(home: Path, corpus: Path) -> dict[str, tuple[float, int]]:
    """suffix → (seconds, bytes): the per-document step seconds every asset recorded (``seconds`` in its
    materialization metadata) in the report whose instance lives in ``home``, summed by file ending."""
    from dagster import DagsterInstance

    from textguard_pipeline.ingest.documents import discover_documents

    paths = discover_documents(corpus)
    per_doc: dict[str, float] = {}
    with DagsterInstance.from_config(str(home)) as instance:
        for key in instance.get_asset_keys():
            for mat in _materializations(instance, key):
                secs = mat.metadata.get("seconds")
                if mat.partition in paths and secs is not None:
                    per_doc[mat.partition] = per_doc.get(mat.partition, 0.0) + float(secs.value)
    out: dict[str, tuple[float, int]] = {}
    for doc, secs in per_doc.items():
        suffix, size = paths[doc].suffix, paths[doc].stat().st_size
        s, b = out.get(suffix, (0.0, 0))
        out[suffix] = (s + secs, b + size)
    return out


def _materializations(instance, key):
    cursor = None
    while True:
        page = instance.fetch_materializations(key, limit=10_000, cursor=cursor)
        yield from (r.asset_materialization for r in page.records if r.asset_materialization is not None)
        if not page.has_more:
            return
        cursor = page.cursor


def print_costs(costs: dict[str, tuple[float, int]]) -> None:
    from textguard_pipeline.operations.parallel import FORMAT_COST

    plain = costs.get(".txt")
    base = plain[0] / plain[1] if plain else None
    print("| format | bytes | seconds | s per 100 kB | relative to .txt | FORMAT_COST |")
    print("|---|---:|---:|---:|---:|---:|")
    for suffix, (secs, size) in sorted(costs.items()):
        rel = f"{secs / size / base:.2f}" if base else "n/a"
        print(
            f"| {suffix} | {size:,} | {secs:.1f} | {1e5 * secs / size:.2f} | {rel} | {FORMAT_COST.get(suffix, 1.0)} |"
        )


def _report(corpus: Path, place: Path, before: bool) -> float:
    shutil.rmtree(place, ignore_errors=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DAGSTER_", "TEXTGUARD_CORPUS", "TEXTGUARD_WARE"))}
    env.update(DAGSTER_HOME=str(place / "home"), TEXTGUARD_CORPUS_DIR=str(corpus))
    env.update(TEXTGUARD_WAREHOUSE=str(place / "warehouse"), TEXTGUARD_REPORT_WORKERS="2")
    head = [sys.executable, "-c", _ONE_RANGE_PER_WORKER] if before else [sys.executable, "-m", "textguard_pipeline.cli"]
    t = time.perf_counter()
    done = subprocess.run([*head, "report", "--out", str(place / "out")], env=env, capture_output=True, text=True)
    took = time.perf_counter() - t
    runs = [ln.strip() for ln in done.stdout.splitlines() if ln.lstrip().startswith("[") and " run " in ln]
    print(
        f"  {'one range per worker' if before else 'queue, dearest first'}: rc {done.returncode}, {took:.1f} s",
        flush=True,
    )
    for ln in runs:
        print(f"    {ln[:150]}")
    return took


def report_split(corpus: Path, tmp: Path, repeats: int) -> None:
    """Two-worker report wall time, one range per worker against the queue, interleaved; then what each format
    cost per byte in the last report."""
    before, now = [], []
    for _ in range(repeats):
        before.append(_report(corpus, tmp / "run", True))
        now.append(_report(corpus, tmp / "run", False))
    print_costs(format_costs(tmp / "run" / "home", corpus))
    b, c = min(before), min(now)
    print(
        f"**two-worker report, queue / one range per worker: {c / b:.2f}** ({c:.1f} s / {b:.1f} s, best of {repeats})"
    )


def main() -> None:
    if not SHARED.is_dir():
        print(f"skipped: {SHARED} is absent")
        return
    with tempfile.TemporaryDirectory(prefix="bench-schedule-") as tmp:
        corpus = mixed_corpus(Path(tmp) / "corpus")
        report_split(corpus, Path(tmp), int(os.environ.get("BENCH_SCHEDULE_REPEATS", "1")))


if __name__ == "__main__":
    main()
