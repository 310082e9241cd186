"""Choosing one candidate: the embedded chooser (Lesk for WordNet, top hit for Wikidata) and the
LLM passes (batch disambiguation with hard-case retries; Pass 3 rating)."""

from __future__ import annotations

import json
import threading
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from ..lib.llm import LLMError, UsageTally, parse_json_content
from .calibration import Calibration, evidence_features, load_calibration
from .candidates import HARD_CASE_THRESHOLD, Candidate, custom_candidate
from .llm_runs import ordered_map, split_evenly
from .ranker import SenseRanker, load_ranker, option_features
from .sense_counts import counts_for
from .senses import LeskDisambiguator, SenseEvidence

# ---------------------------------------------------------------------------
# Decisions


@dataclass
class Decision:
    candidate: Candidate
    confidence: float | None
    reason_code: str
    source: str  # lesk | top_hit | none | llm:<model>
    #: the evidence for a WordNet sense the embedded chooser picked (calibration.FEATURES), else None
    features: dict[str, float] | None = None
    #: the sense ranker's features of every option (:class:`.ranker.Options`), for refitting it; else None
    ranking: Any = None


def one_sense_per_discourse(mentions: Sequence[Any], decisions: list[Decision]) -> list[Decision]:
    """Majority sense per (index type, label, lemma); a lemma whose mentions agree keeps its decisions."""
    votes: dict[tuple, Counter] = defaultdict(Counter)
    first: dict[tuple, dict[str | None, Decision]] = defaultdict(dict)
    keys = [(m.index_type, m.label, m.lookup or m.label) for m in mentions]
    for k, d in zip(keys, decisions):
        votes[k][d.candidate.meaning_id] += 1
        first[k].setdefault(d.candidate.meaning_id, d)
    out = []
    for k, d in zip(keys, decisions):
        top = max(votes[k].values())
        winner = next(mid for mid in first[k] if votes[k][mid] == top)  # first seen among the most voted
        out.append(d if d.candidate.meaning_id == winner else first[k][winner])
    return out


class EmbeddedChooser:
    """Lesk over WordNet senses (first-sense backoff); the top hit for Wikidata; custom otherwise.

    With a ``calibration`` a WordNet decision's confidence is the calibrated P(right) of its evidence
    (:mod:`.calibration`); without, the margin-based score of :mod:`.senses`."""

    def __init__(self, wnet: Any, calibration: Calibration | None = None, ranker: SenseRanker | None | bool = True):
        # A wider margin than plain Lesk's: with the domain bonus, weak overlaps are noise (dev half, issue 16).
        self.lesk = LeskDisambiguator(wnet, margin=6.0)
        self.calibration = calibration
        #: the learned ranker (:mod:`.ranker`; ``True``: the shipped one, if any): it chooses the sense and its
        #: confidence over the cascade of :meth:`LeskDisambiguator.choose_scored`
        self.ranker = load_ranker() if ranker is True else (ranker or None)
        #: compute the ranker's features even without a ranker (``scripts/calibrate_meanings.py``)
        self.keep_options = False
        self._counts: Any = False  # the SemCor counts, read on first use (None: not installed)

    @property
    def counts(self) -> dict | None:
        if self._counts is False:
            self._counts = counts_for(self.lesk.wnet)
        return self._counts

    def choose(
        self,
        mention_text: str,
        context: str,
        candidates: Sequence[Candidate],
        bonus: Callable[[Any], float] | None = None,
        evidence: SenseEvidence | None = None,
    ) -> Decision:
        """``bonus``: extra score per WordNet sense (the document's domain profile), or None; ``evidence``: the
        document's evidence for the prior-plus-evidence choice (:meth:`LeskDisambiguator.choose_scored`)."""
        wn_c = [c for c in candidates if c.meaning_type == "wordnet"]
        if wn_c:
            senses = [c.wordnet for c in wn_c]
            if evidence is not None:
                chosen, conf, reason = self.lesk.choose_scored(mention_text, context, senses, evidence)
            else:
                chosen, conf, reason = self.lesk.choose(mention_text, context, senses, bonus)
            if chosen is not None:
                feats = evidence_features(self.lesk, mention_text, context, senses, chosen, reason, evidence)
                opts = None
                if self.ranker is not None or self.keep_options:
                    p = (self.calibration or load_calibration()).probability(feats)
                    opts = option_features(
                        self.lesk, mention_text, context, senses, evidence, self.counts, chosen.meaning_id, p
                    )
                if self.ranker is not None:
                    best, conf, _none = self.ranker.choose(opts)
                    if senses[best] is not chosen:
                        chosen, reason = senses[best], "ranked"
                elif self.calibration is not None:
                    conf = self.calibration.probability(feats)
                cand = next(c for c in wn_c if c.meaning_id == chosen.meaning_id)
                return Decision(cand, conf, reason, "lesk", None if reason == "ranked" else feats, opts)
        wd = [c for c in candidates if c.meaning_type == "wikidata"]
        if wd:
            # Without a model to read the context, the search engine's ranking is the prior.
            return Decision(
                wd[0], 0.8 if len(wd) == 1 else 0.5, "single_candidate" if len(wd) == 1 else "top_search_hit", "top_hit"
            )
        custom = next((c for c in candidates if c.meaning_type == "custom"), None)
        return Decision(custom or custom_candidate(mention_text), None, "no_candidates", "none")


