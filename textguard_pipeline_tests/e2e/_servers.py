"""Servers for the end-to-end tests (see :mod:`textguard_pipeline_tests.devservers`): a server that
cannot be installed here skips the test with the reason; plus a small corpus and a Dagster home."""

from __future__ import annotations

import shutil
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import pytest

from textguard_pipeline.settings import PROJECT_ROOT
from textguard_pipeline_tests import devservers
from textguard_pipeline_tests.devservers import Postgres

VENV_BIN = Path(sys.executable).parent


@contextmanager
def postgres_server(db: str = "dagster") -> Iterator[Postgres]:
    try:
        with devservers.postgres_server(db) as pg:
            yield pg
    except devservers.ServerUnavailable as exc:
        pytest.skip(str(exc))


@contextmanager
def redis_server() -> Iterator[str]:
    try:
        with devservers.redis_server() as url:
            yield url
    except devservers.ServerUnavailable as exc:
        pytest.skip(str(exc))


# -- a small corpus and a Dagster home ------------------------------------------------------

SMALL_DOCS = ("comply_policy_encryption.md", "evaluate_bleu_readme.md", "alce_readme.md", "amrex_joss_paper.md")


def small_corpus(dest: Path, names=SMALL_DOCS) -> list[str]:
    """Copy a few sample documents (the smallest ones that exist) to ``dest``; return their doc_ids."""
    from textguard_pipeline.core.documents import discover_documents

    src = PROJECT_ROOT / "data" / "corpus"
    dest.mkdir(parents=True, exist_ok=True)
    available = discover_documents(src)
    chosen = [n for n in names if n in available] or sorted(available, key=lambda k: available[k].stat().st_size)[:4]
    for name in chosen:
        shutil.copy(available[name], dest / available[name].name)
    return sorted(discover_documents(dest))


def dagster_home(dest: Path, yaml_source: Path | None = None) -> Path:
    dest.mkdir(parents=True, exist_ok=True)
    shutil.copy(yaml_source or PROJECT_ROOT / "deploy" / "sqlite" / "dagster.yaml", dest / "dagster.yaml")
    return dest
