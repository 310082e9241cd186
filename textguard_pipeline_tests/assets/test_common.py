"""Helpers shared by the asset modules."""

import pandas as pd

from textguard_pipeline.assets._common import head_where, markdown_table


def test_markdown_table_escapes_clips_and_keeps_column_types():
    df = pd.DataFrame({
        "start": [3, 10],
        "score": [0.5, 1.25],
        "text": ["a | b\nc", "x" * 80],
        "gone": [None, "y"],
    })
    out = markdown_table(df, ["start", "score", "text", "gone", "no_such_column"], n=5, width=20)
    lines = out.splitlines()
    assert lines[0] == "| start | score | text | gone |"
    assert lines[1] == "|---|---|---|---|"
    # ints stay ints next to a float column; pipes escaped; newlines shown as ⏎; missing is empty
    assert lines[2] == "| 3 | 0.5 | a \\| b⏎c |  |"
    assert lines[3] == "| 10 | 1.25 | " + "x" * 19 + "… | y |"
    assert len(lines) == 4


def test_markdown_table_limits_rows():
    df = pd.DataFrame({"i": range(20)})
    assert len(markdown_table(df, ["i"], n=3).splitlines()) == 2 + 3
    assert markdown_table(df.iloc[0:0], ["i"]).splitlines() == ["| i |", "|---|"]


def test_head_where_takes_the_first_matching_rows_or_falls_back():
    df = pd.DataFrame({"kind": ["a", "b", "a", "b", "b"], "i": range(5)})
    assert head_where(df, "kind", lambda k: k == "b", 2)["i"].tolist() == [1, 3]
    assert head_where(df, "kind", lambda k: k == "c", 2)["i"].tolist() == [0, 1, 2, 3, 4]
    assert head_where(df, "kind", lambda k: k == "c", 2, fallback=False).empty
