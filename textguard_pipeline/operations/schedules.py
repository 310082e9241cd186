"""corpus_refresh: the nightly reconciliation (known hashes = what is materialized in the warehouse)."""

from dagster import DefaultScheduleStatus, ScheduleEvaluationContext, SkipReason, schedule

from .jobs import materialize_all, refresh_cron, refresh_requests, refresh_timezone, skip_message


@schedule(
    cron_schedule=refresh_cron(),
    execution_timezone=refresh_timezone(),
    job=materialize_all,
    default_status=DefaultScheduleStatus.STOPPED,
    description=(
        "Corpus refresh (TEXTGUARD_REFRESH_CRON, default nightly 02:00): registers new documents and runs "
        "only the new ones and those whose sha256 differs from the materialized source_documents row."
    ),
)
def corpus_refresh(context: ScheduleEvaluationContext):
    tick = refresh_requests(context.instance)
    if not tick.run_requests:
        return SkipReason(skip_message(tick.plan))
    return tick.run_requests
