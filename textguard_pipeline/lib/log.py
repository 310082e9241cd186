"""The logger shape the build functions take: ``logging.Logger`` and Dagster's ``context.log`` both fit."""

from __future__ import annotations

from typing import Any, Protocol


class Log(Protocol):  # logging.Logger and Dagster's context.log both fit
    def info(self, msg: str, *a: Any) -> Any: ...
    def warning(self, msg: str, *a: Any) -> Any: ...
    def error(self, msg: str, *a: Any) -> Any: ...
