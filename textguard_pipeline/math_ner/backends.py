"""Which extractor ``ner_frames`` and ``textguard ner-serve`` use, from ``settings.MathNerSettings``.

=========  ==============================================  ================================================
backend    TEXTGUARD_NER_URL set                           unset
=========  ==============================================  ================================================
rules      the HTTP service (whatever it runs; as before)  ``RuleBasedExtractor`` in process (the default)
llm        every window to the service, ``/ner/batch``     every window to ``LLMFrameExtractor`` (chat client)
hybrid     rules in process; unmatched windows to the      rules in process; unmatched windows to
           service in ``/ner/batch`` requests              ``LLMFrameExtractor``
=========  ==============================================  ================================================

The chat client is built only for ``llm`` / ``hybrid`` without a URL, so nothing paid runs unless
``TEXTGUARD_NER_BACKEND`` asks for it. The service itself (``ner-serve --backend llm|hybrid``) never
forwards to ``TEXTGUARD_NER_URL``: it runs the LLM extractor on its own client.
"""

from __future__ import annotations

from typing import Any

from ..lib.llm import ChatClient, LLMConfig
from ..settings import NER_BACKENDS, MathNerSettings
from .http_backend import HttpNerBackend
from .hybrid import HybridFrameExtractor
from .llm import LLMFrameExtractor
from .rules import RuleBasedExtractor
from .schemas import NerExtractor


class NerConfigError(ValueError):
    """The settings ask for an extractor that cannot be built (e.g. an LLM with no endpoint)."""


def llm_extractor(settings: MathNerSettings, llm: LLMConfig | None, client: Any = None) -> LLMFrameExtractor:
    if client is None and llm is None:
        raise NerConfigError(
            f"TEXTGUARD_NER_BACKEND={settings.backend} needs an LLM: set TEXTGUARD_LLM_URL "
            "(an OpenAI-compatible /v1 endpoint) or TEXTGUARD_NER_URL (a service running "
            "`textguard ner-serve --backend llm`)"
        )
    return LLMFrameExtractor(
        client or ChatClient(llm), max_attempts=settings.llm_attempts, concurrency=settings.batch_size
    )


def build_extractor(
    settings: MathNerSettings, llm: LLMConfig | None = None, *, use_url: bool = True, client: Any = None
) -> NerExtractor:
    """The extractor for ``settings`` (``use_url=False``: the service's own, never forwarding)."""
    if settings.backend not in NER_BACKENDS:
        raise NerConfigError(f"unknown NER backend {settings.backend!r}; expected one of {', '.join(NER_BACKENDS)}")
    url = settings.url if use_url else ""
    if settings.backend == "rules":
        if url:
            return HttpNerBackend(url, timeout_ms=settings.timeout_ms, max_retries=settings.max_retries)
        return RuleBasedExtractor()
    remote: NerExtractor = (
        HttpNerBackend(url, timeout_ms=settings.timeout_ms, max_retries=settings.max_retries)
        if url
        else llm_extractor(settings, llm, client)
    )
    rules = RuleBasedExtractor() if settings.backend == "hybrid" else None
    return HybridFrameExtractor(remote, rules=rules, batch_size=settings.batch_size)
