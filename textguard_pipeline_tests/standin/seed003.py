"""A scripted model for the seed-003 passes: answers Stage A, disambiguation and rating requests from
their own payloads, so one script serves every window and batch of a run in any order.

Spec (``{"seed003": {...}}`` as a scripted response):

* ``terms``: words the model "finds"; a Stage A request gets every occurrence of each term on its
  primary page with exact offsets (``indexType`` subject).
* ``page_delay``: ``{"<primary page>": seconds}`` — slow windows (to answer out of order).
* ``delay``: seconds before every answer (kill tests).

Disambiguation picks each item's first non-custom candidate (confidence 0.9); rating answers 0.8 / 0.6.
The reply's ``usage`` is ≈ 4 characters a token of the prompt and of the answer.
"""

from __future__ import annotations

import json
import re
import time


def _stage_a(spec: dict, payload: dict) -> dict:
    primary = payload["primaryPage"]
    page = next(p for p in payload["pages"] if p["pageNumber"] == primary)
    text = page["pageText"]
    entries = []
    for term in spec.get("terms", []):
        mentions = [
            {"pageNumber": primary, "textQuote": term, "charStart": m.start(), "charEnd": m.end()}
            for m in re.finditer(rf"\b{re.escape(term)}\b", text)
        ]
        if mentions:
            entries.append({"label": term, "indexType": "subject", "mentions": mentions})
    time.sleep(float((spec.get("page_delay") or {}).get(str(primary), 0)))
    return {"entries": entries}


def _disambiguate(payload: dict) -> dict:
    results = []
    for it in payload["items"]:
        real = [c for c in it["candidates"] if c.get("meaning_id")]
        c = real[0] if real else {"meaning_type": "custom", "meaning_id": None}
        results.append(
            {
                "itemId": it["itemId"],
                "meaning_type": c.get("meaning_type"),
                "meaning_id": c.get("meaning_id"),
                "confidence": 0.9,
                "reason_code": "clear_match",
            }
        )
    return {"results": results}


def _rate(payload: dict) -> dict:
    return {
        "ratings": [
            {"termId": t["termId"], "indexability": 0.8, "specificity": 0.6, "overallConfidence": 0.7}
            for t in payload["terms"]
        ]
    }


def reply(spec: dict, raw: bytes) -> dict:
    req = json.loads(raw or b"{}")
    if spec.get("delay"):
        time.sleep(float(spec["delay"]))
    payload = json.loads(req["messages"][-1]["content"])
    if "pages" in payload:
        answer = _stage_a(spec, payload)
    elif "items" in payload:
        answer = _disambiguate(payload)
    else:
        answer = _rate(payload)
    content = json.dumps(answer)
    prompt_chars = sum(len(m.get("content", "")) for m in req.get("messages", []))
    return {
        "id": "standin",
        "object": "chat.completion",
        "model": req.get("model", "standin"),
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": max(1, prompt_chars // 4), "completion_tokens": max(1, len(content) // 4)},
    }
