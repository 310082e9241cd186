"""The corpus sensor: registers new documents and requests runs for new or changed ones.

With declarative automation on (``TEXTGUARD_AUTOMATION``, defs_kit/automation.py) it requests only the root
asset, ``source_documents``; the automation sensor materializes the rest (eager), and re-runs what a settings
or code change affects (code versions) — the job of the former ``config_change_sensor``. With it off, each run
is the whole ``materialize_all`` job, as before.
"""

from dagster import AssetKey, DefaultSensorStatus, SensorEvaluationContext, SensorResult, SkipReason, sensor

from .. import settings
from ..defs_kit.automation import ROOT
from ..defs_kit.partitions import documents_partitions, encode_cursor, read_cursor
from .jobs import materialize_all, plan_tick, skip_message

# -- sensor: fast reaction, known = what it requested last (cursor) ------------------------


@sensor(
    job=materialize_all,
    minimum_interval_seconds=settings.operations_settings().sensor_interval_s,
    default_status=DefaultSensorStatus.STOPPED,
    description=(
        "Registers new documents of the corpus as partitions; runs new or changed ones (sha256): source_documents "
        "only while the automation sensor carries them downstream (TEXTGUARD_AUTOMATION=on), else every asset."
    ),
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
    requests = tick.run_requests
    if settings.operations_settings().automation:
        requests = [r.with_replaced_attrs(asset_selection=[AssetKey(ROOT)]) for r in requests]
    return SensorResult(
        run_requests=requests,
        dynamic_partitions_requests=[documents_partitions.build_add_request(tick.new_keys)] if tick.new_keys else [],
        cursor=cursor,
    )
