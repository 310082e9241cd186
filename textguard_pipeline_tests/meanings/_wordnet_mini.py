"""Test helper: the project's small shipped WordNet lexicon in a private wn data directory.

Deterministic (does not depend on what a machine has installed) and fast (≈ 0.5 s).
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from typing import Iterator

from textguard_pipeline.settings import restored_environ


@contextmanager
def mini_wordnet(data_dir: str) -> Iterator[object]:
    from textguard_pipeline.core.wordnet_setup import MINI_LEXICON_PATH, install_wordnet, open_wordnet, wn_data_dir

    try:
        with restored_environ("TEXTGUARD_WN_DATA", "TEXTGUARD_WN_LEXICON"):
            os.environ["TEXTGUARD_WN_DATA"] = data_dir
            os.environ.pop("TEXTGUARD_WN_LEXICON", None)
            install_wordnet(from_path=str(MINI_LEXICON_PATH), log=lambda _s: None)
            yield open_wordnet()
    finally:
        wn_data_dir()  # point wn back at the restored directory


def sql_statements(run) -> list[str]:
    """The SQL statements wn sends while ``run()`` runs (its shared connection, traced)."""
    from wn._db import connect  # lazy: wn's private connection, only where a test traces it

    sent: list[str] = []
    conn = connect()
    conn.set_trace_callback(sent.append)
    try:
        run()
    finally:
        conn.set_trace_callback(None)
    return sent
