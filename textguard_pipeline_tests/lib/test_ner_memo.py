"""lib.ner_memo: protection's ``ner`` entities reused by meanings' parse where they are provably the same."""

import pytest

from textguard_pipeline.lib import ner_memo
from textguard_pipeline.lib.ner_memo import NerMemo, parse_with_memo, recall
from textguard_pipeline.lib.nlp import load_spacy, resolve_model_name
from textguard_pipeline.protection.recognizers.ner import NerRecognizer

# the first entity of the ner-only pipeline runs on past the sentence's end (see test_nlp.py)
_ACROSS = "Values are assigned via Specification Required [RFC8126].  The designated experts review each request."
_NAMES = "Ada Lovelace wrote to Charles Babbage from London in 1843 about the Analytical Engine."
_MORE = "The Apache Software Foundation moved its servers from Amsterdam to Paris in March 2021."


class _Counting:
    """A pipeline component that counts the Docs it is given and hands them on to the real one."""

    def __init__(self, proc):
        self.proc, self.docs = proc, 0

    def pipe(self, docs, *, batch_size=256):
        docs = list(docs)
        self.docs += len(docs)
        return self.proc.pipe(docs, batch_size=batch_size)

    def __call__(self, doc):
        self.docs += 1
        return self.proc(doc)


@pytest.fixture(scope="module")
def parse_nlp():
    """A parse-profile pipeline of its own (the cached one stays untouched) whose ``ner`` is counted."""
    import spacy

    nlp = spacy.load(resolve_model_name(None))
    for pipe in list(nlp.pipe_names):
        if pipe not in {"tok2vec", "tagger", "parser", "attribute_ruler", "lemmatizer", "ner"}:
            nlp.remove_pipe(pipe)
    i = [name for name, _ in nlp._components].index("ner")  # _components holds the disabled senter too
    nlp._components[i] = ("ner", _Counting(nlp._components[i][1]))
    return nlp


@pytest.fixture
def memo():
    ner_memo.MEMO.clear()
    ner_memo.MEMO.served = ner_memo.MEMO.ran = 0
    yield ner_memo.MEMO
    ner_memo.MEMO.clear()


def _ents(doc):
    return [(e.start_char, e.end_char, e.label_) for e in doc.ents]


def _iob(doc):
    return [(t.ent_iob_, t.ent_type_) for t in doc]


def _stock(texts):
    return list(load_spacy(None, profile="parse").pipe(texts))


def _counted(nlp):
    return nlp.get_pipe("ner").docs


def test_a_text_protection_has_seen_gets_the_same_entities_in_meanings_without_running_ner(parse_nlp, memo):
    NerRecognizer().entities(load_spacy(None, profile="ner"), [_NAMES, _MORE])
    assert recall(load_spacy(None, profile="ner"), _MORE) is not None
    before = _counted(parse_nlp)
    got = list(parse_with_memo(parse_nlp, [_NAMES, _MORE], batch_size=16))
    assert _counted(parse_nlp) == before  # ner never ran
    for doc, stock in zip(got, _stock([_NAMES, _MORE]), strict=True):
        assert _ents(doc) and _ents(doc) == _ents(stock)
        assert _iob(doc) == _iob(stock)
        assert [t.dep_ for t in doc] == [t.dep_ for t in stock]  # the rest of the parse is the pipeline's


def test_an_entity_crossing_a_sentence_start_falls_back_to_meanings_own_ner(parse_nlp, memo):
    NerRecognizer().entities(load_spacy(None, profile="ner"), [_ACROSS])
    remembered = list(recall(load_spacy(None, profile="ner"), _ACROSS))
    before = _counted(parse_nlp)
    (doc,) = parse_with_memo(parse_nlp, [_ACROSS], batch_size=16)
    assert _counted(parse_nlp) == before + 1
    (stock,) = _stock([_ACROSS])
    assert _ents(doc) == _ents(stock) != remembered


def test_a_text_never_seen_gets_the_stock_entities(parse_nlp, memo):
    before = _counted(parse_nlp)
    (doc,) = parse_with_memo(parse_nlp, [_MORE], batch_size=16)
    assert _counted(parse_nlp) == before + 1
    (stock,) = _stock([_MORE])
    assert _ents(doc) == _ents(stock) and _iob(doc) == _iob(stock)
    assert recall(load_spacy(None, profile="ner"), _MORE) is None  # meanings never stores


def test_hits_and_misses_come_back_in_order_with_only_the_misses_through_ner(parse_nlp, memo):
    texts = [_MORE, _ACROSS, _NAMES, "Nothing named here at all.", _MORE + " Again.", _NAMES]
    NerRecognizer().entities(load_spacy(None, profile="ner"), [_NAMES, _ACROSS])
    before = _counted(parse_nlp)
    got = list(parse_with_memo(parse_nlp, iter(texts), batch_size=4))
    assert _counted(parse_nlp) == before + 4  # _ACROSS falls back; three texts were never seen
    assert (memo.served, memo.ran) == (2, 4)
    stock = _stock(texts)
    assert [d.text for d in got] == texts
    assert [_ents(d) for d in got] == [_ents(d) for d in stock]


def test_protection_finds_the_same_entities_from_the_memo_as_from_the_model(memo):
    rec, nlp = NerRecognizer(), load_spacy(None, profile="ner")
    first = rec.entities(nlp, [_NAMES, _ACROSS, _MORE])
    assert len(memo) == 3
    assert rec.entities(nlp, [_NAMES, _ACROSS, _MORE]) == first and first[0]


def test_only_a_ner_only_pipeline_stores_or_reads_the_memo(memo):
    parse = load_spacy(None, profile="parse")
    ner_memo.remember(parse, parse(_NAMES))
    assert len(memo) == 0 and recall(parse, _NAMES) is None


def test_the_memo_is_bounded_by_the_characters_of_its_texts_least_recently_used_first():
    m = NerMemo(max_chars=100)
    a, b, c = "a" * 40, "b" * 40, "c" * 40
    m.put("m", a, ((0, 1, "ORG"),))
    m.put("m", b, ())
    assert m.get("m", a) == ((0, 1, "ORG"),)  # a is now the most recently used
    m.put("m", c, ())
    assert m.get("m", b) is None and m.get("m", a) is not None and m.get("m", c) == ()
    assert m.chars == 80 and len(m) == 2
    m.put("m", "d" * 101, ())  # longer than the bound: never held
    assert len(m) == 2 and m.get("other model", a) is None
