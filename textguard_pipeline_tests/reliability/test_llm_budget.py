"""Issue 48, item 2, replayed through the CLI: one `textguard report` never spends more than its cap, however
many Dagster runs it makes (the cap was per run: three one-document runs spent three times a cap each fit)."""

from __future__ import annotations

import sqlite3

import pytest

from .test_llm_secrets import REWRITE, ROUTE, llm_place, write_docs

pytestmark = pytest.mark.timeout(900)


def _spent(p) -> dict[str, float]:
    with sqlite3.connect(p.warehouse / ".llm-ledger.sqlite") as conn:
        return dict(conn.execute("select scope, sum(cost) from spend group by scope order by min(id)").fetchall())


def test_one_report_of_several_runs_never_spends_more_than_its_cap(tmp_path, fresh_standin):
    p = llm_place(
        tmp_path,
        fresh_standin.base_url,
        TEXTGUARD_LLM_CACHE="off",
        TEXTGUARD_LLM_PRICE_IN_PER_1K="1",
        TEXTGUARD_LLM_PRICE_OUT_PER_1K="1",
    )
    write_docs(p.corpus, 3, words=80)
    fresh_standin.script({ROUTE: [{"mangle": {"kind": "none"}}]})
    free = p.report("--batch-size", "1", select=REWRITE)
    assert free.returncode == 0, free.stdout[-3000:]
    assert "3 run(s)" in p.markdown()
    (whole,) = _spent(p).values()
    assert whole > 0

    cap = round(whole * 0.45, 6)  # each one-document run alone costs about a third: under the cap
    capped = p.report("--batch-size", "1", select=REWRITE, extra_env={"TEXTGUARD_LLM_MAX_COST": str(cap)})
    assert capped.returncode == 1
    second = list(_spent(p).values())[-1]
    assert second <= cap, (second, cap)
    md = p.markdown()
    assert "stale (budget)" in md and "TEXTGUARD_LLM_MAX_COST" in md
