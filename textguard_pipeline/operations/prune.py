"""`textguard prune`: remove what belongs to documents that left the corpus (the only place that does).

The report lists stale partitions and files; removing them is an explicit act because a
corpus directory that is briefly unmounted or emptied would otherwise wipe the warehouse.
Only files textguard wrote are removed: a stale ``<asset>/<doc>.parquet`` must carry the key metadata
the IO manager stamps on every file it writes (``lib/written.py``); anything else in an asset folder
(which may be a link to a shared directory) is listed as kept.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from dagster import DagsterInstance

from .. import settings
from ..defs_kit.check_history import forget
from ..defs_kit.partitions import documents_partitions
from ..ingest.documents import discover_documents
from ..lib.written import written_by_textguard
from .instance import instance_lock, open_instance
from .warehouse import Stale, find_stale, orphan_tmp_files, remove_files


def document_assets() -> set[str]:
    """Names of the assets partitioned by documents (their warehouse directories)."""
    # heavy: the definitions import every slice; only when pruning runs
    from .report import load_definitions

    graph = load_definitions().resolve_asset_graph()
    return {
        k.to_user_string()
        for k in graph.materializable_asset_keys
        if graph.get(k).partitions_def == documents_partitions
    }


@dataclass
class PrunePlan:
    """What prune removes: stale partitions and files textguard wrote, orphan temporary files; and what it keeps."""

    stale: Stale = field(default_factory=Stale)
    orphans: list[Path] = field(default_factory=list)
    foreign: list[Path] = field(default_factory=list)  # stale-looking files textguard did not write: kept
    check_rows: int = 0  # rows of the checks' "documents failing" tables removed (defs_kit/check_history.py)

    def files(self) -> list[Path]:
        return self.stale.files + self.orphans

    def __bool__(self) -> bool:
        return bool(self.stale.partitions or self.files())


def plan_prune(instance: DagsterInstance) -> PrunePlan:
    """What :func:`prune` would remove now. Refuses (SystemExit) on an empty corpus."""
    corpus = set(discover_documents(settings.corpus_dir()))
    if not corpus:
        raise SystemExit(f"no documents under {settings.corpus_dir()}: refusing to prune everything")
    warehouse = settings.warehouse()
    registered = instance.get_dynamic_partitions(documents_partitions.name)
    stale = find_stale(warehouse, registered, corpus, document_assets())
    ours = [f for f in stale.files if written_by_textguard(f)]
    foreign = [f for f in stale.files if f not in ours]
    return PrunePlan(Stale(stale.partitions, ours), orphan_tmp_files(warehouse), foreign)


def prune(
    instance: DagsterInstance | None = None,
    dry_run: bool = False,
    home: str | None = None,
    approved: PrunePlan | None = None,
) -> PrunePlan:
    """Delete stale partitions from the instance and their files from the warehouse, and orphan temporary files;
    return what was (or, with ``dry_run``, would be) removed. ``approved``: a plan shown to the user earlier —
    only what is in it and still stale now is removed."""
    instance = instance or open_instance(home)
    with instance_lock(home or settings.dagster_home()):
        plan = plan_prune(instance)
        if approved is not None:
            plan = PrunePlan(
                Stale(
                    [k for k in plan.stale.partitions if k in approved.stale.partitions],
                    [f for f in plan.stale.files if f in approved.stale.files],
                ),
                [f for f in plan.orphans if f in approved.orphans],
                plan.foreign,
            )
        if not dry_run:
            for key in plan.stale.partitions:
                instance.delete_dynamic_partition(documents_partitions.name, key)
            remove_files(plan.files())
            plan.check_rows = forget(settings.warehouse(), plan.stale.documents())
    return plan
