"""Issue 15: recall and precision on the held-out half of the labelled citation and number sets."""

import pytest

from textguard_pipeline.protection import TermProtectionConfig, TermProtector

from . import citation_styles_set, number_set
from .scoring import score


@pytest.fixture(scope="module")
def citations_only():
    return TermProtector(TermProtectionConfig(use_ner=False, protect_numbers=False))


def test_citation_styles_set_is_large_varied_and_split():
    ex = citation_styles_set.EXAMPLES
    tune, held = citation_styles_set.split()
    assert len(ex) >= 250 and len(tune) + len(held) == len(ex) and min(len(tune), len(held)) >= 0.4 * len(ex)
    assert sum(1 for *_, g in ex if not g) >= 50  # negatives: look-alikes, reference-list lines
    origins = {o.split(":")[1].split("-")[0] for o, *_ in ex if o.startswith("pypi:")}
    assert {"astropy", "colossus", "gala", "statsmodels", "pingouin", "linearmodels"} <= origins


def test_citation_styles_held_out_recall_and_precision(citations_only):
    tune, held = citation_styles_set.split()
    s = score(citations_only, held, "citation")
    print(
        f"\ncitation styles, held-out ({len(held)} examples): {s}; "
        f"tune ({len(tune)}): {score(citations_only, tune, 'citation')}"
    )
    for m in s.misses:
        print("  miss:", m)
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
    return TermProtector(TermProtectionConfig(use_ner=False, protect_citations=False))


def test_number_set_is_large_and_split():
    tune, held = number_set.split()
    assert len(number_set.EXAMPLES) >= 150 and min(len(tune), len(held)) >= 0.4 * len(number_set.EXAMPLES)
    assert sum(1 for *_, g in number_set.EXAMPLES if not g) >= 40  # versions, section numbers, dates, years


def test_numbers_held_out_recall_and_precision(numbers_only):
    tune, held = number_set.split()
    s = score(numbers_only, held, "number")
    tuned = score(numbers_only, tune, "number")
    print(f"\nnumbers, held-out ({len(held)} examples): {s}; tune ({len(tune)}): {tuned}")
    for m in s.misses:
        print("  miss:", m)
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
    """A clean held-out set of ML-library docstrings (code-like settings: ``imgsz=640 epochs=100``,
    ``retention_ratio is 0.2``). Measured below the 95 % goal (see the report); this keeps the level
    from dropping while the remaining conventions are added."""
    s = score(numbers_only, number_set.FRESH_HELD_OUT, "number")
    print(f"\nnumbers, fresh held-out ({len(number_set.FRESH_HELD_OUT)} examples): {s}")
    assert len(number_set.FRESH_HELD_OUT) >= 100
    assert s.precision >= 0.85 and s.recall >= 0.85
