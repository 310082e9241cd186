"""`textguard prune`: remove partitions and warehouse files of documents no longer in the corpus."""

from __future__ import annotations

import argparse
import sys

from .. import settings


def cmd_prune(args: argparse.Namespace) -> int:
    settings.set_paths(corpus=args.corpus, warehouse=args.warehouse)
    # lazy: the CLI imports a command's modules when it runs (`textguard --help` stays fast)
    from ..operations.instance import open_instance
    from ..operations.preflight import check_writable_dir
    from ..operations.prune import plan_prune, prune
    from ..operations.safe_text import one_line

    check_writable_dir(settings.dagster_home(), "the Dagster instance folder (DAGSTER_HOME)")
    instance = open_instance()
    plan = plan_prune(instance)
    for path in plan.foreign:
        print(f"keep file {one_line(str(path))} (textguard did not write it)")
    if args.dry_run or not plan:
        _show(plan, "would remove")
        return 0
    if not args.yes:
        _show(plan, "will remove")
        if not sys.stdin.isatty():
            print("textguard prune: not run (stdin is not a terminal); pass --yes to remove these", file=sys.stderr)
            return 2
        if input("remove these? [y/N] ").strip().lower() not in ("y", "yes"):
            print("nothing removed")
            return 1
    _show(prune(instance, approved=plan), "removed")
    return 0


def _show(plan, verb: str) -> None:
    # lazy: the CLI imports a command's modules when it runs (`textguard --help` stays fast)
    from ..operations.safe_text import one_line

    for key in plan.stale.partitions:
        print(f"{verb} partition {one_line(key)}")
    for path in plan.files():
        print(f"{verb} file {one_line(str(path))}")
    print(f"{verb} {len(plan.stale.partitions)} partition(s) and {len(plan.files())} file(s)")
    if plan.check_rows:
        print(f"{verb} {plan.check_rows} row(s) of the checks' documents-failing tables")


def register_cli(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "prune",
        help="remove partitions and warehouse files of documents not in the corpus (asks first unless --yes)",
        description="Remove what belongs to documents no longer in the corpus: their partitions in the Dagster "
        "instance and their Parquet files in the warehouse. It lists them and asks first unless --yes. Give it the "
        "same --corpus, --warehouse and DAGSTER_HOME as the report that made them, or it prunes another corpus.",
        epilog="""examples:
  textguard prune --dry-run                         # list what would go, remove nothing
  DAGSTER_HOME=~/tg/home textguard prune --corpus ~/docs --warehouse ~/tg/warehouse --yes""",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--corpus", help="corpus directory (default: $TEXTGUARD_CORPUS_DIR or data/corpus)")
    p.add_argument("--warehouse", help="Parquet base path (default: $TEXTGUARD_WAREHOUSE or data/warehouse)")
    p.add_argument("--dry-run", action="store_true", help="list what would be removed, remove nothing")
    p.add_argument(
        "--yes", action="store_true", help="remove without asking (needed when stdin is not a terminal, as in CI)"
    )
    p.set_defaults(func=cmd_prune)
