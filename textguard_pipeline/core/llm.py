"""Compatibility shim: the chat client lives in :mod:`textguard_pipeline.lib.llm`."""

from __future__ import annotations

from ..lib.llm import (  # noqa: F401  (re-exported public names)
    ChatClient,
    ChatResult,
    LLMConfig,
    LLMError,
    estimate_tokens,
    llm_config_from_env,
    parse_json_content,
)

__all__ = [
    "ChatClient",
    "ChatResult",
    "LLMConfig",
    "LLMError",
    "estimate_tokens",
    "llm_config_from_env",
    "parse_json_content",
]
