"""One check step per asset gives the same check results as one step per check, and a check still runs alone."""

import warnings

import pytest
from dagster import AssetCheckKey, AssetKey, AssetSelection, DagsterInstance, Definitions, define_asset_job
from dagster._core.storage.tags import ASSET_PARTITION_RANGE_END_TAG, ASSET_PARTITION_RANGE_START_TAG

from textguard_pipeline_tests.e2e._servers import small_corpus

ASSETS = ("source_documents", "parsed_chunks")


def _defs(grouped: bool):
    from textguard_pipeline.definitions import build_definitions

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return build_definitions(grouped_checks=grouped)


def _evaluations(defs, selection, docs, instance):
    from textguard_pipeline.defs_kit.partitions import documents_partitions

    job = Definitions.merge(
        defs, Definitions(jobs=[define_asset_job("t", selection=selection, partitions_def=documents_partitions)])
    )
    result = job.resolve_job_def("t").execute_in_process(
        instance=instance,
        raise_on_error=False,
        tags={ASSET_PARTITION_RANGE_START_TAG: docs[0], ASSET_PARTITION_RANGE_END_TAG: docs[-1]},
    )
    out = {}
    for ev in result.get_asset_check_evaluations():
        md = {k: getattr(v, "value", getattr(v, "data", v)) for k, v in ev.metadata.items()}
        out[(ev.asset_key.to_user_string(), ev.check_name)] = (ev.passed, ev.severity.value, md)
    steps = {e.step_key for e in result.all_events if e.step_key}
    return out, steps


@pytest.mark.parametrize("with_bad", [False, True])
def test_grouped_check_steps_give_the_same_results(tmp_path, monkeypatch, with_bad):
    docs = small_corpus(tmp_path / "corpus")[:3]
    if with_bad:
        (tmp_path / "corpus" / "zz_bad.txt").write_bytes(b"abc \xff")
        docs = docs + ["zz_bad.txt"]
    monkeypatch.setenv("TEXTGUARD_CORPUS_DIR", str(tmp_path / "corpus"))
    results = {}
    for grouped in (False, True):
        monkeypatch.setenv("TEXTGUARD_WAREHOUSE", str(tmp_path / f"wh_{grouped}"))
        with DagsterInstance.ephemeral() as instance:
            instance.add_dynamic_partitions("documents", docs)
            results[grouped] = _evaluations(_defs(grouped), AssetSelection.assets(*ASSETS), docs, instance)
    (plain, plain_steps), (grouped, grouped_steps) = results[False], results[True]
    assert set(grouped) == set(plain) and len(plain) >= 3
    for key in plain:
        p, g = plain[key], grouped[key]
        timing = {k for k in p[2] if "second" in k}
        assert (g[0], g[1]) == (p[0], p[1]), key
        # grouped steps add the failing documents across runs (check_history.py); the rest is the same
        across = {"documents_failing", "documents_failing_count"}
        assert across <= set(g[2]), key
        assert {k: v for k, v in g[2].items() if k not in timing | across} == {
            k: v for k, v in p[2].items() if k not in timing
        }
    assert plain[("source_documents", "source_documents_readable")][0] is (not with_bad)
    # fewer steps: one per asset with checks instead of one per check
    assert len([s for s in grouped_steps if s.endswith("_checks")]) == len(ASSETS)
    assert len(grouped_steps) < len(plain_steps)


def test_a_check_runs_alone(tmp_path, monkeypatch):
    docs = small_corpus(tmp_path / "corpus")[:2]
    monkeypatch.setenv("TEXTGUARD_CORPUS_DIR", str(tmp_path / "corpus"))
    monkeypatch.setenv("TEXTGUARD_WAREHOUSE", str(tmp_path / "wh"))
    defs = _defs(True)
    with DagsterInstance.ephemeral() as instance:
        instance.add_dynamic_partitions("documents", docs)
        _evaluations(defs, AssetSelection.assets(*ASSETS), docs, instance)  # materialize first
        only = AssetSelection.checks(AssetCheckKey(AssetKey("parsed_chunks"), "parsed_chunks_tiling"))
        evals, _ = _evaluations(defs, only, docs, instance)
    assert list(evals) == [("parsed_chunks", "parsed_chunks_tiling")]
    assert evals[("parsed_chunks", "parsed_chunks_tiling")][0] is True


def test_every_check_is_in_its_assets_step_resources_included():
    """Checks that take a resource (the round trip's, the meanings') join their asset's step, so their failing
    documents accumulate across runs like every other check's."""
    checks = list(_defs(True).asset_checks)
    names = [c.op.name for c in checks]
    assert all(name.endswith("_checks") for name in names), sorted(names)
    specs = {s.name: c for c in checks for s in c.check_specs}
    assert specs["resolved_meanings_not_suppressed"].op.name == "resolved_meanings_checks"
    assert "meanings" in specs["resolved_meanings_not_suppressed"].op.required_resource_keys
    assert "rewrite" in specs["rewritten_chunks_documents_ok"].op.required_resource_keys
