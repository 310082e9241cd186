"""The learned sense ranker (meanings/ranker.py): its features, its fit, its file."""

from __future__ import annotations

import numpy as np
import pytest

from textguard_pipeline.meanings import ranker as rk
from textguard_pipeline.meanings.sense_counts import counts_for
from textguard_pipeline.meanings.senses import LeskDisambiguator, wordnet_candidates
from textguard_pipeline_tests.meanings._wordnet_mini import mini_wordnet

K, M = len(rk.SENSE_FEATURES), len(rk.NONE_FEATURES)


def _options(rng, n: int, gold: int | None) -> rk.Options:
    """Random options where the gold sense has the highest 'lesk'; a 'none' gold has the capital set."""
    senses = rng.normal(0, 1, (n, K))
    none = np.zeros(M)
    none[0] = 1.0
    if gold is None:
        none[rk.NONE_FEATURES.index("capitalised")] = 1.0
    else:
        senses[gold, rk.SENSE_FEATURES.index("lesk")] = senses[:, rk.SENSE_FEATURES.index("lesk")].max() + 1.0
    return rk.Options([f"s{i}" for i in range(n)], senses, none)


def _rows(rng, count: int, max_n: int) -> list:
    """``count`` training rows of 2 to ``max_n - 1`` senses, every fourth one's gold "none"."""
    rows = []
    for i in range(count):
        n = int(rng.integers(2, max_n))
        gold = None if i % 4 == 0 else int(rng.integers(0, n))
        rows.append((_options(rng, n, gold), n if gold is None else gold))
    return rows


def test_the_conditional_logit_learns_which_feature_marks_the_gold_sense_and_when_none_fits():
    rng = np.random.default_rng(7)
    rows = _rows(rng, 500, 6)  # 29 noise columns: enough rows that noise does not outvote the capital
    w = rk.fit_logit(rows)
    sense_w, none_w = rk.split_weights(w)
    ranker = rk.SenseRanker(sense_w, none_w, (0.0, 1.0), (0.0, 1.0))
    assert sense_w[rk.SENSE_FEATURES.index("lesk")] > 1.0
    assert none_w[rk.NONE_FEATURES.index("capitalised")] > 1.0
    fresh = [(_options(rng, 4, g), g) for g in (0, 1, 2, 3, None)]
    for opts, g in fresh:
        p = ranker.probabilities(opts)
        assert int(np.argmax(p)) == (4 if g is None else g)
    assert abs(ranker.probabilities(fresh[0][0]).sum() - 1.0) < 1e-9


def test_a_ranker_file_with_other_features_or_falling_knots_is_refused():
    good = rk.SenseRanker((0.0,) * K, (0.0,) * M, (0.1, 0.5), (0.2, 0.6), "test").as_json()
    assert rk.SenseRanker.from_json(good).knots_y == (0.2, 0.6)
    with pytest.raises(ValueError, match="features"):
        rk.SenseRanker.from_json({**good, "sense_features": ["lesk"]})
    with pytest.raises(ValueError, match="monotone"):
        rk.SenseRanker.from_json({**good, "isotonic": {"x": [0.1, 0.5], "y": [0.6, 0.2]}})
    assert rk.load_ranker("/nonexistent/sense_ranker.json") is None


def test_each_sense_carries_its_semcor_share_and_rank_and_the_none_option_the_lemmas_evidence(tmp_path):
    with mini_wordnet(str(tmp_path)) as wnet:
        senses = wordnet_candidates(wnet, "bank", "n")
        lesk = LeskDisambiguator(wnet)
        opts = rk.option_features(lesk, "bank", "the bank approved the loan", senses, None, counts_for(wnet))
        bare = rk.option_features(lesk, "Bank", "the bank approved the loan", senses, None, None)
    col = {name: i for i, name in enumerate(rk.SENSE_FEATURES)}
    share = opts.senses[:, col["log_share"]]
    assert opts.ids == [c.meaning_id for c in senses]
    assert share[0] > share[1] > share[-1]  # 25 and 20 SemCor tags, then few or none
    assert opts.senses[0, col["first"]] == 1.0 and opts.senses[1:, col["first"]].sum() == 0.0
    assert opts.senses[0, col["untagged"]] == 0.0 and opts.senses[-1, col["untagged"]] == 1.0
    assert list(opts.senses[:, col["log_rank"]]) == sorted(opts.senses[:, col["log_rank"]])
    none = dict(zip(rk.NONE_FEATURES, opts.none))
    assert none["none_bias"] == 1.0 and none["single"] == 0.0 and none["lemma_untagged"] == 0.0
    assert none["capitalised"] == 0.0 and dict(zip(rk.NONE_FEATURES, bare.none))["capitalised"] == 1.0
    # without counts (an old install) every sense has the same share: the rank alone orders them
    assert len(set(bare.senses[:, col["log_share"]])) == 1 and bare.senses[:, col["untagged"]].sum() == 0.0


