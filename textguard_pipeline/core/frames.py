"""Compatibility shim: the root assets' frame shapes live in :mod:`textguard_pipeline.ingest.frames`."""

from ..ingest import frames as _frames
from ._shim import reexport

reexport(globals(), _frames)
