"""Tests for core/wordnet_setup.py and `textguard wordnet`: every install path, for real.

The WNDB test converts the real /usr/share/wordnet (Debian ``wordnet-base``;
CI installs it) and adds it with wn. Each test uses its own temp
``TEXTGUARD_WN_DATA``; downloads only ever go to the loopback stand-in.
"""

from __future__ import annotations

import re
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from textguard_pipeline.core import wordnet_setup as ws
from textguard_pipeline.core.wordnet_senses import wordnet_candidates
from textguard_pipeline_tests.meanings.test_wordnet_senses import check_lesk_against_baseline
from textguard_pipeline_tests.standin.client import free_port

WNDB = Path("/usr/share/wordnet")
needs_wndb = pytest.mark.skipif(
    not ws.find_wndb(WNDB),
    reason="/usr/share/wordnet is absent: apt-get install --no-install-recommends wordnet-base (CI installs it)",
)

EMPTY_LMF = f"""{ws.LMF_XMLDECL}
{ws.LMF_DOCTYPE}
<LexicalResource xmlns:dc="{ws.LMF_DC_NS}">
<Lexicon id="emptywn" label="Empty" language="en" email="x@example.org" license="https://example.org" version="1.0">
</Lexicon>
</LexicalResource>
"""


def _use_dir(mp: pytest.MonkeyPatch, path: Path) -> None:
    ws._close_pool()
    mp.setenv("TEXTGUARD_WN_DATA", str(path))
    mp.setenv("TEXTGUARD_WN_DOWNLOAD", "0")
    mp.delenv("TEXTGUARD_WN_LEXICON", raising=False)


@pytest.fixture
def wn_dir(tmp_path, monkeypatch):
    _use_dir(monkeypatch, tmp_path / "wn_data")
    yield tmp_path / "wn_data"
    ws._close_pool()


def _quiet(_msg: str) -> None:
    pass


def _wndb_expected(directory: Path) -> dict:
    """Counts read straight from the WNDB files (independently of the converter)."""
    synsets = senses = 0
    lemmas: set[tuple[str, str]] = set()
    for pos, name in (("n", "noun"), ("v", "verb"), ("a", "adj"), ("r", "adv")):
        for line in (directory / f"data.{name}").read_text(encoding="utf-8").splitlines():
            if line.startswith("  "):
                continue
            synsets += 1
            senses += int(line.split()[3], 16)
        for line in (directory / f"index.{name}").read_text(encoding="utf-8").splitlines():
            if not line.startswith("  "):
                lemmas.add((line.split()[0], pos))
    return {"synsets": synsets, "senses": senses, "lemmas": lemmas}


# --------------------------------------------------------------------------- pure parts


def test_split_gloss():
    assert ws.split_gloss('a domesticated canine; occurs in many breeds; "the dog barked all night"  ') == (
        "a domesticated canine; occurs in many breeds",
        ["the dog barked all night"],
    )
    assert ws.split_gloss('"a quoted example only"') == ("", ["a quoted example only"])
    assert ws.split_gloss("no examples here") == ("no examples here", [])
    assert ws.split_gloss('def; "one"; "two" - Shakespeare') == ("def", ["one", "two"])


def test_version_ranking_and_newest_oewn():
    assert ws._version_key("2025+") > ws._version_key("2025") > ws._version_key("2024")
    assert ws.newest_oewn_spec().startswith("oewn:")
    full, mini = ("wn30", "3.0"), ("wn30", "3.0-mini")
    assert max([mini, full], key=ws._rank) == full
    assert max([full, ("oewn", "2024")], key=ws._rank) == ("oewn", "2024")


# --------------------------------------------------------------------------- nothing installed / bad input


def test_nothing_installed_is_reported(wn_dir):
    assert ws.wordnet_status() is None
    with pytest.raises(ws.WordNetNotInstalled, match="textguard wordnet install"):
        ws.open_wordnet()
    assert not (wn_dir / "wn.db").exists()  # status must not create an empty database


