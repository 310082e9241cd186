"""SemCor sense counts: read from cntlist.rev, attached to our candidates' senses, a missing sidecar is rank-only."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from textguard_pipeline.meanings import sense_counts as sc
from textguard_pipeline.meanings.senses import wordnet_candidates
from textguard_pipeline.meanings.wndb import find_wndb
from textguard_pipeline_tests.meanings._wordnet_mini import mini_wordnet

WNDB = Path("/usr/share/wordnet")
needs_cntlist = pytest.mark.skipif(
    not (find_wndb(WNDB) and (WNDB / sc.CNTLIST).is_file()),
    reason="/usr/share/wordnet/cntlist.rev is absent: apt-get install --no-install-recommends wordnet-base",
)


@needs_cntlist
def test_a_tag_count_belongs_to_the_synset_at_the_sense_number_of_the_lemma_in_the_index():
    counts = sc.read_cntlist(WNDB)
    # memory%1:09:02:: 1 25 is "something that is remembered"; memory%1:06:00:: 4 3 the electronic device.
    assert counts[("memory", "wn30-05935060-n")] == 25
    assert counts[("memory", "wn30-03744276-n")] == 3
    # satellite adjectives keep their 's' synset ids
    assert any(ssid.endswith("-s") for (_lemma, ssid) in counts)
    # multiword lemmas are spelt with spaces, as wn spells them
    assert counts[("living room", "wn30-03679712-n")] == 12


@needs_cntlist
def test_install_writes_the_sidecar_once_and_a_directory_without_counts_says_so(tmp_path):
    said: list[str] = []
    out = sc.ensure_sense_counts("wn30", "3.0", tmp_path, [str(WNDB)], said.append)
    assert out == tmp_path / "sense_counts-wn30-3.0.tsv" and out.is_file()
    rows = [line.split("\t") for line in out.read_text(encoding="utf-8").splitlines() if not line.startswith("#")]
    assert len(rows) > 30_000 and ["memory", "wn30-05935060-n", "25"] in rows
    stamp = out.stat().st_mtime_ns
    assert sc.ensure_sense_counts("wn30", "3.0", tmp_path, [str(WNDB)], said.append) == out
    assert out.stat().st_mtime_ns == stamp  # idempotent: not rewritten
    assert not list(tmp_path.glob("*.tmp")) and not list(tmp_path.glob(".*.tmp"))
    other = tmp_path / "other"
    other.mkdir()
    assert sc.ensure_sense_counts("wn30", "3.0", other, [str(tmp_path)], said.append) is None
    assert "ranked by order only" in said[-1]


def test_the_counts_of_the_shipped_lexicon_attach_to_its_candidates_in_wordnet_order(tmp_path):
    with mini_wordnet(str(tmp_path)) as wnet:
        counts = sc.counts_for(wnet)
        assert counts is not None
        bank = wordnet_candidates(wnet, "bank", "n")
        got = {c.sense_rank: sc.sense_tag_count(counts, c.lemma, c.meaning_id) for c in bank}
    # WordNet orders senses by their SemCor counts: sloping land 25, the financial institution 20
    assert got[1] == 25 and got[2] == 20


def test_a_missing_sidecar_warns_once_and_ranks_by_order_only(tmp_path, caplog):
    sc.load_counts.cache_clear()
    missing = str(tmp_path / "sense_counts-wn30-3.0.tsv")
    with caplog.at_level(logging.WARNING, logger=sc.__name__):
        assert sc.load_counts(missing) is None
        assert sc.load_counts(missing) is None
    warnings = [r for r in caplog.records if "SemCor" in r.getMessage()]
    assert len(warnings) == 1 and "textguard wordnet install" in warnings[0].getMessage()
    assert sc.sense_tag_count(None, "bank", "wn30-09213565-n") is None
