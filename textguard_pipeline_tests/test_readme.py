"""The README's own-corpus commands and its table-reading snippet, run verbatim as a newcomer would.

They run in a fresh folder with a fresh home holding two small documents in ``~/docs``, and must leave the
sample's warehouse and Dagster instance byte for byte as they were.
"""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from textguard_pipeline.settings import PROJECT_ROOT

pytestmark = pytest.mark.slow

README = PROJECT_ROOT / "README.md"
BLOCK = re.compile(r"<!-- tested: (?P<name>[\w-]+) -->\n```(?P<lang>\w+)\n(?P<code>.*?)```", re.DOTALL)

NOTES = """# Field notes

Smith et al. (2019) measured 42 samples at CERN; the mean was $\\mu = 3.2$ as reported in [4].
"""
SECOND = "Ada Lovelace wrote the first program for the Analytical Engine in 1843.\n"


def readme_blocks() -> dict[str, tuple[str, str]]:
    return {m["name"]: (m["lang"], m["code"]) for m in BLOCK.finditer(README.read_text(encoding="utf-8"))}


def tree_digest(root: Path) -> str:
    """Every file's relative path and bytes under ``root`` (nothing when it does not exist)."""
    h = hashlib.sha256()
    if root.exists():
        for path in sorted(p for p in root.rglob("*") if p.is_file()):
            h.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


def test_the_readme_marks_its_own_corpus_commands_and_table_snippet_for_this_test():
    blocks = readme_blocks()
    assert blocks["own-corpus"][0] == "bash" and "--warehouse" in blocks["own-corpus"][1]
    assert "DAGSTER_HOME=" in blocks["own-corpus"][1]
    assert (
        blocks["read-table"][0] == "python"
        and len([line for line in blocks["read-table"][1].splitlines() if line.strip()]) <= 3
    )


def test_readme_own_corpus_commands_and_snippet_work_verbatim_and_leave_the_sample_untouched(tmp_path):
    blocks = readme_blocks()
    home, fresh = tmp_path / "home", tmp_path / "clone"
    (home / "docs").mkdir(parents=True)
    (home / "docs" / "notes.md").write_text(NOTES, encoding="utf-8")
    (home / "docs" / "second.txt").write_text(SECOND, encoding="utf-8")
    # the README's commands start `.venv/bin/textguard` from the project folder: a fresh folder with that path
    (fresh / ".venv" / "bin").mkdir(parents=True)
    (fresh / ".venv" / "bin" / "textguard").symlink_to(Path(sys.executable).with_name("textguard"))
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TEXTGUARD_", "DAGSTER_"))}
    env["HOME"] = str(home)
    sample = {name: tree_digest(PROJECT_ROOT / "data" / name) for name in ("warehouse", "dagster_home")}

    report = subprocess.run(
        ["bash", "-e", "-c", blocks["own-corpus"][1]], cwd=fresh, env=env, capture_output=True, text=True, timeout=1200
    )
    assert report.returncode == 0, report.stdout[-3000:] + report.stderr[-3000:]
    tables = home / "tg" / "warehouse" / "protected_chunks"
    assert sorted(p.name for p in tables.iterdir()) == ["notes.md.parquet", "second.txt.parquet"]
    assert (home / "tg" / "reports" / "asset-checks.md").is_file()
    assert (home / "tg" / "home" / "dagster.yaml").is_file()

    snippet = subprocess.run(
        [sys.executable, "-c", blocks["read-table"][1]], cwd=fresh, env=env, capture_output=True, text=True, timeout=120
    )
    assert snippet.returncode == 0, snippet.stderr[-3000:]
    assert "⟨TERM_000⟩" in snippet.stdout and "protected_text" in snippet.stdout

    assert {name: tree_digest(PROJECT_ROOT / "data" / name) for name in ("warehouse", "dagster_home")} == sample
