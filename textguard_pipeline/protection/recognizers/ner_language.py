"""spaCy entities with each chunk's language's model (issue 17).

English (and chunks whose language is unknown) use the configured model as before; French uses
``fr_core_news_sm`` with its labels mapped to ours (:data:`~..languages.NER_LABEL_MAPS`); a
language without an installed model gets no entities at all, never another language's model.
Models are loaded once per process per language (``lib.nlp.load_spacy`` is cached).
"""

from __future__ import annotations

from typing import Any, Sequence

from ...lib.nlp import language_model, load_spacy, model_label, model_lexicon
from ..languages import NER_LABEL_MAPS, OUTER_QUOTES, ordinary_entity
from ..model import Candidate, TermProtectionConfig, TextChunk
from .ner import NerRecognizer, clear_of_markup

#: the languages the configured (English) model serves; None = undetermined, the project default
DEFAULT_LANGUAGES = frozenset({None, "en"})


class LanguageNerRecognizer(NerRecognizer):
    """:class:`NerRecognizer` that routes each chunk to its language's model (source ``ner``)."""

    name = "ner"
    priority = 40

    @classmethod
    def from_config(cls, config: TermProtectionConfig) -> Any:
        return cls(config.spacy_model) if config.use_ner else None

    def __init__(self, model: str | None = None, batch_size: int = 64):
        super().__init__(model, batch_size)  # the English model, loaded now (a missing one fails early, as before)

    def model_for(self, language: str | None) -> tuple[Any, str | None, str | None]:
        """``(nlp or None, model label or None, reason when None)`` for chunks in ``language``."""
        if language in DEFAULT_LANGUAGES:
            return self.nlp, model_label(self.nlp), None
        lm = language_model(language)
        if lm.name is None:
            return None, None, lm.reason
        nlp = load_spacy(lm.name, profile="ner")
        return nlp, model_label(nlp), None

    def find_many(self, chunks: Sequence[TextChunk | str]) -> list[list[Candidate]]:
        inputs = [TextChunk.of(c) for c in chunks]
        out: list[list[Candidate]] = [[] for _ in inputs]
        groups: dict[str | None, list[int]] = {}
        for i, tc in enumerate(inputs):
            groups.setdefault(tc.language, []).append(i)
        for language, idx in groups.items():
            nlp, _, _ = self.model_for(language)
            if nlp is None:
                continue  # no model for this language: rules only
            labels = NER_LABEL_MAPS.get(language) if language not in DEFAULT_LANGUAGES else None
            found = self.entities(nlp, [inputs[i].prose_view() for i in idx], labels)
            lexicon = None if language in DEFAULT_LANGUAGES else model_lexicon(language_model(language).name)
            for i, cands in zip(idx, found):
                text = inputs[i].text
                cands = clear_of_markup(cands, inputs[i])
                if lexicon is not None:
                    cands = [
                        c
                        for c in map(_trim(text), cands)
                        if c
                        and _plausible(text[c.start : c.end])
                        and not ordinary_entity(text, c.start, c.end, lexicon)
                    ]
                out[i] = cands
        return out


def _plausible(name: str) -> bool:
    """A name starts with a capital or a digit and has balanced brackets: the small non-English models
    also tag lower-case words ("lex") and fragments such as "Consultez deb-override(5"."""
    return (
        (name[0].isupper() or name[0].isdigit())
        and name.count("(") == name.count(")")
        and name.count("[") == name.count("]")
    )


def _trim(text: str):
    """Candidate → the same span without outer quotes/spaces (« Le Monde » protects ``Le Monde``)."""

    def trim(c: Candidate) -> Candidate | None:
        s, e = c.start, c.end
        while s < e and text[s] in OUTER_QUOTES:
            s += 1
        while e > s and text[e - 1] in OUTER_QUOTES:
            e -= 1
        return Candidate(s, e, c.source, c.label) if e > s else None

    return trim


def ner_status(protector: Any, language: str | None) -> tuple[str | None, str | None]:
    """``(ner_model, ner_skipped_reason)`` of a chunk in ``language`` under ``protector`` (a TermProtector)."""
    rec = getattr(protector, "recognizers", {}).get("ner")
    if rec is None:
        return None, "NER switched off (use_ner=False)"
    if not isinstance(rec, LanguageNerRecognizer):
        nlp = getattr(rec, "nlp", None)
        return (model_label(nlp) if nlp is not None else None), None
    _, label, reason = rec.model_for(language)
    return label, reason
