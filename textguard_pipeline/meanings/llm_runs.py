"""How the seed-003 LLM passes run: ordered bounded concurrency and token attribution to rows.

* :func:`ordered_map` runs one call per Stage A window or disambiguation batch on at most ``workers``
  threads and returns the results in input order, so a document's rows do not depend on which answer
  came first (the shared :class:`~textguard_pipeline.lib.http.HttpClient` bounds what is on the wire).
* :func:`split_evenly` attributes a window's or batch's tokens to the rows it produced (integers that add
  up to the total; the first rows take the remainder).
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Callable, Sequence, TypeVar

T = TypeVar("T")
R = TypeVar("R")


def ordered_map(fn: Callable[[T], R], items: Sequence[T], workers: int) -> list[R]:
    """``[fn(x) for x in items]`` on up to ``workers`` threads; the first failure (in input order) is raised
    after the calls not yet started are cancelled."""
    if workers <= 1 or len(items) <= 1:
        return [fn(x) for x in items]
    with ThreadPoolExecutor(max_workers=min(workers, len(items)), thread_name_prefix="llm-pass") as pool:
        futures = [pool.submit(fn, x) for x in items]
        out: list[R] = []
        try:
            for f in futures:
                out.append(f.result())
        except BaseException:
            for f in futures:
                f.cancel()
            raise
        return out


def split_evenly(total: int, n: int) -> list[int]:
    """``total`` split into ``n`` integers that add up to it (the first ones take the remainder)."""
    if n <= 0:
        return []
    q, r = divmod(int(total), n)
    return [q + (1 if i < r else 0) for i in range(n)]
