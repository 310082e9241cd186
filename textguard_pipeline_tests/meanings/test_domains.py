"""Domain profiles (issue 16 item 3): per-section profiles, and the rivalry between voted topics."""

import math

import pytest

from textguard_pipeline.core.pipeline import parse_chunks
from textguard_pipeline.meanings.domains import DomainProfile, section_ids, section_profiles
from textguard_pipeline.meanings.senses import MeaningCandidate


def test_sections_are_heading_delimited_regions_in_markdown_and_latex():
    md = "Intro text here.\n\n# Teeth\n\nThe molar has enamel.\n\n## Gums\n\nThe gum bleeds.\n"
    chunks = parse_chunks(md, "md")
    sec = section_ids(chunks)
    by_text = {c.text.strip(): sec[c.index] for c in chunks if c.chunk_type == "prose"}
    assert by_text["Intro text here."] == 0
    assert by_text["The molar has enamel."] == 1
    assert by_text["The gum bleeds."] == 2
    tex = "Before.\n\n\\section{Circuits}\n\nA resistor and a capacitor.\n"
    chunks = parse_chunks(tex, "tex")
    sec = section_ids(chunks)
    assert max(sec.values()) == 1


def test_small_sections_fall_back_to_the_document_profile():
    doc = DomainProfile()
    assert section_profiles(None, doc, [(0, "molar", []), (1, "gum", [])], min_mentions=40) == {}


class _Topic:
    def __init__(self, id_):
        self.id = id_


class _Synset:
    def __init__(self, lexfile, topics):
        self._lexfile, self._topics = lexfile, topics

    def get_related(self, relation):
        return [_Topic(t) for t in self._topics] if relation == "domain_topic" else []

    def hypernyms(self):
        return []

    def lexfile(self):
        return self._lexfile


class _TopicLexicon:
    """Senses with a lexicographer file and topics, nothing else (no graph)."""

    SYNSETS = {
        "option-finance": _Synset("noun.possession", ["law"]),
        "option-computing": _Synset("noun.cognition", ["computing"]),
        "option-plain": _Synset("noun.act", []),
        "server": _Synset("noun.artifact", ["computing"]),
        "statute": _Synset("noun.communication", ["law"]),
    }

    def synset(self, id_):
        return self.SYNSETS[id_]


def _c(id_, lemma, rank=1):
    return MeaningCandidate(id_, lemma, id_, "n", rank)


def _option_profile(n_server: int, **weights) -> DomainProfile:
    option = [_c("option-finance", "option", 1), _c("option-computing", "option", 2), _c("option-plain", "option", 3)]
    mentions = [("option", option)] + [("server", [_c("server", "server")])] * n_server
    mentions.append(("statute", [_c("statute", "statute")]))
    return DomainProfile.build(_TopicLexicon(), mentions, graph_weight=0.0, **weights)


def test_of_two_senses_with_voted_topics_the_less_voted_one_pays_the_log_ratio():
    lex = _TopicLexicon()
    prof = _option_profile(4)  # computing: 4 votes, law: 1
    fin, comp = (prof.bonus(lex, "option", _c(m, "option")) for m in ("option-finance", "option-computing"))
    flat = _option_profile(4, topic_rivalry=0.0)
    fin0, comp0 = (flat.bonus(lex, "option", _c(m, "option")) for m in ("option-finance", "option-computing"))
    # Without the rivalry both topic votes saturate at one mention; with it, law pays ln(1 / 4).
    assert fin - fin0 == pytest.approx(prof.topic_weight * math.log(1 / 4))
    assert comp == comp0
    # a sense without a topic, and a sense whose topic no rival outvotes, are left as they were
    assert prof.bonus(lex, "option", _c("option-plain", "option")) == flat.bonus(
        lex, "option", _c("option-plain", "option")
    )
    even = _option_profile(1)
    assert even.bonus(lex, "option", _c("option-finance", "option")) == _option_profile(1, topic_rivalry=0.0).bonus(
        lex, "option", _c("option-finance", "option")
    )
