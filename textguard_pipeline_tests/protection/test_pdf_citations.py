"""Issue 46: author–date citations in PDF text as extraction leaves it — glued, spaced, broken across lines."""

import pytest

from textguard_pipeline.protection import TermProtectionConfig, TermProtector
from textguard_pipeline.protection.citation_patterns import find_citations

from . import pdf_citation_set
from .test_labelled_sets import held_out_score


@pytest.fixture(scope="module")
def citations_only():
    return TermProtector(TermProtectionConfig(use_ner=False, protect_numbers=False))


def test_pdf_citation_set_is_split_and_has_the_extraction_shapes():
    ex = pdf_citation_set.EXAMPLES
    tune, held = pdf_citation_set.split()
    assert len(ex) >= 120 and min(len(tune), len(held)) >= 0.4 * len(ex)
    gold = [g for *_, gs in ex for g in gs]
    assert any("\n" in g for g in gold) and any("  " in g for g in gold)
    assert any(c.isalpha() and d.isdigit() for g in gold for c, d in zip(g, g[1:], strict=False))  # "Mullahy1986"


def test_pdf_citations_held_out_recall(citations_only):
    s = held_out_score(citations_only, pdf_citation_set, "citation", "PDF citations")
    assert s.recall >= 0.9 and s.precision >= 0.9


@pytest.mark.parametrize(
    "text, span",
    [
        ("as shown (Name1990, 338) here", "(Name1990, 338)"),
        ("as shown ( Zeileis 2017,15.26) here", "( Zeileis 2017,15.26)"),
        ("as shown (Zeileis 2017 , 15) here", "(Zeileis 2017 , 15)"),
        ("see (Zei-\nleis 2006) and", "(Zei-\nleis 2006)"),
        ("see (Newey\nand West 1987, 1994) and", "(Newey\nand West 1987, 1994)"),
        ("(Zeileis et al.2006) shows", "(Zeileis et al.2006)"),
        ("proposed byMullahy(1986) in", "Mullahy(1986)"),
        ("the book of Kr¨amer and Sonnberger (1986)", "Kr¨amer and Sonnberger (1986)"),
        # a prefix glued to the name inside a longer bracket: the whole bracket
        ("as shown (seeMullahy1986) here", "(seeMullahy1986)"),
        ("as shown (e.g.Mullahy 1986; Smith 2001) here", "(e.g.Mullahy 1986; Smith 2001)"),
        ("as shown (cf.Mullahy, 1986) here", "(cf.Mullahy, 1986)"),
        ("as (see alsoMullahy 1986, p. 3) x", "(see alsoMullahy 1986, p. 3)"),
    ],
)
def test_a_citation_is_found_as_the_extraction_wrote_it(citations_only, text, span):
    assert span in [text[a:b] for a, b, _ in find_citations(text)]
    pc = citations_only.protect_text(text)
    assert citations_only.restore(pc.protected_text, pc) == text


@pytest.mark.parametrize(
    "text",
    ["(COVID2019)", "(Windows2000, 3)", "(Table 2, 15)", "(n = 20, 15)", "in(Python 3.11, 2023)", "(seeds 2001)"],
)
def test_glued_look_alikes_are_not_citations(text):
    assert find_citations(text) == []
