"""The corpus sensor (new or changed documents) and the config-change sensor (re-materialize everything)."""

from dagster import DefaultSensorStatus, SensorEvaluationContext, SensorResult, SkipReason, sensor

from .. import settings
from ..defs_kit.partitions import documents_partitions, encode_cursor, read_cursor
from .jobs import (
    all_documents_requests,
    config_fingerprint,
    materialize_all,
    plan_tick,
    rematerialize_all,
    skip_message,
)

# -- sensor: fast reaction, known = what it requested last (cursor) ------------------------


@sensor(
    job=materialize_all,
    minimum_interval_seconds=60,
    default_status=DefaultSensorStatus.STOPPED,
    description="Registers new documents of the corpus as partitions; runs new or changed ones (sha256).",
)
def corpus_sensor(context: SensorEvaluationContext):
    registered = context.instance.get_dynamic_partitions(documents_partitions.name)
    # The cursor carries each file's hash and stamp (device, inode, size, mtime): a file unchanged since the
    # last tick is not read again, even by a code server that restarted since.
    shas, stamps = read_cursor(context.cursor)
    tick = plan_tick(settings.corpus_dir(), registered, shas, known_stamps=stamps)
    cursor = encode_cursor(tick.plan.shas, tick.plan.stamps)
    if not tick.run_requests:
        if cursor == context.cursor:
            return SkipReason(skip_message(tick.plan))
        # only stamps changed (a file touched, same bytes): keep them, so it is not read again next tick
        return SensorResult(skip_reason=SkipReason(skip_message(tick.plan)), cursor=cursor)
    return SensorResult(
        run_requests=tick.run_requests,
        dynamic_partitions_requests=[documents_partitions.build_add_request(tick.new_keys)] if tick.new_keys else [],
        cursor=cursor,
    )


@sensor(
    job=rematerialize_all,
    minimum_interval_seconds=300,
    default_status=DefaultSensorStatus.STOPPED,
    description=(
        "When the asset code versions or TEXTGUARD_* settings change, re-materializes every document "
        "(rematerialize_all). The first tick only records the fingerprint."
    ),
)
def config_change_sensor(context: SensorEvaluationContext):
    graph = context.repository_def.asset_graph
    versions = {k.to_user_string(): graph.get(k).code_version for k in graph.materializable_asset_keys}
    fp = config_fingerprint(versions)
    if context.cursor is None:
        return SensorResult(skip_reason=SkipReason(f"recorded configuration {fp}"), cursor=fp)
    if context.cursor == fp:
        return SkipReason(f"configuration unchanged ({fp})")
    registered = context.instance.get_dynamic_partitions(documents_partitions.name)
    return SensorResult(run_requests=all_documents_requests(registered, fp), cursor=fp)