def test_the_shipped_ranker_loads_says_what_it_was_fitted_on_and_its_confidence_never_falls():
    ranker = rk.load_ranker()
    assert ranker is not None and "dev half" in ranker.fitted_on
    assert list(ranker.knots_x) == sorted(ranker.knots_x) and list(ranker.knots_y) == sorted(ranker.knots_y)
    ps = [ranker.calibrated(p) for p in np.linspace(0, 1, 41)]
    assert ps == sorted(ps) and 0.0 <= ps[0] and ps[-1] <= 1.0


def test_the_embedded_chooser_lets_the_shipped_ranker_choose_and_keeps_every_options_features(tmp_path):
    from textguard_pipeline.meanings.candidates import Candidate
    from textguard_pipeline.meanings.choose import EmbeddedChooser

    with mini_wordnet(str(tmp_path)) as wnet:
        chooser = EmbeddedChooser(wnet)
        assert chooser.ranker is rk.load_ranker()
        senses = wordnet_candidates(wnet, "bank", "n")
        cands = [Candidate("wordnet", c.meaning_id, c.lemma, c.gloss, c.sense_rank, c) for c in senses]
        d = chooser.choose("bank", "the bank approved the loan and the deposit", cands)
        assert d.ranking is not None and d.ranking.ids == [c.meaning_id for c in senses]
        p = chooser.ranker.probabilities(d.ranking)
        assert d.candidate.meaning_id == d.ranking.ids[int(np.argmax(p[:-1]))]
        assert d.confidence == chooser.ranker.calibrated(float(p[:-1].max()))
        off = EmbeddedChooser(wnet, ranker=None).choose("bank", "the bank approved the loan", cands)
        assert off.ranking is None and off.reason_code != "ranked"


def test_a_ranker_file_that_predates_a_feature_loads_with_that_feature_weighing_nothing():
    full = rk.SenseRanker(tuple(range(1, K + 1)), tuple(range(1, M + 1)), (0.1, 0.5), (0.2, 0.6), "test").as_json()
    old = {**full, "none_features": full["none_features"][:-1], "none_weights": full["none_weights"][:-1]}
    got = rk.SenseRanker.from_json(old)
    assert got.none_weights == tuple(float(v) for v in range(1, M)) + (0.0,)
    assert got.sense_weights == tuple(float(v) for v in range(1, K + 1))
    with pytest.raises(ValueError, match="differ in length"):
        rk.SenseRanker.from_json({**full, "none_weights": full["none_weights"][:-1]})


def test_a_fit_from_fixed_weights_learns_only_the_free_ones():
    rng = np.random.default_rng(11)
    rows = _rows(rng, 200, 5)
    fixed = np.full(K + M, np.nan)
    fixed[: rk.SENSE_FEATURES.index("lesk")] = 0.25  # kept as given
    w = rk.fit_logit(rows, fixed=fixed)
    kept = ~np.isnan(fixed)
    assert np.all(w[kept] == 0.25)
    assert w[rk.SENSE_FEATURES.index("lesk")] > 1.0  # the free weight still learns the gold sense's mark
    assert w[K + rk.NONE_FEATURES.index("capitalised")] > 1.0


def test_the_documents_field_is_centred_over_the_lemmas_senses_and_its_best_cosine_joins_the_none_option(tmp_path):
    from textguard_pipeline.meanings.senses import SenseEvidence

    with mini_wordnet(str(tmp_path)) as wnet:
        senses = wordnet_candidates(wnet, "bank", "n")
        lesk = LeskDisambiguator(wnet)
        field = {c.meaning_id: 0.1 * i for i, c in enumerate(senses)}
        ev = SenseEvidence("the bank approved the loan", field=field)
        opts = rk.option_features(lesk, "bank", "the bank approved the loan", senses, ev, None)
        bare = rk.option_features(lesk, "bank", "the bank approved the loan", senses, SenseEvidence("x"), None)
        one = rk.option_features(
            lesk, "bank", "x", senses[:1], SenseEvidence("x", field={senses[0].meaning_id: 0.3}), None
        )
    col = {name: i for i, name in enumerate(rk.SENSE_FEATURES)}
    centred = opts.senses[:, col["field_cos"]]
    assert abs(centred.sum()) < 1e-9 and list(np.argsort(centred)) == list(range(len(senses)))
    assert opts.senses[-1, col["field_gap"]] == 0.0 and opts.senses[0, col["field_gap"]] < 0
    none = dict(zip(rk.NONE_FEATURES, opts.none))
    assert none["fielded"] == 1.0 and abs(none["best_field"] - 0.1 * (len(senses) - 1)) < 1e-9
    # no centroid (no encoder, nothing encoded): the field weighs nothing either way
    assert not bare.senses[:, [col["field_cos"], col["field_gap"]]].any()
    assert dict(zip(rk.NONE_FEATURES, bare.none))["fielded"] == 0.0
    # one sense: its centred cosine is 0, its raw cosine reaches the none option (a field it does not fit)
    assert one.senses[0, col["field_cos"]] == 0.0 and dict(zip(rk.NONE_FEATURES, one.none))["best_field"] == 0.3
