"""Citations (§4.2): LaTeX ``\\cite``, pandoc ``[@key]``, author–year and narrative forms."""

from __future__ import annotations

from typing import Any

from ..citation_patterns import find_citations
from ..model import Candidate, TermProtectionConfig
from .base import PerChunkRecognizer


class CitationRecognizer(PerChunkRecognizer):
    name = "citation"
    priority = 20

    @classmethod
    def from_config(cls, config: TermProtectionConfig) -> Any:
        return cls(config.protect_year_only) if config.protect_citations else None

    def __init__(self, year_only: bool = False):
        self.year_only = year_only

    def find(self, text: str) -> list[Candidate]:
        return [Candidate(s, e, self.name, kind) for s, e, kind in find_citations(text, year_only=self.year_only)]
