"""Issue 50: wn's word searches answered from the bulk tables (meanings/wn_words.py) give wn's own answers, in
wn's order, and leave to wn the searches whose order SQLite decides."""

import pytest

from textguard_pipeline.meanings import wn_tables, wn_words
from textguard_pipeline.meanings.senses import _LEXICON_CACHES

from ._wordnet_mini import mini_wordnet


@pytest.fixture
def wnet(tmp_path):
    with mini_wordnet(str(tmp_path / "wn")) as w:
        wn_tables.clear()
        wn_words.clear()
        _LEXICON_CACHES.clear()
        yield w
        wn_tables.clear()
        wn_words.clear()


def _words(ws):
    return [(w.lemma(), w.pos, [s.id for s in w.senses()]) for w in ws]


def _senses(ss):
    return [(s.id, s.synset().id, s.word().lemma()) for s in ss]


def _synsets(ys):
    return [(y.id, y.pos, y.definition(), y.lemmas(), y.lexfile()) for y in ys]


def _forms(wnet) -> list[str]:
    """Every 40th lemma of the lexicon and every 10th multi-word one, as written and inflected, and a few oddities."""
    lemmas = sorted({w.lemma() for w in wnet.words()})
    sample = lemmas[::40] + [f for f in lemmas if " " in f][::10]
    out = []
    for f in sample:
        out += [f, f + "s", f + "es", f + "ing", f.capitalize(), f.upper(), f.replace(" ", "-")]
    return out + ["banks", "crowns", "models", "", "zzzz", "San José"]


def test_word_searches_on_the_tables_equal_wns_for_every_lemma_and_inflection(wnet):
    view = wn_words.word_view(wnet)
    assert view is not wnet
    answered = 0
    for form in _forms(wnet):
        for pos in (None, "n", "v", "a", "r", "s"):
            assert _words(view.words(form, pos)) == _words(wnet.words(form, pos)), (form, pos)
            assert _senses(view.senses(form, pos)) == _senses(wnet.senses(form, pos)), (form, pos)
            ours = view.synsets(form, pos)
            assert _synsets(ours) == _synsets(wnet.synsets(form, pos)), (form, pos)
            answered += bool(ours) and hasattr(ours[0], "_t")  # a light synset: answered from the tables
    assert answered > 100


def test_the_rank_a_light_sense_carries_is_the_one_wn_stores(wnet):
    from wn._queries import get_sense_n

    view = wn_words.word_view(wnet)
    senses = [s for form in ("bank", "crown", "model", "interest") for s in view.senses(form, "n")]
    assert senses and all(hasattr(s, "_k") for s in senses)
    spec = wnet.lexicons()[0].specifier()
    assert [s.entry_rank for s in senses] == [get_sense_n(s.id, spec) for s in senses]


def test_a_search_whose_order_sqlite_decides_is_asked_of_wn(wnet, monkeypatch):
    view = wn_words.word_view(wnet)
    asked = []
    monkeypatch.setattr(view, "_ranked", lambda rows: None)  # as if two entries' senses shared a rank
    real = type(wnet).senses

    def senses(self, *a, **k):
        asked.append(a)
        return real(self, *a, **k)

    monkeypatch.setattr(type(wnet), "senses", senses)
    assert _senses(view.senses("bank", "n")) == _senses(real(wnet, "bank", "n"))
    assert asked == [("bank", "n")]


def test_a_wordnet_without_tables_is_searched_by_wn_itself():
    class Double:
        def lexicons(self):
            raise RuntimeError("no database")

    double = Double()
    assert wn_words.word_view(double) is double
