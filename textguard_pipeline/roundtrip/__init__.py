"""The LLM round trip (issue 13): protected chunks through a model and every term back — or a fallback that says why.

Library modules (no Dagster): ``prompt`` (the request), ``split`` (sentence-aligned pieces), ``engine``
(audit, repair, retry, restore, fallback), ``frame`` (the `rewritten_chunks` table and its rules).
The Dagster asset and checks are in ``defs.py``.
"""

from .engine import STATUSES, RewriteItem, RewriteResult, RoundTrip, RoundTripError
from .prompt import PROMPT_VERSION, SYSTEM_PROMPT, build_messages, task_instruction

__all__ = [
    "PROMPT_VERSION",
    "STATUSES",
    "SYSTEM_PROMPT",
    "RewriteItem",
    "RewriteResult",
    "RoundTrip",
    "RoundTripError",
    "build_messages",
    "task_instruction",
]
