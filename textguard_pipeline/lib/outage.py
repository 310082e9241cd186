"""Whether a failure is a property of the document or of the world around it (an endpoint, a budget, a setting).

A document that fails for a reason outside it keeps its last good output while that output is still valid
(``defs_kit/runner.py``); a failure that is the document's own replaces the output with nothing. An error says
it is an outage through an ``outage`` attribute (True, or a short label: "outage" | "budget" |
"configuration"); the HTTP/LLM/NER errors set it from their ``kind``.
"""

from __future__ import annotations

#: error kinds that come from outside the document
OUTAGE_KINDS = {
    "unreachable": "outage",
    "timeout": "outage",
    "unavailable": "outage",
    "http": "outage",
    "budget": "budget",
    "config": "configuration",
}


def outage_label(kind: str | None) -> str | None:
    """``"outage"`` / ``"budget"`` / ``"configuration"`` for an outage kind, else None."""
    return OUTAGE_KINDS.get(kind or "")


class Outage(RuntimeError):
    """A failure outside the document; ``label`` is outage | budget | configuration."""

    def __init__(self, message: str, label: str = "outage"):
        self.outage = label
        super().__init__(message)


def outage_of(exc: BaseException | None) -> str | None:
    """The outage label of ``exc`` or of an error it was raised from (its cause chain), else None."""
    seen = 0
    while exc is not None and seen < 8:
        mark = getattr(exc, "outage", None)
        if mark:
            return mark if isinstance(mark, str) else "outage"
        exc, seen = exc.__cause__ or exc.__context__, seen + 1
    return None
