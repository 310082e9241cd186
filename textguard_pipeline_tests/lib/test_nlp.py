"""lib.nlp: the text spaCy is given, and what its profiles find."""

from textguard_pipeline.lib.nlp import spacy_input


def test_spacy_input_blanks_long_symbol_runs_only():
    text = "Short (a) [1] -- ok... " + "(" * 40 + "x" + "=" * 31 + " " + "_" * 32 + "😀" * 40 + " café 中文。"
    out = spacy_input(text)
    assert len(out) == len(text)
    assert out.startswith("Short (a) [1] -- ok... ")  # short runs kept
    assert out[23:63] == " " * 40 and out[63] == "x" and out[64:95] == "=" * 31  # 31 symbols kept
    assert out[96:] == " " * 72 + " café 中文。"
    assert spacy_input("") == ""


# Two sentences whose first entity the ner-only pipeline runs on past the sentence's end.
_ACROSS = "Values are assigned via Specification Required [RFC8126].  The designated experts review each request."


def _ents(doc):
    return [(e.start_char, e.end_char, e.label_) for e in doc.ents]


def test_the_ner_profile_carries_an_entity_across_a_sentence_start_the_parse_profile_stops_at():
    from textguard_pipeline.lib.nlp import load_spacy

    parse = load_spacy(None, profile="parse")(_ACROSS)
    ner = load_spacy(None, profile="ner")(_ACROSS)
    assert _ents(ner) != _ents(parse)
    # same tokenizer, same tokens: the difference is a sentence start of the parse inside one of ner's entities
    assert any(parse[k].is_sent_start for e in ner.ents for k in range(e.start + 1, e.end))


def test_the_ner_profile_given_the_parsers_sentence_starts_finds_the_parse_profiles_entities():
    from textguard_pipeline.lib.nlp import load_spacy

    ner_nlp = load_spacy(None, profile="ner")
    texts = [
        _ACROSS,
        "Appendix E.1.  Handshake\n\nClients send a hello first.",
        "Ada Lovelace wrote to Charles Babbage from London in 1843 about the Analytical Engine.",
    ]
    for parse in load_spacy(None, profile="parse").pipe(texts):
        doc = ner_nlp.make_doc(parse.text)
        for mine, theirs in zip(doc, parse):
            mine.is_sent_start = theirs.is_sent_start
        assert _ents(ner_nlp.get_pipe("ner")(doc)) == _ents(parse)
        assert _ents(parse)  # entities were found, so the equality says something
