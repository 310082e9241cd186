"""`dg` (dagster-dg-cli, a dev extra) reads the project from [tool.dg]: `dg check defs` and `dg list defs` pass
and list what the explicit merge of the slices holds."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from textguard_pipeline.settings import PROJECT_ROOT

DG = Path(sys.executable).parent / "dg"
pytestmark = pytest.mark.timeout(600)


def _dg(tmp_path: Path, *args: str, **extra: str) -> subprocess.CompletedProcess:
    assert DG.exists(), "dg is missing: `make install` installs the dev extra (dagster-dg-cli)"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TEXTGUARD_", "DAGSTER_"))}
    env.update(DAGSTER_HOME=str(tmp_path / "home"), **extra)
    (tmp_path / "home").mkdir(exist_ok=True)
    return subprocess.run(
        [str(DG), *args],
        cwd=PROJECT_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=500,
        stdin=subprocess.DEVNULL,
    )


def test_dg_check_defs_passes(tmp_path):
    res = _dg(tmp_path, "check", "defs")
    assert res.returncode == 0, res.stdout[-2000:] + res.stderr[-3000:]
    assert "All definitions loaded successfully" in res.stdout + res.stderr


def test_dg_check_defs_fails_on_a_bad_setting_naming_the_variable(tmp_path):
    res = _dg(tmp_path, "check", "defs", TEXTGUARD_NER_MAX_RETRIES="-1")
    assert res.returncode != 0
    assert "TEXTGUARD_NER_MAX_RETRIES='-1' must be at least 0" in res.stdout + res.stderr


def test_dg_list_defs_lists_what_the_definitions_hold(tmp_path):
    from textguard_pipeline.definitions import defs

    res = _dg(tmp_path, "list", "defs", "--json")
    assert res.returncode == 0, res.stderr[-3000:]
    listed = json.loads(res.stdout)
    graph = defs.resolve_asset_graph()
    assert {a["asset_key"] for a in listed["assets"]} == {k.to_user_string() for k in graph.materializable_asset_keys}
    assert {s["name"] for s in listed["sensors"]} == {s.name for s in defs.sensors}
    assert {s["name"] for s in listed["schedules"]} == {"corpus_refresh"}
