"""The code location: every capability's ``defs``, merged explicitly (no scanning, no hooks).

A new capability adds its ``defs.py`` to ``SLICES``; the shared resources (corpus, Parquet IO manager and the
settings-backed component resources) come from ``defs_kit.resources``.
"""

from __future__ import annotations

import warnings

import dagster as dg

from . import settings

# Multi-run backfill policies and partitioned asset checks are beta/preview in dagster 1.13; they are used on
# purpose, so their warnings are silenced while the slices declare them, and only then.
with warnings.catch_warnings():
    warnings.simplefilter("ignore", dg.BetaWarning)
    warnings.simplefilter("ignore", dg.PreviewWarning)
    from .citations import defs as citations
    from .defs_kit.automation import automate
    from .defs_kit.check_steps import group_check_steps
    from .defs_kit.resources import build_resources
    from .ingest import defs as ingest
    from .markers import defs as markers
    from .math_ner import defs as math_ner
    from .meanings import defs as meanings
    from .operations import defs as operations
    from .protection import defs as protection
    from .roundtrip import defs as roundtrip

#: The slices in data-flow order (ingest → protection → round trip; the analyses beside them).
SLICES = (ingest, protection, roundtrip, math_ner, citations, markers, meanings, operations)


def build_definitions(grouped_checks: bool = True) -> dg.Definitions:
    """Every slice's assets, checks, jobs, sensors and schedules, with resources read from the environment now.

    ``grouped_checks``: an asset's checks run in one step (defs_kit/check_steps.py).
    """
    settings.check_settings()  # a bad value fails the code location's load naming the variable, not a run later
    resources = {**build_resources(), **meanings.resources(), **roundtrip.resources()}
    defs = dg.Definitions.merge(*(s.defs for s in SLICES), dg.Definitions(resources=resources))
    with warnings.catch_warnings():  # map_asset_specs is a preview API in dagster 1.13
        warnings.simplefilter("ignore", dg.PreviewWarning)
        defs = automate(defs)  # settings-aware code versions and automation conditions (defs_kit/automation.py)
    return group_check_steps(defs) if grouped_checks else defs


defs = build_definitions()
