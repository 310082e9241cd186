"""The document's domain, read from the lexicon (issue 16 item 3).

Every noun mention of a document votes for the lexicographer files (``noun.body``, ``noun.artifact`` …)
and topic domains (``domain_topic`` of a sense or of its hypernyms: "dental medicine", "computer
science" …) of its senses, each sense with weight 1 / number of senses, so an unambiguous word ("molar",
"enamel") votes with full weight and a vague one barely counts. A lemma never votes for itself (its own
senses would only reinforce its polysemy). :meth:`DomainProfile.bonus` turns the shares into a score in
the Lesk disambiguator's units, so a sense that fits the document's dominant domains can overtake the
first sense without any context overlap of its own. A topic vote saturates at one other mention, so when
two senses of a lemma both have topics the other nouns vote for, the one with fewer votes also pays the log
of the ratio: in a finance manual whose other nouns vote ≈ 20 for law and ≈ 5 for photography, "register"
is the ledger (law), not the official record of events (which WordNet files under photography). The bonus
also carries the sense's standing in a random walk over WordNet's relations from the document's nouns
(:mod:`.graph`).
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence

from .graph import graph_scores, synset_graph
from .senses import MeaningCandidate, lexicon_cache, stem, tokens
from .wn_tables import tables_for

#: Lexicographer files too broad to say anything about a domain.
_UNINFORMATIVE = frozenset({"noun.Tops"})

#: A gloss that opens with its field: "(computer science) a ...", "(statistics) ...".
_FIELD_MARKER = re.compile(r"\(([a-z][a-z -]{2,40})\)")


def _marker_topic(wnet: Any, definition: str) -> str | None:
    """The synset of the field a gloss opens with ("(computer science) …" → computer science), if WordNet has it:
    about 300 marked senses have no topic link of their own."""
    m = _FIELD_MARKER.match(definition or "")
    if m is None:
        return None
    try:
        fields = wnet.synsets(m.group(1), pos="n")
    except Exception:  # noqa: BLE001 - a lexicon without that lookup: no marker topic
        return None
    return fields[0].id if fields else None


def sense_domains(wnet: Any, meaning_id: str) -> tuple[str | None, frozenset[str]]:
    """(lexicographer file, topic domains of the sense and of its two nearest hypernym levels, and the field its
    gloss is marked for); cached."""
    cache = lexicon_cache(wnet, "sense_domains")
    hit = cache.get(meaning_id)
    if hit is not None:
        return hit
    tables = tables_for(wnet)
    if tables is not None and meaning_id in tables:  # the same walk on the bulk tables, no query
        definition = tables.definition(meaning_id)
        marker = _marker_topic(wnet, definition or "")
        topics = {marker} if marker else set()
        level = [meaning_id]
        for _depth in range(3):
            nxt = []
            for s in level:
                topics.update(tables.related(s, "domain_topic"))
                nxt.extend(tables.hypernyms(s))
            level = nxt
        lexfile = tables.lexfile(meaning_id)
        cache[meaning_id] = (None if lexfile in _UNINFORMATIVE else lexfile, frozenset(topics))
        return cache[meaning_id]
    try:
        ss = wnet.synset(meaning_id)
    except Exception:  # noqa: BLE001 - an id of another lexicon: no domain information
        cache[meaning_id] = (None, frozenset())
        return cache[meaning_id]
    topics: set[str] = set()
    definition = getattr(ss, "definition", None)  # a test double may have none
    marker = _marker_topic(wnet, definition() or "") if definition else None
    if marker:
        topics.add(marker)
    level = [ss]
    for _depth in range(3):
        nxt = []
        for s in level:
            topics.update(d.id for d in s.get_related("domain_topic"))
            nxt.extend(s.hypernyms())
        level = nxt
    lexfile = ss.lexfile()
    cache[meaning_id] = (None if lexfile in _UNINFORMATIVE else lexfile, frozenset(topics))
    return cache[meaning_id]


@dataclass
class DomainProfile:
    """Votes for lexicographer files and topic domains, per voting lemma (so one can be left out)."""

    lexfiles: Counter = field(default_factory=Counter)
    topics: Counter = field(default_factory=Counter)
    by_lemma: dict[str, tuple[Counter, Counter]] = field(default_factory=dict)
    lexfile_weight: float = 3.0
    topic_weight: float = 3.0
    #: lemma → meaning id → ln(graph rank / the lemma's best), see :func:`.graph.graph_scores`
    graph: dict = field(default_factory=dict)
    #: per unit of ln rank ratio; the resolver doubles the whole bonus (``SenseEvidence.domain_weight``)
    graph_weight: float = 0.25
    #: per unit of ln(votes for the sense's topics / votes for the best-voted topic among its lemma's senses)
    topic_rivalry: float = 1.0
    #: lemma → its WordNet meaning ids (the rivals of each sense)
    senses_of: dict = field(default_factory=dict)
    #: stem → frequency over the document's words (the document-overlap evidence)
    document_tf: dict = field(default_factory=dict)

    @classmethod
    def build(
        cls, wnet: Any, mentions: Iterable[tuple[str, Sequence[MeaningCandidate]]], **weights: float
    ) -> "DomainProfile":
        """``mentions``: (lemma, its WordNet senses) for every noun mention; repeats count once per mention."""
        prof = cls(**weights)
        per: dict[str, tuple[Counter, Counter]] = defaultdict(lambda: (Counter(), Counter()))
        senses_of: dict[str, list[str]] = {}
        for lemma, senses in mentions:
            if not senses:
                continue
            if lemma not in senses_of:  # a lemma's senses are the same at each of its mentions
                senses_of[lemma] = [c.meaning_id for c in senses]
            w = 1.0 / len(senses)
            lex, top = per[lemma]
            for c in senses:
                lexfile, topics = sense_domains(wnet, c.meaning_id)
                if lexfile:
                    lex[lexfile] += w
                for t in topics:
                    top[t] += w
        for lex, top in per.values():
            prof.lexfiles.update(lex)
            prof.topics.update(top)
        prof.by_lemma = dict(per)
        prof.senses_of = senses_of
        if prof.graph_weight and len(senses_of) > 1:
            prof.graph = graph_scores(synset_graph(wnet), senses_of)
        return prof

    def read_document(self, text: str) -> "DomainProfile":
        """Count the document's word stems (for the document-overlap evidence)."""
        self.document_tf = dict(Counter(map(stem, tokens(text))))
        return self

    def dominant(self, n: int = 3) -> list[str]:
        return [k for k, _v in self.lexfiles.most_common(n)]

    def bonus(self, wnet: Any, lemma: str, candidate: MeaningCandidate) -> float:
        """Score added to the candidate: its lexfile's and topics' shares of the votes of the *other* lemmas."""
        own_lex, own_top = self.by_lemma.get(lemma, (Counter(), Counter()))
        lexfile, topics = sense_domains(wnet, candidate.meaning_id)
        total = sum(self.lexfiles.values()) - sum(own_lex.values())
        score = 0.0
        if lexfile and total > 0:
            top = max((v - own_lex.get(k, 0.0) for k, v in self.lexfiles.items()), default=0.0)
            mine = self.lexfiles.get(lexfile, 0.0) - own_lex.get(lexfile, 0.0)
            if top > 0:
                score += self.lexfile_weight * mine / top
        if topics:
            best = self._topic_votes(topics, own_top)
            # One other mention in the same topic (a full vote) is already strong evidence.
            score += self.topic_weight * min(1.0, best)
            rival = max(
                (self._topic_votes(sense_domains(wnet, m)[1], own_top) for m in self.senses_of.get(lemma, ())),
                default=0.0,
            )
            if best > 0 and rival > best:
                score += self.topic_weight * self.topic_rivalry * math.log(best / rival)
        return score + self.graph_weight * self.graph.get(lemma, {}).get(candidate.meaning_id, 0.0)

    def _topic_votes(self, topics: Iterable[str], own_top: Counter) -> float:
        """The other lemmas' votes for the best-voted of ``topics``."""
        return max((self.topics.get(t, 0.0) - own_top.get(t, 0.0) for t in topics), default=0.0)


