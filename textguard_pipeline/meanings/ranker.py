"""A learned sense ranker (issue 51): a conditional logit over a mention's WordNet senses plus a "no fitting
sense" option, fitted on the dev half of the labelled sets (``scripts/calibrate_meanings.py``).

Each sense has features (:data:`SENSE_FEATURES`): its SemCor share (:mod:`.sense_counts`, smoothed), its rank,
whether it is WordNet's first sense, its Lesk score with the mention's and the lemma's contexts and its gap
to the best, its domain score and gap, the sentence encoder's cosine and gap (when the lemma was encoded),
a field marker in its gloss, its cosine with the document's centroid (the field the document is about), and
whether the hand-weighted score of :meth:`~.senses.LeskDisambiguator.choose_scored` picks it (with that pick's
calibrated probability, :mod:`.calibration`). The "none" option has its own (:data:`NONE_FEATURES`): one sense
only, the lemma untagged in SemCor, the best Lesk, domain, cosine and centroid evidence, a capital.
The utility of an option is its weights · features; the probability is the softmax over the options. The chosen
sense is the most probable one; its probability, through an isotonic map fitted on out-of-fold dev probabilities, is
``meaning_confidence``; a row whose "none" option wins keeps that low probability, so the ``low_confidence``
threshold turns it into a custom meaning. Weights and map ship as ``sense_ranker.json``.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from .senses import LeskDisambiguator, MeaningCandidate, SenseEvidence, first_sense
from .tech_prior import load_tech_prior

RANKER_FILE = Path(__file__).with_name("sense_ranker.json")

SENSE_FEATURES = (
    "log_share",
    "untagged",
    "log_rank",
    "first",
    "lesk",
    "lesk_gap",
    "domain",
    "domain_gap",
    "cos",
    "cos_gap",
    "field_marked",
    "field_in_domain",
    "cascade",
    "cascade_p",
    "computing",
    "computing_tech",
    "living_tech",
    "field_cos",
    "field_gap",
)
NONE_FEATURES = (
    "none_bias",
    "single",
    "lemma_untagged",
    "log_lemma_count",
    "best_lesk",
    "best_domain",
    "encoded",
    "best_cos",
    "capitalised",
    "single_untagged",
    "tech",
    "tech_nocomp",
    "fielded",
    "best_field",
)


@dataclass
class Options:
    """The features of one mention's options: ``senses`` (rows of :data:`SENSE_FEATURES`) and ``none``."""

    ids: list[str]
    senses: np.ndarray
    none: np.ndarray

    def as_json(self) -> dict:
        return {"ids": self.ids, "senses": self.senses.round(5).tolist(), "none": self.none.round(5).tolist()}

    @classmethod
    def from_json(cls, d: dict) -> "Options":
        return cls(list(d["ids"]), np.array(d["senses"], dtype=float), np.array(d["none"], dtype=float))


