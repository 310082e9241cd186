"""Run a function in a forked child process and get its answer back (the storages' fork tests)."""

import multiprocessing
from typing import Any, Callable


def _child(fn: Callable[..., Any], args: tuple, queue) -> None:
    try:
        queue.put(("ok", fn(*args)))
    except Exception as exc:  # reported to the parent, which fails the test with it
        queue.put(("error", repr(exc)))


def in_forked_child(fn: Callable[..., Any], *args: Any, timeout: float = 60) -> Any:
    """``fn(*args)`` evaluated in a forked child (it inherits the parent's objects, sockets included)."""
    ctx = multiprocessing.get_context("fork")
    queue = ctx.Queue()
    child = ctx.Process(target=_child, args=(fn, args, queue))
    child.start()
    status, value = queue.get(timeout=timeout)
    child.join(30)
    assert status == "ok", value
    return value
