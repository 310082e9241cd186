"""`textguard dev` and `textguard instance init`: Dagster's own processes on an instance made under the lock.

``dagster dev``, ``dagster-webserver`` and ``dagster-daemon`` create the SQLite databases of an empty
``DAGSTER_HOME`` themselves, unguarded: two of them starting at once (or one beside ``textguard
report``) can stamp two alembic heads. These commands create the instance once under the file lock
of ``operations/instance.py`` first; ``textguard dev`` then becomes ``dg dev`` (``dagster dev`` when
dagster-dg-cli is not installed; same process).
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys

from .. import settings


def cmd_instance_init(args: argparse.Namespace) -> int:
    from ..operations.instance import prepare_instance

    home = prepare_instance(args.home, migrate=args.migrate)
    print(f"instance ready: {home}")
    return 0


def cmd_dev(args: argparse.Namespace) -> int:
    return run_dev(args.dagster_args)


def run_dev(dagster_args: list[str]) -> int:
    """Create the instance under the lock, then exec ``dagster dev *dagster_args`` (``--`` first is dropped)."""
    from ..operations.instance import prepare_instance

    home = prepare_instance()  # $DAGSTER_HOME or data/dagster_home
    settings.set_paths(home=home)
    # `dg dev` (dagster-dg-cli, the dev extra) next to this Python, else `dagster dev`: with -w both run the same
    # dev_command_impl in this process, on the DAGSTER_HOME just prepared under the lock; without -w, dg reads
    # [tool.dg] in pyproject.toml (the same code location)
    here = os.path.dirname(sys.executable)
    exe = shutil.which("dg", path=here) or shutil.which("dagster", path=here) or shutil.which("dagster")
    if exe is None:
        print("textguard dev: neither `dg` nor `dagster` is installed", file=sys.stderr)
        return 2
    extra = dagster_args[1:] if dagster_args[:1] == ["--"] else dagster_args
    sys.stdout.flush()
    os.execv(exe, [exe, "dev", *extra])  # signals reach dg/dagster dev itself (same pid)
    return 0  # pragma: no cover


def register_cli(subparsers: argparse._SubParsersAction) -> None:
    # listed for --help; `textguard dev ARGS` is dispatched before parsing (cli.main): every ARG,
    # options included, goes to `dagster dev`
    d = subparsers.add_parser(
        "dev",
        add_help=False,
        help="create the instance under the lock, then run `dg dev` (else `dagster dev`) with the remaining arguments",
        description="Create the Dagster instance of DAGSTER_HOME under the textguard file lock, then exec "
        "`dagster dev ARGS` (e.g. textguard dev -h 127.0.0.1 -p 3000 -w workspace.yaml).",
    )
    d.add_argument("dagster_args", nargs=argparse.REMAINDER, help="arguments passed on to `dagster dev`")
    d.set_defaults(func=cmd_dev)

    inst = subparsers.add_parser("instance", help="the Dagster instance: `init` creates it under the lock")
    inst_sub = inst.add_subparsers(dest="instance_command", required=True)
    init = inst_sub.add_parser(
        "init",
        help="create the instance of DAGSTER_HOME under the file lock (run before dagster-webserver/-daemon)",
    )
    init.add_argument("--home", default=None, help="instance directory (default: $DAGSTER_HOME or data/dagster_home)")
    init.add_argument("--migrate", action="store_true", help="also upgrade an existing instance's schema")
    init.set_defaults(func=cmd_instance_init)
