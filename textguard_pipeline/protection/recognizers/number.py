"""Metric-like numbers (§5.3 with the E6 context rule).

Every span is widened to whole numbers as the shared reader (``lib/numbers.py``) reads them, so a number
is one term (``125 000``, ``1 234,5``, never ``000`` alone); a number with spaced thousands is always
protected, like ``1,000,000``.
"""

from __future__ import annotations

from typing import Any

from ...lib.numbers import SPACES, locale_for, read_numbers, widen
from ..model import Candidate, TermProtectionConfig, TextChunk
from ..number_patterns import find_numbers
from .base import PerChunkRecognizer


class NumberRecognizer(PerChunkRecognizer):
    name = "number"
    priority = 50

    @classmethod
    def from_config(cls, config: TermProtectionConfig) -> Any:
        return cls() if config.protect_numbers else None

    def find(self, text: str, language: str | None = None) -> list[Candidate]:
        return self.whole(text, language, find_numbers(text, language=language))

    def whole(self, text: str, language: str | None, found: list[tuple[int, int, str]]) -> list[Candidate]:
        """``found`` spans widened to whole numbers, plus the numbers with spaced thousands."""
        tokens = read_numbers(text, locale_for(language))
        out = [Candidate(*widen(s, e, tokens), self.name, kind.upper()) for s, e, kind in found]
        out += [Candidate(t.start, t.end, self.name, "BIG") for t in tokens if _spaced(t.text)]
        return out

    def find_chunk(self, chunk: TextChunk) -> list[Candidate]:
        return self.find(chunk.text, chunk.language)  # the chunk's language picks the vocabulary


def _spaced(number: str) -> bool:
    return any(c in SPACES for c in number)
