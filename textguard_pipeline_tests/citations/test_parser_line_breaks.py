"""Issue 46: a numeric citation group broken across a line (PDF text, hard-wrapped text) is read as it stands."""

import pytest

from textguard_pipeline.citations.parser import CitationParser


@pytest.mark.parametrize(
    "text, ids, marker",
    [
        ("as shown [12,\n13] here.", [12, 13], None),
        ("as in [4-\n7] and more.", [4, 5, 6, 7], "[4-\n7]"),
        ("a claim [3 ,\n 5] holds.", [3, 5], None),
    ],
)
def test_a_group_broken_by_one_line_end_is_one_citation_group(text, ids, marker):
    cites = CitationParser().extract_citations(text)
    assert [c.citation_id for c in cites] == ids
    assert all(c.marker == text[c.start_pos : c.end_pos] for c in cites)
    if marker:
        assert {c.marker for c in cites} == {marker}


def test_a_blank_line_still_ends_a_group():
    assert CitationParser().extract_citations("x [1,\n\n2] y") == []
