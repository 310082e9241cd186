"""Backfill throughput: Dagster multi-partition runs vs the bare core loop over the same documents.

Two tiers, each timed in this run against its own baseline:

1. **root assets** (``source_documents`` + ``parsed_chunks``): ``BENCH_BACKFILL_DOCS``
   (default 240, at least 200) copies of the sample documents (each made unique by a
   trailing line). Read + parse (+ language detection) is only ~10 ms per document, so this tier shows
   Dagster's *fixed* cost per (asset, document): the events it stores.
2. **whole pipeline** (all eight assets): ``BENCH_FULL_DOCS`` (default 200, at least
   200) documents cut from the sample documents (the first ~``BENCH_FULL_CHARS``
   characters, cut at a paragraph boundary, each unique). Core loop =
   ``core.pipeline.run_document`` over every document writing the same Parquet files
   with ``write_parquet_atomic``; Dagster = the eight assets through multi-partition
   runs. This is the honest comparison: the same work, with and without Dagster.

Dagster runs: ``TEXTGUARD_MAX_PARTITIONS_PER_RUN`` documents per run (BackfillPolicy.multi_run),
``execute_in_process``, console logger at WARNING (as ``textguard report``), every event stored in a
persistent instance:

* **PostgreSQL, deploy/postgres/dagster.yaml** (the production instance: pooled event log with
  batched asset events, :mod:`textguard_pipeline.operations.instance_storage`) — the goal is measured here;
* the same with the asset checks;
* PostgreSQL with dagster-postgres' stock event log (a new connection per event);
* SQLite (the local default ``dagster.yaml``: ``make run``, ``make ui``).

PostgreSQL is a throw-away server on 127.0.0.1 started by the benchmark (installed with apt-get
when missing), with ``fsync`` on, one database per variant. spaCy and WordNet are loaded, and each
sample text is run once, before anything is timed. Every variant of tier 2 runs ``BENCH_REPEATS``
(default 2) times and keeps its best time; within a repeat the variants are interleaved run by run (one
Dagster run of each, then the core loop over the same number of documents, the order rotating), so that
the machine's drift over minutes falls on every variant alike. Prints
documents/second for each, the ratio dagster/core (goal ≥ 0.8)
and Dagster's overhead in ms per document. ``BENCH_BACKFILL_TIERS=root|full`` runs one tier; ``BENCH_PER_CHECK=0`` skips the former one-step-per-check
variants.
"""

import os
import shutil
import tempfile
import time
import warnings
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Iterator

from textguard_pipeline.settings import restored_environ

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
    from textguard_pipeline.core.frames import parsed_chunks_frame, source_frame
    from textguard_pipeline.defs_kit.io_manager import write_parquet_atomic
    from textguard_pipeline.pipeline import parse_chunks

    n = 0
    for doc_id, path in sorted(discover_documents(corpus).items()):
        doc = read_document(path, corpus)
        write_parquet_atomic(source_frame(doc), warehouse / "source_documents" / f"{doc_id}.parquet")
        chunks = parse_chunks(doc.text, doc.format, doc.path, corpus)  # with languages, as the asset does
        write_parquet_atomic(parsed_chunks_frame(doc_id, chunks), warehouse / "parsed_chunks" / f"{doc_id}.parquet")
        n += 1
    return n


ROOT_ASSETS = ("source_documents", "parsed_chunks")
RUN_CONFIG = {"loggers": {"console": {"config": {"log_level": "WARNING"}}}}


