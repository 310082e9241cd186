"""Compatibility shim: the chunker lives in :mod:`textguard_pipeline.ingest` (parsing, chunks, regions)."""

from ..ingest.parsing import *  # noqa: F401,F403
from ..ingest.parsing import Chunk, ChunkType, offset_map_for, parse_document  # noqa: F401
