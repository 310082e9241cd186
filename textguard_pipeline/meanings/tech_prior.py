"""A technical-usage prior per noun lemma (issue 51), read from ``tech_prior.tsv``.

The table (built offline by ``scripts/build_tech_prior.py`` from this machine's man pages and WordNet 3.0) gives
each noun lemma's count in software manuals, the noun synsets that belong to computing, and the people, animals,
plants, body parts and food senses of the listed lemmas. :func:`technicality` compares a lemma's rate in the
manuals with its SemCor rate: a lemma much commoner in manuals than in general English ("kernel", "thread",
"method") has a technical use, and when none of its senses is a computing one WordNet 3.0 may lack that use —
evidence for the sense ranker's "none" option (:mod:`.ranker`). Loaded once per process; no network.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

TABLE = Path(__file__).with_name("tech_prior.tsv")
SMOOTH = 20.0  # per million noun tokens: lemmas rare in both corpora get a ratio near 1


@dataclass(frozen=True)
class TechPrior:
    man: dict[str, int]
    man_total: int
    semcor_total: int
    computing: frozenset[str]
    living: frozenset[str]

    def technicality(self, lemma: str, semcor_count: int) -> float:
        """log of (rate in the manuals + s) / (rate in SemCor + s), rates per million noun tokens;
        ``semcor_count``: the lemma's SemCor noun tags (all its senses)."""
        man = self.man.get(lemma.lower(), 0) / self.man_total * 1e6
        general = semcor_count / self.semcor_total * 1e6
        return math.log((man + SMOOTH) / (general + SMOOTH))

    def is_computing(self, meaning_id: str) -> bool:
        return _offset(meaning_id) in self.computing

    def is_living(self, meaning_id: str) -> bool:
        return _offset(meaning_id) in self.living


def _offset(meaning_id: str) -> str:
    """``wn30-06508816-n`` → ``06508816`` (nouns only; anything else matches nothing)."""
    parts = meaning_id.split("-")
    return parts[1] if len(parts) == 3 and parts[2] == "n" else ""


@lru_cache(maxsize=2)
def load_tech_prior(path: str | None = None) -> TechPrior | None:
    """The shipped table (or the one at ``path``); None when it is missing."""
    p = Path(path or TABLE)
    if not p.is_file():
        return None
    man: dict[str, int] = {}
    comp: set[str] = set()
    living: set[str] = set()
    totals = {"total": 0, "semcor": 0}
    for line in p.read_text(encoding="utf-8").splitlines():
        if not line or line.startswith("#"):
            continue
        f = line.split("\t")
        if f[0] == "lemma":
            man[f[1]] = int(f[2])
        elif f[0] == "computing":
            comp.add(f[1])
        elif f[0] == "living":
            living.add(f[1])
        elif f[0] in totals:
            totals[f[0]] = int(f[1])
        else:
            raise ValueError(f"{p}: unknown row kind {f[0]!r}")
    if totals["total"] <= 0 or totals["semcor"] <= 0:
        raise ValueError(f"{p}: the totals rows are missing")
    return TechPrior(man, totals["total"], totals["semcor"], frozenset(comp), frozenset(living))
