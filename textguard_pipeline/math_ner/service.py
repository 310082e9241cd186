"""The reference HTTP NER backend (seed 001 §3.3, §4): `textguard ner-serve`.

* ``POST /ner`` ``text/plain`` → ``{entities, frames, unmapped}`` (the backend contract);
  ``application/json`` ``NERRequest`` → ``NERResponse`` (with ``processing_time_ms``).
* ``POST /ner/batch`` ``{"spans": [NERRequest, ...], "domain": ...}`` → ``{"results": [...]}``.
* ``GET /health`` → ``{"status": "ok", "backend": ...}``.
* 413: a body over the size cap (short JSON error; the body is not read past the cap).
* 422: missing/blank text, text over 10,000 characters, body not UTF-8, invalid JSON. Error bodies
  never echo the input: pydantic errors are sent without their ``input``, at most five of them.
* 500 / 503 / 504: the extractor's failures (``NerBackendError``); an unexpected error is a short 500.

It answers with the extractor it is given: the embedded rule-based one by default, the LLM
extractor, the hybrid, or an upstream backend (whose failures map to 503 unreachable, 504 too slow
and 500 invalid JSON/schema).
"""

from __future__ import annotations

import logging
import time
from typing import Any

from fastapi import FastAPI, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse
from pydantic import ValidationError

from .http_backend import NerBackendError
from .rules import RuleBasedExtractor
from .schemas import (
    MAX_TEXT_CHARS,
    NERBatchRequest,
    NERBatchResponse,
    NerExtractor,
    NERRequest,
    NERResponse,
    frame_dict,
)

log = logging.getLogger(__name__)

#: Body cap of ``POST /ner``: the longest text allowed, every character JSON-escaped (``\ud83d\ude00``
#: is 12 bytes for one character), plus room for the other fields. Anything larger is 413 unread.
MAX_BODY_BYTES = 12 * MAX_TEXT_CHARS + 4096
#: ``POST /ner/batch`` takes at most 100 spans.
MAX_BATCH_SPANS = 100
MAX_BATCH_BODY_BYTES = MAX_BATCH_SPANS * MAX_BODY_BYTES
MAX_ERRORS = 5


def _error(status: int, detail: Any, kind: str | None = None) -> JSONResponse:
    body: dict[str, Any] = {"detail": detail}
    if kind:
        body["kind"] = kind
    return JSONResponse(status_code=status, content=body)


def _validation_error(exc: ValidationError) -> JSONResponse:
    """422 listing where the request is wrong, without echoing its content."""
    errors = exc.errors(include_url=False, include_input=False, include_context=False)
    return _error(
        422,
        [{"loc": list(e["loc"]), "msg": e["msg"], "type": e["type"]} for e in errors[:MAX_ERRORS]],
        "invalid_request",
    )


async def _read_capped(request: Request, cap: int) -> bytes | None:
    """The request body, or None as soon as it is longer than ``cap`` bytes."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > cap:
        return None
    buf = bytearray()
    async for piece in request.stream():
        buf += piece
        if len(buf) > cap:
            return None
    return bytes(buf)


def _too_large(cap: int) -> JSONResponse:
    return _error(413, f"request body over {cap} bytes", "too_large")


def create_app(
    extractor: NerExtractor | None = None,
    max_body_bytes: int = MAX_BODY_BYTES,
    max_batch_body_bytes: int = MAX_BATCH_BODY_BYTES,
) -> FastAPI:
    """The FastAPI application answering with ``extractor`` (default: rule-based)."""
    backend = extractor or RuleBasedExtractor()
    app = FastAPI(
        title="textguard math NER",
        version="1",
        description="Elementary-math NER and frames (English and Polish input, canonical English output).",
    )

    async def run(texts: list[str]):
        """Results for ``texts`` (one batch call when the extractor has one), or an error response."""
        many = getattr(backend, "extract_many", None)
        try:
            if many is not None:
                return await run_in_threadpool(many, texts), None
            return [await run_in_threadpool(backend.extract, t) for t in texts], None
        except NerBackendError as exc:
            return None, _error(exc.status, str(exc), exc.kind)
        except Exception as exc:  # one bad request must not take the service down nor leak a traceback
            log.exception("NER extractor failed")
            return None, _error(500, f"extractor failed: {type(exc).__name__}", "internal")

    async def respond(reqs: list[NERRequest]) -> tuple[list[dict] | None, JSONResponse | None]:
        t0 = time.perf_counter()
        results, err = await run([r.text for r in reqs])
        if err is not None:
            return None, err
        ms = int((time.perf_counter() - t0) * 1000)
        out = []
        for req, res in zip(reqs, results):
            body = NERResponse(
                span_id=req.span_id,
                text=req.text,
                entities=res.entities,
                frames=res.frames,
                unmapped=res.unmapped,
                processing_time_ms=ms,
            ).model_dump(mode="json")
            body["frames"] = [frame_dict(f) for f in res.frames]
            out.append(body)
        return out, None

    @app.get("/health")
    def health() -> dict[str, Any]:
        body: dict[str, Any] = {"status": "ok", "backend": backend.label}
        if hasattr(backend, "usage"):  # an LLM-backed service reports its requests and tokens so far
            body["usage"] = backend.usage()
        return body

    @app.post("/ner")
    async def ner(request: Request):
        raw = await _read_capped(request, max_body_bytes)
        if raw is None:
            return _too_large(max_body_bytes)
        ctype = request.headers.get("content-type", "text/plain").split(";")[0].strip().lower()
        try:
            body = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            return _error(422, f"body is not UTF-8 (byte offset {exc.start})", "invalid_request")
        if ctype == "application/json":
            try:
                req = NERRequest.model_validate_json(body)
            except ValidationError as exc:
                return _validation_error(exc)
            out, err = await respond([req])
            return err if err is not None else out[0]
        if ctype not in ("text/plain", ""):
            return _error(415, f"unsupported content type {ctype!r}; send text/plain or application/json")
        if not body.strip():
            return _error(422, "text is missing or blank", "invalid_request")
        if len(body) > MAX_TEXT_CHARS:
            return _error(422, f"text has {len(body)} characters; the limit is {MAX_TEXT_CHARS}", "invalid_request")
        results, err = await run([body])
        if err is not None:
            return err
        return results[0].to_output().model_dump(mode="json")

    @app.post("/ner/batch")
    async def ner_batch(request: Request):
        raw = await _read_capped(request, max_batch_body_bytes)
        if raw is None:
            return _too_large(max_batch_body_bytes)
        try:
            batch = NERBatchRequest.model_validate_json(raw)
        except ValidationError as exc:
            return _validation_error(exc)
        results, err = await respond(batch.spans)
        if err is not None:
            return err
        NERBatchResponse.model_validate({"results": results})  # the answer keeps to its schema
        return {"results": results}

    return app
