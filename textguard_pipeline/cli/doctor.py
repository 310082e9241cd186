"""`textguard doctor`: check what is installed (models by hash, WordNet, instance, warehouse, services)."""

from __future__ import annotations

import argparse

from .. import settings

EXAMPLE = """example:
  textguard doctor                      # the default instance and warehouse
  DAGSTER_HOME=/tmp/mine textguard doctor --warehouse /tmp/mine/warehouse"""


def cmd_doctor(args: argparse.Namespace) -> int:
    settings.set_paths(warehouse=args.warehouse)
    # lazy: the CLI imports a command's modules when it runs (`textguard --help` stays fast)
    from ..operations.doctor import run_doctor

    return run_doctor()


def register_cli(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "doctor",
        help="check what is installed and whether it is the setup this project was tested with",
        description=(
            "Check Python and Dagster, the spaCy models and the sentence encoder (SHA-256 of their files against "
            "the ones this project was tested with), the WordNet lexicon, the Dagster instance, the warehouse and "
            "the optional LLM and NER services. One line each, with the fix; exit status 1 when anything will "
            "not work."
        ),
        epilog=EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--warehouse", help="Parquet base path to check (default: $TEXTGUARD_WAREHOUSE or data/warehouse)")
    p.set_defaults(func=cmd_doctor)
