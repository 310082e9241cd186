"""Sections for per-section domain profiles (issue 16 item 3)."""

from textguard_pipeline.core.pipeline import parse_chunks
from textguard_pipeline.meanings.domains import DomainProfile, section_ids, section_profiles


def test_sections_are_heading_delimited_regions_in_markdown_and_latex():
    md = "Intro text here.\n\n# Teeth\n\nThe molar has enamel.\n\n## Gums\n\nThe gum bleeds.\n"
    chunks = parse_chunks(md, "md")
    sec = section_ids(chunks)
    by_text = {c.text.strip(): sec[c.index] for c in chunks if c.chunk_type == "prose"}
    assert by_text["Intro text here."] == 0
    assert by_text["The molar has enamel."] == 1
    assert by_text["The gum bleeds."] == 2
    tex = "Before.\n\n\\section{Circuits}\n\nA resistor and a capacitor.\n"
    chunks = parse_chunks(tex, "tex")
    sec = section_ids(chunks)
    assert max(sec.values()) == 1


def test_small_sections_fall_back_to_the_document_profile():
    doc = DomainProfile()
    assert section_profiles(None, doc, [(0, "molar", []), (1, "gum", [])], min_mentions=40) == {}