def option_features(
    lesk: LeskDisambiguator,
    mention_text: str,
    context: str,
    senses: Sequence[MeaningCandidate],
    evidence: SenseEvidence | None,
    counts: dict[tuple[str, str], int] | None,
    cascade: str | None = None,
    cascade_p: float = 0.0,
) -> Options:
    """Features of every sense of a mention and of its "none" option (Lesk and domain units / 10); ``cascade``:
    the sense :meth:`~.senses.LeskDisambiguator.choose_scored` picks, ``cascade_p`` its calibrated probability
    (:mod:`.calibration`)."""
    ev = evidence if evidence is not None else SenseEvidence()
    local = lesk.context_stems(mention_text, context)
    tags = [counts.get((c.lemma.lower(), c.meaning_id), 0) if counts is not None else 0 for c in senses]
    total = sum(tags)
    first = first_sense(senses)
    text, domain = [], []
    for c in senses:
        dom, pooled = lesk.per_lemma(mention_text, c, ev) if evidence is not None else (0.0, None)
        own = lesk.score(local, c)
        text.append((0.5 * own + 0.5 * (own if pooled is None else pooled)) / 10.0)
        domain.append(dom / 10.0)
    sims = ev.similarity or {}
    cos = [sims.get(c.meaning_id) for c in senses]
    encoded = all(v is not None for v in cos) and bool(sims)
    cosv = [v if (encoded and v is not None) else 0.0 for v in cos]
    mean_cos = sum(cosv) / len(cosv) if encoded else 0.0
    # the document's field (its centroid, sense_vectors.py): each sense's cosine, centred as ``cos`` is
    fields = ev.field or {}
    fielded = bool(fields) and all(c.meaning_id in fields for c in senses)
    fv = [fields[c.meaning_id] if fielded else 0.0 for c in senses]
    mean_field = sum(fv) / len(fv) if fielded else 0.0
    prior = load_tech_prior()
    # how much commoner the lemma is in software manuals than in SemCor (0 without counts or table)
    tech = 0.0
    if prior is not None and counts is not None and senses:
        tech = max(0.0, min(6.0, prior.technicality(senses[0].lemma, total)))
    comp = [float(prior is not None and prior.is_computing(c.meaning_id)) for c in senses]
    living = [float(prior is not None and prior.is_living(c.meaning_id)) for c in senses]
    rows = []
    for i, c in enumerate(senses):
        marked = c.gloss.lstrip().startswith("(")
        rows.append(
            [
                math.log((tags[i] + 0.5) / (total + 0.5 * len(senses))),
                float(counts is not None and tags[i] == 0),
                math.log(max(1, c.sense_rank or 1)),
                float(c is first),
                min(4.0, text[i]),
                max(-4.0, text[i] - max(text)),
                max(-4.0, min(4.0, domain[i])),
                max(-4.0, domain[i] - max(domain)),
                cosv[i] - mean_cos,
                cosv[i] - max(cosv),
                float(marked),
                float(marked and domain[i] > 0),
                float(c.meaning_id == cascade),
                cascade_p if c.meaning_id == cascade else 0.0,
                comp[i],
                comp[i] * tech,
                living[i] * tech,
                fv[i] - mean_field,
                fv[i] - max(fv) if fielded else 0.0,
            ]
        )
    single = float(len(senses) == 1)
    untagged = float(counts is not None and total == 0)
    none = [
        1.0,
        single,
        untagged,
        math.log1p(total),
        min(4.0, max(text)),
        max(-4.0, min(4.0, max(domain))),
        float(encoded),
        max(cosv) if encoded else 0.0,
        float(mention_text[:1].isupper()),
        single * untagged,
        tech,
        tech * float(not any(comp)),
        float(fielded),
        max(fv) if fielded else 0.0,
    ]
    return Options([c.meaning_id for c in senses], np.array(rows, dtype=float), np.array(none, dtype=float))


