"""One check step per asset: every asset check of an asset evaluated in one ``@multi_asset_check``.

Checks are written one per invariant (``frame_check``, ``char_range_check``, ``documents_ok_check``
and the slices' own ``@asset_check``\\ s); Dagster runs each as its own step, and each step loads
its inputs again (the asset's frames of every document of the run, and ``source_documents``) and
stores its own start/input/output/success events. :func:`group_check_steps` rebuilds the checks of
each asset as one ``@multi_asset_check`` step that loads the inputs once and calls the same check
bodies in turn. What stays the same: the check names, descriptions, blocking flags and severities,
the metadata each check returns (so the UI, ``textguard report`` and its JUnit output show the
same results per document; a grouped step adds ``documents_failing``, the check's failing documents
across runs, :mod:`.check_history`), and running one check alone (``can_subset``: the UI's "Execute" on a
check selects only that check, and only its body runs).

A check body may also take resources (after ``context``, by their keys); the step then requires them. A check
that reads other assets keeps its own step. ``benchmarks/bench_backfill.py`` measures both.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterable, Mapping, Sequence

import dagster as dg
from dagster import AssetCheckResult, AssetChecksDefinition, AssetIn, multi_asset_check
from dagster_shared.record import copy

from .check_history import accumulated_metadata
from .io_manager import ParquetIOManager

SOURCE = "source_documents"


def _groupable(chk: AssetChecksDefinition):
    """(asset, (spec, body, needs_sources, resource keys)) when ``chk`` is one check over one asset (+ sources,
    + resources), else None."""
    specs = list(chk.check_specs)
    if len(specs) != 1:
        return None
    resources = tuple(sorted(chk.op.required_resource_keys))
    params = [p for p in inspect.signature(chk.op.compute_fn.decorated_fn).parameters if p not in resources]
    if params[:2] != ["context", "value"] or not set(params[2:]) <= {SOURCE}:
        return None
    member = (specs[0], chk.op.compute_fn.decorated_fn, SOURCE in params, resources)
    return specs[0].asset_key.to_user_string(), member


def _as_result(spec, result: AssetCheckResult, extra: dict | None = None) -> AssetCheckResult:
    metadata = dict(result.metadata or {})
    if extra:
        metadata["documents_failing"] = dg.MetadataValue.md(extra["documents_failing"])
        metadata["documents_failing_count"] = extra["documents_failing_count"]
    return AssetCheckResult(
        asset_key=spec.asset_key,
        check_name=spec.name,
        passed=result.passed,
        severity=result.severity,
        metadata=metadata,
        description=result.description,
    )


def _history(context, spec, value, result: AssetCheckResult) -> dict | None:
    """The check's failing documents across runs (check_history.py), kept beside the warehouse the step read."""
    manager = getattr(context.resources, "parquet_io_manager", None)
    if not isinstance(manager, ParquetIOManager) or not isinstance(value, Mapping):
        return None
    try:
        return accumulated_metadata(
            str(manager._base_path),
            spec.asset_key.to_user_string(),
            spec.name,
            [str(k) for k in value],
            result.passed,
            result.metadata or {},
            context.op_execution_context.run_id,
        )
    except OSError as exc:  # the check's own result stands; only the table across runs is not updated
        context.log.warning(f"{spec.name}: documents failing across runs not updated: {exc}")
        return None


def _step(asset: str, members: list) -> AssetChecksDefinition:
    needs_sources = any(m[2] for m in members) and asset != SOURCE
    ins = {"value": AssetIn(asset), **({SOURCE: AssetIn(SOURCE)} if needs_sources else {})}
    resource_keys = {key for m in members for key in m[3]}

    def evaluate(context, value, sources):
        selected = context.selected_asset_check_keys
        for spec, body, with_sources, resources in members:
            if spec.key not in selected:
                continue
            kwargs = {key: getattr(context.resources, key) for key in resources}
            if with_sources:
                kwargs[SOURCE] = sources
            result = body(context, value=value, **kwargs)
            yield _as_result(spec, result, _history(context, spec, value, result))

    specs = [m[0] for m in members]
    decorate = multi_asset_check(
        specs=specs, can_subset=True, name=f"{asset}_checks", ins=ins, required_resource_keys=resource_keys
    )
    if needs_sources:

        @decorate
        def _checks(context, value, source_documents):
            yield from evaluate(context, value, source_documents)
    else:

        @decorate
        def _checks(context, value):  # type: ignore[no-redef]
            yield from evaluate(context, value, value if asset == SOURCE else None)

    return _checks


def group_checks(checks: Iterable[AssetChecksDefinition]) -> list[AssetChecksDefinition]:
    """The same checks, one step per asset (checks that cannot be grouped are kept as they are)."""
    by_asset: dict[str, list] = {}
    kept: list[AssetChecksDefinition] = []
    for chk in checks:
        info = _groupable(chk) if isinstance(chk, AssetChecksDefinition) else None
        if info is None:
            kept.append(chk)
            continue
        asset, member = info
        by_asset.setdefault(asset, []).append(member)
    return kept + [_step(asset, members) for asset, members in by_asset.items()]


def group_check_steps(defs: dg.Definitions) -> dg.Definitions:
    """``defs`` with its asset checks grouped into one step per asset (see the module docstring)."""
    checks: Sequence = list(defs.asset_checks or [])
    return copy(defs, asset_checks=group_checks(checks))
