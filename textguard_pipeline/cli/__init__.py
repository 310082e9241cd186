"""`textguard` command line: run / report, and the service and setup subcommands.

Each subcommand lives in a module of this package with ``cmd_<name>(args) -> int`` functions
and a ``register_cli(subparsers)``; heavy imports happen inside the functions so that
``textguard --help`` stays fast. Nothing imports this package (it is the entry point).
"""

from __future__ import annotations

import argparse
import sys

from .. import settings
from ..operations.preflight import Refused
from ..operations.safe_text import one_line
from . import dev, doctor, ner_serve, prune, report, wordnet

SUBCOMMANDS = (report, prune, dev, doctor, ner_serve, wordnet)

DESCRIPTION = (
    "Guard text before it passes through an LLM or an indexer: materialize the pipeline's Parquet tables for a "
    "corpus through Dagster and check them."
)
EXAMPLES = """examples:
  textguard report --out reports          # every asset for every document, then the check report
  textguard report --corpus ~/docs --warehouse ~/tg/warehouse --out ~/tg/reports
  textguard doctor                        # is everything installed as tested?
  textguard dev                           # the Dagster UI on http://127.0.0.1:3000

`textguard COMMAND --help` tells more about each command."""


class _Version(argparse.Action):
    """``--version``: the version line, computed only when asked (it reads package metadata)."""

    def __init__(self, option_strings, dest, **kwargs):
        super().__init__(option_strings, dest, nargs=0, help="print the version and exit")

    def __call__(self, parser, namespace, values, option_string=None):
        from ..operations.doctor import environment_summary  # lazy: reads package metadata only when asked

        print(environment_summary())
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="textguard", description=DESCRIPTION, epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--version", action=_Version)
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    for module in SUBCOMMANDS:
        module.register_cli(sub)
    return p


def _subparser(parser: argparse.ArgumentParser, name: str) -> argparse.ArgumentParser:
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return sub.choices[name]


#: commands that run the pipeline or touch the instance: every setting is checked before they do any work
CHECKED = ("run", "report", "prune", "dev")


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    command = argv[0] if argv else ""
    try:
        if command == "dev" and argv[1:] == ["--help"]:  # ours; `dg dev --help` lists what it passes on
            _subparser(build_parser(), "dev").print_help()
            return 0
        if command in CHECKED:
            settings.check_settings()
        if command == "dev":  # everything after it belongs to `dagster dev` (argparse would claim -h, -p …)
            return dev.run_dev(argv[1:])
        parser = build_parser()
        args = parser.parse_args(argv)
        if getattr(args, "func", None) is None:  # a bare `textguard`: what it can do, not an error
            parser.print_help()
            return 0
        return int(args.func(args) or 0)
    except (settings.SettingsError, Refused) as exc:
        print(f"textguard {command}: {one_line(str(exc))}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
