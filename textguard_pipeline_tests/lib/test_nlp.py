"""core.nlp: the text spaCy is given."""

from textguard_pipeline.lib.nlp import spacy_input


def test_spacy_input_blanks_long_symbol_runs_only():
    text = "Short (a) [1] -- ok... " + "(" * 40 + "x" + "=" * 31 + " " + "_" * 32 + "😀" * 40 + " café 中文。"
    out = spacy_input(text)
    assert len(out) == len(text)
    assert out.startswith("Short (a) [1] -- ok... ")  # short runs kept
    assert out[23:63] == " " * 40 and out[63] == "x" and out[64:95] == "=" * 31  # 31 symbols kept
    assert out[96:] == " " * 72 + " café 中文。"
    assert spacy_input("") == ""