@dataclass
class Item:
    """One entry to disambiguate (all mentions of a label in a document share it)."""

    item_id: str
    label: str
    index_type: str
    context: str
    larger_context: str
    candidates: list[Candidate]
    more_candidates: list[Candidate] = field(default_factory=list)


DISAMBIGUATION_SYSTEM = """You choose the meaning of index entries.
Each item has a label, its index type, a context and candidate meanings (meaning_type, meaning_id, gloss).
Pick the candidate whose gloss fits the context; pick the custom candidate (meaning_id null) when none fits.
Answer with JSON only:
{"results": [{"itemId": "entry_1", "meaning_type": "wordnet", "meaning_id": "<one of the item's candidate ids or null>",
  "confidence": 0.92, "reason_code": "clear_match"}]}
reason_code is one of: clear_match, context_match, weak_match, none_fit, ambiguous.
confidence is between 0 and 1."""


class LLMDisambiguator:
    """Batch disambiguation (``batch_size`` items per call), hard cases retried alone.

    Batches (then hard cases) run ``concurrency`` at a time, merged in item order. A call's tokens are
    split evenly over its items (:attr:`usage`, by item id) and added to the pass's :attr:`tally`.
    """

    def __init__(
        self,
        client: Any,
        *,
        batch_size: int = 20,
        hard_threshold: float = HARD_CASE_THRESHOLD,
        concurrency: int | None = None,
    ):
        if not 1 <= batch_size <= 30:
            raise ValueError("batch_size must be between 1 and 30 (the seed uses 10-30)")
        self.client = client
        self.batch_size = batch_size
        self.hard_threshold = hard_threshold
        self.concurrency = max(1, concurrency or getattr(getattr(client, "config", None), "concurrency", 1) or 1)
        self.stats: Counter = Counter()
        self.errors: list[str] = []
        self.tally = UsageTally()
        #: [prompt, completion] tokens attributed to each item id
        self.usage: dict[str, list[int]] = {}
        self._lock = threading.Lock()

    def _count(self, key: str, error: str | None = None) -> None:
        with self._lock:
            self.stats[key] += 1
            if error is not None:
                self.errors.append(error)

    def _charge(self, items: Sequence[Item], prompt_tokens: int, completion_tokens: int) -> None:
        n = len(items)
        with self._lock:
            for it, pt, ct in zip(items, split_evenly(prompt_tokens, n), split_evenly(completion_tokens, n)):
                u = self.usage.setdefault(it.item_id, [0, 0])
                u[0] += pt
                u[1] += ct

    @property
    def source(self) -> str:
        return f"llm:{getattr(getattr(self.client, 'config', None), 'model', '?')}"

    def _messages(self, items: Sequence[Item], larger: bool) -> list[dict[str, str]]:
        payload = {
            "items": [
                {
                    "itemId": it.item_id,
                    "label": it.label,
                    "indexType": it.index_type,
                    "context": it.larger_context if larger else it.context,
                    "candidates": [
                        c.as_prompt() for c in ((it.more_candidates or it.candidates) if larger else it.candidates)
                    ],
                }
                for it in items
            ]
        }
        return [
            {"role": "system", "content": DISAMBIGUATION_SYSTEM},
            {"role": "user", "content": json.dumps(payload, ensure_ascii=False)},
        ]

    def _call(self, items: Sequence[Item], larger: bool) -> dict[str, Decision]:
        self._count("calls")
        try:
            res = self.client.complete(self._messages(items, larger), json_mode=True)
            self.tally.add(res)
            self._charge(items, res.prompt_tokens, res.completion_tokens)
            reply = parse_json_content(res.content)
        except LLMError as exc:
            self._count(f"error_{exc.kind}", str(exc))
            return {}
        results = reply.get("results") if isinstance(reply, dict) else None
        if not isinstance(results, list):
            self._count("error_shape", "reply has no 'results' list")
            return {}
        by_id = {it.item_id: it for it in items}
        out: dict[str, Decision] = {}
        for r in results:
            if not isinstance(r, dict) or r.get("itemId") not in by_id:
                continue
            it = by_id[r["itemId"]]
            pool = (it.more_candidates or it.candidates) if larger else it.candidates
            mid = r.get("meaning_id")
            if mid is None or r.get("meaning_type") == "custom":
                cand = next((c for c in pool if c.meaning_type == "custom"), custom_candidate(it.label))
            else:
                cand = next((c for c in pool if c.meaning_id == mid), None)
                if cand is None:  # an id that was not offered: never invent meanings
                    self._count("invalid_choice")
                    continue
            try:
                conf = max(0.0, min(1.0, float(r.get("confidence"))))
            except (TypeError, ValueError):
                conf = 0.0
            out[it.item_id] = Decision(cand, conf, str(r.get("reason_code") or "unspecified")[:40], self.source)
        return out

    def resolve(self, items: Sequence[Item]) -> dict[str, Decision]:
        """Decisions by item id; items the model did not answer validly are absent (caller falls back)."""
        out: dict[str, Decision] = {}
        batches = [items[i : i + self.batch_size] for i in range(0, len(items), self.batch_size)]
        if batches:
            self.stats["batches"] += len(batches)
        for got in ordered_map(lambda b: self._call(b, larger=False), batches, self.concurrency):
            out.update(got)
        hard = [it for it in items if it.item_id in out and (out[it.item_id].confidence or 0.0) < self.hard_threshold]
        if hard:
            self.stats["hard_retries"] += len(hard)
        for it, got in zip(hard, ordered_map(lambda it: self._call([it], larger=True), hard, self.concurrency)):
            again = got.get(it.item_id)
            if again is not None:
                out[it.item_id] = again
                self.stats["hard_retry_answers"] += 1
        return out


