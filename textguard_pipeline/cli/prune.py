"""`textguard prune`: remove partitions and warehouse files of documents no longer in the corpus."""

from __future__ import annotations

import argparse

from .. import settings


def cmd_prune(args: argparse.Namespace) -> int:
    settings.set_paths(corpus=args.corpus, warehouse=args.warehouse)
    # the CLI imports a command's modules when it runs: `textguard --help` stays fast
    from ..operations.prune import prune
    from ..operations.safe_text import one_line

    stale, orphans = prune(dry_run=args.dry_run)
    verb = "would remove" if args.dry_run else "removed"
    for key in stale.partitions:
        print(f"{verb} partition {one_line(key)}")
    for path in stale.files + orphans:
        print(f"{verb} file {one_line(str(path))}")
    print(f"{verb} {len(stale.partitions)} partition(s) and {len(stale.files) + len(orphans)} file(s)")
    return 0


def register_cli(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("prune", help="remove partitions and warehouse files of documents not in the corpus")
    p.add_argument("--corpus", help="corpus directory (default: $TEXTGUARD_CORPUS_DIR or data/corpus)")
    p.add_argument("--warehouse", help="Parquet base path (default: $TEXTGUARD_WAREHOUSE or data/warehouse)")
    p.add_argument("--dry-run", action="store_true", help="list what would be removed, remove nothing")
    p.set_defaults(func=cmd_prune)
