"""The random walk over WordNet's synset graph (issue 16 item 3), on small graphs whose answer is known."""

import math

import numpy as np

from textguard_pipeline.meanings import graph as G
from textguard_pipeline.meanings.domains import DomainProfile
from textguard_pipeline.meanings.senses import MeaningCandidate


def _graph(ids, pairs):
    """Undirected: wn stores both directions of a relation, so the test graph does too."""
    index = {s: i for i, s in enumerate(ids)}
    edges = [(index[a], index[b]) for a, b in pairs] + [(index[b], index[a]) for a, b in pairs]
    return G.SynsetGraph(ids, np.array(edges))


# "crown": a dental sense next to "molar" and "enamel" through "tooth", a royal one next to "king".
IDS = ["crown-dental", "crown-royal", "tooth", "molar", "enamel", "king", "monarch"]
PAIRS = [
    ("crown-dental", "tooth"),
    ("molar", "tooth"),
    ("enamel", "tooth"),
    ("crown-royal", "monarch"),
    ("king", "monarch"),
]


def test_the_sense_the_other_nouns_reach_ranks_best():
    g = _graph(IDS, PAIRS)
    scores = G.graph_scores(g, {"crown": ["crown-royal", "crown-dental"], "molar": ["molar"], "enamel": ["enamel"]})
    assert scores["crown"]["crown-dental"] == 0.0
    assert scores["crown"]["crown-royal"] < -1.0
    assert set(scores) == {"crown"}  # a noun with one sense has nothing to choose
    royal = G.graph_scores(g, {"crown": ["crown-royal", "crown-dental"], "king": ["king"]})
    assert royal["crown"]["crown-royal"] == 0.0 and royal["crown"]["crown-dental"] < -1.0


def test_a_lone_noun_or_no_graph_gives_no_evidence():
    g = _graph(IDS, PAIRS)
    assert G.graph_scores(g, {"crown": ["crown-royal", "crown-dental"]}) == {}
    assert G.graph_scores(None, {"crown": ["crown-royal"], "molar": ["molar"]}) == {}


def test_a_sense_far_from_the_document_is_floored_not_ruled_out():
    # "island" has no relation at all: all it holds is its own lemma's restart weight, which does not count
    g = _graph(IDS + ["island"], PAIRS)
    scores = G.graph_scores(g, {"crown": ["crown-dental", "island"], "molar": ["molar"]})
    assert scores["crown"]["island"] == G.MIN_LOG_RATIO
    assert math.isfinite(scores["crown"]["island"])


def test_the_walk_is_a_probability_distribution():
    g = _graph(IDS, PAIRS)
    restart = np.zeros(g.size)
    restart[g.index["molar"]] = 1.0
    ranks = g.rank(restart)
    assert abs(ranks.sum() - 1.0) < 1e-9 and ranks.min() >= 0.0
    assert ranks[g.index["tooth"]] > ranks[g.index["crown-dental"]] > ranks[g.index["king"]] == 0.0


def test_the_domain_bonus_carries_the_graph_score():
    prof = DomainProfile(graph={"crown": {"crown-royal": -2.0, "crown-dental": 0.0}})
    royal = MeaningCandidate("crown-royal", "crown", "a royal headdress", "n", 1)
    dental = MeaningCandidate("crown-dental", "crown", "a dental cap", "n", 2)
    # the lexicon knows neither sense (no lexicographer file, no topic): only the graph speaks
    bonuses = prof.bonus(_NoLexicon(), "crown", royal), prof.bonus(_NoLexicon(), "crown", dental)
    assert bonuses == (prof.graph_weight * -2.0, 0.0)


class _NoLexicon:
    def synset(self, _id):
        raise KeyError(_id)