@dataclass(frozen=True)
class SenseRanker:
    """Weights of the sense options and of the "none" option, and the isotonic map of the chosen probability."""

    sense_weights: tuple[float, ...]
    none_weights: tuple[float, ...]
    knots_x: tuple[float, ...]
    knots_y: tuple[float, ...]
    fitted_on: str = ""

    def probabilities(self, opts: Options) -> np.ndarray:
        """Softmax over the senses then "none" (the last entry)."""
        u = np.append(opts.senses @ np.array(self.sense_weights), opts.none @ np.array(self.none_weights))
        e = np.exp(u - u.max())
        return e / e.sum()

    def choose(self, opts: Options) -> tuple[int, float, float]:
        """(index of the most probable sense, its calibrated probability, P(none))."""
        p = self.probabilities(opts)
        best = int(np.argmax(p[:-1]))
        return best, self.calibrated(float(p[best])), float(p[-1])

    def calibrated(self, p: float) -> float:
        return round(float(np.interp(p, self.knots_x, self.knots_y)), 4)

    def as_json(self) -> dict[str, Any]:
        return {
            "sense_features": list(SENSE_FEATURES),
            "sense_weights": list(self.sense_weights),
            "none_features": list(NONE_FEATURES),
            "none_weights": list(self.none_weights),
            "isotonic": {"x": list(self.knots_x), "y": list(self.knots_y)},
            "fitted_on": self.fitted_on,
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> "SenseRanker":
        if set(d["sense_features"]) - set(SENSE_FEATURES) or set(d["none_features"]) - set(NONE_FEATURES):
            raise ValueError("sense ranker file: its features are not the ones this code computes; refit it")
        if len(d["sense_features"]) != len(d["sense_weights"]) or len(d["none_features"]) != len(d["none_weights"]):
            raise ValueError("sense ranker file: its features and weights differ in length")
        # a feature the file predates weighs nothing (rows can be collected with a new feature before a refit)
        sense = dict(zip(d["sense_features"], d["sense_weights"]))
        none = dict(zip(d["none_features"], d["none_weights"]))
        x, y = d["isotonic"]["x"], d["isotonic"]["y"]
        if len(x) != len(y) or not x or any(b < a for a, b in zip(x, x[1:])) or any(b < a for a, b in zip(y, y[1:])):
            raise ValueError("sense ranker file: the isotonic knots must be non-empty, increasing and monotone")
        return cls(
            tuple(float(sense.get(n, 0.0)) for n in SENSE_FEATURES),
            tuple(float(none.get(n, 0.0)) for n in NONE_FEATURES),
            tuple(map(float, x)),
            tuple(map(float, y)),
            d.get("fitted_on", ""),
        )


@lru_cache(maxsize=4)
def load_ranker(path: str | None = None) -> SenseRanker | None:
    """The shipped ranker (or the one at ``path``); None when no file ships."""
    p = Path(path or RANKER_FILE)
    if not p.is_file():
        return None
    return SenseRanker.from_json(json.loads(p.read_text(encoding="utf-8")))


# --------------------------------------------------------------------------- fitting (scripts/calibrate_meanings.py)


def _design(opts: Options) -> np.ndarray:
    """Options as rows over the joint parameter vector (sense weights, then none weights)."""
    k, m = len(SENSE_FEATURES), len(NONE_FEATURES)
    x = np.zeros((len(opts.ids) + 1, k + m))
    x[:-1, :k] = opts.senses
    x[-1, k:] = opts.none
    return x


def fit_logit(
    rows: Sequence[tuple[Options, int]], l2: float = 1.0, steps: int = 60, fixed: np.ndarray | None = None
) -> np.ndarray:
    """Weights of an L2-regularised conditional logit (Newton's method); ``rows`` = (options, index of the gold
    option: a sense's index, or ``len(ids)`` for "none"). The none bias is not penalised. ``fixed``: weights kept
    as they are (NaN where a weight is fitted), e.g. a shipped ranker's, so that only new features are learned."""
    designs = [(_design(o), g) for o, g in rows]
    dim = len(SENSE_FEATURES) + len(NONE_FEATURES)
    free = np.ones(dim, dtype=bool) if fixed is None else np.isnan(fixed)
    w = np.zeros(dim) if fixed is None else np.where(free, 0.0, fixed)
    penalty = np.full(dim, l2)
    penalty[len(SENSE_FEATURES)] = 1e-3
    for _ in range(steps):
        grad = penalty * np.where(free, w, 0.0)
        hess = np.diag(penalty + 1e-9)
        for x, g in designs:
            u = x @ w
            p = np.exp(u - u.max())
            p /= p.sum()
            mean = p @ x
            grad -= x[g] - mean
            hess += (x * p[:, None]).T @ x - np.outer(mean, mean)
        step = np.zeros(dim)
        step[free] = np.linalg.solve(hess[np.ix_(free, free)], grad[free])
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return w


def split_weights(w: np.ndarray) -> tuple[tuple[float, ...], tuple[float, ...]]:
    k = len(SENSE_FEATURES)
    return tuple(float(v) for v in w[:k]), tuple(float(v) for v in w[k:])
