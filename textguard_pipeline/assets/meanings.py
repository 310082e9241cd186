"""Compatibility shim: the `resolved_meanings` asset and checks live in :mod:`textguard_pipeline.meanings.defs`."""

from ..meanings.defs import (  # noqa: F401
    CHECKS,
    MeaningsResource,
    _meaning_id_rule,
    _merge_key_rule,
    _suppression_rule,
    resolved_meanings,
)
