"""The settings package: the one reader of the environment, one boolean parser, typed frozen objects."""

import dataclasses
import os

import pytest

from textguard_pipeline import settings


@pytest.mark.parametrize(
    "raw,expected",
    [
        ("1", True),
        ("TRUE", True),
        (" yes ", True),
        ("on", True),
        ("0", False),
        ("False", False),
        ("no", False),
        ("OFF", False),
    ],
)
def test_env_bool_reads_the_usual_spellings(raw, expected):
    assert settings.env_bool("X", not expected, {"X": raw}) is expected


def test_env_bool_uses_the_default_when_unset_or_blank():
    assert settings.env_bool("X", True, {}) is True
    assert settings.env_bool("X", False, {"X": "  "}) is False


def test_env_bool_rejects_an_unknown_value_naming_the_variable():
    with pytest.raises(settings.SettingsError, match="TEXTGUARD_PROTECT_NER='maybe'"):
        settings.protection_settings({"TEXTGUARD_PROTECT_NER": "maybe"})


def test_numbers_are_checked():
    with pytest.raises(settings.SettingsError, match="TEXTGUARD_MAX_PARTITIONS_PER_RUN"):
        settings.max_partitions_per_run({"TEXTGUARD_MAX_PARTITIONS_PER_RUN": "fifty"})
    with pytest.raises(settings.SettingsError, match="TEXTGUARD_MAX_PARTITIONS_PER_RUN='0' must be at least 1"):
        settings.max_partitions_per_run({"TEXTGUARD_MAX_PARTITIONS_PER_RUN": "0"})


def test_protection_settings_are_frozen_and_typed():
    s = settings.protection_settings(
        {"TEXTGUARD_PROTECT_TERMS": " Acme Corp | | TLS 1.3 ", "TEXTGUARD_PROTECT_NUMBERS": "off"}
    )
    assert s.custom_terms == ("Acme Corp", "TLS 1.3")
    assert s.protect_numbers is False and s.use_ner is True
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.use_ner = False  # type: ignore[misc]


def test_paths_default_under_the_project_and_follow_the_environment(tmp_path):
    assert settings.corpus_dir({}) == str(settings.PROJECT_ROOT / "data" / "corpus")
    assert settings.warehouse({"TEXTGUARD_WAREHOUSE": str(tmp_path)}) == str(tmp_path)


def test_every_variable_settings_reads_is_documented():
    import re

    package = settings.PROJECT_ROOT / "textguard_pipeline" / "settings"
    source = "".join(p.read_text() for p in sorted(package.glob("*.py")))
    page = (settings.PROJECT_ROOT / "docs" / "configuration.md").read_text()
    names = sorted(set(re.findall(r'"(TEXTGUARD_[A-Z0-9_]+)"', source)))
    assert len(names) > 40
    assert [n for n in names if f"`{n}`" not in page] == []


def test_restored_environ_sets_a_snapshot_and_puts_the_environment_back(monkeypatch):
    from textguard_pipeline.settings import restored_environ

    monkeypatch.setenv("TEXTGUARD_TEST_SET", "before")
    monkeypatch.delenv("TEXTGUARD_TEST_UNSET", raising=False)
    snapshot = {"TEXTGUARD_TEST_SET": None, "TEXTGUARD_TEST_UNSET": "inside"}
    with restored_environ("TEXTGUARD_TEST_SET", "TEXTGUARD_TEST_UNSET", values=snapshot):
        assert "TEXTGUARD_TEST_SET" not in os.environ
        assert os.environ["TEXTGUARD_TEST_UNSET"] == "inside"
    assert os.environ["TEXTGUARD_TEST_SET"] == "before"
    assert "TEXTGUARD_TEST_UNSET" not in os.environ
    # a value not among the names is put back too
    with restored_environ(values={"TEXTGUARD_TEST_UNSET": "inside"}):
        assert os.environ["TEXTGUARD_TEST_UNSET"] == "inside"
    assert "TEXTGUARD_TEST_UNSET" not in os.environ
