"""The embedded path's decisions for one document (a mixin of :class:`~.resolver.MeaningResolver`).

The document's domain profile (per section where a section is large enough), the pooled contexts of each
lemma, the sentence encoder's cosines, one sense per discourse, and the head meanings of compounds WordNet
lacks. Kept apart from the resolver so that neither module grows past the size limit.
"""

from __future__ import annotations

import re
from collections import defaultdict
from typing import Any, Sequence

from .candidates import Candidate, custom_candidate
from .choose import Decision, one_sense_per_discourse
from .domains import DomainProfile, section_profiles
from .forms import compound_head
from .mentions import Mention
from .sense_vectors import LESK_WEIGHT, lead
from .senses import SenseEvidence

#: How many mentions of a lemma lend their contexts to its pooled context (bounded: a book repeats lemmas).
POOLED_CONTEXTS = 12


class EmbeddedDecisions:
    """Needs ``settings``, ``wnet``, ``finder``, ``chooser``, ``similarity`` and ``_sections`` on the object."""

    settings: Any
    wnet: Any
    finder: Any
    chooser: Any
    similarity: Any
    _sections: dict[int, int]
    #: the head noun's own decision per mention of the last document (None: no compound head), for refitting the
    #: ranker (scripts/calibrate_meanings.py)
    head_decisions: list = []

    def _supported_decisions(
        self, mentions: Sequence[Mention], found: Sequence[tuple[list[Candidate], str]], unsupported: Sequence[bool]
    ):
        """:meth:`_embedded_decisions` over the mentions a lexicon serves; the others stay custom (issue 17)."""
        if not any(unsupported):
            return self._embedded_decisions(mentions, found)
        idx = [i for i, skip in enumerate(unsupported) if not skip]
        some, some_heads, profile = self._embedded_decisions([mentions[i] for i in idx], [found[i] for i in idx])
        head_decisions = [None] * len(mentions)
        for j, i in enumerate(idx):
            head_decisions[i] = self.head_decisions[j]
        self.head_decisions = head_decisions
        decisions = [Decision(found[i][0][0], None, "no_candidates", "none") for i in range(len(mentions))]
        heads: list[tuple[str, str] | None] = [None] * len(mentions)
        for j, i in enumerate(idx):
            decisions[i], heads[i] = some[j], some_heads[j]
        return decisions, heads, profile

    def _embedded_decisions(
        self, mentions: Sequence[Mention], found: Sequence[tuple[list[Candidate], str]]
    ) -> tuple[list[Decision], list[tuple[str, str] | None], DomainProfile | None]:
        """Decisions (one per mention), head meanings of custom compounds, and the domain profile.

        Each mention starts from WordNet's sense order (the frequency prior) and moves to another sense only
        when its own context, the pooled contexts of its lemma, the document's domain profile and the
        document's words together clearly favour it (:class:`SenseEvidence`); then one sense per discourse:
        every mention of a lemma takes the sense most of them chose (the first mention's on a tie).
        """
        s = self.settings
        profile = None
        if s.domain_aware:
            profile = DomainProfile.build(
                self.wnet,
                [
                    (m.lookup or m.label, [c.wordnet for c in cands if c.meaning_type == "wordnet"])
                    for m, (cands, _r) in zip(mentions, found)
                    if m.index_type == "subject"
                ],
            )
        contexts: dict[tuple[str, str], list[str]] = defaultdict(list)
        for m in mentions:
            contexts[(m.index_type, m.lookup or m.label)].append(m.context)
        if profile is not None:
            profile.read_document(" ".join(dict.fromkeys(m.context for m in mentions)))
        # Per-section domains (a heading-delimited region with enough nouns), else the document's profile.
        sec_of = [self._sections.get(m.chunk_index, 0) for m in mentions]
        sections = {}
        if profile is not None:
            sections = section_profiles(
                self.wnet,
                profile,
                [
                    (sec, m.lookup or m.label, [c.wordnet for c in cands if c.meaning_type == "wordnet"])
                    for sec, m, (cands, _r) in zip(sec_of, mentions, found)
                    if m.index_type == "subject"
                ],
            )
        evidence: dict[tuple, SenseEvidence | None] = {}
        keys = []
        for m, sec in zip(mentions, sec_of):
            sec = sec if sec in sections else None
            key = (m.index_type, m.lookup or m.label, sec)
            if key not in evidence:
                evidence[key] = self._evidence(sections.get(sec, profile), m, contexts)
            keys.append(key)
        centroid = None
        if self.similarity is not None:
            centroid = self.similarity.attach(
                evidence, mentions, keys, lambda i: [c.wordnet for c in found[i][0] if c.wordnet], self._lead
            )
        decisions = [
            self.chooser.choose(m.text, m.context, cands, evidence=evidence[key])
            for m, (cands, _r), key in zip(mentions, found, keys)
        ]
        if s.one_sense_per_discourse:
            decisions = one_sense_per_discourse(mentions, decisions)
        hkeys = [(m.index_type, m.lookup or m.label, d.candidate.meaning_type) for m, d in zip(mentions, decisions)]
        todo: dict[tuple, tuple | None] = {}  # one head sense per compound lemma (its mentions share the evidence)
        for key, m, d in zip(hkeys, mentions, decisions):
            if key not in todo:
                todo[key] = self._head_evidence(m, d, profile, contexts)
        # One sense per discourse reaches compounds: "additional Python modules" takes the sense "modules" has alone,
        # and has none when "modules" alone abstains (its confidence is below the low_confidence threshold).
        same: dict[tuple, Candidate | None] = {}
        if s.one_sense_per_discourse:
            alone: dict[str, Candidate | None] = {}
            for m, d in zip(mentions, decisions):
                if d.candidate.meaning_type == "wordnet":
                    kept = d.confidence is None or d.confidence >= s.low_confidence
                    lemma = m.lookup or m.label
                    alone[lemma] = d.candidate if kept else alone.get(lemma)
            same = {key: alone[h[0]] for key, h in todo.items() if h and h[0] in alone}
            todo = {key: None if key in same else h for key, h in todo.items()}
        if self.similarity is not None:  # the head's senses against the compound's sentences, one batch
            self.similarity.attach_heads(todo, mentions, hkeys, self._lead, centroid)
        decided: dict[tuple, Decision] = {}
        chosen = {key: self._head_meaning(*h, decided, key) if h else None for key, h in todo.items()}
        self.head_decisions = [decided.get(key) for key in hkeys]
        chosen.update({key: (c.meaning_id, c.gloss) if c else None for key, c in same.items()})
        return decisions, [chosen[key] for key in hkeys], profile

    def _evidence(
        self, profile: DomainProfile | None, m: Mention, contexts: dict[tuple[str, str], list[str]]
    ) -> SenseEvidence | None:
        """The document's evidence for one mention (None without the domain profile: plain Lesk)."""
        if profile is None:
            return None
        lemma = m.lookup or m.label
        pooled = " ".join(contexts[(m.index_type, lemma)][:POOLED_CONTEXTS])
        return SenseEvidence(pooled, self._bonus(profile, lemma), profile.document_tf)

    def _lead(self, mention_text: str, senses: Sequence[Any], evidence: SenseEvidence) -> float:
        """The best sense's lead without the encoder, at the Lesk weights the encoder leaves (sense_vectors.py)."""
        return lead(self.chooser.lesk, mention_text, senses, evidence, 2 * LESK_WEIGHT)

    def _bonus(self, profile: DomainProfile | None, lemma: str):
        if profile is None:
            return None
        return lambda cand: profile.bonus(self.wnet, lemma, cand)

    def _head_evidence(
        self, m: Mention, d: Decision, profile: DomainProfile | None, contexts: dict[tuple[str, str], list[str]]
    ) -> tuple | None:
        """(head, its WordNet candidates, pooled context, evidence) for a compound WordNet lacks, else None."""
        head = None if m.detector == "package_name" else compound_head(m.lookup or m.label)  # "tf-keras-vis": no vis
        if d.candidate.meaning_type != "custom" or m.index_type != "subject" or head is None:
            return None
        cands, _rule = self.finder.find(head, "subject", head, "n")
        wn_c = [c for c in cands if c.meaning_type == "wordnet"]
        ctx = " ".join(contexts[(m.index_type, m.lookup or m.label)][:POOLED_CONTEXTS])
        evidence = None if profile is None else SenseEvidence(ctx, self._bonus(profile, head), profile.document_tf)
        return (head, wn_c, ctx, evidence) if wn_c else None

    def _head_meaning(
        self, head, wn_c, ctx, evidence: SenseEvidence | None, decided: dict | None = None, key: Any = None
    ) -> tuple[str, str] | None:
        """(id, gloss) of the head noun's sense for a compound WordNet lacks ("porcelain crown" → crown)."""
        hd = self.chooser.choose(head, ctx, wn_c, evidence.bonus if evidence else None, evidence=evidence)
        if decided is not None:
            decided[key] = hd
        if hd.candidate.meaning_type != "wordnet" or (hd.confidence or 0.0) < self.settings.low_confidence:
            return None  # a head abstains as its noun alone would ("test suite": no musical composition)
        return hd.candidate.meaning_id, hd.candidate.gloss


