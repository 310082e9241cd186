"""Debian's ``wordnet-base`` (WordNet 3.0 in WNDB form, /usr/share/wordnet) through apt-get (issue 16).

``textguard wordnet install`` calls :func:`apt_install_wordnet` when no WNDB directory is present: it runs
apt-get itself only as root with apt-get on the PATH (printing each command); otherwise it prints the one
command that would, and the caller falls back to the small shipped lexicon.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from typing import Callable, Sequence

APT_PACKAGE = "wordnet-base"
WNDB_DIR = "/usr/share/wordnet"
INSTALL_ARGS = ("apt-get", "install", "-y", "-q", "--no-install-recommends", APT_PACKAGE)
UPDATE_ARGS = ("apt-get", "update", "-q")
#: What a user runs by hand when we cannot (not root, or no apt).
HINT = f"sudo apt-get install --no-install-recommends {APT_PACKAGE} && textguard wordnet install"

Runner = Callable[[Sequence[str]], int]


def _run(args: Sequence[str]) -> int:
    return subprocess.run(list(args), stdin=subprocess.DEVNULL, check=False).returncode


def apt_available() -> tuple[bool, str]:
    """(can we run apt-get ourselves, why not)."""
    if shutil.which("apt-get") is None:
        return False, "apt-get is not on the PATH"
    if os.geteuid() != 0:
        return False, "not running as root"
    return True, ""


def apt_install_wordnet(log: Callable[[str], None], run: Runner = _run) -> bool:
    """Install ``wordnet-base``; True when it is installed afterwards. Prints what it does, or the hint."""
    ok, why = apt_available()
    if not ok:
        log(
            f"wordnet: {APT_PACKAGE} is not installed and cannot be installed here ({why}); "
            f"for the full WordNet 3.0 run: {HINT}"
        )
        return False
    for attempt in (INSTALL_ARGS, UPDATE_ARGS, INSTALL_ARGS):
        log("wordnet: running " + " ".join(attempt))
        code = run(attempt)
        if attempt is INSTALL_ARGS and code == 0:
            return True
        if attempt is UPDATE_ARGS and code != 0:
            break
    log(f"wordnet: apt-get could not install {APT_PACKAGE}; falling back. By hand: {HINT}")
    return False
