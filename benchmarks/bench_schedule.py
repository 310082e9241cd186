"""Scheduling two workers by expected cost (issue 50, item 3): what each format costs per byte, and the two-worker
report with documents cut by bytes against cut by expected cost, in one run.

The mixed corpus: the public dev corpus's Markdown and LaTeX (../shared/corpus), the first 80 kB of its
plain-text RFC, a few reStructuredText pages of pip's and setuptools' documentation and three licence texts as
plain text (from this machine's /usr/share; none of them among the acceptance packages).

``textguard report`` on two workers over it, a fresh warehouse and instance each time, with the two ranges cut by
bytes (the split before issue 50) and by expected cost (now, ``operations.parallel.expected_cost``), interleaved,
best of ``BENCH_SCHEDULE_REPEATS`` (default 1) each. Then, from the last report's own step timings (the
``seconds`` every asset records per document), what each format costs per 100 kB and relative to plain text: the
figures behind ``operations.parallel.FORMAT_COST``, printed next to the constants.
"""

from __future__ import annotations

import gzip
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks import SHARED_CORPUS

SHARED = SHARED_CORPUS
#: (source, name in the mixed corpus): other packages' docs on this machine (not acceptance packages)
EXTRA = [
    ("/usr/share/doc/python3-pip/html/development/getting-started.rst.gz", "rst/pip_getting_started.rst"),
    ("/usr/share/doc/python3-pip/html/development/contributing.rst.gz", "rst/pip_contributing.rst"),
    ("/usr/share/doc/python3-pip/html/development/release-process.rst.gz", "rst/pip_release_process.rst"),
    ("/usr/share/doc/python3-pip/html/ux_research_design.rst", "rst/pip_ux_research.rst"),
    ("/usr/share/doc/python3-setuptools/build_meta.rst.gz", "rst/setuptools_build_meta.rst"),
    ("/usr/share/common-licenses/GPL-3", "txt/gpl3.txt"),
    ("/usr/share/common-licenses/MPL-2.0", "txt/mpl2.txt"),
    ("/usr/share/common-licenses/Apache-2.0", "txt/apache2.txt"),
]

# the report's "before": weights were the file sizes
_BYTES_SPLIT = (
    "import sys, textguard_pipeline.operations.parallel as p; p.expected_cost = lambda path, size: float(size); "
    "from textguard_pipeline.cli import main; sys.argv[0] = 'textguard'; sys.exit(main())"
)


def mixed_corpus(dest: Path) -> Path:
    """The mixed corpus under ``dest`` (Markdown, LaTeX, reST, plain text)."""
    for sub in ("md", "tex"):
        if (SHARED / sub).is_dir():
            shutil.copytree(SHARED / sub, dest / sub, dirs_exist_ok=True)
    rfc = SHARED / "txt" / "rfc8446.txt"
    if rfc.is_file():  # its first 80 kB (whole pages): the whole RFC is 60 % of the corpus and a long run
        text = rfc.read_text(encoding="utf-8")
        (dest / "txt").mkdir(parents=True, exist_ok=True)
        (dest / "txt" / "rfc8446_head.txt").write_text(text[: text.rfind("\f", 0, 80_000) + 1], encoding="utf-8")
    for src, name in EXTRA:
        path = Path(src)
        if not path.is_file():
            continue
        out = dest / name
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(gzip.decompress(path.read_bytes()) if path.suffix == ".gz" else path.read_bytes())
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


def _report(corpus: Path, place: Path, by_bytes: bool) -> float:
    shutil.rmtree(place, ignore_errors=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DAGSTER_", "TEXTGUARD_CORPUS", "TEXTGUARD_WARE"))}
    env.update(DAGSTER_HOME=str(place / "home"), TEXTGUARD_CORPUS_DIR=str(corpus))
    env.update(TEXTGUARD_WAREHOUSE=str(place / "warehouse"), TEXTGUARD_REPORT_WORKERS="2")
    head = [sys.executable, "-c", _BYTES_SPLIT] if by_bytes else [sys.executable, "-m", "textguard_pipeline.cli"]
    t = time.perf_counter()
    done = subprocess.run([*head, "report", "--out", str(place / "out")], env=env, capture_output=True, text=True)
    took = time.perf_counter() - t
    runs = [ln.strip() for ln in done.stdout.splitlines() if ln.lstrip().startswith("[") and " run " in ln]
    print(f"  {'bytes' if by_bytes else 'cost '} split: rc {done.returncode}, {took:.1f} s", flush=True)
    for ln in runs:
        print(f"    {ln[:150]}")
    return took


def report_split(corpus: Path, tmp: Path, repeats: int) -> None:
    """Two-worker report wall time, ranges cut by bytes vs by expected cost, interleaved; then what each format
    cost per byte in the last report."""
    by_bytes, by_cost = [], []
    for _ in range(repeats):
        by_bytes.append(_report(corpus, tmp / "run", True))
        by_cost.append(_report(corpus, tmp / "run", False))
    print_costs(format_costs(tmp / "run" / "home", corpus))
    b, c = min(by_bytes), min(by_cost)
    print(f"**two-worker report, cost split / bytes split: {c / b:.2f}** ({c:.1f} s / {b:.1f} s, best of {repeats})")


def main() -> None:
    if not SHARED.is_dir():
        print(f"skipped: {SHARED} is absent")
        return
    with tempfile.TemporaryDirectory(prefix="bench-schedule-") as tmp:
        corpus = mixed_corpus(Path(tmp) / "corpus")
        report_split(corpus, Path(tmp), int(os.environ.get("BENCH_SCHEDULE_REPEATS", "1")))


if __name__ == "__main__":
    main()
