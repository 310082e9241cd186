"""Frame-check rule results computed in an asset's own step, reused by its check step in the same process.

An asset step holds every document's frame in memory when it builds it; its check step, in the same run,
loads the same files back and applies the same rules (``checks.frame_check``) again. The asset step now
applies the rules of the checks the run includes (it already applied the blocking ones, to isolate a
document that breaks one) and offers the results here; the IO manager binds them to the file it writes
and, when a step of this process loads that very file, hands them over on the loaded frame (``frame.attrs``).

A result is reused only for the exact file it was computed for (inode, mtime, size: files are only ever
replaced whole) and the exact document text it was checked against, and only in the process that computed
it, so by the same code. Everything else — a check re-run alone from the UI, the multiprocess executor's
separate step processes, a re-materialized source document — evaluates the rule itself.
"""

from __future__ import annotations

import os
from collections import OrderedDict
from typing import Any, Mapping

import pandas as pd

#: the key in a loaded frame's ``attrs``: {check name: (failing rows, text fingerprint or None)}
ATTR = "textguard_rule_results"

Results = dict[str, tuple[list[Mapping[str, Any]], tuple[int, int] | None]]


def text_fingerprint(text: str | None) -> tuple[int, int] | None:
    """(length, hash) of a document text: equal texts in this process, and (in practice) only they."""
    return None if text is None else (len(text), hash(text))


class RuleMemo:
    """Results offered by asset steps, bound to the files written, bounded in size (oldest dropped)."""

    def __init__(self, limit: int = 50_000) -> None:
        self._limit = limit
        self._pending: OrderedDict[tuple[str, str], tuple[int, Results]] = OrderedDict()
        self._bound: OrderedDict[str, tuple[tuple[int, int, int], Results]] = OrderedDict()

    def offer(self, asset: str, doc_id: str, frame: pd.DataFrame, results: Results) -> None:
        """``results`` were computed on ``frame`` (this object), not yet written."""
        if results:
            self._pending[(asset, doc_id)] = (id(frame), results)
            _trim(self._pending, self._limit)

    def withdraw(self, asset: str, doc_id: str) -> None:
        self._pending.pop((asset, doc_id), None)

    def bind(self, asset: str, doc_id: str, frame: Any, path: str, ident: tuple[int, int, int] | None = None) -> None:
        """``frame`` was just written to ``path`` (with identity ``ident``, else the file's identity now): keep
        its results (if offered for this very object)."""
        entry = self._pending.pop((asset, doc_id), None)
        self._bound.pop(path, None)
        if entry is None or entry[0] != id(frame):
            return
        if ident is None:
            st = os.stat(path)
            ident = (st.st_ino, st.st_mtime_ns, st.st_size)
        self._bound[path] = (ident, entry[1])
        _trim(self._bound, self._limit)

    def annotate(self, path: str, ident: tuple[int, int, int] | None, frame: pd.DataFrame) -> None:
        """Put the results bound to ``path`` on ``frame`` when it was loaded from that same file."""
        hit = self._bound.get(path)
        if hit is not None and ident is not None and hit[0] == ident:
            frame.attrs = {**frame.attrs, ATTR: hit[1]}


def precomputed(frame: pd.DataFrame, name: str, text: str | None) -> list[Mapping[str, Any]] | None:
    """The failing rows of check ``name`` computed in the asset step for this frame, when they are valid for
    ``text`` (the document text the check has now); None: evaluate the rule."""
    results = frame.attrs.get(ATTR)
    if not results or name not in results:
        return None
    failures, fingerprint = results[name]
    if fingerprint is not None and fingerprint != text_fingerprint(text):
        return None
    return failures


def _trim(d: OrderedDict, limit: int) -> None:
    while len(d) > limit:
        d.popitem(last=False)


MEMO = RuleMemo()
