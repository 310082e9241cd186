"""Compatibility shim: mentions moved to :mod:`textguard_pipeline.meanings` (mentions, detector, stage_a)."""

from ..meanings import detector as _detector
from ..meanings import mentions as _mentions
from ..meanings import stage_a as _stage_a
from ._shim import reexport

reexport(globals(), _mentions, _detector, _stage_a)
