"""Issue 48, item 3, replayed through the CLI: a URL's password and an API key are written down nowhere.

`textguard report` runs against the stand-in with ``TEXTGUARD_LLM_URL=http://user:PASSWORD@127.0.0.1:PORT/v1``
(how basic-auth gateways are configured) and an API key, once while the endpoint fails (error messages name
the URL) and once while it answers (cache entries, metadata); then every file under the warehouse, the
instance home, the report folder and the response cache, and the console, is searched for either secret.
"""

from __future__ import annotations

from pathlib import Path

import pytest

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