def dagster_steps(
    home: Path | None, docs: list[str], with_checks, assets: tuple[str, ...] | None = ROOT_ASSETS
) -> Iterator[tuple[int, int]]:
    """Materialize ``assets`` (None: all) for ``docs`` in multi-partition runs, yielding (runs, failures)
    so far after each run: a caller can interleave other work between runs. The job is built once; the
    instance is opened for each run, as each run of a real backfill opens it in its own process."""
    from dagster import AssetSelection, DagsterInstance, Definitions, define_asset_job
    from dagster._core.storage.tags import ASSET_PARTITION_RANGE_END_TAG, ASSET_PARTITION_RANGE_START_TAG

    from textguard_pipeline import settings
    from textguard_pipeline.definitions import build_definitions
    from textguard_pipeline.defs_kit.partitions import contiguous_ranges, documents_partitions

    selection = AssetSelection.assets(*assets) if assets else AssetSelection.all()
    if not with_checks:
        selection = selection.without_checks()
    job_def = define_asset_job("bench_backfill", selection=selection, partitions_def=documents_partitions)
    # with_checks: "grouped" = every check of an asset in one step (the default definitions), True = one
    # step per check (as before defs_kit/check_steps.py), False = no checks
    base_defs = build_definitions(grouped_checks=with_checks == "grouped")
    defs = Definitions.merge(base_defs, Definitions(jobs=[job_def]))
    job = defs.resolve_job_def("bench_backfill")
    runs = failures = 0
    ephemeral = DagsterInstance.ephemeral() if home is None else None  # its state lives only while open
    try:
        for first, last in contiguous_ranges(docs, docs, settings.max_partitions_per_run()):
            instance = ephemeral or DagsterInstance.from_config(str(home))
            try:
                if runs == 0:
                    instance.add_dynamic_partitions(documents_partitions.name, docs)
                result = job.execute_in_process(
                    instance=instance,
                    run_config=RUN_CONFIG,
                    tags={ASSET_PARTITION_RANGE_START_TAG: first, ASSET_PARTITION_RANGE_END_TAG: last},
                    raise_on_error=False,
                )
            finally:
                if ephemeral is None:
                    instance.dispose()
            runs += 1
            failures += 0 if result.success else 1
            yield runs, failures
    finally:
        if ephemeral is not None:
            ephemeral.dispose()


