"""lib.rule_index: the indexed attribute_ruler and lemmatizer give every token the stock components' attributes."""

from pathlib import Path

import pytest

spacy = pytest.importorskip("spacy")

from textguard_pipeline.ingest.build import parse_chunks  # noqa: E402
from textguard_pipeline.lib.nlp import load_spacy, resolve_model_name  # noqa: E402
from textguard_pipeline.lib.rule_index import IndexedAttributeRuler, index_rules  # noqa: E402

CORPUS = Path(__file__).resolve().parents[2] / "data" / "corpus"
#: every multi-token rule of en_core_web_sm's ruler, and its one-token rules on dependencies and spaces
RULES = (
    "Y'all gonna see: there is a cat, there are two. Let's go, c'mon! I ain't got ta do it, nothin' to it. "
    "He gets it; she got it. Give it to me and you. Did he?  \n\n  Which one was it, that one or this?\tDone."
)


def _attrs(doc) -> list[tuple]:
    return [(t.text, t.tag_, t.pos_, str(t.morph), t.lemma_, t.dep_) for t in doc]


def _both(texts: list[str], exclude=("ner",)):
    """The same texts through the stock pipeline and through one whose ruler is indexed."""
    name = resolve_model_name(None)
    stock, fast = spacy.load(name, exclude=list(exclude)), spacy.load(name, exclude=list(exclude))
    index_rules(fast)
    assert type(fast.get_pipe("attribute_ruler").match.__self__) is IndexedAttributeRuler
    return list(stock.pipe(texts)), list(fast.pipe(texts))


def _prose() -> list[str]:
    texts = []
    for path in sorted(CORPUS.iterdir()):
        fmt = {".md": "md", ".txt": "txt", ".tex": "tex"}.get(path.suffix)
        if fmt:
            text = path.read_text(encoding="utf-8")
            texts += [c.text[:5000] for c in parse_chunks(text, fmt) if c.chunk_type == "prose" and c.text.strip()]
    return texts


def test_every_token_of_real_prose_gets_the_stock_rulers_attributes():
    texts = _prose() + [RULES]
    assert sum(map(len, texts)) > 100_000
    stock, fast = _both(texts)
    differing = [(a, b) for s, f in zip(stock, fast) for a, b in zip(_attrs(s), _attrs(f)) if a != b]
    assert differing == []


def test_the_multi_token_rules_fire_through_the_index():
    (stock,), (fast,) = _both([RULES])
    lemmas = {t.text: t.lemma_ for t in fast}
    # "gon|na" → go/to, "got|ta" → get/to, "let|'s" → us, "y'|all" → you: only the ruler's two-token rules say so
    assert (lemmas["gon"], lemmas["na"], lemmas["ta"], lemmas["'s"]) == ("go", "to", "to", "us")
    assert _attrs(fast) == _attrs(stock)


def test_a_doc_without_dependencies_matches_as_the_stock_ruler_does():
    stock, fast = _both(_prose()[:40] + [RULES], exclude=("ner", "parser"))
    assert [_attrs(d) for d in fast] == [_attrs(d) for d in stock]


def test_rules_this_cannot_index_run_whole_and_still_agree():
    nlp = spacy.blank("en")
    ruler = nlp.add_pipe("attribute_ruler")
    ruler.add([[{"LOWER": "deal"}]], {"LEMMA": "EARLY"})
    ruler.add([[{"LOWER": "big", "OP": "+"}, {"LOWER": "deal"}]], {"LEMMA": "BIGDEAL"})
    ruler.add([[{"LENGTH": 3}]], {"NORM": "three"})  # an attribute the index does not read
    ruler.add([[{"LOWER": "deal"}]], {"LEMMA": "DEAL"}, index=0)  # later rules win
    fast = IndexedAttributeRuler(ruler)
    assert fast.rest_always
    text = "a big big deal and one deal, not the big one"
    stock_doc, fast_doc = nlp(text), nlp.make_doc(text)
    fast.set_annotations(fast_doc, fast.match(fast_doc))
    assert [(t.lemma_, t.norm_) for t in fast_doc] == [(t.lemma_, t.norm_) for t in stock_doc]
    assert [t.lemma_ for t in fast_doc if t.text == "deal"] == ["DEAL", "DEAL"]


def test_the_parse_profile_is_indexed_and_the_full_profile_is_spacys_own():
    parse, full = load_spacy(None, profile="parse"), load_spacy(None, profile="full")
    assert getattr(parse.get_pipe("attribute_ruler").match, "__self__", None).__class__ is IndexedAttributeRuler
    assert "match" not in vars(full.get_pipe("attribute_ruler"))


def test_the_lemmatizers_tables_answer_membership_as_the_lists_did():
    nlp = load_spacy(None, profile="parse")
    table = nlp.get_pipe("lemmatizer").lookups.get_table("lemma_index")
    stock = (
        spacy.load(resolve_model_name(None), exclude=["ner"]).get_pipe("lemmatizer").lookups.get_table("lemma_index")
    )
    for key, forms in stock.items():
        indexed = table[key]
        assert isinstance(indexed, list) and list(indexed) == forms
        probes = forms[:50] + [f + "zz" for f in forms[:50]] + ["", "memory", "datum"]
        assert [p in indexed for p in probes] == [p in forms for p in probes]
