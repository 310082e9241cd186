"""`textguard prune`: remove what belongs to documents that left the corpus (the only place that does).

The report lists stale partitions and files; removing them is an explicit act because a
corpus directory that is briefly unmounted or emptied would otherwise wipe the warehouse.
"""

from __future__ import annotations

from dagster import DagsterInstance

from .. import settings
from ..core.documents import discover_documents
from ..defs_kit.partitions import documents_partitions
from .instance import instance_lock, open_instance
from .warehouse import Stale, find_stale, orphan_tmp_files, remove_files


def document_assets() -> set[str]:
    """Names of the assets partitioned by documents (their warehouse directories)."""
    from .report import load_definitions

    graph = load_definitions().resolve_asset_graph()
    return {
        k.to_user_string()
        for k in graph.materializable_asset_keys
        if graph.get(k).partitions_def == documents_partitions
    }


def prune(
    instance: DagsterInstance | None = None, dry_run: bool = False, home: str | None = None
) -> tuple[Stale, list]:
    """Delete stale partitions from the instance and their files from the warehouse, and orphan
    temporary files. Returns (what was stale, orphan files). Refuses to run on an empty corpus."""
    corpus = set(discover_documents(settings.corpus_dir()))
    if not corpus:
        raise SystemExit(f"no documents under {settings.corpus_dir()}: refusing to prune everything")
    instance = instance or open_instance(home)
    warehouse = settings.warehouse()
    with instance_lock(home or settings.dagster_home()):
        registered = instance.get_dynamic_partitions(documents_partitions.name)
        stale = find_stale(warehouse, registered, corpus, document_assets())
        orphans = orphan_tmp_files(warehouse)
        if not dry_run:
            for key in stale.partitions:
                instance.delete_dynamic_partition(documents_partitions.name, key)
            remove_files(stale.files + orphans)
    return stale, orphans
