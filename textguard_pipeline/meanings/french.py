"""French words that are no index entry though spaCy reads them as nouns (issue 51 item 3).

A French noun inside a fixed expression is grammar, not a subject: "rapport" in *par rapport à* (compared
with), "lieu" in *avoir lieu* (to take place) or *au lieu de* (instead of), "fait" in *en fait* (in fact).
Such locutions are a closed class, so they are listed here (prepositional and adverbial ones by their
words, verbal ones by the verb's lemma and the words after it). Month and weekday names are date parts
("le 3 mars"); French writes them in lower case, so a capitalised "Mars" (the planet) stays. No dagster
imports.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Iterator

#: prepositional and adverbial locutions, as lower-case token texts (an elided "d'"/"l'" is its own token)
LOCUTIONS: tuple[tuple[str, ...], ...] = tuple(
    tuple(s.split())
    for s in (
        "par rapport à",
        "par rapport au",
        "par rapport aux",
        "au lieu de",
        "au lieu d'",
        "au lieu du",
        "en fait",
        "en effet",
        "à cause de",
        "à cause du",
        "à cause des",
        "à cause d'",
        "au cours de",
        "au cours du",
        "au cours des",
        "grâce à",
        "grâce au",
        "grâce aux",
        "en train de",
        "en train d'",
        "à partir de",
        "à partir du",
        "à partir d'",
        "à l' aide de",
        "à l' aide du",
        "à l' aide d'",
        "en fonction de",
        "en fonction du",
        "en fonction des",
        "en termes de",
        "à propos de",
        "à propos du",
        "en cas de",
        "au sein de",
        "au sein du",
        "au sein des",
        "de façon",
        "de manière",
        "d' une part",
        "d' autre part",
        "en tout cas",
        "par exemple",
        "en revanche",
        "à la fois",
        "d' abord",
        "en vue de",
        "au fur et à mesure",
        "en général",
        "en particulier",
        "par ailleurs",
        "du moins",
        "au moins",
        "de plus",
        "en outre",
        "à l' heure actuelle",
        "à l' égard de",
        "à l' instar de",
        "en dépit de",
        "à titre d' exemple",
        "sans cesse",
        "en somme",
        "à la place de",
    )
)

#: verbal locutions: (the verb's lemma, the words that follow it)
VERB_LOCUTIONS: tuple[tuple[str, tuple[str, ...]], ...] = tuple(
    (v, tuple(rest.split()))
    for v, rest in (
        ("avoir", "lieu"),
        ("avoir", "besoin"),
        ("avoir", "recours"),
        ("avoir", "tendance"),
        ("avoir", "raison"),
        ("avoir", "tort"),
        ("faire", "partie"),
        ("faire", "face"),
        ("faire", "appel"),
        ("faire", "attention"),
        ("faire", "référence"),
        ("prendre", "part"),
        ("prendre", "fin"),
        ("prendre", "en compte"),
        ("tenir", "compte"),
        ("mettre", "en œuvre"),
        ("mettre", "en place"),
        ("mettre", "fin"),
        ("donner", "lieu"),
        ("rendre", "compte"),
    )
)

MONTHS = frozenset(
    "janvier février fevrier mars avril mai juin juillet août aout septembre octobre novembre décembre decembre".split()
)
WEEKDAYS = frozenset("lundi mardi mercredi jeudi vendredi samedi dimanche".split())


def fixed_tokens(doc: Any) -> set[int]:
    """Indices of the tokens of a French spaCy ``doc`` that are no entry: the words of its fixed expressions
    and its (lower-case) month and weekday names."""
    lower = [t.text.lower() for t in doc]
    out = {i for i, (t, w) in enumerate(zip(doc, lower)) if t.text == w and (w in MONTHS or w in WEEKDAYS)}
    n = len(lower)
    for i in range(n):
        for loc in LOCUTIONS:
            if lower[i] == loc[0] and tuple(lower[i : i + len(loc)]) == loc:
                out.update(range(i, i + len(loc)))
        lemma = doc[i].lemma_.lower()
        for verb, rest in VERB_LOCUTIONS:
            # "a eu lieu", "ont lieu", "avaient eu lieu": the verb's forms, then its words (an auxiliary between)
            if lemma == verb:
                j = i + 1
                if j < n and doc[j].lemma_.lower() == verb:
                    j += 1
                if tuple(lower[j : j + len(rest)]) == rest:
                    out.update(range(j, j + len(rest)))
    return out


def noun_chunks(doc: Any, language: str | None, excluded: Counter) -> Iterator[Any]:
    """``doc``'s noun chunks, less (in French) those whose head is a word of :func:`fixed_tokens`, each counted in
    ``excluded["fixed_expression"]``."""
    fixed = fixed_tokens(doc) if language == "fr" else ()
    for nc in doc.noun_chunks:
        if nc.root.i in fixed:
            excluded["fixed_expression"] += 1
        else:
            yield nc
