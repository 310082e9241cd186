"""Compatibility name: the module lives in `textguard_pipeline.lib.nlp`."""

import sys

from ..lib import nlp as _module

sys.modules[__name__] = _module
