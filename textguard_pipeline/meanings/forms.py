"""Word forms of a noun phrase (spaCy tokens) for the embedded detector: its index label, its WordNet lookup
form, its head lemma, and hyphenated words ("e-mail", "read-only"), joined without spaces."""

from __future__ import annotations

import re
from typing import Any, Collection, Sequence

from .senses import lexicon_cache
from .signals import WordSignals

_HEAD = re.compile(r"[\s\-‐]([^\s\-‐]+)$")

#: an acronym ("RAM", "URLs"): kept as written
ACRONYM = re.compile(r"^[A-Z][A-Z0-9\-]{1,9}s?$")
#: an acronym's plural ("APIs")
PLURAL_ACRONYM = re.compile(r"^[A-Z][A-Z0-9]+s$")
_HYPHENS = frozenset({"-", "‐"})


def free_noun(tok: Any) -> bool:
    """Not the tail of a hyphenated word ("apt-get") nor a relational use ("at the bottom of the record")."""
    doc = tok.doc
    glued = tok.i > 0 and doc[tok.i - 1].text in _HYPHENS and not doc[tok.i - 1].whitespace_
    return not glued and not (tok.i + 1 < len(doc) and doc[tok.i + 1].lower_ == "of")


def glued_hyphen(tok: Any) -> bool:
    """A hyphen with a word glued to each side ("read-only"), not a dash between spaced words."""
    return (
        tok.text in _HYPHENS
        and not tok.whitespace_
        and tok.i > 0
        and not tok.doc[tok.i - 1].whitespace_
        and tok.i + 1 < len(tok.doc)
    )


def acronym_modifier(ent: Any) -> bool:
    """A lone acronym the tagger calls an organisation, person or building, modifying the common noun after it
    ("ANSI colors", "GPU memory", "the SSH client"): the first word of a technical term, not a name. A place stays
    a name ("the UK government")."""
    root = ent.root
    return (
        ent.label_ in ("ORG", "PERSON", "FAC")
        and len(ent) == 1
        and bool(ACRONYM.match(root.text))
        and root.text.isupper()
        and root.dep_ in ("compound", "amod", "nmod")
        and root.head.i == ent.end
        and root.head.pos_ == "NOUN"
    )


def is_name_like(tok: Any, plain: Collection[int] = ()) -> bool:
    """A proper noun or an acronym, unless ``plain`` holds its index (a common word in Title Case)."""
    return (tok.pos_ == "PROPN" and tok.i not in plain) or bool(ACRONYM.match(tok.text))


def title_cased(word: str) -> bool:
    """A word in Title Case: "Commands", not "commands", "API" or "FastAPI"."""
    return len(word) > 1 and word[0].isupper() and word[1:].islower() and word.isalpha()


def head_lemma(tok: Any, signals: WordSignals | None, plain: Collection[int] = ()) -> str:
    """spaCy's lemma for regular plurals; an irregular form that WordNet lists as a lemma
    itself stays ("data" rather than "datum"), and so does a plural-form noun WordNet lists when its singular is
    no noun ("mathematics", "electronics"; "statistics" is a statistic's plural as often as the field)."""
    low = tok.text.lower()
    lemma = tok.lemma_.lower() or low
    if lemma == low:
        # spaCy does not lemmatize a proper noun: a common word in Title Case ("Sponsors") gets WordNet's base
        return signals.noun_base(low) if signals is not None and tok.i in plain else lemma
    if low in (lemma + "s", lemma + "es", lemma[:-1] + "ies"):
        if signals is not None and not signals.senses(lemma, "n"):
            if signals.is_lemma(low):
                return low
            base = signals.noun_base(low)  # spaCy's rule cut "backslashes" to "backslashe"; WordNet has backslash
            if base != low:  # noun_base gives another form only for a noun WordNet has
                return base
            if lemma.endswith("e") and low.endswith(("shes", "sses", "xes")):
                return low[:-2]  # a word WordNet lacks: "refreshes" → refresh, not "refreshe"
        return lemma
    if signals is not None and signals.is_lemma(low):
        return low
    return lemma


