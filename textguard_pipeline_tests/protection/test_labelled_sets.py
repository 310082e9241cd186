"""Issue 15: recall and precision on the held-out half of the labelled citation and number sets."""

import pytest

from textguard_pipeline.protection import TermProtectionConfig, TermProtector
from textguard_pipeline.protection.recognizers.ner import keep_entity

from . import citation_styles_set, number_recall_set, number_set
from .scoring import score


def held_out_score(protector, labelled, kind: str, name: str):
    """The score on ``labelled``'s held-out half, printed with the tune half's and every held-out miss."""
    tune, held = labelled.split()
    s = score(protector, held, kind)
    print(f"\n{name}, held-out ({len(held)} examples): {s}; tune ({len(tune)}): {score(protector, tune, kind)}")
    for m in s.misses:
        print("  miss:", m)
    return s


@pytest.fixture(scope="module")
def citations_only():
    return TermProtector(TermProtectionConfig(use_ner=False, protect_numbers=False, protect_markup=False))


def test_citation_styles_set_is_large_varied_and_split():
    ex = citation_styles_set.EXAMPLES
    tune, held = citation_styles_set.split()
    assert len(ex) >= 250 and len(tune) + len(held) == len(ex) and min(len(tune), len(held)) >= 0.4 * len(ex)
    assert sum(1 for *_, g in ex if not g) >= 50  # negatives: look-alikes, reference-list lines
    origins = {o.split(":")[1].split("-")[0] for o, *_ in ex if o.startswith("pypi:")}
    assert {"astropy", "colossus", "gala", "statsmodels", "pingouin", "linearmodels"} <= origins


def test_citation_styles_held_out_recall_and_precision(citations_only):
    s = held_out_score(citations_only, citation_styles_set, "citation", "citation styles")
    assert s.precision >= 0.97 and s.recall >= 0.97


def test_no_look_alike_is_protected_as_a_citation(citations_only):
    """Every negative of the set (both halves): versions, dates, products, events, rooms, addresses."""
    wrong = [
        (o, [t.original for t in citations_only.protect_text(text).terms])
        for o, text, gold in citation_styles_set.EXAMPLES
        if not gold and citations_only.protect_text(text).terms
    ]
    assert wrong == []


@pytest.fixture(scope="module")
def numbers_only():
    return TermProtector(TermProtectionConfig(use_ner=False, protect_citations=False, protect_markup=False))


def test_number_set_is_large_and_split():
    tune, held = number_set.split()
    assert len(number_set.EXAMPLES) >= 150 and min(len(tune), len(held)) >= 0.4 * len(number_set.EXAMPLES)
    assert sum(1 for *_, g in number_set.EXAMPLES if not g) >= 40  # versions, section numbers, dates, years


def test_numbers_held_out_recall_and_precision(numbers_only):
    s = held_out_score(numbers_only, number_set, "number", "numbers")
    assert s.precision >= 0.95 and s.recall >= 0.95


@pytest.mark.parametrize(
    "text,spans",
    [
        ("it improved by 20-45% and 20%–45% with 0.85–0.92 F1", ["20-45%", "20%–45%", "0.85–0.92"]),
        (
            "scores of 12.31 ± 0.40 and 12.31 \\pm 0.40 and 85.2 ± 1.3%",
            ["12.31 ± 0.40", "12.31 \\pm 0.40", "85.2 ± 1.3%"],
        ),
        ("significant (p = 0.31, p < .05, P < 0.001)", ["p = 0.31", "p < .05", "P < 0.001"]),
        (
            "batch size 32, 50000 samples, 10 epochs, dropout 0.1, temperature 0.7, a 3:1 split",
            ["32", "50000", "10", "0.1", "0.7", "3:1"],
        ),
        (
            "a learning rate of 3e-4, weight decay = 0.01, top-k 50 and top-p 0.9 for 100k steps",
            ["3e-4", "0.01", "50", "0.9", "100k"],
        ),
        ("Python 3.11 was released on 2022-10-24; Section 4.2 and version 2.1.0; call 555-1234 at 10:30", []),
    ],
)
def test_issue_15_number_forms(numbers_only, text, spans):
    pc = numbers_only.protect_text(text)
    assert numbers_only.restore(pc.protected_text, pc) == text
    assert [t.original for t in pc.terms] == spans


def test_numbers_fresh_held_out_known_level(numbers_only):
    """The earlier fresh set of ML-library docstrings (gold brought to the revised protocol, see number_set.py;
    its tuning half was studied for the revision, so this is no longer a clean held-out figure)."""
    s = score(numbers_only, number_set.FRESH_HELD_OUT, "number")
    print(f"\nnumbers, fresh set ({len(number_set.FRESH_HELD_OUT)} examples): {s}")
    assert len(number_set.FRESH_HELD_OUT) >= 100
    assert s.precision >= 0.95 and s.recall >= 0.95


