"""Metric-like numbers (§5.3 with the E6 context rule)."""

from __future__ import annotations

from typing import Any

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
        return [Candidate(s, e, self.name, kind.upper()) for s, e, kind in find_numbers(text, language=language)]

    def find_chunk(self, chunk: TextChunk) -> list[Candidate]:
        return self.find(chunk.text, chunk.language)  # the chunk's language picks the vocabulary