def test_bad_lmf_header_gets_a_clear_error(wn_dir, tmp_path):
    bad = tmp_path / "bad.xml"
    bad.write_text(EMPTY_LMF.replace(ws.LMF_XMLDECL, "<?xml version='1.0'?>"), encoding="utf-8")
    with pytest.raises(ws.WordNetError, match="first line must be exactly"):
        ws.install_wordnet(from_path=str(bad), log=_quiet)
    bad.write_text(EMPTY_LMF.replace(ws.LMF_DOCTYPE, "<!DOCTYPE LexicalResource>"), encoding="utf-8")
    with pytest.raises(ws.WordNetError, match="WN-LMF DOCTYPE"):
        ws.install_wordnet(from_path=str(bad), log=_quiet)
    with pytest.raises(ws.WordNetError, match="no such file"):
        ws.install_wordnet(from_path=str(tmp_path / "missing.xml"), log=_quiet)
    with pytest.raises(ws.WordNetError, match="not a WNDB directory"):
        ws.install_wordnet(from_path=str(tmp_path), log=_quiet)


def test_empty_lexicon_file_is_rejected_and_removed(wn_dir, tmp_path):
    empty = tmp_path / "empty.xml"
    empty.write_text(EMPTY_LMF, encoding="utf-8")
    with pytest.raises(ws.WordNetError, match="no synsets"):
        ws.install_wordnet(from_path=str(empty), log=_quiet)
    assert ws._installed_specs() == []


def test_empty_lexicon_already_in_db_is_detected(wn_dir, tmp_path):
    """An empty lexicon answers [] silently in wn: status flags it, install replaces it."""
    import wn

    empty = tmp_path / "empty.xml"
    empty.write_text(EMPTY_LMF, encoding="utf-8")
    ws.wn_data_dir()
    wn.add(empty, progress_handler=None)
    assert wn.Wordnet("emptywn:1.0").synsets("dog") == []  # the silent failure we guard against
    info = ws.wordnet_status()
    assert info is not None and info.synsets == 0 and "empty" in info.warning
    with pytest.raises(ws.WordNetNotInstalled, match="empty"):
        ws.open_wordnet()
    notes: list[str] = []
    info = ws.install_wordnet(wndb_dirs=(), allow_download=False, log=notes.append)
    assert info.is_mini and ("emptywn", "1.0") not in ws._installed_specs()
    assert any("removed empty lexicon emptywn:1.0" in n for n in notes)


# --------------------------------------------------------------------------- download paths


def test_failed_download_is_detected_and_cleaned_up(wn_dir, monkeypatch):
    """Offline wn.download fails fast and leaves an empty database: it is removed, then fallback."""
    monkeypatch.setenv("TEXTGUARD_WN_DOWNLOAD", "1")
    url = f"http://127.0.0.1:{free_port()}/english-wordnet.xml.gz"  # nothing listens there
    notes: list[str] = []
    t0 = time.perf_counter()
    info = ws.install_wordnet(lexicon=url, wndb_dirs=(), log=notes.append)
    assert time.perf_counter() - t0 < 20
    assert info.is_mini and "could not be installed" in info.warning and "download" in info.warning
    assert any("failed" in n and "ConnectError" in n for n in notes)
    assert ws._installed_specs() == [("wn30", "3.0-mini")]
    assert not any((wn_dir / "downloads").glob("*"))


def test_failed_download_alone_leaves_no_database(wn_dir, monkeypatch):
    monkeypatch.setenv("TEXTGUARD_WN_DOWNLOAD", "1")
    with pytest.raises(ws.WordNetError, match="download of .* failed"):
        ws._download(f"http://127.0.0.1:{free_port()}/wn.xml", _quiet)
    assert not (wn_dir / "wn.db").exists()
    assert ws.wordnet_status() is None


def test_downloaded_empty_lexicon_is_detected(wn_dir, monkeypatch, fresh_standin):
    monkeypatch.setenv("TEXTGUARD_WN_DOWNLOAD", "1")
    fresh_standin.script(
        {"GET /empty-wordnet.xml": [{"status": 200, "body": EMPTY_LMF, "content_type": "application/xml"}]}
    )
    url = f"{fresh_standin.base_url}/empty-wordnet.xml"
    with pytest.raises(ws.WordNetError, match="empty lexicon"):
        ws._download(url, _quiet)
    assert ws._installed_specs() == []
    assert [r["path"] for r in fresh_standin.requests()] == ["/empty-wordnet.xml"]
    info = ws.install_wordnet(lexicon=url, wndb_dirs=(), log=_quiet)
    assert info.is_mini and ("emptywn", "1.0") not in ws._installed_specs()


