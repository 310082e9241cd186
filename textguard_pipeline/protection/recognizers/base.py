"""The recogniser contract and a base class for recognisers that read one chunk at a time."""

from __future__ import annotations

from typing import Any, Protocol, Sequence, runtime_checkable

from ..model import Candidate, TermProtectionConfig, TextChunk


@runtime_checkable
class Recognizer(Protocol):
    """Finds candidate spans.

    ``name`` is the ``source`` of every span it finds; ``priority`` orders the
    recognisers (lower first; an earlier span wins an overlap, E1);
    ``find_many`` gets every prose chunk of a document at once (one result list
    per chunk) so that model-backed recognisers can batch. ``from_config``
    builds it from a :class:`TermProtectionConfig`, or returns None when the
    config switches it off.
    """

    name: str
    priority: int

    def find_many(self, chunks: Sequence[TextChunk]) -> list[list[Candidate]]: ...


class PerChunkRecognizer:
    """Base class: implement :meth:`find` (one text) or :meth:`find_chunk` (text + context)."""

    name = ""
    priority = 1000
    #: True: a span that contains a whole parser placeholder is dropped (a model reading our token as a word)
    rejects_placeholders = False

    @classmethod
    def from_config(cls, config: TermProtectionConfig) -> Any:
        return cls()

    @property
    def source(self) -> str:  # the pre-registry name of ``name``
        return self.name

    def find(self, text: str) -> list[Candidate]:
        raise NotImplementedError

    def find_chunk(self, chunk: TextChunk) -> list[Candidate]:
        return self.find(chunk.text)

    def find_many(self, chunks: Sequence[TextChunk | str]) -> list[list[Candidate]]:
        return [self.find_chunk(TextChunk.of(c)) for c in chunks]
