"""E5: the user's custom terms (``TEXTGUARD_PROTECT_TERMS``)."""

from __future__ import annotations

import re
from typing import Any, Sequence

from ..model import Candidate, TermProtectionConfig, validate_custom_terms
from .base import PerChunkRecognizer


class CustomTermRecognizer(PerChunkRecognizer):
    """Whole words, case-insensitive, longest first (one alternation, one pass)."""

    name = "custom"
    priority = 30

    @classmethod
    def from_config(cls, config: TermProtectionConfig) -> Any:
        return cls(config.custom_terms) if config.custom_terms else None

    def __init__(self, terms: Sequence[str]):
        validate_custom_terms(terms)
        alts = []
        for t in sorted(set(terms), key=lambda s: (-len(s), s)):
            pat = re.escape(t)
            if t[0].isalnum() or t[0] == "_":
                pat = r"(?<!\w)" + pat
            if t[-1].isalnum() or t[-1] == "_":
                pat = pat + r"(?!\w)"
            alts.append(pat)
        self._re = re.compile("|".join(alts), re.IGNORECASE) if alts else None

    def find(self, text: str) -> list[Candidate]:
        if self._re is None:
            return []
        return [Candidate(m.start(), m.end(), self.name, "CUSTOM") for m in self._re.finditer(text)]
