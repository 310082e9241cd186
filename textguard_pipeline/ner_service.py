"""Compatibility name: the service is :mod:`textguard_pipeline.math_ner.service`; the command is `textguard ner-serve`."""

from __future__ import annotations

from typing import Any


def create_app(extractor: Any = None) -> Any:
    """The service's FastAPI application (see :func:`textguard_pipeline.math_ner.service.create_app`)."""
    from .math_ner.service import create_app as _create_app  # heavy: FastAPI, only for serving

    return _create_app(extractor)
