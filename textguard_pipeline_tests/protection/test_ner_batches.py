"""Memory of NER on one huge paragraph (issue 14 item 5): spaCy gets a few windows at a time, in order."""

import spacy

from textguard_pipeline.protection.recognizers.ner import NerRecognizer


class RecordingPipeline:
    """A real (blank) spaCy pipeline that records how many characters each ``pipe`` call holds."""

    def __init__(self):
        self.nlp = spacy.blank("en")
        self.batches: list[int] = []

    def __call__(self, text):
        return self.nlp(text)

    def pipe(self, texts, batch_size):
        texts = list(texts)
        self.batches.append(sum(map(len, texts)))
        yield from self.nlp.pipe(texts, batch_size=batch_size)


def test_a_huge_paragraph_goes_to_spacy_a_few_windows_at_a_time():
    rec = NerRecognizer(model=None)
    rec.window, rec.batch_chars = 1_000, 3_000
    text = "word " * 20_000  # 100,000 chars, one paragraph
    nlp = RecordingPipeline()
    assert rec.entities(nlp, [text, "short chunk", text]) == [[], [], []]
    assert sum(nlp.batches) == 2 * len(text) + len("short chunk")  # every window was read, once
    assert max(nlp.batches) <= 3_000 and len(nlp.batches) > 60


def test_ordinary_chunks_still_go_sixty_four_at_a_time():
    rec = NerRecognizer(model=None)
    nlp = RecordingPipeline()
    rec.entities(nlp, ["A short prose chunk."] * 130)
    assert len(nlp.batches) == 3
