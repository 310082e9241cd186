"""The shared LLM spending ledger (lib/ledger.py) and usage the endpoint misreports (lib/llm.py)."""

import multiprocessing
import sqlite3

import pytest

from textguard_pipeline.lib.http import HttpError
from textguard_pipeline.lib.ledger import LedgerBudget, use_scope
from textguard_pipeline.lib.llm import ChatClient, LLMConfig


def _spend(path, scope, n):
    """In another process: try ``n`` requests of $1 each under ``scope``; how many were allowed."""
    budget = LedgerBudget(path, max_cost=10.0, scope=scope)
    done = 0
    for _ in range(n):
        try:
            with budget.reserve(1.0, 10) as r:
                r.commit(1.0, 10)
            done += 1
        except HttpError:
            pass
    return done


def test_processes_sharing_a_scope_never_spend_past_its_cap_together(tmp_path):
    path = tmp_path / "ledger.sqlite"
    with multiprocessing.get_context("spawn").Pool(4) as pool:
        allowed = pool.starmap(_spend, [(path, "report:x", 6)] * 4)
    assert sum(allowed) == 10
    assert LedgerBudget(path, scope="report:x").spent() == (10.0, 100)


def test_runs_started_one_by_one_draw_on_the_rolling_daily_cap(tmp_path):
    use_scope(None)
    budget = LedgerBudget(tmp_path / "l.sqlite", max_cost=100.0, max_cost_per_day=2.5)
    for _ in range(2):
        with budget.reserve(1.0, 1) as r:
            r.commit(1.0, 1)
    with pytest.raises(HttpError, match="TEXTGUARD_LLM_MAX_COST_PER_DAY"):
        with budget.reserve(1.0, 1):
            pass
    with sqlite3.connect(tmp_path / "l.sqlite") as conn:  # a day later the spending no longer counts
        conn.execute("update spend set at = at - 86401")
    with budget.reserve(1.0, 1):
        pass


def test_a_request_that_got_no_answer_costs_nothing_and_a_held_estimate_counts_meanwhile(tmp_path):
    budget = LedgerBudget(tmp_path / "l.sqlite", max_cost=1.5, scope="report:y")
    with pytest.raises(RuntimeError):
        with budget.reserve(1.0, 1):
            with pytest.raises(HttpError):  # the estimate is held while the request is in flight
                with budget.reserve(1.0, 1):
                    pass
            raise RuntimeError("endpoint down")
    assert budget.spent() == (0.0, 0)


@pytest.mark.parametrize("usage", [{"prompt_tokens": -5, "completion_tokens": -1}, {"prompt_tokens": float("nan")}, {}])
def test_usage_that_is_negative_nan_or_absent_is_replaced_by_the_estimate(usage):
    client = ChatClient(LLMConfig("http://127.0.0.1:9/v1", price_in_per_1k=1.0, price_out_per_1k=1.0))
    import json

    text = json.dumps({"choices": [{"message": {"content": "x" * 400}}], "usage": usage})
    out = client._result(text, [{"role": "user", "content": "y" * 400}], 0.0, cached=False)
    assert out.usage_estimated and out.prompt_tokens > 0 and out.completion_tokens == 100 and out.cost > 0
