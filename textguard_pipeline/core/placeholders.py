"""Compatibility name: the module lives in `textguard_pipeline.lib.placeholders`."""

import sys

from ..lib import placeholders as _module

sys.modules[__name__] = _module
