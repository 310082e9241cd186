"""meanings/defs.py: the suppression check reads the rules file named by the `meanings` resource."""

import pandas as pd
from dagster import build_asset_check_context

from textguard_pipeline.meanings.defs import MeaningsResource, resolved_meanings_not_suppressed
from textguard_pipeline.settings import MeaningsSettings

HEADER = "meaning_id,normalized_label,index_type,scope,suppression_mode\n"


def _row(label: str) -> dict:
    return {
        "doc_id": "a.txt",
        "start": 0,
        "end": len(label),
        "text": label,
        "index_type": "subject",
        "normalized_label": label,
        "meaning_id": None,
        "meaning_type": "custom",
        "page": 1,
    }


def test_the_suppression_check_takes_its_rules_from_the_resource_not_the_environment(tmp_path, monkeypatch):
    blocking = tmp_path / "resource.csv"
    blocking.write_text(HEADER + ",encryption,subject,project,block_all\n", encoding="utf-8")
    elsewhere = tmp_path / "env.csv"
    elsewhere.write_text(HEADER + ",metric,subject,project,block_all\n", encoding="utf-8")
    monkeypatch.setenv("TEXTGUARD_SUPPRESSIONS", str(elsewhere))
    frame = pd.DataFrame([_row("encryption"), _row("translation")])

    ctx = build_asset_check_context(resources={"meanings": MeaningsResource(suppressions_path=str(blocking))})
    result = resolved_meanings_not_suppressed(ctx, value={"a.txt": frame})
    assert not result.passed and result.metadata["failures"].value == 1

    ctx = build_asset_check_context(resources={"meanings": MeaningsResource(suppressions_path=str(elsewhere))})
    assert resolved_meanings_not_suppressed(ctx, value={"a.txt": frame}).passed


def test_one_settings_class_feeds_resource_and_resolver(monkeypatch):
    monkeypatch.setenv("TEXTGUARD_MEANINGS_BOUNDARY", "reject")
    monkeypatch.setenv("TEXTGUARD_MEANINGS_MIN_SUBJECT", "2")
    res = MeaningsResource.from_env()
    assert (res.boundary, res.min_occurrences_subject) == ("reject", 2)
    settings = res.settings()
    assert isinstance(settings, MeaningsSettings) and settings.boundary == "reject"
    from textguard_pipeline.core.meanings import MeaningSettings
    from textguard_pipeline.core.pipeline import MeaningsSettings as OldName

    assert MeaningSettings is MeaningsSettings is OldName


def test_meanings_booleans_reject_unknown_words(monkeypatch):
    import pytest

    monkeypatch.setenv("TEXTGUARD_MEANINGS_RATE", "perhaps")
    with pytest.raises(ValueError, match="TEXTGUARD_MEANINGS_RATE"):
        MeaningsSettings.from_env()
    monkeypatch.setenv("TEXTGUARD_MEANINGS_RATE", "off")
    assert MeaningsSettings.from_env().rate is False
