"""Compatibility shim: math NER lives in :mod:`textguard_pipeline.math_ner` (one slice, issue 12).

Every public name of the former module stays importable from here.
"""

from ..math_ner import *  # noqa: F401,F403
from ..math_ner import __all__  # noqa: F401
from ..math_ner.http_backend import log  # noqa: F401
