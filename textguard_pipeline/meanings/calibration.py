"""``meaning_confidence`` as a probability (issue 51): the evidence the embedded chooser has for the sense it
picked, mapped to P(the sense is right).

:func:`evidence_features` reads the evidence in the units of :meth:`~.senses.LeskDisambiguator.choose_scored`
(the lead of the chosen sense over the runner-up, the chosen sense's own fit with the text and with the
document's domains, the encoder's preference among the senses, how many senses were offered). A single candidate gets no lead:
being the only sense WordNet offers is no evidence that it fits the text. :class:`Calibration` maps the
features to a probability in two fitted steps, both fitted on the dev half of the labelled sets
(``scripts/calibrate_meanings.py``): a logistic score (Platt scaling over several scores), then an isotonic
(pool-adjacent-violators) map of that score, so the probability never falls as the score rises. The fitted
parameters ship as ``confidence_calibration.json`` beside this module.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from .senses import LeskDisambiguator, MeaningCandidate, SenseEvidence, first_sense

CALIBRATION_FILE = Path(__file__).with_name("confidence_calibration.json")

#: The features, in the order of the fitted weights.
FEATURES = (
    "bias",
    "single",
    "log_candidates",
    "lead",
    "log_lead",
    "text_fit",
    "domain_fit",
    "first_sense",
    "similarity",
    "reason_backoff",
    "reason_domain",
    "reason_similarity",
)


def evidence_features(
    lesk: LeskDisambiguator,
    mention_text: str,
    context: str,
    senses: Sequence[MeaningCandidate],
    chosen: MeaningCandidate,
    reason: str,
    evidence: SenseEvidence | None,
) -> dict[str, float]:
    """The evidence for ``chosen`` among ``senses``, in Lesk units / 10 (clipped)."""
    ev = evidence if evidence is not None else SenseEvidence()
    first = first_sense(senses)
    local = lesk.context_stems(mention_text, context)
    totals, text_of, domain_of = {}, {}, {}
    for c in senses:
        domain, pooled = lesk.per_lemma(mention_text, c, ev)
        local_score = lesk.score(local, c)
        text = ev.local_weight * local_score + ev.pooled_weight * (local_score if pooled is None else pooled)
        text_of[c.meaning_id], domain_of[c.meaning_id] = text, domain
        totals[c.meaning_id] = ev.prior(c, first) + text + domain + ev.similarity_score(c)
    others = [t for mid, t in totals.items() if mid != chosen.meaning_id]
    sims = ev.similarity or {}
    lead = totals[chosen.meaning_id] - max(others) if others else 0.0
    sim = sims.get(chosen.meaning_id)
    return {
        "bias": 1.0,
        "single": float(len(senses) == 1),
        "log_candidates": math.log(max(1, len(senses))),
        "lead": max(-2.0, min(6.0, lead / 10.0)),
        "log_lead": math.log1p(max(0.0, lead)) / 3.0,
        "text_fit": min(4.0, text_of[chosen.meaning_id] / 10.0),
        "domain_fit": max(-4.0, min(4.0, domain_of[chosen.meaning_id] / 10.0)),
        "first_sense": float(chosen is first),
        "similarity": 0.0 if sim is None else sim - sum(sims.values()) / len(sims),
        "reason_backoff": float(reason == "first_sense_backoff"),
        "reason_domain": float(reason == "domain_fit"),
        "reason_similarity": float(reason == "context_similarity"),
    }


def vector(features: dict[str, float], impute: dict[str, float] | None = None) -> np.ndarray:
    """The features in :data:`FEATURES` order; a missing one is ``impute``'s value (the dev mean) or 0."""
    impute = impute or {}
    return np.array([features.get(name, impute.get(name, 0.0)) for name in FEATURES], dtype=float)


