"""The two asset jobs and the planner shared by the corpus sensor and the corpus_refresh schedule.

One planner (:func:`plan_tick`) serves the sensor and the schedule: it compares
the corpus on disk with the registered `documents` partitions and with the
*known* content hashes, registers new documents and requests one run per
contiguous range of ≤ ``TEXTGUARD_MAX_PARTITIONS_PER_RUN`` new or changed
documents. The sensor and the schedule differ only in where the known hashes
come from (see defs_kit/partitions.py). Sensors: sensors.py; schedule:
schedules.py; executor: executor.py.
"""

import hashlib
from dataclasses import dataclass, field

from dagster import AssetSelection, RunRequest, define_asset_job
from dagster._core.storage.tags import ASSET_PARTITION_RANGE_END_TAG, ASSET_PARTITION_RANGE_START_TAG

from .. import settings
from ..defs_kit.partitions import (
    CorpusPlan,
    contiguous_ranges,
    documents_partitions,
    encode_cursor,
    plan_corpus,
    recorded_shas,
    register_partitions,
)
from ..ingest.documents import file_sha256
from .executor import EXECUTOR

# -- configuration ----------------------------------------------------------------

DEFAULT_REFRESH_CRON = settings.OperationsSettings.refresh_cron  # nightly at 02:00


def refresh_cron() -> str:
    """``TEXTGUARD_REFRESH_CRON`` checked with Dagster's own rule (settings checks the shape; this, e.g., Feb 30)."""
    from dagster._utils.schedules import is_valid_cron_string  # lazy: a private Dagster module, only here

    cron = settings.operations_settings().refresh_cron
    if not is_valid_cron_string(cron):
        raise settings.SettingsError(f"TEXTGUARD_REFRESH_CRON={cron!r} is not a cron schedule Dagster accepts")
    return cron


def refresh_timezone() -> str:
    return settings.operations_settings().refresh_tz


# -- jobs ---------------------------------------------------------------------------

# rewritten_chunks and rewritten_documents (the LLM round trip) are opt-in: only with TEXTGUARD_LLM_URL and
# TEXTGUARD_REWRITE_TASK set.
_ALL = (
    AssetSelection.all()
    if settings.rewrite_settings().enabled
    else AssetSelection.all() - AssetSelection.assets("rewritten_chunks", "rewritten_documents")
)

materialize_all = define_asset_job(
    "materialize_all",
    selection=_ALL,
    partitions_def=documents_partitions,
    executor_def=EXECUTOR,
    description="Every asset (and its checks) for the selected documents. Target of the corpus sensor and schedule.",
)

rematerialize_all = define_asset_job(
    "rematerialize_all",
    selection=_ALL,
    partitions_def=documents_partitions,
    executor_def=EXECUTOR,
    tags={".textguard/purpose": "rematerialize"},
    description=(
        "Re-materialize every asset of every document after a configuration change (model, lexicon, "
        "backend, code). Launch a backfill over all partitions from the UI; the automation sensor re-runs "
        "what a settings or code version change affects on its own."
    ),
)

# -- the planner (one place for sensor and schedule) ------------------------------------


@dataclass
class TickPlan:
    """What one sensor/schedule tick does."""

    plan: CorpusPlan
    ordered: list[str]  # every partition key, in partition order, after registering the new ones
    run_requests: list[RunRequest] = field(default_factory=list)

    @property
    def new_keys(self) -> list[str]:
        return self.plan.new_keys


def range_run_requests(keys: list[str], ordered: list[str], run_key_prefix: str) -> list[RunRequest]:
    """One run per contiguous range of ≤ max_partitions_per_run documents."""
    out = []
    for first, last in contiguous_ranges(keys, ordered, settings.max_partitions_per_run()):
        tags = {ASSET_PARTITION_RANGE_START_TAG: first, ASSET_PARTITION_RANGE_END_TAG: last}
        out.append(RunRequest(run_key=f"{run_key_prefix}:{first}..{last}", tags=tags))
    return out


def plan_tick(
    corpus_dir: str,
    registered: list[str],
    known_shas: dict[str, str],
    hasher=file_sha256,
    known_stamps: dict[str, str] | None = None,
) -> TickPlan:
    """Plan runs for the documents that are new or whose sha256 differs from ``known_shas``.

    The run key is derived from the (doc_id → sha256) content of the runs, so
    the same content is never requested twice by the same sensor. ``known_stamps``: see plan_corpus.
    """
    known = set(registered)  # once: a membership test per key against 100k registered documents
    plan = plan_corpus(corpus_dir, known, known_shas, hasher=hasher, known_stamps=known_stamps)
    ordered = list(registered) + [k for k in plan.new_keys if k not in known]
    to_run = plan.to_run
    if not to_run:
        return TickPlan(plan, ordered)
    stamp = hashlib.sha256(encode_cursor({k: plan.shas[k] for k in to_run}).encode()).hexdigest()[:12]
    return TickPlan(plan, ordered, range_run_requests(to_run, ordered, stamp))


def skip_message(plan: CorpusPlan) -> str:
    return f"no new or changed documents among {len(plan.shas)}"


# -- schedule: nightly reconciliation, known = what is materialized (warehouse) -------------


def refresh_requests(instance, corpus_dir: str | None = None, warehouse: str | None = None) -> TickPlan:
    """Register new documents in ``instance``; plan runs for new, changed or never-materialized ones.

    Schedules cannot return partition requests, so new partitions are added
    here, before the run requests that need them are returned.
    """
    registered = instance.get_dynamic_partitions(documents_partitions.name)
    known = recorded_shas(warehouse or settings.warehouse(), registered)
    tick = plan_tick(corpus_dir or settings.corpus_dir(), registered, known)
    if tick.new_keys:
        register_partitions(instance, tick.new_keys)
    return tick
