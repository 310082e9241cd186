"""Jobs, the corpus sensor and the corpus refresh schedule."""


from dagster import (
    AssetSelection,
    DefaultSensorStatus,
    RunRequest,
    SensorEvaluationContext,
    SensorResult,
    SkipReason,
    define_asset_job,
    sensor,
)
from dagster._core.storage.tags import ASSET_PARTITION_RANGE_END_TAG, ASSET_PARTITION_RANGE_START_TAG

from . import settings
from .partitions import contiguous_ranges, decode_cursor, documents_partitions, encode_cursor, plan_corpus

materialize_all = define_asset_job(
    "materialize_all",
    selection=AssetSelection.all(),
    partitions_def=documents_partitions,
    description="Every asset (and its checks) for the selected documents.",
)


def range_run_requests(keys: list[str], ordered: list[str], run_key_prefix: str) -> list[RunRequest]:
    """One run per contiguous range of ≤ max_partitions_per_run documents."""
    out = []
    for first, last in contiguous_ranges(keys, ordered, settings.max_partitions_per_run()):
        tags = {ASSET_PARTITION_RANGE_START_TAG: first, ASSET_PARTITION_RANGE_END_TAG: last}
        out.append(RunRequest(run_key=f"{run_key_prefix}:{first}..{last}", tags=tags))
    return out


@sensor(
    job=materialize_all,
    minimum_interval_seconds=60,
    default_status=DefaultSensorStatus.STOPPED,
    description="Registers new documents of the corpus as partitions; runs new or changed ones (sha256).",
)
def corpus_sensor(context: SensorEvaluationContext):
    registered = set(context.instance.get_dynamic_partitions(documents_partitions.name))
    known = decode_cursor(context.cursor)
    plan = plan_corpus(settings.corpus_dir(), registered, known)
    if not plan.to_run:
        return SkipReason(f"no new or changed documents among {len(plan.shas)}")
    ordered = list(registered) + [k for k in plan.new_keys if k not in registered]
    stamp = encode_cursor({k: plan.shas[k] for k in plan.to_run})
    import hashlib

    prefix = hashlib.sha256(stamp.encode()).hexdigest()[:12]
    return SensorResult(
        run_requests=range_run_requests(plan.to_run, ordered, prefix),
        dynamic_partitions_requests=[documents_partitions.build_add_request(plan.new_keys)] if plan.new_keys else [],
        cursor=encode_cursor(plan.shas),
    )
