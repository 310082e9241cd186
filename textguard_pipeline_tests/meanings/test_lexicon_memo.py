"""Issue 50: per-lemma WordNet work is done once per machine — the memos a process fills are on disk for the next
process (meanings/lexicon_memo.py), and the synset graph is read from an .npz instead of the database."""

import os
import time

import numpy as np
import pytest

from textguard_pipeline.meanings import lexicon_memo
from textguard_pipeline.meanings.candidates import CandidateFinder
from textguard_pipeline.meanings.lexicon_memo import MAX_SHARDS, LexiconMemo
from textguard_pipeline.meanings.senses import _LEXICON_CACHES, flush_lexicon_memos, lexicon_cache
from textguard_pipeline.meanings.signals import WordSignals

from ._wordnet_mini import mini_wordnet


@pytest.fixture
def wnet(tmp_path):
    with mini_wordnet(str(tmp_path / "wn")) as w:
        _LEXICON_CACHES.clear()
        yield w
        _LEXICON_CACHES.clear()


def test_a_fresh_process_reads_the_lemma_memos_a_document_wrote_instead_of_asking_wordnet(wnet):
    signals, finder = WordSignals(wnet), CandidateFinder(wnet)
    before = {w: (signals.senses(w, "n"), signals.common_word(w), signals.structural(w)) for w in ("bank", "crown")}
    cands = finder.find("bank", "subject", "bank", "n")
    flush_lexicon_memos(wnet)
    _LEXICON_CACHES.clear()  # what a new worker process starts with

    fresh = WordSignals(wnet)
    fresh._senses = fresh._is_generic = fresh._is_mwe = None  # any call to WordNet through them would raise
    assert {w: (fresh.senses(w, "n"), fresh.common_word(w), fresh.structural(w)) for w in before} == before
    assert ("s", "bank", "n") in lexicon_cache(wnet, "word_signals")
    assert CandidateFinder(wnet).find("bank", "subject", "bank", "n") == cands
    assert cands[0][0].meaning_type == "wordnet"


def test_only_what_a_process_added_is_written_again(wnet):
    WordSignals(wnet).senses("bank", "n")
    flush_lexicon_memos(wnet)
    folder = lexicon_memo.memo_for(wnet).folder / "word_signals"
    shards = list(folder.glob("*.pickle"))
    flush_lexicon_memos(wnet)  # nothing new: no new shard
    assert list(folder.glob("*.pickle")) == shards and len(shards) == 1
    WordSignals(wnet).senses("crown", "n")
    flush_lexicon_memos(wnet)
    assert len(list(folder.glob("*.pickle"))) == 2


def test_shards_older_than_the_database_damaged_or_many_are_handled(tmp_path):
    db = tmp_path / "wn.db"
    db.write_text("x")
    memo = LexiconMemo(tmp_path / "memo", db)
    assert memo.save("word_signals", {("s", "old", "n"): 1})
    past = time.time() - 100
    for shard in (tmp_path / "memo" / "word_signals").glob("*.pickle"):
        os.utime(shard, (past, past))  # written before the lexicon was installed again
    assert memo.load("word_signals") == {}
    (tmp_path / "memo" / "word_signals" / "bad.pickle").write_bytes(b"not a pickle")
    for i in range(MAX_SHARDS + 1):
        memo.save("word_signals", {("s", f"w{i}", "n"): i})
    assert memo.load("word_signals") == {("s", f"w{i}", "n"): i for i in range(MAX_SHARDS + 1)}
    assert len(list((tmp_path / "memo" / "word_signals").glob("*.pickle"))) == 1  # merged into one
    assert memo.load("word_signals") == {("s", f"w{i}", "n"): i for i in range(MAX_SHARDS + 1)}


def test_an_unwritable_memo_folder_means_computing_again_not_an_error(tmp_path):
    (tmp_path / "file").write_text("x")
    memo = LexiconMemo(tmp_path / "file" / "memo", None)  # a folder under a file cannot be created
    assert memo.save("candidates", {"k": 1}) is False
    assert memo.load("candidates") == {}
    assert LexiconMemo(None).save("candidates", {"k": 1}) is False


def test_the_synset_graph_is_read_back_from_its_stored_copy_unchanged(wnet):
    from textguard_pipeline.meanings.graph import graph_scores, load_graph, synset_graph
    from textguard_pipeline.meanings.wordnet_install import lexicon_database

    first = synset_graph(wnet)
    db = lexicon_database(wnet)[0]
    stored = [p for p in os.listdir(os.path.dirname(db)) if p.startswith("synset-graph-")]
    assert len(stored) == 1
    _LEXICON_CACHES.clear()
    load_graph.cache_clear()  # as a new process: the stored copy, not this one's
    again = synset_graph(wnet)
    assert again is not first and again.index == first.index
    assert np.array_equal(again._src, first._src) and np.array_equal(again._dst, first._dst)
    senses = {lemma: [s.id for s in wnet.synsets(lemma, pos="n")] for lemma in ("bank", "interest", "key")}
    assert graph_scores(again, senses) == graph_scores(first, senses) != {}


def test_every_module_that_fills_a_persisted_memo_or_searches_forms_for_one_is_part_of_the_memo_tag():
    # an edit of such a module must start a new memo, not read answers the old code computed
    import re
    from pathlib import Path

    here = Path(lexicon_memo.__file__).parent
    bases = {name.split(":")[0] for name in lexicon_memo.PERSISTED}
    filling = set()
    for path in here.glob("*.py"):
        source = path.read_text(encoding="utf-8")
        for call in re.finditer(r"lexicon_cache\([^,]+,\s*f?\"([a-z_]+)", source):
            if call.group(1) in bases:
                filling.add(path.name)
    assert {"senses.py", "signals.py", "candidates.py", "domains.py", "forms.py"} <= filling
    assert filling <= set(lexicon_memo._SOURCES), filling - set(lexicon_memo._SOURCES)
    assert "wn_words.py" in lexicon_memo._SOURCES  # candidates and word signals read the lexicon through it
