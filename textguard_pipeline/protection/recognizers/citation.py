"""Citations (§4.2): LaTeX ``\\cite``, pandoc ``[@key]``, author–year and narrative forms."""

from __future__ import annotations

from typing import Any

from ..citation_patterns import find_citations
from ..model import Candidate, TermProtectionConfig, TextChunk
from .base import PerChunkRecognizer


class CitationRecognizer(PerChunkRecognizer):
    name = "citation"
    priority = 20

    @classmethod
    def from_config(cls, config: TermProtectionConfig) -> Any:
        return cls(config.protect_year_only) if config.protect_citations else None

    def __init__(self, year_only: bool = False):
        self.year_only = year_only

    def find(self, text: str, language: str | None = None) -> list[Candidate]:
        found = find_citations(text, year_only=self.year_only, language=language)
        return [Candidate(s, e, self.name, kind) for s, e, kind in found]

    def find_chunk(self, chunk: TextChunk) -> list[Candidate]:
        return self.find(chunk.text, chunk.language)  # the chunk's language picks the vocabulary