@dataclass(frozen=True)
class Calibration:
    """Logistic weights over :data:`FEATURES`, then an isotonic map from the logistic score to P(right)."""

    weights: tuple[float, ...]
    #: knots of the isotonic map: logistic scores (increasing) and their probabilities (non-decreasing)
    knots_x: tuple[float, ...]
    knots_y: tuple[float, ...]
    fitted_on: str = ""
    #: values for features a decision lacks (none today; a file may carry them): their dev means
    impute: dict = field(default_factory=dict, hash=False)

    def score(self, features: dict[str, float]) -> float:
        z = float(vector(features, self.impute) @ np.array(self.weights))
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))

    def probability(self, features: dict[str, float]) -> float:
        return round(float(np.interp(self.score(features), self.knots_x, self.knots_y)), 4)

    def as_json(self) -> dict[str, Any]:
        return {
            "features": list(FEATURES),
            "weights": list(self.weights),
            "isotonic": {"x": list(self.knots_x), "y": list(self.knots_y)},
            "fitted_on": self.fitted_on,
            "impute": dict(self.impute),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Calibration":
        names, w = list(data["features"]), list(data["weights"])
        if len(names) != len(w) or set(names) - set(FEATURES):
            raise ValueError(f"calibration file lists features {names}, this code reads {list(FEATURES)}")
        by_name = dict(zip(names, w))  # a feature the file predates weighs nothing
        x, y = data["isotonic"]["x"], data["isotonic"]["y"]
        if len(x) != len(y) or not x or any(b < a for a, b in zip(x, x[1:])) or any(b < a for a, b in zip(y, y[1:])):
            raise ValueError("calibration file: the isotonic knots must be non-empty, increasing and monotone")
        weights, xs, ys = (tuple(map(float, v)) for v in ([by_name.get(n, 0.0) for n in FEATURES], x, y))
        return cls(weights, xs, ys, data["fitted_on"], dict(data.get("impute") or {}))


@lru_cache(maxsize=4)
def load_calibration(path: str | None = None) -> Calibration:
    """The shipped calibration (or the one at ``path``)."""
    return Calibration.from_json(json.loads(Path(path or CALIBRATION_FILE).read_text(encoding="utf-8")))


# --------------------------------------------------------------------------- fitting (scripts/calibrate_meanings.py)


def fit_logistic(x: np.ndarray, y: np.ndarray, l2: float = 1.0, steps: int = 50) -> np.ndarray:
    """Weights of an L2-regularised logistic regression (Newton's method; the bias is not penalised)."""
    w = np.zeros(x.shape[1])
    penalty = np.full(x.shape[1], l2)
    penalty[0] = 0.0
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-np.clip(x @ w, -30, 30)))
        grad = x.T @ (p - y) + penalty * w
        hess = (x * (p * (1 - p))[:, None]).T @ x + np.diag(penalty + 1e-9)
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return w


def isotonic(scores: np.ndarray, y: np.ndarray, min_block: int = 15) -> tuple[list[float], list[float]]:
    """Pool-adjacent-violators over ``scores`` (ascending), blocks of at least ``min_block`` rows: knots at each
    block's mean score with its share of right rows (non-decreasing by construction)."""
    order = np.argsort(scores, kind="stable")
    blocks: list[list[float]] = []  # [sum of scores, sum of labels, count]
    for s, t in zip(scores[order], y[order]):
        blocks.append([float(s), float(t), 1.0])
        while len(blocks) > 1 and (
            blocks[-2][1] / blocks[-2][2] >= blocks[-1][1] / blocks[-1][2] or blocks[-2][2] < min_block
        ):
            a, b = blocks.pop(-2), blocks.pop(-1)
            blocks.append([a[0] + b[0], a[1] + b[1], a[2] + b[2]])
    if len(blocks) > 1 and blocks[-1][2] < min_block:  # the last block is too small: into its neighbour
        a, b = blocks.pop(-2), blocks.pop(-1)
        blocks.append([a[0] + b[0], a[1] + b[1], a[2] + b[2]])
    xs = [b[0] / b[2] for b in blocks]
    ys = [b[1] / b[2] for b in blocks]
    for i in range(1, len(ys)):  # the merge of a small last block can break monotony: pool forward
        ys[i] = max(ys[i], ys[i - 1])
    return xs, ys


def fit(rows: Sequence[tuple[dict[str, float], bool]], fitted_on: str, folds: int = 5) -> Calibration:
    """Logistic weights on all rows; the isotonic map on out-of-fold logistic scores (so it calibrates scores
    the weights did not see)."""
    impute: dict[str, float] = {}  # every decision has every feature
    x = np.array([vector(f, impute) for f, _ok in rows])
    y = np.array([float(ok) for _f, ok in rows])
    w = fit_logistic(x, y)
    oof = np.zeros(len(y))
    fold = np.arange(len(y)) % folds
    for k in range(folds):
        wk = fit_logistic(x[fold != k], y[fold != k])
        oof[fold == k] = 1.0 / (1.0 + np.exp(-np.clip(x[fold == k] @ wk, -30, 30)))
    xs, ys = isotonic(oof, y)
    return Calibration(tuple(float(v) for v in w), tuple(xs), tuple(ys), fitted_on, impute)