RATING_SYSTEM = """For each term, rate:
- Indexability (0-1): Would a reader look this up?
- Specificity (0-1): Concrete/specific vs generic/vague?

Return overall confidence as average of the two.
Answer with JSON only:
{"ratings": [{"termId": "entry_1", "indexability": 0.90, "specificity": 0.95, "overallConfidence": 0.93}]}"""


def rate_terms(
    client: Any,
    terms: Sequence[tuple[str, str, str]],
    batch_size: int = 30,
    stats: Counter | None = None,
    tally: UsageTally | None = None,
    usage: dict[str, list[int]] | None = None,
) -> dict[str, tuple[float, float, float]]:
    """Pass 3: ``terms`` = (term_id, label, index_type) → {term_id: (indexability, specificity, overall)}.
    ``tally`` / ``usage``: the pass's tokens, and each call's split evenly over its term ids."""
    stats = stats if stats is not None else Counter()
    out: dict[str, tuple[float, float, float]] = {}
    for i in range(0, len(terms), batch_size):
        batch = terms[i : i + batch_size]
        payload = {"terms": [{"termId": t, "label": lab, "indexType": it} for t, lab, it in batch]}
        stats["rating_calls"] += 1
        try:
            res = client.complete(
                [
                    {"role": "system", "content": RATING_SYSTEM},
                    {"role": "user", "content": json.dumps(payload, ensure_ascii=False)},
                ],
                json_mode=True,
            )
            if tally is not None:
                tally.add(res)
            if usage is not None:
                n = len(batch)
                for (t, _l, _i), pt, ct in zip(
                    batch, split_evenly(res.prompt_tokens, n), split_evenly(res.completion_tokens, n)
                ):
                    usage[t] = [pt, ct]
            reply = parse_json_content(res.content)
        except LLMError as exc:
            stats[f"rating_error_{exc.kind}"] += 1
            continue
        wanted = {t for t, _l, _i in batch}
        for r in (reply.get("ratings") if isinstance(reply, dict) else None) or []:
            if not isinstance(r, dict) or r.get("termId") not in wanted:
                continue
            try:
                ind = max(0.0, min(1.0, float(r["indexability"])))
                spec = max(0.0, min(1.0, float(r["specificity"])))
            except (KeyError, TypeError, ValueError):
                stats["rating_invalid"] += 1
                continue
            out[r["termId"]] = (ind, spec, round((ind + spec) / 2, 4))
    return out
