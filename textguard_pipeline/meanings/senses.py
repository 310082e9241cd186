"""WordNet candidates and the embedded disambiguator (simplified/extended Lesk).

* :func:`wordnet_candidates` — senses of a mention (multi-word lemmas joined by space or underscore,
  inflections through Morphy) as :class:`MeaningCandidate` rows in WordNet's sense-rank order.
* :class:`LeskDisambiguator` — overlap between the context and each sense's signature (definition, examples,
  lemmas, and the glosses of related synsets), words weighted by inverse gloss frequency so that function words
  weigh nothing without a stopword list; backs off to the first sense when the evidence is weak.
  ``textguard_pipeline_tests/meanings/test_wordnet_senses.py`` checks it is no worse than the first-sense baseline.
* :func:`sense_count` / :func:`is_generic_noun` — signals for the mention detector's exclusions (polysemy and
  how often WordNet itself uses the word to define others), instead of hand lists.

No dagster imports.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from itertools import islice
from typing import Callable, Iterable, Sequence

from . import lexicon_memo
from .gloss_stats import GlossStats, gloss_stats, shipped_gloss_stats, stem, tokens  # noqa: F401 - moved, still read here
from .wn_tables import gloss_texts
from .wn_words import word_view
from .wordnet_install import lexicon_database, read_only  # noqa: F401 - pinned names of core.wordnet_senses

_POS_ALIASES = {"n": "n", "noun": "n", "propn": "n", "v": "v", "verb": "v", "aux": "v"}
_POS_ALIASES |= {"a": "a", "adj": "a", "s": "a", "r": "r", "adv": "r"}
_POS_ORDER = {"n": 0, "v": 1, "a": 2, "s": 2, "r": 3}


@dataclass(frozen=True)
class MeaningCandidate:
    """One WordNet sense of a mention; ``meaning_id`` is the synset id (starts with the lexicon id)."""

    meaning_id: str
    lemma: str
    gloss: str
    pos: str
    sense_rank: int
    source: str = "wordnet"


def normalize_pos(pos: str | None) -> str | None:
    if pos is None:
        return None
    try:
        return _POS_ALIASES[pos.lower()]
    except KeyError:
        raise ValueError(f"unknown part of speech {pos!r} (use n, v, a, r or a spaCy tag)") from None


def _forms(text: str) -> list[str]:
    """The spellings WordNet may list a term under: as written, hyphens as spaces, hyphens dropped."""
    text = " ".join(text.replace("_", " ").split())
    forms = [text]
    if "-" in text:
        forms += [text.replace("-", " "), text.replace("-", "")]
    return forms


def _sense_n(sense) -> int | None:
    """The sense's rank for its word as stored by wn (``n`` in WN-LMF 1.4 / file order)."""
    if getattr(sense, "entry_rank", None) is not None:  # a sense of the bulk tables (wn_words) carries it
        return sense.entry_rank
    try:
        from wn._queries import (
            get_sense_n,
        )  # lazy: wn opens its database on use; private, but the only way to the stored rank

        return get_sense_n(sense.id, sense.lexicon().specifier())
    except Exception:  # noqa: BLE001 - fall back to the order of the word's senses
        return None


