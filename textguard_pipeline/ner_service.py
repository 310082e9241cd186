"""The reference HTTP NER backend (seed 001 §3.3, §4): `textguard ner-serve`.

* ``POST /ner`` ``text/plain`` → ``{entities, frames, unmapped}`` (the backend contract);
  ``application/json`` ``NERRequest`` → ``NERResponse`` (with ``processing_time_ms``).
* ``POST /ner/batch`` ``{"spans": [NERRequest, ...], "domain": ...}`` → ``{"results": [...]}``.
* ``GET /health`` → ``{"status": "ok"}``.
* 422: missing/blank text, text over 10,000 characters, body not UTF-8, invalid JSON.

By default it answers with the embedded rule-based extractor. With ``--upstream URL``
it forwards to another backend and maps that backend's failures to 503
(unreachable), 504 (too slow) and 500 (invalid JSON/schema).
"""


import json
import time
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .core.math_ner import NerExtractor


def create_app(extractor: "NerExtractor | None" = None):
    """The FastAPI application answering with ``extractor`` (default: rule-based)."""
    from fastapi import FastAPI, Request
    from fastapi.concurrency import run_in_threadpool
    from fastapi.responses import JSONResponse
    from pydantic import ValidationError

    from .core.math_ner import (
        MAX_TEXT_CHARS,
        NERBatchRequest,
        NERBatchResponse,
        NerBackendError,
        NERRequest,
        NERResponse,
        RuleBasedExtractor,
        frame_dict,
    )

    backend = extractor or RuleBasedExtractor()
    app = FastAPI(title="textguard math NER", version="1",
                  description="Elementary-math NER and frames (English and Polish input, canonical English output).")

    def error(status: int, detail: Any, kind: str | None = None) -> JSONResponse:
        body = {"detail": detail}
        if kind:
            body["kind"] = kind
        return JSONResponse(status_code=status, content=body)

    async def run(text: str):
        try:
            return await run_in_threadpool(backend.extract, text), None
        except NerBackendError as exc:
            return None, error(exc.status, str(exc), exc.kind)

    async def respond(req: NERRequest) -> tuple[dict | None, JSONResponse | None]:
        t0 = time.perf_counter()
        res, err = await run(req.text)
        if err is not None:
            return None, err
        out = NERResponse(span_id=req.span_id, text=req.text, entities=res.entities, frames=res.frames,
                          unmapped=res.unmapped, processing_time_ms=int((time.perf_counter() - t0) * 1000))
        body = out.model_dump(mode="json")
        body["frames"] = [frame_dict(f) for f in res.frames]
        return body, None

    @app.get("/health")
    def health() -> dict[str, str]:
        return {"status": "ok", "backend": backend.label}

    @app.post("/ner")
    async def ner(request: Request):
        raw = await request.body()
        ctype = request.headers.get("content-type", "text/plain").split(";")[0].strip().lower()
        try:
            body = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            return error(422, f"body is not UTF-8 (byte offset {exc.start})")
        if ctype == "application/json":
            try:
                req = NERRequest.model_validate_json(body)
            except ValidationError as exc:
                return error(422, json.loads(exc.json(include_url=False)))
            out, err = await respond(req)
            return err if err is not None else out
        if ctype not in ("text/plain", ""):
            return error(415, f"unsupported content type {ctype!r}; send text/plain or application/json")
        if not body.strip():
            return error(422, "text is missing or blank")
        if len(body) > MAX_TEXT_CHARS:
            return error(422, f"text has {len(body)} characters; the limit is {MAX_TEXT_CHARS}")
        res, err = await run(body)
        if err is not None:
            return err
        return res.to_output().model_dump(mode="json")

    @app.post("/ner/batch")
    async def ner_batch(request: Request):
        try:
            batch = NERBatchRequest.model_validate_json(await request.body())
        except ValidationError as exc:
            return error(422, json.loads(exc.json(include_url=False)))
        results = []
        for req in batch.spans:
            out, err = await respond(req)
            if err is not None:
                return err
            results.append(out)
        NERBatchResponse.model_validate({"results": results})  # the answer keeps to its schema
        return {"results": results}

    return app
