"""Issue 48, item 3, replayed through the CLI: a URL's password and an API key are written down nowhere.

`textguard report` runs against the stand-in with ``TEXTGUARD_LLM_URL=http://user:PASSWORD@127.0.0.1:PORT/v1``
(how basic-auth gateways are configured) and an API key, once while the endpoint fails (error messages name
the URL) and once while it answers (cache entries, metadata); then every file under the warehouse, the
instance home, the report folder and the response cache, and the console, is searched for either secret.
"""

from __future__ import annotations

import sqlite3
import sys
import zlib
from contextlib import closing
from pathlib import Path

import pytest

from textguard_pipeline_tests.standin.client import free_port, process

from ._cli import place, write_docs

pytestmark = pytest.mark.timeout(600)

ROUTE = "POST /v1/chat/completions"
PASSWORD = "pw-Zq81xx-not-for-disk"
API_KEY = "sk-key-Vv27yy-not-for-disk"
REWRITE = "source_documents parsed_chunks protected_chunks rewritten_chunks"


def llm_place(tmp_path: Path, base_url: str, **extra: str):
    """A throw-away place whose reports rewrite through ``base_url`` (fast retries, no NER model)."""
    p = place(tmp_path)
    p.extra.update(
        TEXTGUARD_LLM_URL=base_url + "/v1",
        TEXTGUARD_LLM_MODEL="stand-in",
        TEXTGUARD_REWRITE_TASK="paraphrase",
        TEXTGUARD_LLM_CACHE_DIR=str(tmp_path / "llm_cache"),
        TEXTGUARD_LLM_BACKOFF_S="0.01",
        TEXTGUARD_LLM_MAX_RETRIES="1",
        TEXTGUARD_PROTECT_NER="0",
        TEXTGUARD_MEANINGS_LLM="0",
    )
    p.extra.update(extra)
    return p


def files_holding(roots: list[Path], needles: tuple[str, ...]) -> list[str]:
    hits = []
    for root in roots:
        for path in sorted(root.rglob("*")) if root.exists() else []:
            if path.is_file():
                data = path.read_bytes()
                hits += [f"{path}: {n}" for n in needles if n.encode() in data]
    return hits


def test_a_password_in_the_llm_url_and_the_api_key_are_written_nowhere(tmp_path, fresh_standin):
    port = fresh_standin.base_url.rsplit(":", 1)[1]
    p = llm_place(tmp_path, f"http://user:{PASSWORD}@127.0.0.1:{port}", TEXTGUARD_LLM_API_KEY=API_KEY)
    write_docs(p.corpus, 2, words=80)
    fresh_standin.script({ROUTE: [{"status": 500, "json": {"error": f"bad key {API_KEY}"}}]})
    down = p.report(select=REWRITE)
    fresh_standin.script({ROUTE: [{"mangle": {"kind": "none"}}]})
    up = p.report(select=REWRITE, out=tmp_path / "reports2")
    assert down.returncode == 1, down.stdout[-3000:]
    assert up.returncode == 0, up.stdout[-3000:] + up.stderr[-3000:]
    assert any(tmp_path.joinpath("llm_cache").rglob("*.json"))  # the answers were cached
    assert "answered 500" in p.markdown()  # the failure is still explained, with the URL masked
    assert "user:***@127.0.0.1" in p.markdown()
    console = down.stdout + down.stderr + up.stdout + up.stderr
    assert PASSWORD not in console and API_KEY not in console
    roots = [p.warehouse, p.home, p.out, tmp_path / "reports2", tmp_path / "llm_cache"]
    assert files_holding(roots, (PASSWORD, API_KEY)) == []


NER_PASSWORD = "pw-Nr44qq-not-for-disk"
NER = "source_documents parsed_chunks ner_frames"


def test_a_password_in_the_ner_url_is_written_nowhere(tmp_path):
    """The NER service's URL reaches the instance as the variable's name (EnvVar), while it answers and while
    its port is closed (errors name the URL, masked)."""
    port = free_port()
    cmd = [sys.executable, "-m", "textguard_pipeline.cli", "ner-serve", "--host", "127.0.0.1", "--port", str(port)]
    p = place(tmp_path)
    p.extra.update(TEXTGUARD_NER_BACKEND="rules", TEXTGUARD_PROTECT_NER="0", TEXTGUARD_MEANINGS_LLM="0")
    write_docs(p.corpus, 2, words=80)
    down = p.report(select=NER, extra_env={"TEXTGUARD_NER_URL": f"http://user:{NER_PASSWORD}@127.0.0.1:{port}/ner"})
    with process(cmd, f"http://127.0.0.1:{port}/health"):
        up = p.report(
            select=NER,
            out=tmp_path / "reports2",
            extra_env={"TEXTGUARD_NER_URL": f"http://user:{NER_PASSWORD}@127.0.0.1:{port}/ner"},
        )
    assert down.returncode == 1, down.stdout[-3000:]
    assert up.returncode == 0, up.stdout[-3000:] + up.stderr[-3000:]
    console = down.stdout + down.stderr + up.stdout + up.stderr
    assert NER_PASSWORD not in console
    assert files_holding([p.warehouse, p.home, p.out, tmp_path / "reports2"], (NER_PASSWORD,)) == []
    # the instance stores the resources' config zlib-compressed (snapshots), out of reach of a byte search
    stored = instance_texts(p.home)
    assert NER_PASSWORD not in stored
    assert '{\\"env\\": \\"TEXTGUARD_NER_URL\\"}' in stored  # the variable's name, not its value


def instance_texts(home: Path) -> str:
    """Every value of every table of the instance's SQLite files, compressed blobs inflated."""
    out = []
    for db in home.rglob("*.db"):
        with closing(sqlite3.connect(db)) as con:
            for (table,) in con.execute("SELECT name FROM sqlite_master WHERE type='table'").fetchall():
                for row in con.execute(f'SELECT * FROM "{table}"'):
                    for v in row:
                        if isinstance(v, bytes):
                            try:
                                v = zlib.decompress(v)
                            except zlib.error:
                                pass
                            v = v.decode("utf-8", "replace")
                        out.append(str(v))
    return "\n".join(out)
