"""Client of an HTTP NER backend (seed 001 §3.3, §5): POST text/plain, validate the answer."""

from __future__ import annotations

import json
import logging
import re
from typing import Any, Iterable

from pydantic import ValidationError

from ..lib.http import HttpClient, HttpConfig, HttpError, HttpResponse, default_deadline
from ..lib.outage import outage_label
from ..lib.redact import redact_url
from .rules import RuleBasedExtractor
from .schemas import LLMNEROutput, NEREntity, NerExtractor, NERResult, _short_error, validate_frame

log = logging.getLogger(__name__)


class NerBackendError(RuntimeError):
    """A failed backend call. ``kind``: unreachable | timeout | unavailable | budget | config | invalid_response |
    http; ``status``: the HTTP status our API answers with (503 / 504 / 500 / 502). ``budget`` (the run's cost
    or token cap is reached) and ``config`` (e.g. an unwritable response cache) are outages with their own
    reason (:mod:`textguard_pipeline.lib.outage`), not worth another try."""

    STATUS = {
        "unreachable": 503,
        "unavailable": 503,
        "budget": 503,
        "timeout": 504,
        "config": 500,
        "invalid_response": 500,
        "http": 502,
    }

    def __init__(self, kind: str, message: str, raw: str | None = None):
        self.kind = kind
        self.status = self.STATUS[kind]
        self.raw = raw
        super().__init__(f"NER backend {kind} ({self.status}): {message}")

    @property
    def retryable(self) -> bool:
        return self.status in (503, 504) and self.kind != "budget"

    @property
    def outage(self) -> str | None:
        """outage | budget | configuration when the backend could not answer (an invalid answer is not one)."""
        return outage_label(self.kind)


RAW_LOG_CHARS = 2000
RETRY_STATUSES = (503, 504)  # seed 001 §5: only "unavailable" and "too slow" are worth another try
POOL = 100  # as many requests in flight as httpx's default connection pool (the old client's bound)


class HttpNerBackend:
    """Client of a NER backend: ``POST url`` with the raw text as ``text/plain``.

    Built on the one HTTP client (:mod:`textguard_pipeline.lib.http`): retries 503/504-class failures
    (unreachable, timeout, backend 503/504) up to ``max_retries`` times with exponential backoff, or
    after the server's ``Retry-After`` when it sends one (capped at ``max_retry_after_s``); anything
    else fails at once.
    """

    def __init__(
        self,
        url: str,
        timeout_ms: int = 10_000,
        max_retries: int = 2,
        backoff_s: float = 0.25,
        client: HttpClient | None = None,
        logger: logging.Logger | None = None,
        max_retry_after_s: float = 60.0,
    ):
        self.url = url
        self.label = redact_url(url)  # shown in metadata and stored in rows: never the password
        self.timeout_ms = timeout_ms
        self.max_retries = max_retries
        self.backoff_s = backoff_s
        self.http = client or HttpClient(
            HttpConfig(
                timeout_s=timeout_ms / 1000,
                max_retries=max_retries,
                backoff_s=backoff_s,
                max_retry_after_s=max_retry_after_s,
                concurrency=POOL,
                retry_statuses=RETRY_STATUSES,
                deadline_s=default_deadline(timeout_ms / 1000, max_retries),
            )
        )
        self._log = logger or log

    def close(self) -> None:
        self.http.close()

    def _post(self, text: str) -> HttpResponse:
        return self._send(self.url, content=text.encode("utf-8"), headers={"Content-Type": "text/plain; charset=utf-8"})

    def _post_json(self, url: str, body: Any) -> HttpResponse:
        return self._send(url, json=body)

    def _send(self, url: str, **request: Any) -> HttpResponse:
        try:
            r = self.http.request("POST", url, **request)
        except HttpError as exc:
            raise self._error(url, exc) from None
        if r.status >= 400:
            raise NerBackendError("http", f"{url} answered {r.status}: {r.text[:200]}", raw=r.text[:RAW_LOG_CHARS])
        return r

    def _error(self, url: str, exc: HttpError) -> NerBackendError:
        """The seed's status for a call that failed for good (after the retries)."""
        if exc.kind == "timeout":
            return NerBackendError("timeout", f"{url} gave no answer in time ({exc})")
        if exc.kind == "unreachable":
            return NerBackendError("unreachable", f"{url}: {exc}")
        kind = {503: "unavailable", 504: "timeout"}.get(exc.status or 0, "http")
        if exc.status == 503 and _answered_kind(exc.raw) == "budget":  # a NER service whose LLM budget is spent
            kind = "budget"
        return NerBackendError(kind, f"{url} answered {exc.status} ({exc})", raw=(exc.raw or "")[:RAW_LOG_CHARS])

    def extract(self, text: str) -> NERResult:
        r = self._post(text)
        out = parse_output(r.text, self.url, self._log)
        return result_from_output(text, out, self.url, self._log)

    @property
    def batch_url(self) -> str:
        """``POST /ner/batch`` next to ``POST /ner`` (seed §4.1)."""
        return self.url.rstrip("/") + "/batch"

    def extract_batch(self, texts: list[str]) -> list[NERResult]:
        """Results for ``texts`` from ``POST {url}/batch``, up to 100 spans per request (seed §4.1)."""
        results: list[NERResult] = []
        for i in range(0, len(texts), 100):
            part = texts[i : i + 100]
            r = self._post_json(self.batch_url, {"spans": [{"text": t} for t in part], "domain": "math_elementary"})
            try:
                answers = r.json()["results"]
                assert isinstance(answers, list) and len(answers) == len(part)
            except (ValueError, KeyError, TypeError, AssertionError):
                self._log.error(
                    "NER backend %s: batch answer is not {results: [...]} for %d spans; raw (truncated): %s",
                    self.batch_url,
                    len(part),
                    r.text[:RAW_LOG_CHARS],
                )
                raise NerBackendError(
                    "invalid_response", "batch answer is not {results: [one per span]}", raw=r.text[:RAW_LOG_CHARS]
                ) from None
            for text, answer in zip(part, answers):
                out = parse_output(json.dumps(answer), self.batch_url, self._log)
                results.append(result_from_output(text, out, self.batch_url, self._log))
        return results


