"""Compatibility shim: the NER service lives in :mod:`textguard_pipeline.math_ner.service`."""

from .math_ner.service import MAX_BATCH_BODY_BYTES, MAX_BODY_BYTES, create_app  # noqa: F401
