"""Issue 16 items 2–4 on labelled public text (data/README.md has the protocol; the held-out half is never
used to tune). Needs the full WordNet 3.0 (Debian wordnet-base), converted here once for the module.

Measured with the sentence encoder (TEXTGUARD_SENSE_ENCODER=minilm, lib/encoder.py; full WordNet 3.0, held-out
half, n = 134, scored once on the final code; the test prints the current figures): sense accuracy 65.7 % (ours)
vs 58.2 % (first sense) vs 58.2 % (plain Lesk); 61.9 % before the encoder; 65.7 % again after compound heads
read the encoder (scored once more; docs/meanings.md lists the ideas tried on dev and not kept). Ours beats both baselines (asserted),
but the issue's target (≥ 15 points above first sense) is NOT met and stays a strict xfail until it is. Index-worthy coverage 90.0 % (held-out, 36 of 40 nouns, measured once on the final code of
the coverage rounds; 85.0 % before units inside quantities and the compounds a generic noun forms were read,
82.5 % before captions, titles and the pieces of noun chunks): the ≥ 90 % target is asserted.
"""

from pathlib import Path

import pytest

from .sense_eval import TEXTS, coverage, load_labels, load_nouns, score

WNDB = Path("/usr/share/wordnet")
CORPUS = Path("/work/shared/corpus")

pytestmark = [
    pytest.mark.skipif(not (WNDB / "data.noun").is_file(), reason="needs Debian wordnet-base in /usr/share/wordnet"),
    pytest.mark.skipif(not CORPUS.is_dir(), reason="needs the public dev corpus in /work/shared/corpus"),
]


@pytest.fixture(scope="module")
def resolver(tmp_path_factory):
    from textguard_pipeline.meanings.resolver import build_resolver
    from textguard_pipeline.meanings.wordnet_install import install_wordnet, open_wordnet, wn_data_dir
    from textguard_pipeline.settings import MeaningsSettings, restored_environ

    with restored_environ("TEXTGUARD_WN_DATA", "TEXTGUARD_WN_LEXICON", "TEXTGUARD_WN_DOWNLOAD"):
        import os

        os.environ["TEXTGUARD_WN_DATA"] = str(tmp_path_factory.mktemp("wn_full"))
        os.environ["TEXTGUARD_WN_DOWNLOAD"] = "0"
        os.environ.pop("TEXTGUARD_WN_LEXICON", None)
        install_wordnet(wndb_dirs=(str(WNDB),), allow_download=False, log=lambda _m: None)
        open_wordnet.cache_clear()
        yield build_resolver(MeaningsSettings(wikidata_mode="off"))
        open_wordnet.cache_clear()
    wn_data_dir()


@pytest.fixture(scope="module")
def heldout_scores(resolver):
    s = score(resolver, load_labels("heldout"))
    print(f"\nheld-out senses: n={s['n']} ours={s['ours']:.3f} first_sense={s['first_sense']:.3f} lesk={s['lesk']:.3f}")
    return s


def test_labelled_sets_are_real_public_text_with_a_held_out_half():
    labels = load_labels()
    assert len(labels) >= 300 and len({lab.domain for lab in labels}) >= 5
    assert {lab.split for lab in labels} == {"dev", "heldout"}
    assert all(lab.source.is_relative_to(CORPUS) or lab.source.is_relative_to(TEXTS) for lab in labels)
    assert all(lab.source.is_file() for lab in labels)
    nouns = load_nouns()
    assert {r["label"] for r in nouns} == {"index_worthy", "excluded"} and {r["split"] for r in nouns} == {
        "dev",
        "heldout",
    }


def test_held_out_senses_beat_plain_lesk(heldout_scores):
    s = heldout_scores
    assert s["n"] >= 50
    assert s["ours"] > s["lesk"]


def test_held_out_senses_beat_the_first_sense_baseline(heldout_scores):
    assert heldout_scores["ours"] > heldout_scores["first_sense"]


@pytest.mark.xfail(strict=True, reason="issue 16 target not reached: 65.7 % vs 58.2 % first sense (held-out, n = 134)")
def test_held_out_senses_beat_first_sense_by_15_points(heldout_scores):
    assert heldout_scores["ours"] >= heldout_scores["first_sense"] + 0.15


@pytest.fixture(scope="module")
def heldout_coverage(resolver):
    c = coverage(resolver, load_nouns("heldout"))
    print(f"\nheld-out index-worthy coverage {c['coverage']:.3f}; excluded without a row {c['excluded_dropped']:.3f}")
    return c


def test_held_out_excluded_nouns_mostly_get_no_row_of_their_own(heldout_coverage):
    # measured 68.1 % on the final code (70.2 % before units in quantities and compound counts)
    assert heldout_coverage["excluded_dropped"] >= 0.65


def test_held_out_index_worthy_coverage_is_at_least_90_percent(heldout_coverage):
    # issue 16 item 4: measured 90.0 % (36 of 40) on the held-out half
    assert heldout_coverage["coverage"] >= 0.90
