"""Client of an HTTP NER backend (seed 001 §3.3, §5): POST text/plain, validate the answer."""

from __future__ import annotations

import json
import logging
import re
import time
from typing import Any, Iterable

import httpx
from pydantic import ValidationError

from .rules import RuleBasedExtractor
from .schemas import LLMNEROutput, NEREntity, NerExtractor, NERResult, _short_error, validate_frame

log = logging.getLogger(__name__)

class NerBackendError(RuntimeError):
    """A failed backend call. ``kind``: unreachable | timeout | unavailable | invalid_response | http;
    ``status``: the HTTP status our API answers with (503 / 504 / 500 / 502)."""

    STATUS = {"unreachable": 503, "unavailable": 503, "timeout": 504, "invalid_response": 500, "http": 502}

    def __init__(self, kind: str, message: str, raw: str | None = None):
        self.kind = kind
        self.status = self.STATUS[kind]
        self.raw = raw
        super().__init__(f"NER backend {kind} ({self.status}): {message}")

    @property
    def retryable(self) -> bool:
        return self.status in (503, 504)


RAW_LOG_CHARS = 2000


class HttpNerBackend:
    """Client of a NER backend: ``POST url`` with the raw text as ``text/plain``.

    Retries 503/504-class failures (unreachable, timeout, backend 503/504) up to
    ``max_retries`` times with exponential backoff; anything else fails at once.
    """

    def __init__(self, url: str, timeout_ms: int = 10_000, max_retries: int = 2, backoff_s: float = 0.25,
                 client: httpx.Client | None = None, logger: logging.Logger | None = None):
        self.url = url
        self.label = url
        self.timeout_ms = timeout_ms
        self.max_retries = max_retries
        self.backoff_s = backoff_s
        self._client = client or httpx.Client(timeout=timeout_ms / 1000)
        self._log = logger or log

    def close(self) -> None:
        self._client.close()

    def _post(self, text: str) -> httpx.Response:
        last: NerBackendError | None = None
        for attempt in range(self.max_retries + 1):
            if attempt:
                time.sleep(self.backoff_s * (2 ** (attempt - 1)))
            try:
                r = self._client.post(self.url, content=text.encode("utf-8"),
                                      headers={"Content-Type": "text/plain; charset=utf-8"})
            except httpx.TimeoutException as exc:
                last = NerBackendError("timeout", f"{self.url} gave no answer within {self.timeout_ms} ms ({exc!r})")
                continue
            except httpx.TransportError as exc:
                last = NerBackendError("unreachable", f"{self.url}: {exc!r}")
                continue
            if r.status_code in (503, 504):
                last = NerBackendError("unavailable" if r.status_code == 503 else "timeout",
                                       f"{self.url} answered {r.status_code}", raw=r.text[:RAW_LOG_CHARS])
                continue
            if r.status_code >= 400:
                raise NerBackendError("http", f"{self.url} answered {r.status_code}: {r.text[:200]}",
                                      raw=r.text[:RAW_LOG_CHARS])
            return r
        assert last is not None
        raise last

    def extract(self, text: str) -> NERResult:
        r = self._post(text)
        raw = r.text
        try:
            data = json.loads(raw)
        except json.JSONDecodeError as exc:
            self._log.error("NER backend %s returned invalid JSON (%s); raw response (truncated): %s",
                            self.url, exc.msg, raw[:RAW_LOG_CHARS])
            raise NerBackendError("invalid_response", f"invalid JSON: {exc.msg} at {exc.pos}",
                                  raw=raw[:RAW_LOG_CHARS]) from None
        try:
            out = LLMNEROutput.model_validate(data)
        except ValidationError as exc:
            self._log.error("NER backend %s returned JSON that is not LLMNEROutput (%d errors); raw response "
                            "(truncated): %s", self.url, exc.error_count(), raw[:RAW_LOG_CHARS])
            raise NerBackendError("invalid_response", f"schema mismatch: {exc.errors()[0]['msg']} at "
                                  f"{exc.errors()[0]['loc']}", raw=raw[:RAW_LOG_CHARS]) from None
        entities, rejected = anchor_entities(text, out.entities)
        frames, invalid = [], []
        for raw_frame in out.frames:
            try:
                f = validate_frame(raw_frame)
            except ValidationError as exc:
                invalid.append({"frame": raw_frame, "error": _short_error(exc)})
                continue
            if f.start is not None and f.end is not None and not (f.start <= f.end <= len(text)):
                f = f.model_copy(update={"start": None, "end": None})  # unusable range: frame covers the input
            frames.append(f)
        for rej in rejected:
            self._log.warning("NER backend %s: entity %r not found in the input; dropped", self.url, rej["text"])
        return NERResult(entities=entities, frames=frames, unmapped=list(out.unmapped),
                         invalid_frames=invalid, rejected_entities=rejected)


def anchor_entities(text: str, entities: Iterable[NEREntity]) -> tuple[list[NEREntity], list[dict[str, Any]]]:
    """Entities whose quote is at ``[start:end]``; others moved to the nearest exact occurrence.

    An entity whose quote does not occur in ``text`` (or is empty) is rejected,
    never kept with a wrong range.
    """
    ok, rejected = [], []
    for e in entities:
        if e.text and e.end <= len(text) and text[e.start:e.end] == e.text:
            ok.append(e)
            continue
        occ = [m.start() for m in re.finditer(re.escape(e.text), text)] if e.text else []
        if not occ:
            rejected.append({"text": e.text, "start": e.start, "end": e.end, "type": e.type,
                             "reason": "quote not found in the input"})
            continue
        best = min(occ, key=lambda p: (abs(p - e.start), p))
        ok.append(e.model_copy(update={"start": best, "end": best + len(e.text)}))
    ok.sort(key=lambda e: (e.start, e.end))
    return ok, rejected


def make_backend(url: str | None, timeout_ms: int = 10_000, max_retries: int = 2) -> NerExtractor:
    """The HTTP backend at ``url``, or the embedded rule-based extractor when unset."""
    if url and url.strip():
        return HttpNerBackend(url.strip(), timeout_ms=timeout_ms, max_retries=max_retries)
    return RuleBasedExtractor()
