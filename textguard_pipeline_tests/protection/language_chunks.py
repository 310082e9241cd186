"""Test helper: a prose Chunk in a given language (ingest's ``Chunk.language`` when it has one)."""

from __future__ import annotations

from dataclasses import dataclass, fields

from textguard_pipeline.core.parsing import Chunk, ChunkType

_HAS_LANGUAGE = "language" in {f.name for f in fields(Chunk)}


@dataclass(slots=True)
class _LanguageChunk(Chunk):  # until ingest's Chunk carries the language itself
    language: str | None = None
    language_confidence: float | None = None


def prose(text: str, language: str | None, index: int = 0, start: int = 0) -> Chunk:
    if _HAS_LANGUAGE:
        c = Chunk(index, ChunkType.PROSE, start, start + len(text), text, {})
        c.language = language
        return c
    return _LanguageChunk(index, ChunkType.PROSE, start, start + len(text), text, {}, language)
