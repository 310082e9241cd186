"""Compatibility shim: this module moved to :mod:`textguard_pipeline.meanings.wikidata` (same object, so
attribute changes reach it)."""

import sys

from ..meanings import wikidata as _moved

sys.modules[__name__] = _moved
