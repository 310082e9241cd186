"""The typed errors of term protection (all ``ValueError`` subclasses)."""

from __future__ import annotations

from ..lib.placeholders import UnknownPlaceholderError


class ProtectionError(ValueError):
    """Base class of every term-protection error."""


class InvalidCustomTermError(ProtectionError):
    """A custom term is empty or looks like / contains a placeholder (E9)."""


class NotProseChunkError(ProtectionError):
    """Only prose chunks are protected (E3: structural chunks are not)."""


class RecognizerConfigError(ProtectionError):
    """A recogniser named in the configuration cannot be loaded or breaks the contract."""


class PlaceholderError(ProtectionError):
    """Restoration refused: the text's placeholders do not match the chunk's."""


class MissingPlaceholdersError(PlaceholderError):
    """Expected placeholders are absent from the text (E8: e.g. the LLM dropped them)."""

    def __init__(self, missing: list[str]):
        self.missing = missing
        super().__init__(f"missing placeholder(s): {', '.join(missing)}")


class UnknownPlaceholdersError(PlaceholderError, UnknownPlaceholderError):
    """Placeholder-shaped tokens the chunk never issued (invented or mangled)."""

    def __init__(self, placeholders: list[str]):
        self.placeholders = placeholders
        ValueError.__init__(self, f"unknown placeholder(s): {', '.join(placeholders)}")

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0])


class EmptyTextError(PlaceholderError):
    """An empty paraphrase for a non-empty chunk."""
