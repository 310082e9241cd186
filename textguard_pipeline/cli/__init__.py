"""`textguard` command line: run / report, and the service and setup subcommands.

Each subcommand lives in a module of this package with ``cmd_<name>(args) -> int`` functions
and a ``register_cli(subparsers)``; heavy imports happen inside the functions so that
``textguard --help`` stays fast. Nothing imports this package (it is the entry point).
"""

from __future__ import annotations

import argparse
import sys

from . import dev, ner_serve, prune, report, wordnet

SUBCOMMANDS = (report, prune, dev, ner_serve, wordnet)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="textguard", description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="command", required=True)
    for module in SUBCOMMANDS:
        module.register_cli(sub)
    return p


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["dev"]:  # everything after it belongs to `dagster dev` (argparse would claim -h, -p …)
        return dev.run_dev(argv[1:])
    args = build_parser().parse_args(argv)
    return int(args.func(args) or 0)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