def test_download_disabled_by_env(wn_dir, fresh_standin):
    info = ws.install_wordnet(lexicon=f"{fresh_standin.base_url}/x.xml", wndb_dirs=(), log=_quiet)
    assert info.is_mini and "download disabled" in info.warning
    assert fresh_standin.requests() == []  # TEXTGUARD_WN_DOWNLOAD=0: no request at all


# --------------------------------------------------------------------------- shipped small lexicon


def test_shipped_small_lexicon_loads_and_is_idempotent(wn_dir):
    notes: list[str] = []
    info = ws.install_wordnet(wndb_dirs=(), allow_download=False, log=notes.append)
    shipped = ws.MINI_LEXICON_PATH.read_text(encoding="utf-8")
    assert info.spec == "wn30:3.0-mini" and info.is_mini
    assert info.synsets == len(re.findall(r"<Synset ", shipped)) > 1000
    assert info.senses == len(re.findall(r"<Sense ", shipped))
    assert "coverage is limited" in info.warning
    assert "WordNet 3.0 Copyright 2006 by Princeton University" in shipped
    wnet = ws.open_wordnet()
    assert (
        wordnet_candidates(wnet, "encryption", "n")[0].gloss
        == "the activity of converting data or information into code"
    )
    assert ws.wordnet_status() == info
    t0 = time.perf_counter()
    again = ws.install_wordnet(wndb_dirs=(), allow_download=False, log=_quiet)
    assert time.perf_counter() - t0 < 1.0
    assert again == info and ws._installed_specs() == [("wn30", "3.0-mini")]


def test_cli_install_and_status(tmp_path):
    env = {"TEXTGUARD_WN_DATA": str(tmp_path / "cli_wn"), "TEXTGUARD_WN_DOWNLOAD": "0", "PATH": "/usr/bin:/bin"}
    cli = [sys.executable, "-m", "textguard_pipeline.cli", "wordnet"]
    status = subprocess.run(cli + ["status"], env=env, capture_output=True, text=True, timeout=60)
    assert status.returncode == 1 and "textguard wordnet install" in status.stdout
    inst = subprocess.run(
        cli + ["install", "--wndb", str(tmp_path / "none")], env=env, capture_output=True, text=True, timeout=120
    )
    assert inst.returncode == 0, inst.stderr
    assert inst.stdout.startswith("wn30:3.0-mini\t") and "WARNING" in inst.stderr
    status = subprocess.run(cli + ["status"], env=env, capture_output=True, text=True, timeout=60)
    assert status.returncode == 0 and "wn30:3.0-mini" in status.stdout and "coverage is limited" in status.stdout
    bad = subprocess.run(
        cli + ["install", "--from", str(tmp_path / "missing.xml")], env=env, capture_output=True, text=True, timeout=60
    )
    assert bad.returncode == 1 and "no such file" in bad.stderr


# --------------------------------------------------------------------------- real WNDB conversion


@pytest.fixture(scope="module")
def full_wordnet(tmp_path_factory):
    """WordNet 3.0 from /usr/share/wordnet, converted by our code and added with wn (once per module)."""
    if not ws.find_wndb(WNDB):
        pytest.skip("/usr/share/wordnet is absent: apt-get install --no-install-recommends wordnet-base")
    mp = pytest.MonkeyPatch()
    _use_dir(mp, tmp_path_factory.mktemp("wn_full"))
    out = tmp_path_factory.mktemp("lmf") / "wn30.xml"
    t0 = time.perf_counter()
    stats = ws.convert_wndb(WNDB, out)
    t_convert = time.perf_counter() - t0
    header = out.read_text(encoding="utf-8")[:300].splitlines()[:2]
    info = ws.install_wordnet(from_path=str(out), log=_quiet)
    t_total = time.perf_counter() - t0
    print(
        f"\nWNDB {WNDB} -> WN-LMF: {t_convert:.1f}s; + wn.add: {t_total:.1f}s total "
        f"({stats.synsets} synsets, {stats.senses} senses)"
    )
    yield {"stats": stats, "info": info, "header": header, "out": out}
    ws._close_pool()
    mp.undo()


