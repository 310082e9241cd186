"""Compatibility shim: the `protected_chunks` asset and its checks live in :mod:`textguard_pipeline.protection.defs`
(kept here while definitions.py still scans ``assets/``)."""

from ..protection.defs import CHECKS, _restoration_rule, _term_ranges_rule, protected_chunks  # noqa: F401

__all__ = ["CHECKS", "protected_chunks"]
