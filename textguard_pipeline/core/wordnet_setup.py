"""Compatibility shim: this module moved to :mod:`textguard_pipeline.meanings.wordnet_install` (same object, so
attribute changes reach it)."""

import sys

from ..meanings import wordnet_install as _moved

sys.modules[__name__] = _moved