def label_form(
    toks: Sequence[Any], signals: WordSignals | None = None, keep_form: bool = False, plain: Collection[int] = ()
) -> str:
    """Index label: common words lower-cased, the head lemmatized; names and acronyms kept as written (an
    acronym's plural "s" dropped). ``plain``: indices of proper-noun tokens that are common words here, lower-cased
    only when every Title-Case proper noun of the phrase is one ("Gold Sponsors" stays as written)."""
    if any(t.pos_ == "PROPN" and title_cased(t.text) and t.i not in plain for t in toks):
        plain = ()
    words = [t.text if is_name_like(t, plain) else t.text.lower() for t in toks]
    last = toks[-1]
    shouted = signals.shouted(last.text) if signals is not None and len(toks) == 1 else None
    if shouted:  # "NOTE" is the word note written in capitals, not a name
        words[-1] = shouted
    elif PLURAL_ACRONYM.match(last.text):  # "APIs" and "API" are one entry
        words[-1] = last.text[:-1]
    elif not (is_name_like(last, plain) or keep_form):  # keep_form: WordNet's lemma as written ("quantum mechanics")
        words[-1] = head_lemma(last, signals, plain)
    return join(toks, words)


def lookup_form(toks: Sequence[Any], signals: WordSignals | None = None, plain: Collection[int] = ()) -> str:
    """Lower-cased words, the head lemmatized: "Reference Translations" → "reference translation"."""
    words = [t.text.lower() for t in toks[:-1]] + [head_lemma(toks[-1], signals, plain)]
    return join(toks, words)


def surface_form(toks: Sequence[Any]) -> str:
    """Lower-cased words as written (a WordNet multi-word lemma in the plural: "quantum mechanics")."""
    return join(toks, [t.text.lower() for t in toks])


def join(toks: Sequence[Any], words: Sequence[str]) -> str:
    """``words`` (one per token) joined by spaces, except around a glued hyphen ("e-mail", "plug-in")."""
    out = []
    for k, (t, w) in enumerate(zip(toks, words)):
        if k and not (glued_hyphen(t) or glued_hyphen(toks[k - 1])):
            out.append(" ")
        out.append(w)
    return "".join(out)


def hyphen_word(tok: Any) -> list[Any]:
    """The tokens of the hyphenated word ``tok`` stands in ("python-dotenv", "state-of-the-art"), or [tok]."""
    doc = tok.doc
    end = start = tok.i
    if not tok.whitespace_:  # a hyphen glued after ``tok`` (else the next token need not be made)
        while end + 2 < len(doc) and glued_hyphen(doc[end + 1]) and doc[end + 2].is_alpha:
            end += 2
    while start >= 2 and glued_hyphen(doc[start - 1]) and doc[start - 2].is_alpha:
        start -= 2
    return list(doc[start : end + 1])


def hyphenated_tail(toks: Sequence[Any]) -> list[Any]:
    """The hyphenated word a noun chunk ends in ("an e-mail", "the follow-up"), with the parts spaCy left outside
    the chunk ("the sub" + "-command"); [] when the chunk does not end in one or it modifies the next noun."""
    if not toks:
        return []
    word = hyphen_word(toks[-1])
    doc, end = word[-1].doc, word[-1].i
    if len(word) == 1 or (end + 1 < len(doc) and doc[end + 1].pos_ in ("NOUN", "PROPN")):
        return []  # no hyphen, or a compound modifier of the next noun ("state-of-the-art model")
    return word


#: bound prefixes ("meta-packages" is a kind of package, not a package's name); WordNet has some of them as words
#: of their own ("sub" the sandwich), the others as none
_PREFIXES = frozenset(
    "anti auto bi co counter cross de inter intra macro meta micro mid mini mono multi non poly post pre pseudo re "
    "semi sub super trans tri ultra un uni".split()
)


def package_name(word: Sequence[Any], signals: WordSignals) -> bool:
    """A hyphenated word in lower case with a part WordNet does not know, stop words and a leading prefix aside
    ("python-dotenv", "bash-builtins"; not "meta-packages"): a package's name, whose parts are no nouns here
    (python the snake)."""
    if len(word) < 2:  # called for every token of a noun chunk: most are no hyphenated word
        return False
    parts = [t for t in word[::2] if t.is_alpha]
    unknown = [len(t.text) > 1 and not t.is_stop and not signals.common_word(t.lower_) for t in parts]
    if prefix_bound(word[0]):  # then word[0] is alphabetic: parts[0]
        unknown[0] = False
    # in lower case: a capitalized pair is a person's double name ("Yorav-Raphael"), not a package
    return all(t.text.islower() for t in parts) and any(unknown)


