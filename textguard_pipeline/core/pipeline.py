"""Compatibility name: the module lives in `textguard_pipeline.pipeline`."""

import sys

from .. import pipeline as _module

sys.modules[__name__] = _module
