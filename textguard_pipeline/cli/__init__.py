"""`textguard` command line: run / report, and the service and setup subcommands.

Each subcommand lives in a module of this package with ``cmd_<name>(args) -> int`` functions
and a ``register_cli(subparsers)``; heavy imports happen inside the functions so that
``textguard --help`` stays fast. Nothing imports this package (it is the entry point).
"""

from __future__ import annotations

import argparse
import sys

from . import ner_serve, prune, report, wordnet

SUBCOMMANDS = (report, prune, ner_serve, wordnet)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="textguard", description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="command", required=True)
    for module in SUBCOMMANDS:
        module.register_cli(sub)
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return int(args.func(args) or 0)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
