"""Old module paths kept importable after the "one house" move (issue 12).

The old files are gone (so that git follows the renames when branches that edited them
merge); instead, importing an old dotted name returns the module at its new home. This
imports nothing until an old name is asked for, and never imports Dagster by itself.
Remove an entry once nothing imports the old name (``grep -r "textguard_pipeline.<old>"``).
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys

#: old dotted name → new dotted name
MOVED: dict[str, str] = {
    "textguard_pipeline.io_managers": "textguard_pipeline.defs_kit.io_manager",
    "textguard_pipeline.partitions": "textguard_pipeline.defs_kit.partitions",
    "textguard_pipeline.checks": "textguard_pipeline.defs_kit.checks",
    "textguard_pipeline.resources": "textguard_pipeline.defs_kit.resources",
    "textguard_pipeline.jobs": "textguard_pipeline.operations.defs",
    "textguard_pipeline.instance_storage": "textguard_pipeline.operations.instance_storage",
    "textguard_pipeline.report": "textguard_pipeline.operations.report",
    "textguard_pipeline.wordnet_cli": "textguard_pipeline.cli.wordnet",
}


class _AliasLoader(importlib.abc.Loader):
    def __init__(self, target: str) -> None:
        self.target = target

    def create_module(self, spec):
        module = importlib.import_module(self.target)
        self._spec = module.__spec__
        return module

    def exec_module(self, module) -> None:
        # The import system stamped the old name's spec on the module: give it back its own.
        module.__spec__ = self._spec


class _AliasFinder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path=None, target=None):
        new = MOVED.get(fullname)
        if new is None:
            return None
        return importlib.machinery.ModuleSpec(fullname, _AliasLoader(new))


def install() -> None:
    if not any(isinstance(f, _AliasFinder) for f in sys.meta_path):
        sys.meta_path.append(_AliasFinder())