def wordnet_candidates(wnet, text: str, pos: str | None = None, limit: int = 8) -> list[MeaningCandidate]:
    """WordNet senses of ``text``: exact lemma first, then Morphy lemmas; by part of speech, then rank.

    ``pos``: n / v / a / r (or a spaCy tag such as NOUN); adjectives include
    satellites. An empty list means WordNet does not know the word.
    """
    p = normalize_pos(pos)
    wanted = [None] if p is None else (["a", "s"] if p == "a" else [p])
    seen: dict[str, tuple] = {}
    wnet = word_view(wnet)  # wn's searches on the bulk tables, where there are
    for form in _forms(text):
        for wpos in wanted:
            for sense in wnet.senses(form, pos=wpos):
                ss = sense.synset()
                word = sense.word()
                lemma = word.lemma()
                rank = _sense_n(sense)
                if rank is None:
                    rank = next((i for i, s in enumerate(word.senses(), 1) if s.id == sense.id), 99)
                inflected = lemma.lower() != form.lower()
                key = (inflected, _POS_ORDER.get(ss.pos, 9), rank)
                if ss.id not in seen or key < seen[ss.id][0]:
                    seen[ss.id] = (key, MeaningCandidate(ss.id, lemma, ss.definition() or "", ss.pos, rank))
        if seen:
            break  # the literal form (or its first variant) matched: do not mix in variants
    ordered = [c for _k, c in sorted(seen.values(), key=lambda kc: kc[0])]
    return ordered[:limit] if limit else ordered


def is_multiword_lemma(wnet, text: str) -> bool:
    """True when ``text`` (two or more words, space/underscore/hyphen joined) is a WordNet lemma."""
    forms = _forms(text)
    if len(forms[0].split()) < 2 and not ("-" in text and len(text.split("-")) > 1):
        return False
    wnet = word_view(wnet)
    for form in forms:
        if " " not in form:
            continue
        # wn's lemmatizer maps "neural networks" to the lemma "neural network".
        if any(" " in word.lemma() for word in wnet.words(form)):
            return True
    return False


def first_sense(candidates: Sequence[MeaningCandidate]) -> MeaningCandidate | None:
    """The most frequent sense: lowest ``sense_rank``, ties broken by list order."""
    if not candidates:
        return None
    return min(enumerate(candidates), key=lambda ic: (ic[1].sense_rank, ic[0]))[1]


# --------------------------------------------------------------------------- signals


def sense_count(wnet, lemma: str, pos: str | None = None) -> int:
    """Number of WordNet senses of ``lemma`` (exact lemma; Morphy lemmas if there is none), in the first of its
    spellings WordNet has ("trade-off"; "co-author" as "coauthor"), as :func:`wordnet_candidates` looks it up."""
    p = normalize_pos(pos)
    wanted = [None] if p is None else (["a", "s"] if p == "a" else [p])
    wnet = word_view(wnet)
    for form in _forms(lemma):
        exact = [w for wp in wanted for w in wnet.words(form, pos=wp) if w.lemma().lower() == form.lower()]
        found = {s.id for w in exact for s in w.senses()} or {s.id for wp in wanted for s in wnet.senses(form, pos=wp)}
        if found:
            return len(found)
    return 0


def is_generic_noun(wnet, lemma: str, stats: GlossStats | None = None) -> bool:
    """Generic nouns (thing, way, time, part, ...) from two signals, no hand list: WordNet uses a generic noun to
    define many other words (gloss frequency ≥ 0.15 %, or ≥ 0.05 % with ≥ 6 noun senses). Not when its main sense
    is a concrete thing: "gum", "bridge", "key" define many plants and devices, yet a reader looks them up; above
    0.15 % only a concrete thing with few kinds (≤ ``FEW_KINDS`` hyponyms: shell, water, body — words that describe
    others), not a genus term (system, device, instrument: words that classify them)."""
    n_senses = sense_count(wnet, lemma, "n")
    if n_senses == 0:
        return False
    freq = (stats or gloss_stats(wnet)).frequency(lemma)
    if freq >= 0.0015:
        return not _concrete(wnet, lemma, FEW_KINDS)
    return freq >= 0.0005 and n_senses >= 6 and not _concrete(wnet, lemma)


#: Lexicographer files of concrete, physical things (WordNet lexnames(5)).
CONCRETE_LEXFILES = frozenset(
    {"noun.artifact", "noun.food", "noun.body", "noun.substance", "noun.plant", "noun.animal", "noun.object"}
)
#: a genus term has more kinds (hyponyms, all levels) under its main sense: system 89, paper 145, device 2,760
FEW_KINDS = 30


