"""ISO code → word tables: English (:mod:`.vocabulary`) and the languages of :mod:`.languages` (issue 17)."""

from __future__ import annotations

from .languages import LANGUAGE_VOCABULARIES
from .vocabulary import ENGLISH, Vocabulary

#: ISO code → tables (issue 17 adds languages in languages.py); None = English.
VOCABULARIES: dict[str | None, Vocabulary] = {None: ENGLISH, "en": ENGLISH, **LANGUAGE_VOCABULARIES}


def vocabulary(language: str | None = None) -> Vocabulary:
    """The tables for ``language`` (English when unknown)."""
    return VOCABULARIES.get(language, ENGLISH)
