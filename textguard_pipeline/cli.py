"""`textguard` command line: run / report, and the service and setup subcommands.

Each subcommand is a function ``cmd_<name>(args) -> int`` registered in
``build_parser``; heavy imports happen inside the function so that
``textguard --help`` stays fast.
"""

from __future__ import annotations

import argparse
import os
import sys


def cmd_report(args: argparse.Namespace) -> int:
    if args.corpus:
        os.environ["TEXTGUARD_CORPUS_DIR"] = os.path.abspath(args.corpus)
    if args.warehouse:
        os.environ["TEXTGUARD_WAREHOUSE"] = args.warehouse
    from .report import run_report

    return run_report(
        out_dir=args.out,
        batch_size=args.batch_size,
        select=args.select,
        quiet=args.quiet,
    )


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="textguard", description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="command", required=True)

    for name, help_text in (
        ("run", "materialize every asset for every document, then print the check report"),
        ("report", "same as run, and write asset-checks.xml (JUnit) and asset-checks.md to --out"),
    ):
        r = sub.add_parser(name, help=help_text)
        r.add_argument("--corpus", help="corpus directory (default: $TEXTGUARD_CORPUS_DIR or data/corpus)")
        r.add_argument("--warehouse", help="Parquet base path or URL (default: $TEXTGUARD_WAREHOUSE or data/warehouse)")
        r.add_argument("--out", default="reports" if name == "report" else None, help="directory for the report files")
        r.add_argument("--batch-size", type=int, default=None,
                       help="documents per run (default: $TEXTGUARD_MAX_PARTITIONS_PER_RUN or 50)")
        r.add_argument("--select", default=None, help="asset selection string (default: every asset)")
        r.add_argument("--quiet", action="store_true", help="print only the summary")
        r.set_defaults(func=cmd_report)

    # Further subcommands register here (ner-serve, wordnet, bench).
    _register_optional(sub)
    return p


def _register_optional(sub: argparse._SubParsersAction) -> None:
    """Subcommands that live with their feature modules."""
    import importlib

    for module_name in ("textguard_pipeline.ner_service", "textguard_pipeline.wordnet_cli"):
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name == module_name:
                continue
            raise
        module.register_cli(sub)


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return int(args.func(args) or 0)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