def _concrete(wnet, lemma: str, few_kinds: int | None = None) -> bool:
    """The main sense is a concrete thing (with ``few_kinds``: with at most that many hyponyms)."""
    try:
        synsets = word_view(wnet).synsets(lemma, pos="n")
        if not synsets or synsets[0].lexfile() not in CONCRETE_LEXFILES:
            return False
        return few_kinds is None or sum(1 for _ in islice(synsets[0].closure("hyponym"), few_kinds + 1)) <= few_kinds
    except Exception:  # noqa: BLE001 - a lexicon without lexfile data: no concrete exception
        return False


# --------------------------------------------------------------------------- shared lookups


class _BoundedCache(dict):
    """A dict that empties itself when it reaches ``limit`` entries (a cheap bound on memory)."""

    def __init__(self, limit: int):
        super().__init__()
        self.limit = limit

    def __setitem__(self, key, value) -> None:
        if len(self) >= self.limit:
            self.clear()
        super().__setitem__(key, value)


#: id(wnet) -> (wnet, {name: cache}); the wnet is held so its id is never reused.
_LEXICON_CACHES: dict[int, tuple[object, dict[str, _BoundedCache]]] = {}
LEXICON_CACHE_LIMIT = 200_000


def lexicon_cache(wnet, name: str) -> dict:
    """A memo dict shared by every user of ``wnet`` in this process, for values that depend only on the lexicon
    (sense counts, candidate senses, Lesk signatures); the lexicon outlives the resolvers built per run. Each is
    emptied at ``LEXICON_CACHE_LIMIT`` entries; those :mod:`.lexicon_memo` keeps start from its disk shards.
    """
    entry = _LEXICON_CACHES.get(id(wnet))
    if entry is None or entry[0] is not wnet:
        entry = _LEXICON_CACHES[id(wnet)] = (wnet, {})
    caches = entry[1]
    cache = caches.get(name)
    if cache is None:
        cache = caches[name] = _BoundedCache(LEXICON_CACHE_LIMIT)
        lexicon_memo.seed(wnet, name, cache)
    return cache


def flush_lexicon_memos(wnet) -> None:
    """Write what this process added to ``wnet``'s persisted memos (once per document: workers may be killed)."""
    entry = _LEXICON_CACHES.get(id(wnet))
    if entry is not None and entry[0] is wnet:
        lexicon_memo.flush(wnet, entry[1])


# --------------------------------------------------------------------------- Lesk


@dataclass(frozen=True)
class _Signature:
    own: frozenset  # stems of definition, examples, lemmas
    related: frozenset  # stems of related synsets' lemmas and definitions


# Relations whose glosses describe the same sense from another angle.
_RELATED = (
    "hypernym",
    "instance_hypernym",
    "hyponym",
    "instance_hyponym",
    "domain_topic",
    "domain_region",
    "mero_part",
    "holo_part",
    "mero_member",
    "holo_member",
    "similar",
    "also",
    "attribute",
    "entails",
    "causes",
)


#: contexts whose stems and scores a disambiguator keeps (a mention's own and its lemma's pooled one)
CONTEXT_MEMO = 8


