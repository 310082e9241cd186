"""Issue 50: WordNet's synset tables read in bulk once per machine (meanings/wn_tables.py) answer as wn itself
does, are rebuilt when their file is damaged or stale, and leave the per-lemma passes without a query."""

import os
import pickle

import pytest

from textguard_pipeline.meanings import wn_tables
from textguard_pipeline.meanings.domains import sense_domains
from textguard_pipeline.meanings.sense_vectors import sense_text
from textguard_pipeline.meanings.senses import _LEXICON_CACHES, _RELATED, LeskDisambiguator, wordnet_candidates
from textguard_pipeline.meanings.signals import WordSignals

from ._wordnet_mini import mini_wordnet, sql_statements


@pytest.fixture
def wnet(tmp_path):
    with mini_wordnet(str(tmp_path / "wn")) as w:
        wn_tables.clear()
        _LEXICON_CACHES.clear()
        yield w
        wn_tables.clear()
        _LEXICON_CACHES.clear()


def _sidecar(wnet):
    import wn

    return wn_tables.sidecar_path(str(wn.config.database_path), wnet.lexicons()[0].specifier())


def test_every_synset_of_the_lexicon_reads_the_same_from_the_tables_as_from_wn(wnet):
    tables = wn_tables.tables_for(wnet)
    assert tables is not None and len(tables.ids) > 100
    several = 0
    for ss in wnet.synsets():
        sid = ss.id
        assert tables.lemmas(sid) == ss.lemmas()
        assert tables.definition(sid) == ss.definition()
        assert tables.examples(sid) == ss.examples()
        assert tables.lexfile(sid) == ss.lexfile()
        assert tables.pos(sid) == ss.pos
        assert tables.relations(sid) == {k: [t.id for t in v] for k, v in ss.relations().items()}
        assert tables.relations(sid, *_RELATED) == {k: [t.id for t in v] for k, v in ss.relations(*_RELATED).items()}
        assert tables.hypernyms(sid) == [h.id for h in ss.hypernyms()]
        assert list(tables.closure(sid, "hypernym")) == [h.id for h in ss.closure("hypernym")]
        several += len(tables.relations(sid)) > 1
    assert several  # synsets with relations of more than one kind were compared
    phrases = {w.lemma() for pos in ("r", "a", "s") for w in wnet.words(pos=pos) if " " in w.lemma()}
    assert {w for pos in ("r", "a", "s") for w in tables.multiword.get(pos, ())} == phrases


def test_the_tables_are_kept_beside_the_database_and_read_back_without_a_query(wnet):
    first = wn_tables.tables_for(wnet)
    path = _sidecar(wnet)
    assert path.is_file()
    wn_tables.clear()
    again = sql_statements(lambda: wn_tables.tables_for(wnet))
    assert not [q for q in again if "synset_relations" in q or "definitions" in q]  # the file, not the database
    assert wn_tables.tables_for(wnet).ids == first.ids


def test_a_damaged_or_stale_sidecar_is_rebuilt(wnet):
    wn_tables.tables_for(wnet)
    path = _sidecar(wnet)
    good = wn_tables.tables_for(wnet).ids
    path.write_bytes(b"\x80\x05 not a pickle")
    wn_tables.clear()
    assert wn_tables.tables_for(wnet).ids == good
    assert pickle.loads(path.read_bytes())["tables"]["ids"] == good  # written again, whole
    stored = pickle.loads(path.read_bytes())
    stored["database"] = (1, 1)  # written for another state of the database
    stored["tables"]["ids"] = ["stale"] * len(good)
    path.write_bytes(pickle.dumps(stored))
    wn_tables.clear()
    assert wn_tables.tables_for(wnet).ids == good


def test_an_unwritable_folder_still_gives_the_tables(wnet, monkeypatch):
    def refuse(*_a, **_k):
        raise PermissionError("read-only data directory")

    monkeypatch.setattr(wn_tables, "write_bytes_atomic", refuse)
    _sidecar(wnet).unlink(missing_ok=True)
    wn_tables.clear()
    tables = wn_tables.tables_for(wnet)
    assert tables is not None and tables.ids
    assert not _sidecar(wnet).exists()


def test_a_lexicon_without_a_database_is_answered_by_wn():
    class Double:
        def lexicons(self):
            raise RuntimeError("no database")

    assert wn_tables.tables_for(Double()) is None
    assert wn_tables.gloss_texts(Double(), "x-1-n", _RELATED, 12) is None  # no synset: the caller's gloss


def test_the_per_lemma_signals_send_no_query_once_the_tables_are_loaded(wnet):
    lesk = LeskDisambiguator(wnet)
    signals = WordSignals(wnet)
    cands = wordnet_candidates(wnet, "bank", "n") + wordnet_candidates(wnet, "crown", "n")
    assert len(cands) > 2
    wn_tables.tables_for(wnet)

    def passes():
        for c in cands:
            lesk.signature(c)
            sense_domains(wnet, c.meaning_id)
            sense_text(wnet, c)  # what the sentence encoder reads for the sense
        signals.idiom("on the other hand")
        for word in ("crowns", "banks", "models", "interest"):  # wn's word searches, on the tables too
            wordnet_candidates(wnet, word, "n")
            signals.senses(word, "n"), signals.mwe(word + " rate"), signals.common_word(word), signals.noun_base(word)

    assert sql_statements(passes) == []


def test_lesk_signatures_structural_nouns_and_domains_are_those_wn_gives(wnet, monkeypatch):
    words = ["bank", "crown", "interest", "model", "section", "chapter", "figure", "appendix", "table", "paper"]
    cands = [c for w in words for c in wordnet_candidates(wnet, w, "n")]

    def read():
        _LEXICON_CACHES.clear()
        lesk, signals = LeskDisambiguator(wnet), WordSignals(wnet)
        return (
            [lesk.signature(c) for c in cands],
            [signals.structural(w) for w in words],
            [sense_domains(wnet, c.meaning_id) for c in cands],
            [signals.idiom(p) for p in ("on the other hand", "for example", "at hand", "bank")],
            [wordnet_candidates(wnet, w, "n") for w in words],
            [sense_text(wnet, c) for c in cands],
            [
                (signals.senses(w, "n"), signals.mwe(w), signals.common_word(w), signals.noun_base(w + "s"))
                for w in words
            ],
        )

    ours = read()
    assert any(ours[1]) and not all(ours[1])
    monkeypatch.setattr(wn_tables, "tables_for", lambda _w: None)
    for module in ("signals", "domains", "sense_vectors"):
        monkeypatch.setattr(f"textguard_pipeline.meanings.{module}.tables_for", lambda _w: None)
    for module in ("signals", "senses"):
        monkeypatch.setattr(f"textguard_pipeline.meanings.{module}.word_view", lambda w: w)
    assert read() == ours


def test_the_tables_follow_a_database_that_changed(wnet):
    import wn

    tables = wn_tables.tables_for(wnet)
    db = wn.config.database_path
    st = os.stat(db)
    os.utime(db, ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))
    wn_tables.clear()
    again = wn_tables.tables_for(wnet)
    assert again is not tables and again.ids == tables.ids
    assert pickle.loads(_sidecar(wnet).read_bytes())["database"] == (st.st_size, st.st_mtime_ns + 10**9)
