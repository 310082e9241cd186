"""Issue 50: wn's lemma, relation, definition and member lookups are asked of SQLite once per process
(meanings/wn_memo.py), with the answers wn itself gives."""

import pytest

from textguard_pipeline.meanings import wn_memo
from textguard_pipeline.meanings.senses import _LEXICON_CACHES, LeskDisambiguator, wordnet_candidates

from ._wordnet_mini import mini_wordnet, sql_statements


@pytest.fixture
def wnet(tmp_path):
    wn_memo.install()
    with mini_wordnet(str(tmp_path / "wn")) as w:
        _LEXICON_CACHES.clear()
        yield w
        _LEXICON_CACHES.clear()


def _walk(wnet) -> list:
    """Everything the meanings passes read of a few words' synsets: lemmas, definitions, relations, words."""
    out = []
    for word in ("bank", "crown", "interest", "model"):
        for ss in wnet.synsets(word):
            out.append((ss.id, ss.lemmas(), ss.definition(), [w.lemma() for w in ss.words()]))
            out.append(sorted((k, [t.id for t in v]) for k, v in ss.relations().items()))
            out.append([(h.id, h.lemmas()) for h in ss.closure("hypernym")])
    return out


def test_the_memoised_lookups_answer_as_wn_itself_does(wnet):
    ours = _walk(wnet)
    assert any(len(row[1]) > 1 for row in ours if isinstance(row, tuple))  # synsets with several lemmas
    from wn import _core

    patched = {name: getattr(_core, name) for name in ("get_synset_relations", "get_definitions")}
    patched |= {"get_synset_members": _core.get_synset_members, "find_entries": _core.find_entries}
    try:
        _core.Word.lemma = wn_memo.ORIGINALS["Word.lemma"]
        _core.Synset.lemmas = wn_memo.ORIGINALS["Synset.lemmas"]
        for name in patched:
            setattr(_core, name, wn_memo.ORIGINALS[name])
        theirs = _walk(wnet)
    finally:
        wn_memo._installed = False
        wn_memo.install()  # wraps wn's own functions again, as before
    assert ours == theirs


def test_a_second_reading_of_the_same_synsets_sends_no_query(wnet):
    first = sql_statements(lambda: _walk(wnet))
    assert first  # the first reading asks SQLite
    synsets = [ss for w in ("bank", "crown", "interest", "model") for ss in wnet.synsets(w)]

    def again():
        for ss in synsets:
            ss.lemmas(), ss.definition(), [w.lemma() for w in ss.words()], ss.relations()
            list(ss.closure("hypernym"))

    assert sql_statements(again) == []


def test_lesk_signatures_and_candidates_are_the_same_with_the_memo_warm(wnet):
    lesk = LeskDisambiguator(wnet)
    cands = wordnet_candidates(wnet, "bank", "n")
    cold = [lesk.signature(c) for c in cands]
    _LEXICON_CACHES.clear()
    assert wordnet_candidates(wnet, "bank", "n") == cands
    assert [LeskDisambiguator(wnet).signature(c) for c in cands] == cold


def test_a_wn_whose_internal_names_differ_is_left_unmemoised_rather_than_patched_blindly():
    import types

    from wn import _core

    assert wn_memo._internals_known(_core)  # the wn this project installs
    renamed = types.SimpleNamespace(**{n: getattr(_core, n) for n in ("find_entries", *wn_memo._MEMOISED_QUERIES)})
    assert not wn_memo._internals_known(renamed)  # no Word / Synset classes
    renamed.Word, renamed.Synset = _core.Word, types.SimpleNamespace()  # Synset without lemmas()
    assert not wn_memo._internals_known(renamed)
