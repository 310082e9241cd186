"""The operations slice's Dagster definitions: jobs, the corpus and automation sensors, schedules, the executor."""

import dagster as dg

from ..defs_kit.automation import automation_sensor
from .executor import EXECUTOR, executor_from_env
from .jobs import materialize_all, refresh_cron, rematerialize_all
from .schedules import corpus_refresh
from .sensors import corpus_sensor

JOBS = [materialize_all, rematerialize_all]
SENSORS = [corpus_sensor, automation_sensor()]
SCHEDULES = [corpus_refresh]

__all__ = [
    "EXECUTOR",
    "JOBS",
    "SCHEDULES",
    "SENSORS",
    "corpus_refresh",
    "corpus_sensor",
    "executor_from_env",
    "materialize_all",
    "refresh_cron",
    "rematerialize_all",
]

#: This slice's Dagster definitions (merged by ``textguard_pipeline.definitions``).
defs = dg.Definitions(jobs=JOBS, sensors=SENSORS, schedules=SCHEDULES, executor=EXECUTOR)
