"""What a reader types that must not change: numeric citations, cross-references, identifiers, names with
digits and quantities, hidden whole as terms with ``source = "markup"`` (issue 45).

Numeric citations come from the citations parser's own finder, so what ``citation_maps`` parses is what is
hidden (``[3]``, ``[2, 3]``, ``[4–7]``); cross-references ("Table 2", "Eq. (4)", "§§ 3 à 5"), standard
identifiers ("RFC 7159", "CVE-2021-44228") and names with digits ("NVIDIA A100", "GPT-4o", "ROUGE-L 41.2") are
patterns of this module; quantities with a magnitude suffix ("1.2M", "7B") are the one number reader's
(``lib.numbers.read_magnitudes``). It reads the chunk's prose view
(markup blanked), so nothing it finds reaches into markup. Priority 37: after citations and custom terms (a
locator inside "(2015, p. 203)" stays the citation's), before NER and numbers (which would cut "ROUGE-L 41.2").
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from ...ingest.markup import REFERENCE_NOUNS
from ...lib.numbers import locale_for, read_magnitudes
from ..model import Candidate, TermProtectionConfig, TextChunk
from .base import PerChunkRecognizer

_SP = r"(?:[ \t\u00a0~]|\\,|\\ )*"
_REF_NUM = r"(?:\(\d+(?:\.\d+)*[a-z]?\)|\d+(?:\.\d+)*[a-z]?(?![\w.]\d)|[A-Z](?:\.\d+)*(?![\w]))"
_JOIN = _SP + r"(?:[-–—,]|and|or|to|à|et|und|i|oraz)" + _SP
#: "Table 2", "Eq. (4)", "§§ 3 à 5" (a LaTeX ``Table~\\ref{…}`` is one markup span of ingest's finder)
CROSSREF = re.compile(
    r"(?<![\w\\])(?:(?:"
    + REFERENCE_NOUNS
    + r")"
    + _SP
    + "|§§?"
    + _SP
    + r")"
    + _REF_NUM
    + r"(?:"
    + _JOIN
    + _REF_NUM
    + r")*"
)
_STANDARD = re.compile(
    r"(?<![\w-])(?:CVE-\d{4}-\d{4,7}|(?:RFC|BCP|STD|PEP|ISO(?:/IEC)?|IEC|IEEE(?:[ \t]Std\.?)?|ECMA|ANSI|DIN|EN|"
    r"NIST[ \t]SP|FIPS|ITU-T[ \t][A-Z]\.?|W3C)[ \t\u00a0-]?\d+(?:[-.:/]\d+)*(?:[a-z](?![\w]))?)(?![\w])"
)
#: a name with a digit in it, or a capitals name with a one-letter variant ("ROUGE-L"), and the all-capitals or
#: capitalised vendor word before it ("NVIDIA A100"); a score right after it goes with it ("ROUGE-L 41.2")
_NAME_CORE = (
    r"(?:[A-Z][A-Za-z]*\d[\w.]*(?:-[A-Za-z0-9.]+)*|[A-Z][A-Za-z]*(?:-[A-Za-z0-9.]+)*-[A-Za-z.]*\d[\w.]*"
    r"(?:-[A-Za-z0-9.]+)*|[A-Z]{2,}-[A-Z0-9](?![\w-]))"
)
_NAME = re.compile(
    r"(?<![\w./@-])(?:(?P<vendor>[A-Z][A-Za-z]+)[ \t])?(?P<core>" + _NAME_CORE + r")(?<![.])(?![\w-])"
    r"(?P<score>[ \t]*(?:[:=][ \t]*)?\d+\.\d+%?(?![\w.]))?"
)
#: function words a capital letter starts at a sentence's beginning: not a vendor ("The A100")
_NOT_VENDOR = frozenset(
    "The A An On In At Of For With By From To And Or Our Its Their This That These Those Using Use Uses We It "
    "Both Each Every All Some Any No As Than Then When While Where Which Like Unlike Via Per Is Are Was Were Be".split()
)


class MarkupFormRecognizer(PerChunkRecognizer):
    name = "markup_forms"
    priority = 37
    #: the terms' ``source``: one kind of thing with the markup spans, whichever recogniser found it
    source_name = "markup"

    @classmethod
    def from_config(cls, config: TermProtectionConfig) -> Any:
        return cls() if config.protect_markup else None

    def find_chunk(self, chunk: TextChunk) -> list[Candidate]:
        return self.find(chunk.prose_view(), chunk.language)

    def find(self, text: str, language: str | None = None) -> list[Candidate]:
        """Cross-references, identifiers, names with digits, quantities and numeric citations of ``text`` (a
        prose view: its markup already blanked, so nothing found here reaches into it); a quantity's number is
        read as the one number reader reads it in the chunk's ``language`` (``lib.numbers.read_magnitudes``)."""
        out: list[Candidate] = []
        if _DIGIT.search(text):
            out += [Candidate(m.start(), m.end(), self.source_name, "crossref") for m in CROSSREF.finditer(text)]
            out += [Candidate(m.start(), m.end(), self.source_name, "identifier") for m in _STANDARD.finditer(text)]
            out += [
                Candidate(q.start, q.end, self.source_name, "quantity")
                for q in read_magnitudes(text, locale_for(language))
            ]
            out += _names(text, self.source_name)
            if "[" in text:
                out += [
                    Candidate(c.start_pos, c.end_pos, self.source_name, "citation_numeric")
                    for c in _citation_parser().extract_citation_clusters(text)
                ]
        elif "-" in text:  # "ROUGE-L" holds no digit
            out += _names(text, self.source_name)
        return out


def _names(text: str, source: str) -> list[Candidate]:
    """Names with digits; a two-character one ("F1", "T5") is as often a key or a cell as a name."""
    out = []
    for m in _NAME.finditer(text):
        if len(m.group("core")) < 3:
            continue
        s = m.start("core") if m.group("vendor") in _NOT_VENDOR else m.start()
        out.append(Candidate(s, m.end(), source, "name_with_digits"))
    return out


_DIGIT = re.compile(r"\d")


@lru_cache(maxsize=1)
def _citation_parser():
    from ...citations.parser import CitationParser  # lazy: the citation parser only when a bracket is read

    return CitationParser()
