"""Compatibility shim: the marker assets and checks live in :mod:`textguard_pipeline.markers.defs`."""

from ..markers.defs import CHECKS, _decision_rule, candidate_markers, gated_markers  # noqa: F401
