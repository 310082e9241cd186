"""`textguard dev` and `textguard instance init`: Dagster's own processes on an instance made under the lock.

``dagster dev``, ``dagster-webserver`` and ``dagster-daemon`` create the SQLite databases of an empty
``DAGSTER_HOME`` themselves, unguarded: two of them starting at once (or one beside ``textguard
report``) can stamp two alembic heads. These commands create the instance once under the file lock
of ``operations/instance.py`` first; ``textguard dev`` then runs ``dg dev`` (``dagster dev`` when
dagster-dg-cli is not installed) as a child in its own process group, and stops that whole group on
SIGINT, SIGTERM or SIGHUP: ``dagster dev`` ignores SIGTERM, and a shell that starts a job in the background
hands it SIGINT ignored, so when ``textguard dev`` became ``dagster dev`` by exec neither Ctrl-C nor
``kill`` reached the webserver and the daemon.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import subprocess
import sys
import time

from .. import settings


def cmd_instance_init(args: argparse.Namespace) -> int:
    # lazy: the CLI imports a command's modules when it runs (`textguard --help` stays fast)
    from ..operations.instance import prepare_instance

    home = prepare_instance(args.home, migrate=args.migrate)
    print(f"instance ready: {home}")
    return 0


def cmd_dev(args: argparse.Namespace) -> int:
    return run_dev(args.dagster_args)


def run_dev(dagster_args: list[str]) -> int:
    """Create the instance under the lock, then run ``dg dev *dagster_args`` under :func:`supervise` (``--`` first
    is dropped)."""
    # lazy: the CLI imports a command's modules when it runs (`textguard --help` stays fast)
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
    return supervise([exe, "dev", *extra])


#: seconds the group has to exit after SIGTERM before it is killed
STOP_GRACE_S = 10.0
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


def _child_setup() -> None:
    os.setsid()  # its own group: one signal reaches the webserver, the daemon and the code servers
    for sig in STOP_SIGNALS:  # a background job inherits SIGINT ignored; the child must not
        signal.signal(sig, signal.SIG_DFL)


def supervise(cmd: list[str], grace_s: float = STOP_GRACE_S) -> int:
    """Run ``cmd`` in its own process group until it exits or this process gets a stop signal; then stop
    the whole group (SIGTERM, SIGKILL after ``grace_s``) so that no child is left. Returns its exit status."""
    asked: list[int] = []
    for sig in STOP_SIGNALS:
        signal.signal(sig, lambda signum, _frame: asked.append(signum))
    proc = subprocess.Popen(cmd, preexec_fn=_child_setup)  # noqa: PLW1509 (no threads yet in this process)
    while proc.poll() is None and not asked:
        time.sleep(0.2)
    if asked:
        print(
            f"textguard dev: {signal.Signals(asked[0]).name}, stopping {os.path.basename(cmd[0])} dev",
            file=sys.stderr,
            flush=True,
        )
        _signal_group(proc.pid, signal.SIGTERM)
        deadline = time.monotonic() + grace_s
        while proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.2)
    _signal_group(proc.pid, signal.SIGKILL)  # whatever of the group is left, leader or not
    rc = proc.wait()
    return 0 if asked else rc


def _signal_group(pgid: int, sig: int) -> None:
    try:
        os.killpg(pgid, sig)
    except ProcessLookupError:
        pass


DEV_EXAMPLES = """examples:
  textguard dev -h 127.0.0.1 -p 3000 -w workspace.yaml   # what `make ui` runs; open http://127.0.0.1:3000
  DAGSTER_HOME=~/tg/home textguard dev -p 3001           # the UI over your own corpus's instance"""


def register_cli(subparsers: argparse._SubParsersAction) -> None:
    # listed for --help; `textguard dev ARGS` is dispatched before parsing (cli.main): every ARG,
    # options included, goes to `dagster dev`
    d = subparsers.add_parser(
        "dev",
        add_help=False,
        help="serve the Dagster UI (and its daemon) over the instance of DAGSTER_HOME",
        description="Serve the Dagster UI and daemon: create the instance of DAGSTER_HOME first (under a file "
        "lock, so a report may start at the same time), then run `dg dev` (`dagster dev` where dg is not "
        "installed) with every argument after `dev`. Ctrl-C, or `kill` on this process, stops it and its children.",
        epilog=DEV_EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    d.add_argument("dagster_args", nargs=argparse.REMAINDER, help="arguments passed on to `dagster dev`")
    d.set_defaults(func=cmd_dev)

    inst = subparsers.add_parser(
        "instance",
        help="set up the Dagster instance (`init`) without running anything",
        description="Set up the Dagster instance of DAGSTER_HOME (its dagster.yaml and storage) under the textguard "
        "file lock. Needed only when you start dagster-webserver or dagster-daemon yourself: report and dev do it.",
        epilog="""examples:
  textguard instance init                           # data/dagster_home, or $DAGSTER_HOME
  textguard instance init --home ~/tg/home --migrate""",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    inst_sub = inst.add_subparsers(dest="instance_command", required=True)
    init = inst_sub.add_parser(
        "init",
        help="create the instance of DAGSTER_HOME under the file lock (run before dagster-webserver/-daemon)",
        description="Create the instance of DAGSTER_HOME (or --home) under the file lock; --migrate also upgrades "
        "an existing instance's database to the installed Dagster.",
        epilog="example:\n  textguard instance init --home ~/tg/home",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    init.add_argument("--home", default=None, help="instance directory (default: $DAGSTER_HOME or data/dagster_home)")
    init.add_argument("--migrate", action="store_true", help="also upgrade an existing instance's schema")
    init.set_defaults(func=cmd_instance_init)