def generate_cut_corpus(dest: Path, n: int, max_chars: int) -> list[str]:
    """``n`` documents, each the start of a sample document (≤ ``max_chars``, cut at a paragraph
    boundary) plus a distinct line: bounded work per document, every one unique."""
    from textguard_pipeline import settings
    from textguard_pipeline.core.documents import discover_documents

    samples = discover_documents(settings.PROJECT_ROOT / "data" / "corpus")
    heads = []
    for key in sorted(samples):
        path = samples[key]
        text = path.read_text(encoding="utf-8")
        if len(text) > max_chars:
            cut = text.rfind("\n\n", 0, max_chars)
            text = text[: cut if cut > max_chars // 2 else max_chars]
        heads.append((path, text.rstrip("\n")))
    dest.mkdir(parents=True, exist_ok=True)
    for i in range(n):
        src, text = heads[i % len(heads)]
        (dest / f"d{i:04d}_{src.stem}{src.suffix}").write_text(f"{text}\n\nGenerated copy {i}.\n", encoding="utf-8")
    return sorted(discover_documents(dest))


def warm_up(corpus: Path, distinct: int) -> None:
    """Load spaCy (both profiles) and WordNet, and run the first ``distinct`` documents (one per
    sample text) through every step, untimed: both sides then start with the same warm
    per-process state (models, WordNet lookups shared per lexicon), whichever runs first."""
    from textguard_pipeline.core.documents import discover_documents
    from textguard_pipeline.core.pipeline import components_from_env, run_document

    paths = sorted(discover_documents(corpus).values())[: max(1, distinct)]
    with components_from_env() as comps:
        for path in paths:
            run_document(path, corpus, comps)


def check_functions() -> dict[str, list]:
    """asset → (body, needs source_documents, resources) of every asset check: the bodies the check steps
    run, a check that needs a resource called with the definitions' own resource (configured from the
    environment, as in the Dagster run)."""
    import inspect

    from textguard_pipeline.definitions import build_definitions
    from textguard_pipeline.defs_kit.check_steps import SOURCE, _groupable

    defs = build_definitions(grouped_checks=False)
    out: dict[str, list] = {}
    for chk in defs.asset_checks or []:
        info = _groupable(chk)
        if info is not None:
            asset, (_spec, body, needs_sources, keys) = info
            out.setdefault(asset, []).append((body, needs_sources, {key: defs.resources[key] for key in keys}))
            continue
        body = chk.op.compute_fn.decorated_fn
        params = list(inspect.signature(body).parameters)
        resources = {key: defs.resources[key] for key in chk.op.required_resource_keys}
        (spec,) = chk.check_specs
        out.setdefault(spec.asset_key.to_user_string(), []).append((body, SOURCE in params, resources))
    return out


def pipeline_steps(corpus: Path, warehouse: Path, with_checks: bool, per_step: int) -> Iterator[int]:
    """The core library over every document: ``run_document`` writing the same eight Parquet files;
    ``with_checks``: also every asset check's function on every document's rows (the work the check
    steps do on the Dagster side), so both sides do the same work. Yields the documents done so far after
    every ``per_step`` documents and at the end, as :func:`dagster_steps` yields after each run."""
    from textguard_pipeline.core.documents import discover_documents
    from textguard_pipeline.core.pipeline import components_from_env, run_document
    from textguard_pipeline.defs_kit.io_manager import write_parquet_atomic

    checks = check_functions() if with_checks else {}
    failed = 0
    n = 0
    paths = sorted(discover_documents(corpus).items())
    with components_from_env() as comps:
        for doc_id, path in paths:
            frames: dict = {}

            def write(asset: str, df, doc_id: str = doc_id, frames: dict = frames) -> None:
                write_parquet_atomic(df, warehouse / asset / f"{doc_id}.parquet")
                frames[asset] = df

            run_document(path, corpus, comps, on_frame=write)
            sources = {doc_id: frames["source_documents"]} if "source_documents" in frames else {}
            for asset, df in frames.items():
                for fn, needs_sources, resources in checks.get(asset, ()):
                    extra = {"source_documents": sources} if needs_sources else {}
                    result = fn(context=None, value={doc_id: df}, **resources, **extra)
                    failed += 0 if result.passed else 1
            n += 1
            if n % per_step == 0 or n == len(paths):
                if failed and n == len(paths):
                    print(f"(core loop: {failed} check evaluations failed)")
                yield n


def _sqlite_home(tmp: Path, name: str, stock: bool = False) -> Path:
    """A DAGSTER_HOME with the project's dagster.yaml (``stock``: without its event_log_storage block,
    i.e. Dagster's own SqliteEventLogStorage)."""
    import yaml

    from textguard_pipeline import settings

    home = tmp / name
    home.mkdir()
    cfg = yaml.safe_load((settings.PROJECT_ROOT / "deploy" / "sqlite" / "dagster.yaml").read_text()) or {}
    if stock:
        cfg.pop("event_log_storage", None)
    (home / "dagster.yaml").write_text(yaml.safe_dump(cfg))
    os.environ["DAGSTER_HOME"] = str(home)
    return home


def _pg_home(pg, tmp: Path, name: str, stock: bool) -> Path:
    """A fresh database on ``pg`` and a DAGSTER_HOME with deploy/postgres/dagster.yaml (or its
    stock-event-log twin) pointing at it."""
    from textguard_pipeline import settings
    from textguard_pipeline_tests.devservers import with_stock_event_log

    db = pg.create_database(name)
    os.environ.update(db.env())
    text = (settings.PROJECT_ROOT / "deploy" / "postgres" / "dagster.yaml").read_text()
    home = tmp / name
    home.mkdir()
    (home / "dagster.yaml").write_text(with_stock_event_log(text) if stock else text)
    os.environ["DAGSTER_HOME"] = str(home)
    return home


#: Environment a variant may change (the pooled storage sets DAGSTER_EVENT_BATCH_SIZE for its process).
_VARIANT_ENV = (
    "DAGSTER_HOME",
    "TEXTGUARD_WAREHOUSE",
    "DAGSTER_EVENT_BATCH_SIZE",
    "DAGSTER_PG_HOST",
    "DAGSTER_PG_PORT",
    "DAGSTER_PG_USER",
    "DAGSTER_PG_PASSWORD",
    "DAGSTER_PG_DB",
)


@contextmanager
def _postgres():
    """A durable throw-away PostgreSQL, or None (with the reason printed) when it cannot run here."""
    from textguard_pipeline_tests.devservers import ServerUnavailable, postgres_server

    with ExitStack() as stack:
        try:
            pg = stack.enter_context(postgres_server(durable=True))
        except ServerUnavailable as exc:
            print(f"(PostgreSQL variants skipped: {exc})")
            pg = None
        yield pg


def _table(rows: list[tuple[str, int, float]], base: float) -> None:
    width = max(66, *(len(label) for label, _, _ in rows))
    print(f"{'variant':<{width}} {'docs':>5} {'seconds':>8} {'docs/s':>8} {'ratio':>6}")
    for label, count, secs in rows:
        rate = count / secs
        print(f"{label:<{width}} {count:>5} {secs:>8.2f} {rate:>8.1f} {rate / base:>6.2f}")


def _best(times: list[float]) -> str:
    return f" best of {len(times)}: {', '.join(f'{t:.1f}' for t in times)} s" if len(times) > 1 else ""


def _runs_label(label: str, runs: int, failures: int) -> str:
    return f"{label} ({runs} runs{', FAILED ' + str(failures) if failures else ''})"


#: (instance, with checks, label); instance: "pg" = deploy/postgres/dagster.yaml, "pg-stock", "sqlite", "memory".
FULL_VARIANTS = [
    ("pg", False, "PostgreSQL deploy/postgres (pooled, batched events)"),
    ("pg", True, "PostgreSQL deploy/postgres + checks (one step per check)"),
    ("pg", "grouped", "PostgreSQL deploy/postgres + checks (one step per asset)"),
    ("sqlite", False, "SQLite, default dagster.yaml (batched event log)"),
    ("sqlite", True, "SQLite, default dagster.yaml + checks (one step per check)"),
    ("sqlite", "grouped", "SQLite, default dagster.yaml + checks (one step per asset)"),
]
#: measured once, for reference (BENCH_STOCK=0 skips them)
STOCK_VARIANTS = [
    ("pg-stock", False, "PostgreSQL, stock dagster-postgres event log"),
    ("sqlite-stock", False, "SQLite, stock SqliteEventLogStorage"),
]
ROOT_VARIANTS = [
    ("pg", False, "PostgreSQL deploy/postgres (pooled, batched events)"),
    ("sqlite", False, "SQLite (local default dagster.yaml)"),
    ("memory", False, "in-memory instance (DagsterInstance.ephemeral)"),
]


def _run_variant(
    pg, tmp: Path, name: str, kind: str, with_checks: bool, docs: list[str], assets
) -> tuple[int, int, float]:
    """One Dagster backfill on a fresh instance and warehouse, alone; (runs, failures, seconds)."""
    secs, (runs, failures), _steps = _interleave({0: _variant_lane(pg, tmp, name, kind, with_checks, docs, assets)})[0]
    return runs, failures, secs


def _run_variants(pg, tmp: Path, tier: str, variants, docs: list[str], assets) -> list[tuple[str, int, float]]:
    rows = []
    for i, (kind, with_checks, label) in enumerate(variants):
        if kind.startswith("pg") and pg is None:
            continue
        runs, failures, secs = _run_variant(pg, tmp, f"{tier}_{i}", kind, with_checks, docs, assets)
        rows.append((_runs_label(label, runs, failures), len(docs), secs))
    return rows


def _variant_lane(pg, tmp: Path, name: str, kind: str, with_checks: bool, docs: list[str], assets) -> Iterator:
    """:func:`_run_variant` as a lane of :func:`_interleave`: yields None once set up (the instance's
    schema created, untimed), then (runs, failures) after each run, each run in the variant's environment."""
    from dagster import DagsterInstance

    with restored_environ(*_VARIANT_ENV):
        os.environ["TEXTGUARD_WAREHOUSE"] = str(tmp / f"wh_{name}")
        if kind in ("sqlite", "sqlite-stock"):
            home = _sqlite_home(tmp, f"home_{name}", stock=kind == "sqlite-stock")
        elif kind == "memory":
            home = None
        else:
            home = _pg_home(pg, tmp, f"home_{name}", stock=kind == "pg-stock")
        if home is not None:
            # The instance's tables exist before a backfill starts, as on a user's machine: creating the
            # schema of a fresh database (1.5-2 s) is not timed; opening the instance is.
            DagsterInstance.from_config(str(home)).dispose()
        env = {k: os.environ.get(k) for k in _VARIANT_ENV}
    yield None
    steps = dagster_steps(home, docs, with_checks, assets)
    while True:
        with restored_environ(values=env):
            got = next(steps, None)
        if got is None:
            return
        yield got


def _core_lane(corpus: Path, warehouse: Path, with_checks, per_step: int) -> Iterator:
    yield None
    yield from pipeline_steps(corpus, warehouse, with_checks, per_step)


def _interleave(lanes: dict) -> dict:
    """Advance every lane one step at a time, round-robin, the starting lane rotating each round; each
    lane's first (set-up) step is not timed. {key: (seconds, its last value, seconds of each step)}."""
    for gen in lanes.values():
        next(gen)
    out = {key: [0.0, None, []] for key in lanes}
    active = list(lanes)
    rnd = 0
    while active:
        k = rnd % len(active)
        for key in active[k:] + active[:k]:
            t = time.perf_counter()
            got = next(lanes[key], None)
            if got is None:
                active.remove(key)
                continue
            secs = time.perf_counter() - t
            out[key][0] += secs
            out[key][1] = got
            out[key][2].append(secs)
        rnd += 1
    return {key: tuple(v) for key, v in out.items()}


def root_tier(tmp: Path) -> None:
    from textguard_pipeline import settings

    n = max(MIN_DOCS, int(os.environ.get("BENCH_BACKFILL_DOCS", "240")))
    corpus = tmp / "corpus_root"
    docs = generate_corpus(corpus, n)
    mb = sum(p.stat().st_size for p in corpus.iterdir()) / 1e6
    print("-- tier 1: source_documents + parsed_chunks (Dagster's fixed cost per event) --")
    print(f"{len(docs)} documents, {mb:.1f} MB, {settings.max_partitions_per_run()} documents per run")
    os.environ["TEXTGUARD_CORPUS_DIR"] = str(corpus)

    t = time.perf_counter()
    core_n = core_loop(corpus, tmp / "wh_root_core")
    core_s = time.perf_counter() - t
    rows = [("core loop (read + parse + Parquet)", core_n, core_s)]
    with _postgres() as pg:
        rows += _run_variants(pg, tmp, "root", ROOT_VARIANTS, docs, ROOT_ASSETS)
    base = core_n / core_s
    _table(rows, base)
    for label, count, secs in rows[1:]:
        per_doc_ms = (secs - core_s) / count * 1000
        print(
            f"{label.split(' (')[0]}: dagster/core {(count / secs) / base:.2f}; Dagster overhead ≈ "
            f"{per_doc_ms:.0f} ms per document for 2 assets"
        )


def pipeline_tier(tmp: Path) -> None:
    from textguard_pipeline import settings
    from textguard_pipeline.core.documents import discover_documents

    n = max(MIN_DOCS, int(os.environ.get("BENCH_FULL_DOCS", "200")))
    max_chars = int(os.environ.get("BENCH_FULL_CHARS", "5000"))
    corpus = tmp / "corpus_full"
    docs = generate_cut_corpus(corpus, n, max_chars)
    mb = sum(p.stat().st_size for p in corpus.iterdir()) / 1e6
    print("\n-- tier 2: the whole pipeline (eight assets) --")
    print(
        f"{len(docs)} documents (≤ {max_chars} chars each), {mb:.1f} MB, "
        f"{settings.max_partitions_per_run()} documents per run"
    )
    os.environ["TEXTGUARD_CORPUS_DIR"] = str(corpus)
    t = time.perf_counter()
    distinct = len(discover_documents(settings.PROJECT_ROOT / "data" / "corpus"))
    warm_up(corpus, distinct)
    print(
        f"(warm-up, not timed: spaCy + WordNet loaded, each of the {distinct} sample texts run once: "
        f"{time.perf_counter() - t:.1f}s)"
    )

    # Every variant runs BENCH_REPEATS times and keeps its best time. Within a repeat the variants are
    # interleaved run by run (one Dagster run of max_partitions_per_run documents, then the same number of
    # documents through each other variant, the order rotating): a shared 2-core machine's speed drifts by
    # tens of percent over minutes, and a variant timed whole in a slow minute would carry all of it.
    # Variants with checks are compared with the core loop that also runs every check function on every
    # document (the same work on both sides).
    repeats = max(1, int(os.environ.get("BENCH_REPEATS", "2")))
    core_times: dict[bool, list[float]] = {False: [], True: []}
    times: dict[int, list[tuple[int, int, float]]] = {i: [] for i in range(len(FULL_VARIANTS))}
    only = {k for k in os.environ.get("BENCH_FULL_ONLY", "").split(",") if k}  # e.g. "sqlite": skip PostgreSQL
    plain = os.environ.get("BENCH_NO_CHECKS", "1") != "0"  # 0: only the rows with checks (and their core loop)
    per_run = settings.max_partitions_per_run()
    with _postgres() as pg:
        for r in range(repeats):
            lanes: dict = {}
            for checks in (False, True) if plain else (True,):
                lanes[("core", checks)] = _core_lane(corpus, tmp / f"wh_full_core_{r}_{checks}", checks, per_run)
            for i, (kind, with_checks, label) in enumerate(FULL_VARIANTS):
                if (kind.startswith("pg") and pg is None) or (only and kind not in only):
                    continue
                if not with_checks and not plain:
                    continue
                if with_checks is True and os.environ.get("BENCH_PER_CHECK", "1") == "0":
                    continue  # the former layout (one step per check), for reference only
                lanes[i] = _variant_lane(pg, tmp, f"full_{i}_{r}", kind, with_checks, docs, None)
            print(f"  repeat {r + 1} (seconds per run of {per_run} documents, then the sum):", flush=True)
            for key, (secs, last, steps) in _interleave(lanes).items():
                if isinstance(key, tuple):
                    core_times[key[1]].append(secs)
                    core_n = last
                    label = f"core loop{' + checks' if key[1] else ''}"
                else:
                    times[key].append((*last, secs))
                    label = FULL_VARIANTS[key][2]
                print(f"    {label}: {' + '.join(f'{t:.1f}' for t in steps)} = {secs:.1f} s", flush=True)
        stock = []
        if os.environ.get("BENCH_STOCK", "1") != "0":
            stock = _run_variants(pg, tmp, "full_stock", STOCK_VARIANTS, docs, None)
    base = {c: core_n / min(ts) for c, ts in core_times.items() if ts}
    labels = {
        False: "core loop (run_document + the same 8 Parquet files)",
        True: "core loop + every check function on every row",
    }
    rows = [(f"{labels[c]}{_best(ts)}", core_n, min(ts)) for c, ts in core_times.items() if ts]
    print(f"{'variant':<70} {'docs':>5} {'seconds':>8} {'docs/s':>8}")
    for label, count, secs in rows:
        print(f"{label:<70} {count:>5} {secs:>8.2f} {count / secs:>8.1f}")
    print(f"\n{'Dagster variant':<70} {'docs':>5} {'seconds':>8} {'docs/s':>8} {'dagster/core':>12}")
    goals = {("pg", True): 0.8, ("sqlite", True): 0.7, ("pg", "grouped"): 0.8, ("sqlite", "grouped"): 0.7}
    summary = []
    for i, (kind, with_checks, label) in enumerate(FULL_VARIANTS):
        if not times[i]:
            continue
        runs, failures, secs = min(times[i], key=lambda h: h[2])
        ratio = (len(docs) / secs) / base[bool(with_checks)]
        name = _runs_label(label, runs, failures) + _best([h[2] for h in times[i]])
        print(f"{name:<70} {len(docs):>5} {secs:>8.2f} {len(docs) / secs:>8.1f} {ratio:>12.2f}")
        goal = goals.get((kind, with_checks))
        core_s = min(core_times[bool(with_checks)])
        summary.append(
            f"{label}: dagster/core {ratio:.2f}"
            + (f" (goal ≥ {goal}: {'met' if ratio >= goal else 'NOT met'})" if goal else "")
            + f"; Dagster overhead ≈ {(secs - core_s) / len(docs) * 1000:.0f} ms per document"
        )
    for label, count, secs in stock:
        ratio = (count / secs) / base[False]
        print(f"{label:<70} {count:>5} {secs:>8.2f} {count / secs:>8.1f} {ratio:>12.2f}")
    print("\n" + "\n".join(summary))


def main() -> None:
    tiers = os.environ.get("BENCH_BACKFILL_TIERS", "root,full").split(",")
    tmp = Path(tempfile.mkdtemp(prefix="tg_bench_backfill_"))
    try:
        with restored_environ("TEXTGUARD_CORPUS_DIR", *_VARIANT_ENV):
            if "root" in tiers:
                root_tier(tmp)
            if "full" in tiers:
                pipeline_tier(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
