"""Run the real `textguard` CLI in its own process against a throw-away corpus, warehouse and instance."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pyarrow.parquet as pq

CHEAP = "source_documents parsed_chunks"  # the two root assets: enough to exercise runs, files and the instance
WORDS = (
    "alpha beta gamma delta epsilon zeta theta kappa lambda sigma omega river stone cloud paper "
    "garden window letter number table chapter method result"
).split()


@dataclass
class Place:
    corpus: Path
    warehouse: Path
    home: Path
    out: Path
    extra: dict[str, str] = field(default_factory=dict)  # further variables for every process started here

    def env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("TEXTGUARD_", "DAGSTER_"))}
        env.update(
            DAGSTER_HOME=str(self.home),
            TEXTGUARD_CORPUS_DIR=str(self.corpus),
            TEXTGUARD_WAREHOUSE=str(self.warehouse),
            PYTHONUNBUFFERED="1",
        )
        env.update(self.extra)
        return env

    def command(self, *args: str) -> list[str]:
        return [sys.executable, "-m", "textguard_pipeline.cli", *args]

    def report(
        self,
        *extra: str,
        select: str | None = CHEAP,
        out: Path | None = None,
        timeout: float = 600,
        extra_env: dict[str, str] | None = None,
    ) -> subprocess.CompletedProcess:
        args = ["report", "--out", str(out or self.out)] + (["--select", select] if select else []) + list(extra)
        env = {**self.env(), **(extra_env or {})}
        return subprocess.run(self.command(*args), env=env, capture_output=True, text=True, timeout=timeout)

    def start_report(self, *extra: str, select: str | None = CHEAP, out: Path | None = None) -> subprocess.Popen:
        args = ["report", "--out", str(out or self.out)] + (["--select", select] if select else []) + list(extra)
        return subprocess.Popen(
            self.command(*args),
            env=self.env(),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
        )

    def markdown(self, out: Path | None = None) -> str:
        return ((out or self.out) / "asset-checks.md").read_text(encoding="utf-8")


def place(tmp_path: Path, warehouse: Path | None = None) -> Place:
    p = Place(tmp_path / "corpus", warehouse or tmp_path / "warehouse", tmp_path / "home", tmp_path / "reports")
    p.corpus.mkdir(parents=True, exist_ok=True)
    return p


def write_docs(corpus: Path, n: int, words: int = 200, seed: int = 0) -> list[str]:
    """``n`` plain-text documents of ``words`` random words each; returns their doc ids."""
    rng = random.Random(seed)
    names = []
    for i in range(n):
        paragraphs = [
            " ".join(rng.choice(WORDS) for _ in range(40)).capitalize() + "." for _ in range(max(1, words // 40))
        ]
        (corpus / f"doc{i:03d}.txt").write_text("\n\n".join(paragraphs) + "\n", encoding="utf-8")
        names.append(f"doc{i:03d}.txt")
    return names


def parquet_files(warehouse: Path) -> list[Path]:
    return sorted(warehouse.rglob("*.parquet")) if warehouse.exists() else []


def assert_no_torn_files(warehouse: Path) -> None:
    """Every Parquet file reads back whole and no temporary file is left."""
    for path in parquet_files(warehouse):
        pq.read_table(path)
    assert not sorted(warehouse.rglob("*.tmp")) if warehouse.exists() else True
