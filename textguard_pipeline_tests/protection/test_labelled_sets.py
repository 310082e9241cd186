"""Issue 15: recall and precision on the held-out half of the labelled citation and number sets."""

import pytest

from textguard_pipeline.protection import TermProtectionConfig, TermProtector

from . import citation_styles_set
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
    print(f"\ncitation styles, held-out ({len(held)} examples): {s}; "
          f"tune ({len(tune)}): {score(citations_only, tune, 'citation')}")
    for m in s.misses:
        print("  miss:", m)
    assert s.precision >= 0.97 and s.recall >= 0.97


def test_no_look_alike_is_protected_as_a_citation(citations_only):
    """Every negative of the set (both halves): versions, dates, products, events, rooms, addresses."""
    wrong = [(o, [t.original for t in citations_only.protect_text(text).terms]) for o, text, gold in
             citation_styles_set.EXAMPLES if not gold and citations_only.protect_text(text).terms]
    assert wrong == []
