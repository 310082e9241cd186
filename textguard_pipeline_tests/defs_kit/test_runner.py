"""Helpers shared by the asset modules."""

import pandas as pd

from textguard_pipeline.defs_kit.runner import head_positions, head_where, markdown_table


def test_markdown_table_escapes_clips_and_keeps_column_types():
    df = pd.DataFrame(
        {
            "start": [3, 10],
            "score": [0.5, 1.25],
            "text": ["a | b\nc", "x" * 80],
            "gone": [None, "y"],
        }
    )
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


def test_markdown_table_of_chosen_rows_is_the_table_of_those_rows():
    df = pd.DataFrame({"kind": ["a", "b", "a", "b", "b"], "i": range(5), "t": ["p", "q|r", "s", "t", "u"]})
    rows = head_positions(df, "kind", lambda k: k == "b", 2)
    assert rows == [1, 3] and head_positions(df, "kind", lambda k: k == "c", 2) == []
    assert markdown_table(df, ["i", "t"], rows=rows) == markdown_table(df.iloc[rows], ["i", "t"])
    assert markdown_table(df, ["i"], n=1, rows=rows).splitlines()[2:] == ["| 1 |"]
    assert markdown_table(df, ["i"], rows=[]).splitlines() == ["| i |", "|---|"]


def test_head_where_takes_the_first_matching_rows_or_falls_back():
    df = pd.DataFrame({"kind": ["a", "b", "a", "b", "b"], "i": range(5)})
    assert head_where(df, "kind", lambda k: k == "b", 2)["i"].tolist() == [1, 3]
    assert head_where(df, "kind", lambda k: k == "c", 2)["i"].tolist() == [0, 1, 2, 3, 4]
    assert head_where(df, "kind", lambda k: k == "c", 2, fallback=False).empty


def test_the_private_metadata_accumulator_still_takes_per_partition_metadata():
    """Fails when Dagster renames or changes ``StepExecutionContext._metadata_accumulator``.

    The runner writes to it (the public per-partition call costs ≈ 9 ms per asset and
    document); if this fails, the fallback still works but the fast path is gone: update
    ``feed_metadata_accumulator`` for the new Dagster.
    """
    import dagster as dg

    from textguard_pipeline.defs_kit.runner import feed_metadata_accumulator

    parts = dg.DynamicPartitionsDefinition(name="docs")
    fed: list[bool] = []

    @dg.asset(partitions_def=parts)
    def probe(context: dg.AssetExecutionContext):
        for key in context.partition_keys:
            fed.append(feed_metadata_accumulator(context, key, {"probe_key": key}))
        return dg.MaterializeResult()  # no output to store

    with dg.instance_for_test() as instance:
        instance.add_dynamic_partitions("docs", ["a", "b"])
        result = dg.materialize(
            [probe],
            instance=instance,
            tags={"dagster/asset_partition_range_start": "a", "dagster/asset_partition_range_end": "b"},
        )
        assert result.success
        assert fed == [True, True]
        by_key = {m.partition: m.metadata for m in result.asset_materializations_for_node("probe")}
    assert by_key["a"]["probe_key"].value == "a"
    assert by_key["b"]["probe_key"].value == "b"
