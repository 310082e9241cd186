"""Compatibility shim: `citation_maps` and its checks live in :mod:`textguard_pipeline.citations.defs`."""

from ..citations.defs import CHECKS, FRONTEND_JSON_MAX_CHARS, citation_maps, in_range_rule, sentence_rule  # noqa: F401