class LeskDisambiguator:
    """Simplified/extended Lesk with first-sense backoff.

    Score of a sense = Σ idf(w) over context stems w found in its own
    signature + ``related_weight`` × Σ idf(w) over stems found only in related
    synsets' glosses. The best-scoring sense replaces the first sense only when
    it beats the first sense's score by ``margin`` (about one informative word):
    WordNet's sense order is a strong prior, and weak overlaps are noise.
    """

    def __init__(
        self, wnet, related_weight: float = 0.5, margin: float = 3.0, max_related: int = 12, use_lesk: bool = True
    ):
        self.wnet = wnet
        # use_lesk=False is the first-sense baseline (the fallback if Lesk ever loses to it).
        self.use_lesk = use_lesk
        self.related_weight = related_weight
        self.margin = margin
        self.max_related = max_related
        self._signatures: dict[str, _Signature] = lexicon_cache(wnet, f"lesk_signatures:{max_related}")
        self._stats: GlossStats | None = None
        # The sense choice, its calibration and the ranker each ask for one mention's context stems and Lesk
        # scores: (mention, context) → stems, and id(stems) → (stems, meaning id → score) for the stems made
        # here (held, so an id is not reused while its scores are kept). Emptied together at CONTEXT_MEMO.
        self._contexts: dict[tuple[str, str], set[str]] = {}
        self._scores: dict[int, tuple[set[str], dict[str, float]]] = {}

    @property
    def stats(self) -> GlossStats:
        if self._stats is None:
            self._stats = gloss_stats(self.wnet)
        return self._stats

    def signature(self, candidate: MeaningCandidate) -> _Signature:
        """Stems of the sense's own text and of its related synsets' (cached per meaning id)."""
        sig = self._signatures.get(candidate.meaning_id)
        if sig is None:
            wordnet = candidate.source == "wordnet"
            texts = gloss_texts(self.wnet, candidate.meaning_id, _RELATED, self.max_related) if wordnet else None
            # unknown id (another lexicon, Wikidata): its gloss
            own_text, related = texts or (f"{candidate.gloss} {candidate.lemma}", [])
            own = frozenset(stem(t) for t in tokens(own_text))
            sig = _Signature(own, frozenset(stem(t) for t in tokens(" ".join(related))) - own)
            self._signatures[candidate.meaning_id] = sig
        return sig

    def score(self, context_stems: Iterable[str], candidate: MeaningCandidate) -> float:
        memo = self._scores.get(id(context_stems))
        if memo is not None and memo[0] is context_stems:
            score = memo[1].get(candidate.meaning_id)
            if score is None:
                score = memo[1][candidate.meaning_id] = self._score(context_stems, candidate)
            return score
        return self._score(context_stems, candidate)

    def _score(self, context_stems: Iterable[str], candidate: MeaningCandidate) -> float:
        sig = self.signature(candidate)
        w = self.stats.weight
        total = 0.0
        for s in set(context_stems):
            if s in sig.own:
                total += w(s)
            elif s in sig.related:
                total += self.related_weight * w(s)
        return total

    def context_stems(self, mention_text: str, context: str) -> set[str]:
        """The context's stems but the mention's own; the same set for the same strings while it is memoised
        (its scores with it): do not change it."""
        stems = self._contexts.get((mention_text, context))
        if stems is None:
            if len(self._contexts) >= CONTEXT_MEMO:
                self._contexts.clear()
                self._scores.clear()
            mention = {stem(t) for t in tokens(mention_text)}
            stems = self._contexts[(mention_text, context)] = {stem(t) for t in tokens(context)} - mention
            self._scores[id(stems)] = (stems, {})
        return stems

    def choose(
        self,
        mention_text: str,
        context: str,
        candidates: Sequence[MeaningCandidate],
        bonus: Callable[[MeaningCandidate], float] | None = None,
    ) -> tuple[MeaningCandidate | None, float, str]:
        """(chosen candidate, confidence 0..1, reason_code).

        reason codes: ``no_candidates``, ``single_candidate``, ``gloss_overlap``
        (Lesk chose a sense other than or agreeing with the first one on clear
        evidence), ``domain_fit`` (the document-domain ``bonus`` decided),
        ``first_sense_backoff`` (no clear evidence: first sense).
        """
        if not candidates:
            return None, 0.0, "no_candidates"
        first = first_sense(candidates)
        if len(candidates) == 1:
            return first, 0.9, "single_candidate"
        if not self.use_lesk:
            return first, round(max(0.3, 0.75 - 0.05 * (len(candidates) - 1)), 2), "first_sense_backoff"
        ctx = self.context_stems(mention_text, context)
        lesk = [(self.score(ctx, c), c) for c in candidates]
        if bonus is not None:
            scores = [(sc + bonus(c), c) for sc, c in lesk]
            chosen = self._decide(scores, first, len(candidates))
            plain = self._decide(lesk, first, len(candidates))
            if chosen[0] is not plain[0]:
                return chosen[0], chosen[1], "domain_fit"
            return chosen
        return self._decide(lesk, first, len(candidates))

    def choose_scored(
        self,
        mention_text: str,
        context: str,
        candidates: Sequence[MeaningCandidate],
        evidence: "SenseEvidence",
    ) -> tuple[MeaningCandidate | None, float, str]:
        """The sense-frequency prior, left only when the document's evidence is clearly stronger.

        score = prior(rank) + local Lesk + pooled Lesk (all mentions of the lemma) + domain bonus + document
        overlap, in the units of :class:`SenseEvidence` (weights chosen on the dev half of the labelled set).
        + encoder similarity (:mod:`.sense_vectors`). Reason codes as :meth:`choose`; ``domain_fit`` when the
        domain terms changed the choice, ``context_similarity`` when the sentence encoder did.
        """
        if not candidates:
            return None, 0.0, "no_candidates"
        first = first_sense(candidates)
        if len(candidates) == 1:
            return first, 0.9, "single_candidate"
        ev = evidence
        local = self.context_stems(mention_text, context)
        rows = []
        for c in candidates:
            domain, pooled_score = self.per_lemma(mention_text, c, ev)
            local_score = self.score(local, c)
            text = ev.local_weight * local_score + ev.pooled_weight * (
                local_score if pooled_score is None else pooled_score
            )
            rows.append((ev.prior(c, first), text, domain, c, ev.similarity_score(c)))
        best = max(rows, key=lambda r: (r[0] + r[1] + r[2] + r[4], -r[3].sense_rank))
        unencoded = max(rows, key=lambda r: (r[0] + r[1] + r[2], -r[3].sense_rank))
        plain = max(rows, key=lambda r: (r[0] + r[1], -r[3].sense_rank))
        total = [r[0] + r[1] + r[2] + r[4] for r in rows]
        conf = _confidence(max(total) - min(total), [t - min(total) for t in total if t != max(total)])
        if best[3] is first and best[1] + best[2] == 0 and best is unencoded:
            return first, round(max(0.3, 0.75 - 0.05 * (len(candidates) - 1)), 2), "first_sense_backoff"
        if best is not unencoded:
            return best[3], conf, "context_similarity"
        return best[3], conf, "domain_fit" if best[3] is not plain[3] else "gloss_overlap"

    def per_lemma(self, mention_text: str, c: MeaningCandidate, ev: "SenseEvidence") -> tuple[float, float | None]:
        """(domain score, pooled Lesk score) of sense ``c``: the same at every mention of the lemma, so computed
        once and kept in ``ev`` (the pooled stems from the first mention's text)."""
        per_lemma = ev.per_sense.get(c.meaning_id)
        if per_lemma is None:
            if ev.pooled_context and ev.pooled_stems is None:
                ev.pooled_stems = self.context_stems(mention_text, ev.pooled_context)
            domain = ev.domain_weight * (ev.bonus(c) if ev.bonus else 0.0)
            domain += ev.document_weight * self.document_overlap(ev.document_tf, c) if ev.document_tf else 0.0
            pooled_score = self.score(ev.pooled_stems or set(), c) if ev.pooled_context else None
            per_lemma = ev.per_sense[c.meaning_id] = (domain, pooled_score)
        return per_lemma

    def document_overlap(self, document_tf: dict, candidate: MeaningCandidate) -> float:
        """idf-weighted overlap of the sense's signature with the document's words (each counted ≤ 3 times)."""
        sig = self.signature(candidate)
        w = self.stats.weight
        total = 0.0
        for s in sig.own:
            n = document_tf.get(s)
            if n:
                total += w(s) * min(3, n)
        for s in sig.related:
            n = document_tf.get(s)
            if n:
                total += 0.5 * w(s) * min(3, n)
        return total

    def _decide(
        self, scores: list[tuple[float, MeaningCandidate]], first: MeaningCandidate, n: int
    ) -> tuple[MeaningCandidate, float, str]:
        first_score = next(s for s, c in scores if c is first)
        best_score, best = max(scores, key=lambda sc: sc[0])
        if best is not first and best_score - first_score >= self.margin:
            conf = _confidence(best_score, [s for s, c in scores if c is not best])
            return best, conf, "gloss_overlap"
        if first_score > 0 and first_score >= best_score:
            return first, _confidence(first_score, [s for s, c in scores if c is not first]), "gloss_overlap"
        # Weak or no evidence: the first sense, with a confidence that shrinks with polysemy.
        return first, round(max(0.3, 0.75 - 0.05 * (n - 1)), 2), "first_sense_backoff"