#: A heading chunk: Markdown ``#`` headings, LaTeX sectioning commands.
_HEADING = re.compile(r"^\s*(?:#{1,6}\s|\\(?:part|chapter|(?:sub)*section|paragraph)\*?\{)")

#: A section needs this many noun mentions for a profile of its own; smaller ones use the document's.
SECTION_MIN_MENTIONS = 40


def section_ids(chunks: Sequence[Any]) -> dict[int, int]:
    """chunk index → section number (a heading-delimited region; 0 before the first heading)."""
    out, n = {}, 0
    for c in chunks:
        if c.chunk_type != "prose" and _HEADING.match(c.text or ""):
            n += 1
        out[c.index] = n
    return out


def section_profiles(
    wnet: Any,
    document: DomainProfile,
    mentions: Sequence[tuple[int, str, Sequence[MeaningCandidate]]],
    min_mentions: int = SECTION_MIN_MENTIONS,
) -> dict[int, DomainProfile]:
    """Profiles of the sections with ≥ ``min_mentions`` noun mentions (section, lemma, senses); the others
    fall back to ``document``. Each shares the document's word counts."""
    by_section: dict[int, list] = defaultdict(list)
    for sec, lemma, senses in mentions:
        by_section[sec].append((lemma, senses))
    if len(by_section) < 2:
        return {}
    out = {}
    for sec, items in by_section.items():
        if len(items) >= min_mentions:
            prof = DomainProfile.build(
                wnet,
                items,
                lexfile_weight=document.lexfile_weight,
                topic_weight=document.topic_weight,
                graph_weight=document.graph_weight,
                topic_rivalry=document.topic_rivalry,
            )
            prof.document_tf = document.document_tf
            out[sec] = prof
    return out
