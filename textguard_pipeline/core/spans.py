"""Compatibility name: the module lives in `textguard_pipeline.lib.spans`."""

import sys

from ..lib import spans as _module

sys.modules[__name__] = _module
