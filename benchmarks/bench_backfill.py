"""Backfill throughput: Dagster multi-partition runs vs the bare core loop over the same documents.

Generates ``BENCH_BACKFILL_DOCS`` (default 240, at least 200) documents from
the sample corpus (each a sample document plus a distinct trailing line, so
every one has its own sha256), then

* **core loop**: ``read_document`` → ``parse_document`` → the same Parquet
  files (``source_documents/<id>.parquet``, ``parsed_chunks/<id>.parquet``),
  one document after another in this process: the floor of what the work costs;
* **dagster**: the same two assets through Dagster, ``TEXTGUARD_MAX_PARTITIONS_PER_RUN``
  documents per run (BackfillPolicy.multi_run), in-process executor, against a
  persistent SQLite instance (every event recorded, as in production) — once
  without and once with the asset checks — and once against an in-memory
  instance, which shows how much of the overhead is the event log.

Prints documents/second for each and the ratio dagster/core (goal ≥ 0.8).
Dagster's cost is per (asset, document): one ASSET_MATERIALIZATION event each,
stored in the instance; read + parse is only ~10 ms per document, so the
ratio here is a lower bound — with the heavier assets (spaCy NER, WordNet)
the same fixed cost is a much smaller share.
"""

import os
import shutil
import tempfile
import time
import warnings
from pathlib import Path

warnings.filterwarnings("ignore")

MIN_DOCS = 200


def generate_corpus(dest: Path, n: int) -> list[str]:
    """``n`` documents made from the sample corpus, each unique."""
    from textguard_pipeline import settings
    from textguard_pipeline.core.documents import discover_documents

    samples = discover_documents(settings.PROJECT_ROOT / "data" / "corpus")
    if not samples:
        raise SystemExit("no sample documents in data/corpus")
    paths = [samples[k] for k in sorted(samples)]
    dest.mkdir(parents=True, exist_ok=True)
    for i in range(n):
        src = paths[i % len(paths)]
        text = src.read_text(encoding="utf-8")
        (dest / f"d{i:04d}_{src.stem}{src.suffix}").write_text(text + f"\n\nGenerated copy {i}.\n", encoding="utf-8")
    return sorted(discover_documents(dest))


def core_loop(corpus: Path, warehouse: Path) -> int:
    """The bare library over every document: read, parse, write the same Parquet files."""
    from textguard_pipeline.core.documents import discover_documents, read_document
    from textguard_pipeline.core.frames import chunks_frame, source_frame
    from textguard_pipeline.core.parsing import parse_document
    from textguard_pipeline.io_managers import write_parquet_atomic

    n = 0
    for doc_id, path in sorted(discover_documents(corpus).items()):
        doc = read_document(path, corpus)
        write_parquet_atomic(source_frame(doc), warehouse / "source_documents" / f"{doc_id}.parquet")
        chunks = parse_document(doc.text, doc.format)
        write_parquet_atomic(chunks_frame(doc_id, chunks), warehouse / "parsed_chunks" / f"{doc_id}.parquet")
        n += 1
    return n


def dagster_backfill(home: Path | None, docs: list[str], with_checks: bool) -> tuple[int, int]:
    """Materialize source_documents + parsed_chunks for ``docs`` in multi-partition runs; (runs, failures)."""
    from dagster import AssetSelection, DagsterInstance, Definitions, define_asset_job
    from dagster._core.storage.tags import ASSET_PARTITION_RANGE_END_TAG, ASSET_PARTITION_RANGE_START_TAG

    from textguard_pipeline import settings
    from textguard_pipeline.definitions import build_definitions
    from textguard_pipeline.partitions import contiguous_ranges, documents_partitions

    selection = AssetSelection.assets("source_documents", "parsed_chunks")
    if not with_checks:
        selection = selection.without_checks()
    job_def = define_asset_job("bench_backfill", selection=selection, partitions_def=documents_partitions)
    defs = Definitions.merge(build_definitions(), Definitions(jobs=[job_def]))
    job = defs.resolve_job_def("bench_backfill")
    runs = failures = 0
    with (DagsterInstance.from_config(str(home)) if home else DagsterInstance.ephemeral()) as instance:
        instance.add_dynamic_partitions(documents_partitions.name, docs)
        for first, last in contiguous_ranges(docs, docs, settings.max_partitions_per_run()):
            result = job.execute_in_process(
                instance=instance,
                tags={ASSET_PARTITION_RANGE_START_TAG: first, ASSET_PARTITION_RANGE_END_TAG: last},
                raise_on_error=False,
            )
            runs += 1
            failures += 0 if result.success else 1
    return runs, failures


def main() -> None:
    from textguard_pipeline import settings

    n = max(MIN_DOCS, int(os.environ.get("BENCH_BACKFILL_DOCS", "240")))
    tmp = Path(tempfile.mkdtemp(prefix="tg_bench_backfill_"))
    saved = {k: os.environ.get(k) for k in ("TEXTGUARD_CORPUS_DIR", "TEXTGUARD_WAREHOUSE", "DAGSTER_HOME")}
    try:
        corpus = tmp / "corpus"
        docs = generate_corpus(corpus, n)
        mb = sum(p.stat().st_size for p in corpus.iterdir()) / 1e6
        print(f"{len(docs)} documents, {mb:.1f} MB, {settings.max_partitions_per_run()} documents per run")
        os.environ["TEXTGUARD_CORPUS_DIR"] = str(corpus)

        t = time.perf_counter()
        core_n = core_loop(corpus, tmp / "wh_core")
        core_s = time.perf_counter() - t

        rows = [("core loop (read + parse + Parquet)", core_n, core_s)]
        variants = [("sqlite", False, "dagster multi_run, SQLite instance"),
                    ("sqlite", True, "dagster multi_run + checks, SQLite instance"),
                    ("memory", False, "dagster multi_run, in-memory instance")]
        for i, (storage, with_checks, label) in enumerate(variants):
            home = None
            if storage == "sqlite":
                home = tmp / f"home_{i}"
                home.mkdir()
                shutil.copy(settings.PROJECT_ROOT / "dagster.yaml", home / "dagster.yaml")
                os.environ["DAGSTER_HOME"] = str(home)
            os.environ["TEXTGUARD_WAREHOUSE"] = str(tmp / f"wh_{i}")
            t = time.perf_counter()
            runs, failures = dagster_backfill(home, docs, with_checks)
            secs = time.perf_counter() - t
            rows.append((f"{label} ({runs} runs{', FAILED ' + str(failures) if failures else ''})", len(docs), secs))

        base = core_n / core_s
        print(f"{'variant':<60} {'docs':>5} {'seconds':>8} {'docs/s':>8} {'ratio':>6}")
        for label, count, secs in rows:
            rate = count / secs
            print(f"{label:<60} {count:>5} {secs:>8.2f} {rate:>8.1f} {rate / base:>6.2f}")
        ratio = (rows[1][1] / rows[1][2]) / base
        per_doc_ms = (rows[1][2] - core_s) / len(docs) * 1000
        print(f"dagster/core ratio (same work, SQLite instance, no checks): {ratio:.2f} "
              f"(goal ≥ 0.8: {'met' if ratio >= 0.8 else 'NOT met'}); "
              f"Dagster overhead ≈ {per_doc_ms:.0f} ms per document for 2 assets")
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
