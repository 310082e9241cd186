"""Compatibility shim: meanings moved to :mod:`textguard_pipeline.meanings`
(candidates, choose, suppression, resolver)."""

from ..meanings import candidates as _candidates
from ..meanings import choose as _choose
from ..meanings import resolver as _resolver
from ..meanings import suppression as _suppression
from ._shim import reexport

reexport(globals(), _candidates, _choose, _suppression, _resolver)
