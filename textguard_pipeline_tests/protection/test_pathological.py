"""Issue 14 item 4: citation patterns run in linear time on long lists of capitalised words."""

import pytest

from textguard_pipeline.protection import TermProtectionConfig, TermProtector
from textguard_pipeline.protection.citation_patterns import find_citations

from .shapes import shape


@pytest.mark.timeout(60)  # a hang guard (was ≈ 60 s and growing with the square); the speed is in make bench
@pytest.mark.parametrize("kind", ["list", "dense"])
def test_69_kb_list_of_capitalised_words_protects_and_restores(kind):
    text = shape(kind, 69)
    tp = TermProtector(TermProtectionConfig(use_ner=False))
    pc = tp.protect_text(text)
    assert tp.restore(pc.protected_text, pc) == text
    if kind == "dense":  # every "Name (2020)" is still a narrative citation
        assert sum(t.source == "citation" for t in pc.terms) == text.count(" (2020)")


@pytest.mark.timeout(60)
def test_a_citation_after_a_long_list_is_still_found():
    names = shape("list", 69)
    text = names + ", Smith, Jones, and Lee (2020) found it."
    spans = [text[s:e] for s, e, kind in find_citations(text) if kind == "narrative"]
    # the author list is looked back at from its year group, up to 400 characters
    assert len(spans) == 1 and spans[0].endswith("Smith, Jones, and Lee (2020)") and len(spans[0]) <= 420
