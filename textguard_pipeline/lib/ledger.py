"""One spending budget shared by every run and process of a report or a backfill: a small SQLite ledger.

:class:`Budget` (lib/http.py) holds one process's spending; a `textguard report` makes many Dagster runs, in
several processes, and a backfill many more, so a per-run cap let one report spend N × the cap. The ledger
is a file (``<warehouse>/.llm-ledger.sqlite`` for a local warehouse) with one row per paid request:
:meth:`LedgerBudget.reserve` inserts the request's estimated cost inside an exclusive SQLite transaction
(``BEGIN IMMEDIATE``: processes queue, none reads a stale total) after checking the scope's limit, and
replaces the estimate by what the answer cost when the request is done (nothing when it failed before any
answer). A process killed meanwhile leaves its estimate counted: the ledger errs on the side of the wallet.

Scopes: ``report:<id>`` and ``backfill:<id>`` are capped by ``TEXTGUARD_LLM_MAX_COST`` (and
``TEXTGUARD_LLM_MAX_TOKENS_TOTAL``) in all; runs started one by one (UI, sensor, schedule, automation) are
capped by ``TEXTGUARD_LLM_MAX_COST_PER_DAY`` over the last 24 hours of every spending in the ledger.
The scope of the requests of this process is set by the step running them (:func:`use_scope`).
"""

from __future__ import annotations

import sqlite3
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from .http import HttpError, _Reservation

DAY_S = 86_400.0
DAILY = "daily"
_scope = {"name": DAILY}
_scope_lock = threading.Lock()


def use_scope(name: str | None) -> None:
    """The budget scope of the requests this process sends from now on (None: the rolling daily cap).
    A module global, not a ContextVar: the LLM passes send from worker threads."""
    with _scope_lock:
        _scope["name"] = name or DAILY


def current_scope() -> str:
    with _scope_lock:
        return _scope["name"]


class LedgerBudget:
    """The :class:`~textguard_pipeline.lib.http.Budget` interface over the shared ledger at ``path``."""

    def __init__(
        self,
        path: str | Path,
        max_cost: float | None = None,
        max_tokens: int | None = None,
        max_cost_per_day: float | None = None,
        scope: str | None = None,
    ):
        self.path = Path(path)
        self.max_cost = max_cost
        self.max_tokens = max_tokens
        self.max_cost_per_day = max_cost_per_day
        self._scope = scope  # None: the process's current scope at each request
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self._connect() as conn:
            conn.execute(
                "create table if not exists spend (id integer primary key, scope text not null, at real not null,"
                " cost real not null, tokens integer not null, settled integer not null default 0)"
            )
            conn.execute("create index if not exists spend_scope on spend (scope)")

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, timeout=60.0, isolation_level=None)
        conn.execute("pragma busy_timeout = 60000")
        return conn

    @property
    def scope(self) -> str:
        return self._scope or current_scope()

    def spent(self, scope: str | None = None) -> tuple[float, int]:
        """(cost, tokens) recorded under ``scope`` (default: this budget's), estimates of open requests included."""
        with self._connect() as conn:
            row = conn.execute(
                "select coalesce(sum(cost), 0), coalesce(sum(tokens), 0) from spend where scope = ?",
                (scope or self.scope,),
            ).fetchone()
        return float(row[0]), int(row[1])

    def _check(self, conn: sqlite3.Connection, scope: str, cost: float, tokens: int) -> None:
        if scope == DAILY:
            if self.max_cost_per_day is None:
                return
            (day,) = conn.execute(
                "select coalesce(sum(cost), 0) from spend where at > ?", (time.time() - DAY_S,)
            ).fetchone()
            if day + cost > self.max_cost_per_day:
                raise HttpError(
                    "budget",
                    f"budget: this request (≈ ${cost:.4f}) would take the last 24 hours past "
                    f"TEXTGUARD_LLM_MAX_COST_PER_DAY=${self.max_cost_per_day:g} (spent ${day:.4f})",
                )
            return
        spent, used = conn.execute(
            "select coalesce(sum(cost), 0), coalesce(sum(tokens), 0) from spend where scope = ?", (scope,)
        ).fetchone()
        what = scope.split(":", 1)[0]
        if self.max_cost is not None and spent + cost > self.max_cost:
            raise HttpError(
                "budget",
                f"budget: this request (≈ ${cost:.4f}) would take the {what} past "
                f"TEXTGUARD_LLM_MAX_COST=${self.max_cost:g} (spent ${spent:.4f} in all its runs)",
            )
        if self.max_tokens is not None and used + tokens > self.max_tokens:
            raise HttpError(
                "budget",
                f"budget: this request (≈ {tokens} tokens) would take the {what} past "
                f"{self.max_tokens} tokens (spent {used} in all its runs)",
            )

    @contextmanager
    def reserve(self, cost: float, tokens: int) -> Iterator[_Reservation]:
        scope = self.scope
        with self._connect() as conn:
            conn.execute("begin immediate")
            try:
                self._check(conn, scope, cost, tokens)
                row_id = conn.execute(
                    "insert into spend (scope, at, cost, tokens) values (?, ?, ?, ?)",
                    (scope, time.time(), cost, tokens),
                ).lastrowid
                conn.execute("commit")
            except BaseException:
                conn.execute("rollback")
                raise
        r = _Reservation()
        answered = False
        try:
            yield r
            answered = True
        finally:
            # an answer (even a refused one) is paid: its cost, at least the estimate when none was committed
            final_cost = r.cost if answered and (r.cost or r.tokens) else (cost if answered else 0.0)
            final_tokens = r.tokens if answered and (r.cost or r.tokens) else (tokens if answered else 0)
            with self._connect() as conn:
                conn.execute(
                    "update spend set cost = ?, tokens = ?, settled = 1 where id = ?",
                    (final_cost, final_tokens, row_id),
                )