def _answered_kind(raw: str | None) -> str | None:
    """The ``kind`` a NER service's error answer names (``{"detail": …, "kind": …}``), else None."""
    try:
        kind = json.loads(raw or "").get("kind")
    except (ValueError, AttributeError):
        return None
    return kind if isinstance(kind, str) else None


def parse_output(raw: str, source: str, logger: logging.Logger) -> LLMNEROutput:
    """``raw`` validated as LLMNEROutput; invalid JSON or schema → NerBackendError (500), raw logged."""
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as exc:
        logger.error(
            "NER backend %s returned invalid JSON (%s); raw response (truncated): %s",
            source,
            exc.msg,
            raw[:RAW_LOG_CHARS],
        )
        raise NerBackendError(
            "invalid_response", f"invalid JSON: {exc.msg} at {exc.pos}", raw=raw[:RAW_LOG_CHARS]
        ) from None
    try:
        return LLMNEROutput.model_validate(data)
    except ValidationError as exc:
        logger.error(
            "NER backend %s returned JSON that is not LLMNEROutput (%d errors); raw response (truncated): %s",
            source,
            exc.error_count(),
            raw[:RAW_LOG_CHARS],
        )
        raise NerBackendError(
            "invalid_response",
            f"schema mismatch: {exc.errors()[0]['msg']} at {exc.errors()[0]['loc']}",
            raw=raw[:RAW_LOG_CHARS],
        ) from None


def result_from_output(text: str, out: LLMNEROutput, source: str, logger: logging.Logger) -> NERResult:
    """The checked result of a backend's answer for ``text``: entities anchored at their quote (or
    rejected), frames validated one by one (invalid ones kept aside, flagged), frame ranges outside
    the input dropped (the frame then covers the input)."""
    entities, rejected = anchor_entities(text, out.entities)
    frames, invalid = [], []
    for raw_frame in out.frames:
        raw_frame = (
            {k: v for k, v in raw_frame.items() if k != "source_span_id"} if isinstance(raw_frame, dict) else raw_frame
        )  # the adapter injects it; a backend's own is not trusted (seed §2.2)
        try:
            f = validate_frame(raw_frame)
        except ValidationError as exc:
            invalid.append({"frame": raw_frame, "error": _short_error(exc)})
            continue
        if f.start is not None and f.end is not None and not (f.start <= f.end <= len(text)):
            f = f.model_copy(update={"start": None, "end": None})  # unusable range: frame covers the input
        frames.append(f)
    for rej in rejected:
        logger.warning("NER backend %s: entity %r not found in the input; dropped", source, rej["text"])
    return NERResult(
        entities=entities,
        frames=frames,
        unmapped=list(out.unmapped),
        invalid_frames=invalid,
        rejected_entities=rejected,
    )


def anchor_entities(text: str, entities: Iterable[NEREntity]) -> tuple[list[NEREntity], list[dict[str, Any]]]:
    """Entities whose quote is at ``[start:end]``; others moved to the nearest exact occurrence.

    An entity whose quote does not occur in ``text`` (or is empty) is rejected,
    never kept with a wrong range.
    """
    ok, rejected = [], []
    for e in entities:
        if e.text and e.end <= len(text) and text[e.start : e.end] == e.text:
            ok.append(e)
            continue
        occ = [m.start() for m in re.finditer(re.escape(e.text), text)] if e.text else []
        if not occ:
            rejected.append(
                {
                    "text": e.text,
                    "start": e.start,
                    "end": e.end,
                    "type": e.type,
                    "reason": "quote not found in the input",
                }
            )
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