@needs_wndb
def test_wndb_conversion_counts_match_the_files(full_wordnet):
    expected = _wndb_expected(WNDB)
    stats, info = full_wordnet["stats"], full_wordnet["info"]
    assert full_wordnet["header"] == [ws.LMF_XMLDECL, ws.LMF_DOCTYPE]
    assert (stats.lexicon_id, stats.version) == ("wn30", "3.0")
    assert stats.synsets == info.synsets == expected["synsets"] == 117659
    assert stats.senses == info.senses == expected["senses"]
    assert stats.definitions == stats.synsets and stats.examples > 40_000
    # Every lemma of the index files is a word of the lexicon (forms are lower-cased, '_' → ' ').
    db = ws._db_path()
    with sqlite3.connect(db) as conn:
        rows = conn.execute(
            "SELECT f.form, e.pos FROM forms f JOIN entries e ON e.rowid = f.entry_rowid WHERE f.rank = 0"
        ).fetchall()
        n_defs = conn.execute("SELECT COUNT(*) FROM definitions").fetchone()[0]
    lemmas = {(form.lower().replace(" ", "_"), "a" if pos == "s" else pos) for form, pos in rows}
    assert lemmas == expected["lemmas"]
    assert n_defs == expected["synsets"]


@needs_wndb
def test_wndb_known_lookups(full_wordnet):
    wnet = ws.open_wordnet()
    dog = wnet.synsets("dog", pos="n")[0]
    assert dog.id == "wn30-02084071-n"
    assert dog.definition().startswith("a member of the genus Canis")
    assert dog.examples() == ["the dog barked all night"]
    assert {"dog", "domestic dog", "Canis familiaris"} <= set(dog.lemmas())
    assert "wn30-02083346-n" in {h.id for h in dog.hypernyms()}  # canine
    assert dog.id in {h.id for h in wnet.synset("wn30-02083346-n").hyponyms()}
    enc = wordnet_candidates(wnet, "encryption", "n")
    assert [c.gloss for c in enc] == ["the activity of converting data or information into code"]
    # Morphy and the irregular forms of the .exc files.
    assert wnet.synsets("dogs", pos="n")[0].id == dog.id
    assert "mouse" in wnet.synsets("mice", pos="n")[0].lemmas()
    assert wordnet_candidates(wnet, "encrypted", "v")[0].lemma == "encrypt"
    # Sense order follows the index files, across case variants ("Key" the poet is not first).
    key = wordnet_candidates(wnet, "key", "n", limit=0)
    assert key[0].meaning_id == "wn30-03613294-n" and [c.sense_rank for c in key] == list(range(1, len(key) + 1))
    good = wnet.senses("good", pos="a")[0]
    assert "antonym" in good.relations()  # lexical pointers became sense relations
    galore = [s for s in wnet.senses("galore") if s.adjposition()]
    assert galore and galore[0].adjposition() == "ip"


@needs_wndb
def test_wndb_reinstall_is_fast_and_status(full_wordnet):
    t0 = time.perf_counter()
    info = ws.install_wordnet(log=_quiet)
    assert time.perf_counter() - t0 < 1.0
    assert info.spec == "wn30:3.0" and info.warning is None and info.synsets == 117659
    assert info.source.startswith("lmf:")
    assert ws.wordnet_status() == info


@needs_wndb
def test_lesk_on_full_wordnet(full_wordnet):
    check_lesk_against_baseline(ws.open_wordnet(), "WordNet 3.0 from WNDB")


def test_direct_reads_of_the_database_are_read_only_and_closed(tmp_path):
    from textguard_pipeline.meanings.wordnet_install import read_only

    db = tmp_path / "wn.db"
    with sqlite3.connect(db) as setup:
        setup.execute("CREATE TABLE lexicons (id TEXT)")
    setup.close()
    with read_only(db) as conn:
        assert conn.execute("SELECT COUNT(*) FROM lexicons").fetchone() == (0,)
        with pytest.raises(sqlite3.OperationalError):  # mode=ro: the lexicon database is never written here
            conn.execute("INSERT INTO lexicons VALUES ('x')")
    with pytest.raises(sqlite3.ProgrammingError):  # closed on leaving the block, not just committed
        conn.execute("SELECT 1")
