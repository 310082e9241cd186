"""The one entry point: `Definitions` of the textguard_pipeline code location."""

from __future__ import annotations

import importlib
import pkgutil
import warnings

from dagster import BetaWarning, Definitions, PreviewWarning, load_assets_from_modules

# backfill_policy and partitioned checks are marked beta/preview; they are used on purpose.
warnings.filterwarnings("ignore", category=BetaWarning)
warnings.filterwarnings("ignore", category=PreviewWarning)

from . import assets as assets_pkg  # noqa: E402
from . import settings  # noqa: E402
from .checks import root_checks  # noqa: E402
from .jobs import EXECUTOR, JOBS, SCHEDULES, SENSORS  # noqa: E402
from .resources import build_resources  # noqa: E402
from .roundtrip import defs as roundtrip_defs  # noqa: E402


def _asset_modules():
    for info in pkgutil.iter_modules(assets_pkg.__path__):
        if not info.name.startswith("_"):
            yield importlib.import_module(f"{assets_pkg.__name__}.{info.name}")


def build_definitions() -> Definitions:
    modules = list(_asset_modules())
    all_assets = load_assets_from_modules(modules)
    checks = list(root_checks(settings.corpus_dir))
    schedules, sensors, jobs = list(SCHEDULES), list(SENSORS), list(JOBS)
    for m in modules:
        checks.extend(getattr(m, "CHECKS", []))
        schedules.extend(getattr(m, "SCHEDULES", []))
        sensors.extend(getattr(m, "SENSORS", []))
        jobs.extend(getattr(m, "JOBS", []))
    # Slices registered explicitly (issue 12): the LLM round trip.
    rt = roundtrip_defs.defs
    return Definitions(
        assets=[*all_assets, *rt.assets],
        asset_checks=[*checks, *rt.asset_checks],
        jobs=jobs,
        sensors=sensors,
        schedules=schedules,
        resources={**build_resources(), **rt.resources},
        executor=EXECUTOR,
    )


defs = build_definitions()