def prefix_bound(tok: Any) -> bool:
    """A bound prefix with a hyphen and a word glued after it ("sub-command", "meta-packages"): no word on its own
    (not the sandwich in "sub")."""
    doc, i = tok.doc, tok.i
    return tok.lower_ in _PREFIXES and i + 2 < len(doc) and glued_hyphen(doc[i + 1]) and doc[i + 2].is_alpha


def particle_bound(tok: Any) -> bool:
    """A hyphen and a function word follow ``tok`` ("read-only", "bear-off", "built-in", "state-of-the-art"):
    the first word of a fixed expression, no noun on its own."""
    doc, i = tok.doc, tok.i
    return i + 2 < len(doc) and glued_hyphen(doc[i + 1]) and doc[i + 2].is_stop


def idiom_start(tok: Any, signals: WordSignals) -> int | None:
    """Where the WordNet adverb or adjective of 2–5 words that ``tok`` ends begins ("on the other hand", "for
    example", "at hand"); None if there is none, or it is glued to the word before ("7in stock"), or ``tok`` is a
    quantifier before "of" ("a lot of comparisons")."""
    if tok.lower_ not in _idiom_ends(signals) and not glued_hyphen(tok):
        return None  # no idiom ends in this word: skip building the four phrases (issue 50)
    doc, i = tok.doc, tok.i
    if i + 1 < len(doc) and doc[i + 1].lower_ == "of":
        return None
    for a in range(max(0, i - 4), i):
        glued = a > 0 and not (doc[a - 1].whitespace_ or doc[a - 1].is_space)
        words = " ".join(t.lower_ for t in doc[a : i + 1] if not glued_hyphen(t))  # "on-the-fly" too
        if not glued and signals.idiom(words):
            return a
    return None


def _idiom_ends(signals: WordSignals) -> frozenset[str]:
    """The last words of the lexicon's multi-word adverbs and adjectives (those :meth:`WordSignals.idiom` knows)."""
    cache = lexicon_cache(signals.wnet, "idioms")
    ends = cache.get("ends")
    if ends is None:
        signals.idiom("")  # builds the phrase set once per lexicon
        ends = cache["ends"] = frozenset(p.rsplit(" ", 1)[-1] for p in cache.get("all", ()))
    return ends


def compound_head(lookup: str) -> str | None:
    """The head word of a compound ("porcelain crown" → crown, "sub-command" → command); None for one word or a
    hyphenated word ending in a particle or a number ("opt-out", "GPT-2")."""
    from spacy.lang.en.stop_words import STOP_WORDS  # heavy: spaCy; the stop list it tags with (no model needed)

    m = _HEAD.search(lookup.strip())
    if m is None or not m.group(1).isalpha():
        return None
    glued = m.group(0)[0] != " "
    return None if glued and m.group(1).lower() in STOP_WORDS else m.group(1)


#: dependents that make a word a noun phrase: a determiner, a possessive, an adjective, a number, a noun
_NOMINAL_DEPS = frozenset({"det", "poss", "amod", "nummod", "compound"})


def verb_read_as_noun(tok: Any, lemma: str, signals: WordSignals) -> bool:
    """A word spaCy tagged a noun that WordNet has only as a verb, with nothing making it a noun phrase (no
    determiner or modifier, nor a conjunct of one, nor after a preposition other than "to"): "easy to configure" —
    but "its uploads and downloads", "for uploads" and a gerund ("caching") are nouns."""
    if tok.lower_.endswith("ing") or signals.senses(lemma, "n") or not signals.senses(lemma, "v"):
        return False
    if tok.dep_ == "pobj" and tok.head.lower_ != "to":  # "for uploads", not "easy to configure"
        return False
    heads = [tok, tok.head] if tok.dep_ == "conj" else [tok]
    return not any(c.dep_ in _NOMINAL_DEPS for h in heads for c in h.children)
