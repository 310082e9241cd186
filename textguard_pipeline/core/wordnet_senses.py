"""Compatibility shim: this module moved to :mod:`textguard_pipeline.meanings.senses` (same object, so
attribute changes reach it)."""

import sys

from ..meanings import senses as _moved

sys.modules[__name__] = _moved
