"""Issue 14 item 5: one huge paragraph reaches spaCy only as bounded windows, in small batches (never E088)."""

import pytest

from textguard_pipeline.core.parsing import parse_document
from textguard_pipeline.core.spans import check_char_ranges
from textguard_pipeline.meanings.detector import EmbeddedDetector, EmbeddedSettings, spacy_windows
from textguard_pipeline.meanings.mentions import TextLayout, locate_mentions

SENTENCE = "Thomas Aquinas discusses the encryption of each message and the translation of a text. "


def test_windows_tile_the_text_and_cut_at_sentence_ends():
    text = SENTENCE * 300
    pieces = list(spacy_windows(text, 1_000))
    assert "".join(p for _o, p in pieces) == text
    assert all(len(p) <= 1_000 for _o, p in pieces)
    assert all(text[o : o + len(p)] == p for o, p in pieces)
    assert all(p.endswith(". ") for _o, p in pieces[:-1])  # no phrase cut in two
    assert list(spacy_windows("short", 1_000)) == [(0, "short")]
    unbroken = "x" * 2_500  # no place to cut: hard cuts, still a tiling
    assert "".join(p for _o, p in spacy_windows(unbroken, 1_000)) == unbroken


class _Spy:
    """The real pipeline, recording the longest text and the largest batch it was handed."""

    def __init__(self, nlp):
        self.nlp, self.longest, self.batch = nlp, 0, 0

    def pipe(self, texts, batch_size):
        self.batch = max(self.batch, batch_size)
        for doc in self.nlp.pipe((self._seen(t) for t in texts), batch_size=batch_size):
            yield doc

    def _seen(self, text):
        self.longest = max(self.longest, len(text))
        return text


@pytest.fixture(scope="module")
def small_limit_nlp():
    from textguard_pipeline.core.nlp import load_spacy

    nlp = load_spacy(profile="parse")
    saved = nlp.max_length
    nlp.max_length = 20_000  # stands for spaCy's 1,000,000 at a test-friendly size
    yield nlp
    nlp.max_length = saved


def test_a_paragraph_longer_than_spacys_limit_gives_exact_mentions(small_limit_nlp, tmp_path):
    from textguard_pipeline_tests.meanings._wordnet_mini import mini_wordnet

    text = SENTENCE * 700 + "\n"  # one line of ≈ 61,000 characters, 3× the limit
    # ingest cuts prose at 4,000 characters by default: raised here, as a user may, so the chunk stays whole
    chunks = parse_document(text, "txt", chunk_chars=100_000, chunk_max_chars=100_000)
    assert max(len(c.text) for c in chunks) > small_limit_nlp.max_length
    with pytest.raises(ValueError, match="E088"):
        small_limit_nlp(text)
    spy = _Spy(small_limit_nlp)
    with mini_wordnet(str(tmp_path / "wn")) as wnet:
        det = EmbeddedDetector(spy, wnet, EmbeddedSettings(window_chars=5_000, spacy_batch_size=4))
        found = locate_mentions(det.detect(text, chunks, "txt"), TextLayout(text, chunks))
    assert spy.longest <= 5_000 and spy.batch == 4
    assert not check_char_ranges([{"start": m.start, "end": m.end, "text": m.text} for m in found], text)
    encryption = [m for m in found if m.label == "encryption"]
    assert len(encryption) == 700  # every sentence, windows included
    assert sum(m.index_type == "author" for m in found) == 700
