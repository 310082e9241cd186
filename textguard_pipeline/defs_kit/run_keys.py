"""The documents a run targets, fetched once per run.

An asset check is not partitioned, so Dagster hands its input the *whole* partitioned asset: with
100,000 registered documents each check step of a 50-document run built 100,000 paths and looked
for 100,000 files (measured by ``benchmarks/bench_scale.py``: minutes per run). A run launched for
one document or a range (the sensor, the schedule, ``textguard report``, a UI backfill with the
multi-run policy) names its documents in its tags; :func:`run_partition_keys` turns those tags into
the keys, with one partition query per run and process (remembered for the next steps).
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from dagster import DynamicPartitionsDefinition
from dagster._core.storage.tags import (
    ASSET_PARTITION_RANGE_END_TAG,
    ASSET_PARTITION_RANGE_START_TAG,
    PARTITION_NAME_TAG,
)

_RECENT_RUNS = 16
_cache: OrderedDict[tuple[str, str], tuple[str, ...]] = OrderedDict()
_lock = threading.Lock()


def run_partition_keys(context) -> tuple[str, ...] | None:
    """The partition keys the run of ``context`` (an Input/OutputContext) targets, or None when the run
    names none (then the caller keeps Dagster's own keys)."""
    try:
        step = context.step_context
        tags = step.dagster_run.tags
        run_id = step.run_id
        partitions_def = context.asset_partitions_def
    except Exception:  # built outside a run (tests, build_input_context)
        return None
    if partitions_def is None:
        return None
    if PARTITION_NAME_TAG in tags:
        return (tags[PARTITION_NAME_TAG],)
    start, end = tags.get(ASSET_PARTITION_RANGE_START_TAG), tags.get(ASSET_PARTITION_RANGE_END_TAG)
    if not (start and end):
        return None
    key = (run_id, getattr(partitions_def, "name", None) or repr(partitions_def))
    with _lock:
        hit = _cache.get(key)
    if hit is not None:
        return hit
    if not isinstance(partitions_def, DynamicPartitionsDefinition) or not partitions_def.name:
        return None
    ordered = step.instance.get_dynamic_partitions(partitions_def.name)  # one query, in partition order
    position = {k: i for i, k in enumerate(ordered)}
    if start not in position or end not in position:
        return None
    keys = tuple(ordered[position[start]: position[end] + 1])
    with _lock:
        _cache[key] = keys
        while len(_cache) > _RECENT_RUNS:
            _cache.popitem(last=False)
    return keys
