"""Compatibility shim: the ingest assets live in :mod:`textguard_pipeline.ingest.defs` (checks: ``root_checks``)."""

from ..ingest.defs import parsed_chunks, source_documents  # noqa: F401
