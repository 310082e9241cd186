"""Citations with each chunk's language's conventions (issue 17).

English chunks (and chunks of unknown language) get exactly :class:`CitationRecognizer`'s spans.
Other languages use their vocabulary (``i in.``, ``et coll.``, ``s. 45``, ``zob.``/``voir``) and two
forms English does not need: an editor marker after the authors (``Kowalski (red.), 2019``,
``Dupont (éd.) 2018``) and ``§`` references (``§ 12``, ``§§ 3–5``). Spans never include the
outer French quotes.
"""

from __future__ import annotations

import re

from ..citation_patterns import find_citations
from ..languages import EDITOR_MARKERS, OUTER_QUOTES
from ..model import Candidate, TextChunk
from .citation import CitationRecognizer

DEFAULT_LANGUAGES = frozenset({None, "en"})

_NAME = r"(?:[A-ZÀ-ÖØ-ÞĄĆĘŁŃŚŹŻ][^\W\d_]+(?:-[A-ZÀ-ÖØ-ÞĄĆĘŁŃŚŹŻ][^\W\d_]+)?)"
_AUTHORS = rf"{_NAME}(?:\s*,\s*{_NAME})*(?:\s+(?:i|et|oraz|and|&)\s+{_NAME})?"
_YEAR = r"(?:1[5-9]\d\d|20\d\d)[a-z]?(?!\d)"
_EDITED = re.compile(
    rf"(?<![\w\-']){_AUTHORS}\s*\((?:{'|'.join(EDITOR_MARKERS)})\.\)\s*,?\s*(?:{_YEAR}|\(\s*{_YEAR}\s*\))"
    r"(?:,\s*(?:s|ss|str|p|pp)\.\s*\d+(?:\s*[-–]\s*\d+)?)?"  # a page: "s. 45", "p. 12–14"
)
_SECTION = re.compile(
    r"(?<![\w§])§§?\s?\d+[a-z]?(?:\.\d+)*"
    r"(?:(?:\s*[-–,]\s*|\s+(?:i|et|oraz|and|à|au|do|to)\s+)\d+[a-z]?(?:\.\d+)*)*(?![\w])"
)
#: a year's letter ("2011a, b") that is really a one-letter word of the sentence: Polish "a", "i", "w", "z"
_LETTER_AFTER_YEAR = re.compile(r"(?<=\d),\s*[a-z]$")


class LanguageCitationRecognizer(CitationRecognizer):
    """:class:`CitationRecognizer` with the chunk's language's tables (source ``citation``)."""

    name = "citation"
    priority = 20

    def find_chunk(self, chunk: TextChunk) -> list[Candidate]:
        lang = chunk.language
        if lang in DEFAULT_LANGUAGES:
            return self.find(chunk.text)
        text = chunk.text
        found = [(s, e, kind) for s, e, kind in find_citations(text, year_only=self.year_only, language=lang)]
        found += [(m.start(), m.end(), "edited") for m in _EDITED.finditer(text)]
        if "§" in text:
            found += [(m.start(), m.end(), "section") for m in _SECTION.finditer(text)]
        out = []
        for s, e, kind in found:
            tail = _LETTER_AFTER_YEAR.search(text, s, e)
            if tail and re.match(r"\s+\w", text[e : e + 2]):
                e = tail.start()  # "Nowak i in., 2011, a potem": the "a" starts the next clause
            while s < e and text[s] in OUTER_QUOTES:
                s += 1
            while e > s and text[e - 1] in OUTER_QUOTES:
                e -= 1
            if e > s:
                out.append(Candidate(s, e, self.name, kind))
        return out
