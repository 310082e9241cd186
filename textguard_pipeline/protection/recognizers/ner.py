"""spaCy entities (PERSON, ORG, GPE, PRODUCT, FAC) with the §3.2 filters."""

from __future__ import annotations

import re
from typing import Any, Sequence

from ...lib.ner_memo import entities_of, recall, remember
from ...lib.nlp import load_spacy, spacy_input
from ..languages import ordinary_acronym
from ..markup_rules import MarkupFence
from ..model import Candidate, TermProtectionConfig, TextChunk

NER_LABELS = frozenset({"PERSON", "ORG", "GPE", "PRODUCT", "FAC"})
_NER_STOPWORDS = frozenset({"the", "a", "an", "this", "that"})
#: initials and "et al" ("J. et al" in a reference list, "Smith, J. et al."): the surname is before the initials
_INITIALS_ET_AL = re.compile(r"(?:[A-Z]\.[ \t-]*)+et\.?[ \t]+al\.?")


class NerRecognizer:
    """One ``nlp.pipe`` call per document over all its prose chunks, with only
    the components NER needs (``load_spacy(profile="ner")``)."""

    name = "ner"
    priority = 40
    #: an entity that contains a parser placeholder is spaCy reading our token as a name
    rejects_placeholders = True
    #: texts longer than this are cut at whitespace into windows (spaCy's max_length guards memory)
    window = 100_000
    #: characters in flight in one ``nlp.pipe`` batch: spaCy holds a batch's Docs at once (≈ 1 GB per MB of text),
    #: so a one-paragraph multi-MB document goes a few windows at a time; ordinary chunks still go 64 at a time
    batch_chars = 500_000

    @classmethod
    def from_config(cls, config: TermProtectionConfig) -> Any:
        return cls(config.spacy_model) if config.use_ner else None

    def __init__(self, model: str | None = None, batch_size: int = 64):
        self.nlp = load_spacy(model, profile="ner")
        self.batch_size = batch_size

    @property
    def source(self) -> str:  # the pre-registry name of ``name``
        return self.name

    def find_many(self, chunks: Sequence[TextChunk | str]) -> list[list[Candidate]]:
        inputs = [TextChunk.of(c) for c in chunks]
        found = self.entities(self.nlp, [tc.prose_view() for tc in inputs])
        return [clear_of_markup(cands, tc) for cands, tc in zip(found, inputs)]

    def entities(self, nlp, texts: Sequence[str], labels: dict[str, str] | None = None) -> list[list[Candidate]]:
        """Entities of ``nlp`` in each text (one ``pipe`` call); ``labels`` maps the model's labels to ours."""
        pieces: list[str] = []
        owners: list[tuple[int, int]] = []  # (text index, offset of the piece in that text)
        for i, t in enumerate(texts):
            for off, piece in _windows(t, self.window):
                pieces.append(piece)
                owners.append((i, off))
        out: list[list[Candidate]] = [[] for _ in texts]
        fed = [spacy_input(p) for p in pieces]  # same offsets, no O(n²) tokenizer runs
        # every piece's entities go to the process's memo (lib/ner_memo.py), where meanings reads them
        found = [recall(nlp, f) for f in fed]
        todo = [k for k, ents in enumerate(found) if ents is None]
        texts = [fed[k] for k in todo]
        docs = [nlp(texts[0])] if len(texts) == 1 else self._pipe(nlp, texts)
        for k, doc in zip(todo, docs):
            remember(nlp, doc)
            found[k] = entities_of(doc)
        for (i, off), piece, ents in zip(owners, pieces, found):
            for start, end, model_label in ents:
                label = model_label if labels is None else labels.get(model_label, "")
                if keep_entity(piece[start:end], label):
                    out[i].append(Candidate(off + start, off + end, self.name, label))
        return out

    def _pipe(self, nlp, fed: list[str]):
        """``nlp.pipe`` over ``fed`` in order, in batches of at most ``batch_size`` texts and ``batch_chars`` chars."""
        start = 0
        while start < len(fed):
            end, chars = start, 0
            while (
                end < len(fed)
                and end - start < self.batch_size
                and (end == start or chars + len(fed[end]) <= self.batch_chars)
            ):
                chars += len(fed[end])
                end += 1
            yield from nlp.pipe(fed[start:end], batch_size=end - start)
            start = end


def _windows(text: str, size: int) -> list[tuple[int, str]]:
    """``(offset, piece)`` cuts of ``text`` of at most ``size`` chars, at whitespace when possible."""
    if len(text) <= size:
        return [(0, text)]
    out = []
    pos = 0
    while pos < len(text):
        end = min(len(text), pos + size)
        if end < len(text):
            cut = max(text.rfind("\n", pos, end), text.rfind(" ", pos, end))
            if cut > pos:
                end = cut + 1
        out.append((pos, text[pos:end]))
        pos = end
    return out


def clear_of_markup(cands: list[Candidate], chunk: TextChunk) -> list[Candidate]:
    """Entities found in the chunk's prose view, none reaching into its markup: one that does is cut before the
    markup (and kept when what is left still passes :func:`keep_entity`), else dropped."""
    if not chunk.markup or not cands:
        return cands
    fence = MarkupFence(chunk.markup)
    out = []
    for c in cands:
        touched = fence.touching(c.start, c.end)
        if not touched:
            out.append(c)
            continue
        end = min(s for s, _, _ in touched)
        while end > c.start and not chunk.text[end - 1].isalnum():
            end -= 1
        if end > c.start and keep_entity(chunk.text[c.start : end], c.label):
            out.append(Candidate(c.start, end, c.source, c.label))
    return out


def keep_entity(text: str, label: str) -> bool:
    """§3.2: allowed labels; no single-word non-ORG; at least 3 chars; no stopwords; at least one letter."""
    if label not in NER_LABELS:
        return False
    if len(text) < 3 or text.lower() in _NER_STOPWORDS:
        return False
    if not any(ch.isalpha() for ch in text):
        return False  # "0.9" read as an ORG: a number is no name, and would cut "85.9 ± 0.9" in two
    if label != "ORG" and len(text.split()) == 1:
        return False
    if _INITIALS_ET_AL.fullmatch(text):
        return False
    if ordinary_acronym(text):
        return False  # "CPU", "GPUs" read as an organisation: words of the field, not names
    return True
