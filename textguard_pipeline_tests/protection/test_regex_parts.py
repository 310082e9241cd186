"""Citation patterns compiled part by part are re's own patterns (regex_parts, issue 50)."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from re import _compiler, _parser

import pytest

from textguard_pipeline.protection import citation_patterns, regex_parts
from textguard_pipeline.protection.vocabularies import VOCABULARIES

from . import citation_set, citation_styles_set, pdf_citation_set

CORPUS = Path(__file__).resolve().parents[2] / "data" / "corpus"


def _compiled_texts(vocabulary) -> list[tuple[regex_parts.Parts, str]]:
    seen: list[tuple[regex_parts.Parts, str]] = []
    compile_ = regex_parts.Parts.compile

    def spy(self, text):
        seen.append((self, text))
        return compile_(self, text)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(regex_parts.Parts, "compile", spy)
        citation_patterns._compile(vocabulary)
    return seen


@pytest.mark.parametrize("language", sorted(VOCABULARIES, key=str))
def test_every_citation_pattern_is_the_program_re_compiles_from_its_expanded_text(language):
    seen = _compiled_texts(VOCABULARIES[language])
    assert len(seen) == 8
    for parts, text in seen:
        expanded = parts.expand(text)
        assert not any(ord(c) >= 0xF0000 for c in expanded)
        code, _ = parts.program(text)  # raises where a marker could not stand for its part
        assert code == _compiler._code(_parser.parse(expanded), 0)
        assert parts.compile(text).pattern == expanded


def test_a_part_where_a_marker_cannot_stand_falls_back_to_re_compile_of_the_text():
    parts = regex_parts.Parts()
    ab = parts.part("a(?:b)")  # two items: "a(?:b)*" repeats only the b
    with pytest.raises(regex_parts._Unspliceable):
        parts.program(f"{ab}*")
    pattern = parts.compile(f"{ab}*")
    assert pattern.pattern == "a(?:b)*"
    assert pattern.fullmatch("abbb") and not pattern.fullmatch("abab")


def test_parts_in_branches_give_re_s_own_program_whether_or_not_re_would_make_the_branch_a_class():
    parts = regex_parts.Parts()
    ab, b, gh = parts.part("a(?:b)"), parts.part("b"), parts.part("(?:gh|k)i")
    for text, expanded in (
        (f"(?:{gh}|c)", "(?:(?:gh|k)i|c)"),
        (f"{gh}x|{gh}y", "(?:gh|k)ix|(?:gh|k)iy"),
        (f"(?:{b}|c)d", "(?:b|c)d"),
        (f"{b}x|{b}y", "bx|by"),
    ):
        assert parts.expand(text) == expanded
        assert parts.program(text)[0] == _compiler._code(_parser.parse(expanded), 0)
    with pytest.raises(regex_parts._Unspliceable):  # re would factor "a" out of both branches
        parts.program(f"{ab}x|{ab}y")
    assert parts.compile(f"{ab}x|{ab}y").fullmatch("aby")


def test_a_group_part_under_a_quantifier_repeats_the_whole_group():
    parts = regex_parts.Parts()
    group = parts.part("(?:a[bc])")
    pattern = parts.compile(f"x{group}+y")
    assert pattern.pattern == "x(?:a[bc])+y"
    assert pattern.fullmatch("xabacy") and not pattern.fullmatch("xabcy")
    assert parts.program(f"x{group}+y")[0] == _compiler._code(_parser.parse("x(?:a[bc])+y"), 0)


def test_the_upper_case_class_as_a_part_matches_exactly_the_code_points_it_lists():
    parts = regex_parts.Parts()
    up = parts.part(citation_patterns._UP)
    spliced, plain = parts.compile(f"{up}"), re.compile(citation_patterns._UP)
    for cp in range(sys.maxunicode + 1):
        c = chr(cp)
        expected = cp < 0x10000 and (c.isupper() or c.istitle())
        assert (spliced.match(c) is not None) == (plain.match(c) is not None) == expected, hex(cp)


def _texts():
    for module in (citation_set, citation_styles_set, pdf_citation_set):
        for example in module.EXAMPLES:
            yield example[1]
    for path in sorted(CORPUS.glob("*")):
        if path.suffix in {".md", ".tex", ".txt"}:
            text = path.read_text(encoding="utf-8")
            yield from (text[i : i + 4000] for i in range(0, len(text), 4000))


@pytest.mark.parametrize("language", ["en", "fr", "pl"])
def test_citations_found_with_parts_equal_those_found_with_patterns_compiled_from_their_text(monkeypatch, language):
    fast = citation_patterns.patterns(language)
    plain = citation_patterns.CitationPatterns(
        **{
            name: re.compile(value.pattern, value.flags) if isinstance(value, re.Pattern) else value
            for name, value in vars(fast).items()
        }
    )
    texts = list(_texts())
    found = [citation_patterns.find_citations(text, language=language) for text in texts]
    monkeypatch.setattr(citation_patterns, "patterns", lambda language=None: plain)
    assert found == [citation_patterns.find_citations(text, language=language) for text in texts]
    assert sum(map(len, found)) > 100
