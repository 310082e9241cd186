"""``LLMFrameExtractor``: seed 001's LLM extractor on an OpenAI-compatible chat client.

The system and user prompts are seed §3.1 and §3.2, verbatim. The model's answer is validated like any
backend's (``LLMNEROutput``, entities anchored at their quote, frames one by one); an answer that is not
JSON or not the schema is asked again (``max_attempts`` calls in all), then fails as the seed maps it:
invalid output → 500, endpoint unreachable → 503, too slow → 504, rate-limited or down after the
client's retries → 503, any other HTTP error → 502. Nothing here runs unless ``TEXTGUARD_NER_BACKEND``
asks for the LLM (the pipeline builds this class only then).
"""

from __future__ import annotations

import json
import logging
import re
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from ..lib.llm import LLMError, parse_json_content
from .http_backend import NerBackendError, parse_output, result_from_output
from .schemas import NERResult

log = logging.getLogger(__name__)

#: Seed 001 §3.1, verbatim (the duplicated rule number 7 included).
SYSTEM_PROMPT = """You are a Named Entity Recognition (NER) system specializing in elementary mathematics
(grades 1–3). Your role is to extract mathematical entities and semantic frames from text.

## Entity Types
- OPERATION: arithmetic operations (addition, subtraction, multiplication, division)
- PROPERTY: mathematical properties (commutative, associative, distributive,
  zero_neutral, identity)
- NUMBER: specific numeric values (integers, decimals, number words)
- VARIABLE: algebraic variables (single letters used as unknowns)
- RELATION: mathematical relations (equals, less than, greater than, not equal to)
- CONCEPT: abstract math concepts (fraction, digit, remainder, place value)

## Rules
1. All canonical names MUST be in English, regardless of input language.
2. Canonical forms for OPERATION: add, sub, mul, div
3. Canonical forms for RELATION: eq, lt, gt, lte, gte, neq
4. Canonical forms for PROPERTY: commutative, associative, distributive,
   zero_neutral, identity
5. Extract frames that capture relationships between entities.
6. For sentences that define a term ("X is Y", "X is called Y", "X means Y") extract a
   DEFINITION frame with `term` (canonical English) and `definition` (original language text).
7. `start` and `end` are character offsets into the original text (0-indexed, end exclusive).
7. Confidence is a float in [0.0, 1.0].
8. Place unrecognized but potentially relevant fragments in `unmapped`.

## Output
Return ONLY valid JSON matching this schema — no explanation, no markdown fences."""

#: Seed 001 §3.2, verbatim; ``{surface_text}`` is the unit's text as it stands in the document.
USER_PROMPT = 'Extract named entities and frames from the following text:\n\n"{surface_text}"'


def messages_for(text: str) -> list[dict[str, str]]:
    """The chat messages for one text unit (plain substitution: braces in the text stay as they are)."""
    return [
        {"role": "system", "content": SYSTEM_PROMPT},
        {"role": "user", "content": USER_PROMPT.replace("{surface_text}", text)},
    ]


_STATUS_RE = re.compile(r"answered (\d{3})")


def _status(exc: LLMError) -> int | None:
    """The endpoint's HTTP status behind ``exc`` (the shared client names it in the message)."""
    status = getattr(exc, "status", None)
    if status is None:
        m = _STATUS_RE.search(str(exc))
        status = int(m.group(1)) if m else None
    return status


def _backend_error(exc: LLMError, label: str) -> NerBackendError:
    status = _status(exc)
    if exc.kind == "timeout":
        return NerBackendError("timeout", f"{label}: {exc}")
    if exc.kind == "unreachable":
        return NerBackendError("unreachable", f"{label}: {exc}")
    if exc.kind in ("budget", "config"):  # the cost or token cap is reached, the cache cannot be written
        return NerBackendError(exc.kind, f"{label}: {exc}")
    if exc.kind == "http" and (status is None or status == 429 or status >= 500):
        return NerBackendError("unavailable", f"{label}: {exc}", raw=exc.raw)
    if exc.kind == "http":
        return NerBackendError("http", f"{label}: {exc}", raw=exc.raw)
    return NerBackendError("invalid_response", f"{label}: {exc}", raw=exc.raw)


class LLMFrameExtractor:
    """Math NER by an LLM (seed §3, §5): one chat call per text unit, answers validated and checked.

    ``client``: the shared chat client (``lib.llm.ChatClient``: retries, ``Retry-After``, concurrency
    cap, token and cost meter, run budget). ``concurrency``: units submitted at once by ``extract_many``
    (the client's own cap, TEXTGUARD_LLM_CONCURRENCY, still bounds the requests in flight).
    """

    def __init__(self, client: Any, max_attempts: int = 2, concurrency: int = 8):
        self.client = client
        self.max_attempts = max(1, max_attempts)
        self.concurrency = max(1, concurrency)
        self.label = f"llm:{getattr(getattr(client, 'config', None), 'label', 'chat')}"
        self.invalid_answers = 0  # answers that were not JSON / not the schema (each one asked again or failed)

    def close(self) -> None:
        if hasattr(self.client, "close"):
            self.client.close()

    def usage(self) -> dict[str, float]:
        """The chat client's requests, tokens and cost so far (``lib.llm.ChatClient.usage``)."""
        usage = getattr(self.client, "usage", None)
        return dict(usage()) if callable(usage) else {}

    def extract(self, text: str) -> NERResult:
        last: NerBackendError | None = None
        for _ in range(self.max_attempts):
            try:
                content = self.client.chat(messages_for(text), json_mode=True)
            except LLMError as exc:
                raise _backend_error(exc, self.label) from None
            try:
                out = parse_output(json.dumps(parse_json_content(content)), self.label, log)
            except (LLMError, NerBackendError) as exc:  # not JSON, or not LLMNEROutput: ask again
                self.invalid_answers += 1
                last = (
                    exc
                    if isinstance(exc, NerBackendError)
                    else NerBackendError("invalid_response", f"{self.label}: {exc}", raw=content[:2000])
                )
                if isinstance(exc, LLMError):
                    log.error("LLM %s returned invalid JSON; raw response (truncated): %s", self.label, content[:2000])
                continue
            return result_from_output(text, out, self.label, log)
        assert last is not None
        raise last

    def extract_many(self, texts: list[str]) -> list[NERResult]:
        """Results in input order, ``concurrency`` calls at a time; the first failure is raised."""
        if len(texts) <= 1 or self.concurrency == 1:
            return [self.extract(t) for t in texts]
        with ThreadPoolExecutor(max_workers=min(self.concurrency, len(texts))) as pool:
            return list(pool.map(self.extract, texts))
