"""Compatibility shim: the `ner_frames` asset and its checks live in :mod:`textguard_pipeline.math_ner.defs`.

Kept so that ``definitions.py``'s module scan still finds them until it merges the slices explicitly.
"""

from ..math_ner.defs import CHECKS, arith_rule, ner_frames, schema_rule  # noqa: F401