def test_number_recall_set_is_large_varied_and_split():
    ex = number_recall_set.EXAMPLES
    tune, held = number_recall_set.split()
    assert len(ex) >= 150 and len(tune) + len(held) == len(ex) and min(len(tune), len(held)) >= 0.4 * len(ex)
    assert sum(1 for *_, g in ex if not g) >= 60  # versions, sections, dates, ports, copyright lines, code
    assert not {t for _, t, _ in tune} & {t for _, t, _ in held}
    origins = {o.split(":")[1].split("-")[0] for o, *_ in ex if o.startswith("pypi:")}
    assert {"transformers", "scikit_learn", "keras", "torchvision", "datasets", "nltk"} <= origins
    assert any(o.startswith("deb:") for o, *_ in ex)


def test_number_recall_held_out_recall_and_precision(numbers_only):
    """The clean held-out half (labelled before any rule ran on it, never used to tune)."""
    s = held_out_score(numbers_only, number_recall_set, "number", "number recall set")
    assert s.precision >= 0.95 and s.recall >= 0.95


@pytest.mark.parametrize(
    "text,spans",
    [
        ("pipe(prompt, num_inference_steps=50, guidance_scale=7.5)", ["50", "7.5"]),
        ("an accuracy of 97--98\\% (LaTeX's en dash), not -98%", ["97--98\\%", "-98%"]),
        ("yolo train imgsz=640 epochs=100 batch=16", ["640", "100", "16"]),
        ("python train.py --batch-size 32 --lr 3e-4 --max-pack-size=8g", ["32", "3e-4", "8g"]),
        (
            'Set lr=3e-4 and warmup_ratio: 0.1; `retention_ratio` is 0.2; config["seed"] = 123',
            ["3e-4", "0.1", "0.2", "123"],
        ),
        ("The dropout probability; defaults to 0.5. Default is ``-1``. [default: 100]", ["0.5", "-1", "100"]),
        (
            "We report 85.9 ± 0.9 accuracy, 12 ms ± 3 ms latency, and shifts in [+20%, -5%].",
            ["85.9 ± 0.9", "12 ms ± 3 ms", "+20%", "-5%"],
        ),
        # look-alikes: versions, sections, lines, dates, ports, hosts, pids, paths, strings, arithmetic, math
        ("Requires Python 3.11 or numpy>=1.24; see Section 4.2 and line 42 of setup.py.", []),
        ("Released on 2022-10-24; listen on port 8080 or --port 8080 or --host 0.0.0.0 or --inspect=9222.", []),
        ("Run with --name exp-3 --data /data/2024/train --resume checkpoint-500 --pid=2479 --test-shard=1/3.", []),
        ("python_requires='>=3.8', version='2.1.0', __version__ = '1.2'; .. versionchanged:: 1.10", []),
        ("x = 2 and t_max = 8 - 4 - 6 while max_l * p > 1 and d = 1 + k; cmd 2>&1", []),
        ("see https://huggingface.co/papers/1910.07467 for the mean and doi:10.1162/coli.07 for the error", []),
    ],
)
def test_settings_written_as_code_and_their_look_alikes(numbers_only, text, spans):
    pc = numbers_only.protect_text(text)
    assert numbers_only.restore(pc.protected_text, pc) == text
    assert [t.original for t in pc.terms] == spans


@pytest.mark.parametrize(
    "text,spans",
    [
        ("as noted (Smith, n.d.; Jones, in press) and (Lee n.d.)", ["(Smith, n.d.; Jones, in press)", "(Lee n.d.)"]),
        ("The estimator of Mancl and DeRouen (Biometrics, 2001) is used.", ["Mancl and DeRouen (Biometrics, 2001)"]),
        ("as in Smith et al. (Phys. Rev. D, 2019).", ["Smith et al. (Phys. Rev. D, 2019)"]),
        (
            "(American Psychological Association, 2020), (Biometrics, 2001) and (National Research Council, 2012; Li, 2010)",
            [
                "(American Psychological Association, 2020)",
                "(Biometrics, 2001)",
                "(National Research Council, 2012; Li, 2010)",
            ],
        ),
        ("Smith and Lee (June, 2020) met; Table 3 (Section, 2014); (Windows, 2000); the (no year) note", []),
    ],
)
def test_citation_forms_without_a_year_number_or_with_a_journal(citations_only, text, spans):
    pc = citations_only.protect_text(text)
    assert citations_only.restore(pc.protected_text, pc) == text
    assert [t.original for t in pc.terms] == spans


def test_a_number_is_no_named_entity():
    """spaCy may read ``0.9`` in ``85.9 ± 0.9`` as an ORG; NER runs before numbers and would cut the expression."""
    assert not keep_entity("0.9", "ORG") and not keep_entity("85.9 ± 0.9", "ORG") and keep_entity("IBM", "ORG")
