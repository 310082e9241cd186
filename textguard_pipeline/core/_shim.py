"""Re-export every name (private ones too) of the modules that replaced a ``core`` module."""

from __future__ import annotations

from types import ModuleType
from typing import Any


def reexport(namespace: dict[str, Any], *modules: ModuleType) -> None:
    for module in modules:
        namespace.update({k: v for k, v in vars(module).items() if not k.startswith("__")})
