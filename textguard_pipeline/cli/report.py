"""`textguard report` (and its alias `run`): materialize every asset for every document, print and write the check report."""

from __future__ import annotations

import argparse

from .. import settings


def cmd_report(args: argparse.Namespace) -> int:
    # lazy: the CLI imports a command's modules when it runs (`textguard --help` stays fast)
    from ..operations.preflight import UnusablePath
    from ..operations.safe_text import install_safe_log_records

    settings.set_paths(corpus=args.corpus, warehouse=args.warehouse, rewrite_task=getattr(args, "rewrite", None))
    install_safe_log_records()  # no escape sequence from a file name reaches the terminal, Dagster's lines included
    try:
        return run_report(
            out_dir=args.out,
            batch_size=args.batch_size,
            select=args.select,
            quiet=args.quiet,
            workers=args.workers,
            fail_on_warn=getattr(args, "fail_on_warn", False),
        )
    except Exception as exc:
        if not _disk_full(exc):
            raise
        raise UnusablePath(
            f"the Dagster instance folder {settings.dagster_home()} is full (its SQLite database could not grow): "
            "free space there or set DAGSTER_HOME to a folder with room, then run the report again"
        ) from None


def _disk_full(exc: BaseException | None) -> bool:
    """True when ``exc`` or what caused it is SQLite's "database or disk is full" (or ENOSPC on the instance)."""
    seen = 0
    while exc is not None and seen < 20:
        if "database or disk is full" in str(exc):
            return True
        exc, seen = exc.__cause__ or exc.__context__, seen + 1
    return False


def run_report(
    out_dir: str | None,
    batch_size: int | None = None,
    select: str | None = None,
    quiet: bool = False,
    workers: int | None = None,
    fail_on_warn: bool = False,
) -> int:
    # lazy: the CLI imports a command's modules when it runs (`textguard --help` stays fast)
    from ..operations.preflight import check_run_paths
    from ..operations.report import materialize_corpus, render_markdown, write_report

    check_run_paths(settings.dagster_home(), settings.warehouse(), out_dir, response_caches())
    log = (lambda *_a, **_k: None) if quiet else (lambda m: print(m, flush=True))
    estimate = llm_cost_estimate(select)
    if estimate:
        print(estimate, flush=True)  # before any paid call, also with --quiet
    res = materialize_corpus(
        batch_size=batch_size, select=select, log=log, quiet=quiet, workers=workers or settings.report_workers()
    )
    if out_dir:
        write_report(res, out_dir, fail_on_warn)
        _export_rewritten(res.documents, out_dir, select, log)
    print(render_markdown(res, out_dir))
    return res.exit_code(fail_on_warn)


def _export_rewritten(doc_ids: list[str], out_dir: str, select: str | None, log) -> None:
    """With rewriting on: each rewritten document under ``<out>/rewritten/<path>``, its review page beside it."""
    if not settings.rewrite_settings().enabled or (select and "rewritten_documents" not in select):
        return
    from ..roundtrip.export import export_rewritten  # lazy: only when rewriting is on

    done = export_rewritten(settings.warehouse(), doc_ids, out_dir)
    log(f"wrote {len(done.written)} rewritten document(s) under {out_dir}/rewritten")
    for doc_id, why in sorted(done.missing.items()):
        log(f"  {doc_id}: {why}")


def response_caches() -> dict[str, str]:
    """The response caches this report may write (an LLM is configured, or Wikidata is looked up online)."""
    llm, wikidata = settings.llm_settings(), settings.wikidata_settings()
    caches = {}
    if llm.enabled and llm.cache:
        caches["the LLM response cache (TEXTGUARD_LLM_CACHE_DIR; TEXTGUARD_LLM_CACHE=off turns it off)"] = llm.cache_dir
    if wikidata.mode == "online" and wikidata.cache_dir:
        caches["the Wikidata cache (TEXTGUARD_WIKIDATA_CACHE)"] = wikidata.cache_dir
    return caches


