"""Run ``materialize_all`` out of process with the executor of ``TEXTGUARD_EXECUTOR`` (used by the e2e tests).

``python -m textguard_pipeline_tests.e2e._run_job FIRST LAST [ASSET ...]`` executes
the partition range FIRST..LAST (one multi-partition run) against the instance
of ``$DAGSTER_HOME`` and prints ``{"run_id": ..., "success": ...}`` as JSON.
The job is reconstructable (``execute_job``), so steps can run in other
processes: multiprocess children or Celery workers.
"""

import json
import sys
import warnings

warnings.filterwarnings("ignore")


def materialize_all_job():
    """Module-level pointer to the job, for reconstruction in workers."""
    from textguard_pipeline.definitions import defs

    return defs.resolve_job_def("materialize_all")


def main(argv: list[str]) -> int:
    from dagster import AssetKey, DagsterInstance, execute_job, reconstructable
    from dagster._core.storage.tags import ASSET_PARTITION_RANGE_END_TAG, ASSET_PARTITION_RANGE_START_TAG

    first, last, *assets = argv
    tags = {ASSET_PARTITION_RANGE_START_TAG: first, ASSET_PARTITION_RANGE_END_TAG: last}
    with DagsterInstance.get() as instance:
        result = execute_job(
            reconstructable(materialize_all_job),
            instance,
            tags=tags,
            asset_selection=[AssetKey(a) for a in assets] or None,
        )
        failures = [ev.message for ev in result.all_events if ev.is_failure]
        print(json.dumps({"run_id": result.run_id, "success": result.success, "failures": failures}))
    return 0 if result.success else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
