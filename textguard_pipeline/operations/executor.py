"""The executor of every job, chosen by ``TEXTGUARD_EXECUTOR``: ``in_process`` | ``multiprocess`` (default) | ``celery``."""

from dagster import ExecutorDefinition, in_process_executor, multiprocess_executor

from .. import settings
from ..settings import EXECUTORS


def celery_broker() -> str:
    return settings.operations_settings().celery_broker


def celery_backend() -> str:
    return settings.operations_settings().celery_backend


def executor_from_env(name: str | None = None) -> ExecutorDefinition:
    """The executor named by ``name`` or ``TEXTGUARD_EXECUTOR`` (default multiprocess).

    multiprocess runs each step in its own process, as many at a time as there
    are cores; in_process runs the whole run in one process (tests, small
    corpora); celery sends steps to Celery workers (broker
    ``TEXTGUARD_CELERY_BROKER``, default redis on loopback) — the instance
    must then be persistent (SQLite on a shared disk, or PostgreSQL) and the
    warehouse reachable from every worker.
    """
    name = (name or settings.operations_settings().executor).strip().lower().replace("-", "_")
    if name in ("in_process", "inprocess"):
        return in_process_executor
    if name == "multiprocess":
        return multiprocess_executor  # max_concurrent defaults to the number of cores
    if name == "celery":
        # lazy: optional, only the celery executor needs dagster-celery
        from dagster_celery import celery_executor

        return celery_executor.configured({"broker": celery_broker(), "backend": celery_backend()}, name="celery")
    raise ValueError(f"TEXTGUARD_EXECUTOR={name!r}: expected one of {', '.join(EXECUTORS)}")


EXECUTOR = executor_from_env()