# --------------------------------------------------------------------------- names and abstention (issue 51)

#: Characters after which a capital starts a sentence, a list item or a heading rather than marking a name.
_SENTENCE_OPENERS = ".!?:;*#>|•–—-=+\"'"


def written_as_name(text: str, start: int, end: int) -> bool | None:
    """True for a word capitalised where English writes common nouns in lower case (mid-sentence, "built on
    Spark"), False for one in lower case, None where a capital says nothing (a sentence's or a line's first
    word, a line in Title Case or in capitals, a word in capitals)."""
    word = text[start:end]
    if not word[:1].isalpha():
        return None
    if word[:1].islower():
        return False
    words = word.split()
    if word.isupper() or not all(w[:1].isupper() for w in words):
        return None
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    line = text[line_start : len(text) if line_end < 0 else line_end]
    before = text[line_start:start].rstrip()
    if not before or before[-1] in _SENTENCE_OPENERS or line.isupper():
        return None
    longer = [w for w in line.split() if len(w) >= 4 and w[:1].isalpha()]
    if longer and all(w[:1].isupper() for w in longer):  # a heading in Title Case
        return None
    return True


def _named_words(text: str, words: Sequence[str]) -> dict[str, bool]:
    """For each of ``words`` (keyed in lower case): every occurrence in ``text`` (any case, whole words) was
    looked at, some are written as a name and none in lower case.

    One pass over the text's words instead of one scan of the text per word (that was 2.7 s per 150,000
    characters): a word is tried only where a word of the text starts with its first run of word characters;
    each word's own pattern then decides, with its matches taken left to right without overlap as
    ``re.finditer`` takes them. ASCII runs compare in lower case; a non-ASCII word (or text run) is tried
    everywhere (or against every word), since ``re.I`` folds a few letters (ſ, K, İ) that ``str.lower`` does not."""
    patterns: dict[str, re.Pattern] = {}
    by_run: dict[str, list[str]] = {}
    anywhere: list[str] = []
    for word in words:
        key = word.lower()
        if key in patterns:
            continue
        patterns[key] = re.compile(rf"(?<!\w){re.escape(word)}(?!\w)", re.I)
        run = re.match(r"\w*", word).group()
        if run.isascii() and run:
            by_run.setdefault(run.lower(), []).append(key)
        else:
            anywhere.append(key)
    seen: dict[str, set] = {key: set() for key in patterns}
    after: dict[str, int] = dict.fromkeys(patterns, 0)
    for token in re.finditer(r"(?<!\w)\w+", text):
        run = token.group()
        tried = by_run.get(run.lower(), []) + anywhere if run.isascii() else list(patterns)
        pos = token.start()
        for key in tried:
            if pos < after[key]:
                continue
            x = patterns[key].match(text, pos)
            if x is not None:
                seen[key].add(written_as_name(text, x.start(), x.end()))
                after[key] = max(x.end(), pos + 1)
    return {key: True in s and False not in s for key, s in seen.items()}


def abstain(text: str, mentions: Sequence[Mention], decisions: list[Decision], threshold: float) -> list[Decision]:
    """Decisions that keep their mention as a custom meaning instead of a WordNet sense:

    * ``proper_name``: a word the document writes capitalised mid-sentence somewhere and never in lower case,
      whose chosen sense is a common noun ("Transformers", "Spark", "Keras" as libraries): a name, not a sense;
    * ``low_confidence``: a WordNet sense whose confidence is below ``threshold`` (the calibrated probability
      that it is right, :mod:`.calibration`); the row keeps that confidence.
    """
    names = _named_words(text, [m.text for m in mentions if m.text[:1].isupper()])
    out = []
    for m, d in zip(mentions, decisions):
        c = d.candidate
        if c.meaning_type == "wordnet":
            if names.get(m.text.lower()) and (c.label or "")[:1].islower():
                d = Decision(custom_candidate(m.label), None, "proper_name", "none")
            elif d.confidence is not None and d.confidence < threshold:
                d = Decision(custom_candidate(m.label), d.confidence, "low_confidence", d.source, d.features)
        out.append(d)
    return out