def llm_cost_estimate(select: str | None = None) -> str | None:
    """The estimated LLM cost of this corpus when resolved_meanings will call an LLM (else None)."""
    # lazy: the CLI imports a command's modules when it runs (`textguard --help` stays fast)
    from ..ingest.documents import DocumentError, discover_documents, read_document
    from ..meanings.cost import estimate_texts

    llm, meanings = settings.llm_settings(), settings.meanings_settings()
    if not (llm.enabled and meanings.use_llm) or (select and "resolved_meanings" not in select):
        return None
    root = settings.corpus_dir()
    texts = []
    for path in discover_documents(root).values():
        try:
            texts.append(read_document(path, root).text)
        except DocumentError:
            continue  # reported by the run
    return estimate_texts(texts, meanings, llm).summary()


REPORT_DESCRIPTION = (
    "Materialize every asset for every document of the corpus through Dagster, "
    "print the check report, and write it to --out as asset-checks.md and asset-checks.xml (JUnit). The exit "
    "status is 1 when a blocking check fails or a document cannot be processed; failed WARN checks read "
    '"passed with N warnings" and exit 0 unless --fail-on-warn.'
)
REPORT_EXAMPLES = """examples:
  textguard report                                  # the sample corpus, report files in reports/
  DAGSTER_HOME=~/tg/home textguard report --corpus ~/docs --warehouse ~/tg/warehouse --out ~/tg/reports
  textguard report --rewrite paraphrase             # also rewrite through the LLM at $TEXTGUARD_LLM_URL
  textguard report --fail-on-warn                   # a CI gate: warnings fail it too"""
RUN_DESCRIPTION = (
    "The same as `textguard report`, with the same options, except that it writes no report files unless "
    "--out is given: it only prints the check report."
)
RUN_EXAMPLES = """examples:
  textguard run                                     # print the check report of the sample corpus
  textguard run --corpus ~/docs --warehouse ~/tg/warehouse"""


def register_cli(subparsers: argparse._SubParsersAction) -> None:
    for name, help_text, description, examples in (
        (
            "report",
            "materialize every document, print the check report and write it to --out",
            REPORT_DESCRIPTION,
            REPORT_EXAMPLES,
        ),
        ("run", "alias of report that writes no report files unless --out is given", RUN_DESCRIPTION, RUN_EXAMPLES),
    ):
        r = subparsers.add_parser(
            name,
            help=help_text,
            description=description,
            epilog=examples,
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        r.add_argument("--corpus", help="corpus directory (default: $TEXTGUARD_CORPUS_DIR or data/corpus)")
        r.add_argument("--warehouse", help="Parquet base path or URL (default: $TEXTGUARD_WAREHOUSE or data/warehouse)")
        r.add_argument(
            "--out",
            default="reports" if name == "report" else None,
            help="folder for the report files (report: default reports; run: none written unless given)",
        )
        r.add_argument(
            "--batch-size",
            type=int,
            default=None,
            help="documents per run (default: $TEXTGUARD_MAX_PARTITIONS_PER_RUN or 50)",
        )
        r.add_argument(
            "--select",
            default=None,
            help="which assets to materialize, as a Dagster selection, e.g. 'parsed_chunks+' (default: every asset)",
        )
        r.add_argument("--quiet", action="store_true", help="print only the summary")
        r.add_argument(
            "--fail-on-warn",
            action="store_true",
            help="exit non-zero when a WARN check failed too (for CI gates); JUnit then counts it as a failure",
        )
        r.add_argument(
            "--rewrite",
            metavar="TASK",
            default=None,
            help="rewrite prose through the LLM at $TEXTGUARD_LLM_URL (paraphrase, translate:<language>, simplify, "
            "or an instruction; shorthand for TEXTGUARD_REWRITE_TASK); --out gets rewritten/<path> and review pages",
        )
        r.add_argument(
            "--workers",
            type=int,
            default=None,
            help="processes running document ranges (default: $TEXTGUARD_REPORT_WORKERS or one per core)",
        )
        r.set_defaults(func=cmd_report)