@dataclass
class SenseEvidence:
    """What the document says about one mention's senses, and how much each kind of evidence weighs.

    The weights are in Lesk units (idf of one shared informative word ≈ 3–6): ``prior_weight`` × −ln(rank) plus
    ``first_bonus`` for the most frequent sense make WordNet's sense order (its tag counts) the default that
    evidence has to outweigh. Chosen on the dev half of the labelled set (issue 16), never on the held-out half.
    """

    pooled_context: str = ""
    bonus: Callable[[MeaningCandidate], float] | None = None
    document_tf: dict | None = None
    local_weight: float = 0.5
    pooled_weight: float = 0.5
    domain_weight: float = 2.0
    document_weight: float = 0.05
    prior_weight: float = 4.0
    first_bonus: float = 4.0
    pooled_stems: set | None = None  # filled on first use (one evidence object serves every mention of a lemma)
    per_sense: dict = field(default_factory=dict)  # meaning id → (domain score, pooled Lesk score), per lemma
    similarity: dict | None = None  # meaning id → cosine with the lemma's sentences (sense_vectors.py)
    similarity_weight: float = 0.0
    field: dict | None = None  # meaning id → cosine with the document's centroid (sense_vectors.py; ranker only)

    def similarity_score(self, candidate: MeaningCandidate) -> float:
        """``similarity_weight`` × (the sense's cosine − the mean over the lemma's senses); 0 without vectors."""
        sims = self.similarity
        if not sims or candidate.meaning_id not in sims:
            return 0.0
        return self.similarity_weight * (sims[candidate.meaning_id] - sum(sims.values()) / len(sims))

    def prior(self, candidate: MeaningCandidate, first: MeaningCandidate) -> float:
        rank = max(1, candidate.sense_rank or 1)
        return -self.prior_weight * math.log(rank) + (self.first_bonus if candidate is first else 0.0)


def _confidence(best: float, others: Sequence[float]) -> float:
    """Margin-based confidence: 0.6 for a bare win, towards 0.95 for a clear one."""
    runner_up = max(others) if others else 0.0
    margin = best - runner_up
    return round(min(0.95, 0.6 + 0.35 * (1 - math.exp(-margin / 6.0))), 2)


def evaluate(
    disambiguator: LeskDisambiguator, items: Iterable[tuple[str, str, list[MeaningCandidate], MeaningCandidate]]
) -> dict:
    """Accuracy of the disambiguator and of the first-sense baseline on labelled items.

    ``items``: (mention_text, context, candidates, gold candidate).
    """
    n = lesk_ok = first_ok = 0
    for mention, context, candidates, gold in items:
        n += 1
        chosen, _conf, _reason = disambiguator.choose(mention, context, candidates)
        lesk_ok += chosen is not None and chosen.meaning_id == gold.meaning_id
        fs = first_sense(candidates)
        first_ok += fs is not None and fs.meaning_id == gold.meaning_id
    return {"n": n, "lesk": lesk_ok / n if n else 0.0, "first_sense": first_ok / n if n else 0.0}
