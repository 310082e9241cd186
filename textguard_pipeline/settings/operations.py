"""How runs execute, when the corpus is refreshed, and what the daemon automates."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from ..lib import setting_rules as rules
from ..lib.setting_rules import checked
from .env import env_bool, env_float, env_int, env_str

# --- operations (jobs, executor, schedule, IO cache)

EXECUTORS = ("in_process", "multiprocess", "celery")


@dataclass(frozen=True)
class OperationsSettings:
    """How runs execute and when the corpus is refreshed. Env: TEXTGUARD_EXECUTOR (in_process | multiprocess |
    celery), TEXTGUARD_REFRESH_CRON (default nightly 02:00) / _REFRESH_TZ (UTC), TEXTGUARD_CELERY_BROKER /
    _CELERY_BACKEND (default redis on loopback), TEXTGUARD_IO_CACHE_MB (IO manager read cache, 0 = off),
    TEXTGUARD_LOCK_WAIT_S (longest wait for the instance lock before giving up naming its holder, 300).
    Automation: TEXTGUARD_AUTOMATION, _AUTOMATE_PAID, _AUTOMATION_INTERVAL_S, _SENSOR_INTERVAL_S (configuration.md)."""

    executor: str = "multiprocess"
    refresh_cron: str = "0 2 * * *"
    refresh_tz: str = "UTC"
    celery_broker: str = "redis://127.0.0.1:6379/0"
    celery_backend: str = ""  # empty: the broker
    io_cache_mb: float = 256.0
    lock_wait_s: float = 300.0
    automation: bool = True
    automate_paid: bool = False
    automation_interval_s: int = 30
    sensor_interval_s: int = 60


@checked
def operations_settings(env: Mapping[str, str] | None = None) -> OperationsSettings:
    d = OperationsSettings()
    broker = env_str("TEXTGUARD_CELERY_BROKER", d.celery_broker, env)
    executor = env_str("TEXTGUARD_EXECUTOR", d.executor, env).lower().replace("-", "_")
    cron = env_str("TEXTGUARD_REFRESH_CRON", d.refresh_cron, env)
    return OperationsSettings(
        executor=rules.choice("TEXTGUARD_EXECUTOR", executor, EXECUTORS),
        refresh_cron=rules.cron_expression("TEXTGUARD_REFRESH_CRON", cron),
        refresh_tz=rules.time_zone("TEXTGUARD_REFRESH_TZ", env_str("TEXTGUARD_REFRESH_TZ", d.refresh_tz, env)),
        celery_broker=broker,
        celery_backend=env_str("TEXTGUARD_CELERY_BACKEND", broker, env),
        io_cache_mb=env_float("TEXTGUARD_IO_CACHE_MB", d.io_cache_mb, env, minimum=0.0),
        lock_wait_s=env_float("TEXTGUARD_LOCK_WAIT_S", d.lock_wait_s, env, minimum=0.0),
        automation=env_bool("TEXTGUARD_AUTOMATION", d.automation, env),
        automate_paid=env_bool("TEXTGUARD_AUTOMATE_PAID", d.automate_paid, env),
        automation_interval_s=env_int("TEXTGUARD_AUTOMATION_INTERVAL_S", d.automation_interval_s, env, minimum=1),
        sensor_interval_s=env_int("TEXTGUARD_SENSOR_INTERVAL_S", d.sensor_interval_s, env, minimum=1),
    )
