"""A scripted loopback stand-in for external HTTP APIs (OpenAI-compatible LLMs, Wikidata).

Run: ``python -m textguard_pipeline_tests.standin.server --port P``. Tests
script it over HTTP:

* ``POST /_script`` ``{"routes": {"POST /v1/chat/completions": [resp, ...]}}``
  replaces the response queue of each named route; each request pops the next
  response, the last one repeats. A response is ``{"status": 200, "json": ...}``
  or ``{"status": 200, "body": "...", "content_type": "..."}``, with an optional
  ``"delay": seconds``, optional ``"headers": {...}`` (e.g. ``Retry-After``) and ``"chunked": true``
  (sent without Content-Length, in 64 KiB chunks), or ``"drip": seconds`` (the body one byte at a time, that
  far apart: a slow-dripping server), or ``"drip_headers": seconds`` (the status line and headers so).
* Mangler mode (an OpenAI-compatible model that mangles placeholders the way real ones do):
  ``{"mangle": {"kind": "bare"}}`` answers a chat request with the protected text of its last user
  message (between the ``<text>`` lines) mangled by that kind (see ``mangle.py``);
  ``{"mangle": {"mix": {"none": 40, "drop": 5, ...}, "seed": 1}}`` draws the kind per request from
  the weights, deterministically from the seed and the request body (a retry is a new draw).
  ``{"mangle": {"by_model": true}}`` reads the kinds from the request's model name
  ``"<anything>:<kind>,<kind>,...:<nonce>"``: the n-th request with that model and text gets the n-th
  kind (the last repeats), so one script serves many test examples.
  The reply carries ``usage`` (≈ 4 characters a token) and the drawn kind in ``x_mangle``.
* Seed-003 mode: ``{"seed003": {"terms": [...], ...}}`` answers Stage A, disambiguation and rating
  requests from their payloads (see ``seed003.py``).
* ``GET /_stats`` gives ``max_inflight`` (most requests being answered at once) and ``inflight``.
* ``GET /_requests`` lists the requests received (method, path, query, body, time);
  ``DELETE /_requests`` clears them. ``GET /_health`` answers ok.

Routes match on method and path (query ignored).
"""

from __future__ import annotations

import argparse
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

from textguard_pipeline_tests.standin import seed003
from textguard_pipeline_tests.standin.mangle import mangle, pick_kind, text_of_request

_lock = threading.Lock()
_routes: dict[str, list[dict]] = {}
_requests: list[dict] = []
_seen: dict[str, int] = {}  # by_model mangler: requests so far per (model, text)
_inflight = {"now": 0, "max": 0}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # Headers and body go out in separate writes: without TCP_NODELAY, Nagle + delayed ACK add ≈ 40 ms a request.
    disable_nagle_algorithm = True

    def log_message(self, fmt, *args):  # quiet
        pass

    def _send(
        self,
        status: int,
        body: bytes,
        ctype: str = "application/json",
        headers: dict | None = None,
        chunked=False,
        drip=0.0,
        drip_headers=0.0,
    ) -> None:
        if drip_headers:
            self._drip_headers(status, body, ctype, headers, drip_headers)
            return
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        for k, v in (headers or {}).items():
            self.send_header(k, str(v))
        if not chunked:
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if not drip:
                self.wfile.write(body)
                return
            for i in range(len(body)):  # a slow-dripping server: one byte every `drip` seconds
                self.wfile.write(body[i : i + 1])
                self.wfile.flush()
                time.sleep(drip)
            return
        # no Content-Length: the client only learns the size by reading (a cap must stop it mid-stream)
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        for i in range(0, len(body), 65536):
            part = body[i : i + 65536]
            self.wfile.write(f"{len(part):x}\r\n".encode() + part + b"\r\n")
        self.wfile.write(b"0\r\n\r\n")

    def _drip_headers(self, status: int, body: bytes, ctype: str, headers: dict | None, every: float) -> None:
        head = f"HTTP/1.1 {status} OK\r\nContent-Type: {ctype}\r\nContent-Length: {len(body)}\r\n"
        head += "".join(f"{k}: {v}\r\n" for k, v in (headers or {}).items()) + "\r\n"
        for ch in head.encode():
            self.wfile.write(bytes([ch]))
            self.wfile.flush()
            time.sleep(every)
        self.wfile.write(body)

    def _handle(self, method: str) -> None:
        parts = urlsplit(self.path)
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        if parts.path == "/_health":
            return self._send(200, b'{"status":"ok"}')
        if parts.path == "/_script" and method == "POST":
            data = json.loads(raw or b"{}")
            with _lock:
                for route, resps in data.get("routes", {}).items():
                    _routes[route] = list(resps)
            return self._send(200, b'{"ok":true}')
        if parts.path == "/_stats":
            with _lock:
                return self._send(
                    200, json.dumps({"inflight": _inflight["now"], "max_inflight": _inflight["max"]}).encode()
                )
        if parts.path == "/_requests":
            with _lock:
                if method == "DELETE":
                    _requests.clear()
                    _inflight["max"] = _inflight["now"]
                    return self._send(200, b"[]")
                return self._send(200, json.dumps(_requests).encode())
        key = f"{method} {parts.path}"
        with _lock:
            _requests.append(
                {
                    "method": method,
                    "path": parts.path,
                    "query": {k: v[0] for k, v in parse_qs(parts.query).items()},
                    "body": raw.decode("utf-8", "replace"),
                    "content_type": self.headers.get("Content-Type", ""),
                    "time": time.time(),
                }
            )
            queue = _routes.get(key)
            resp = None
            if queue:
                resp = queue.pop(0) if len(queue) > 1 else queue[0]
        if resp is None:
            return self._send(404, json.dumps({"error": f"no scripted response for {key}"}).encode())
        with _lock:
            _inflight["now"] += 1
            _inflight["max"] = max(_inflight["max"], _inflight["now"])
        try:
            self._answer(resp, raw)
        finally:
            with _lock:
                _inflight["now"] -= 1

    def _answer(self, resp: dict, raw: bytes) -> None:
        if resp.get("delay"):
            time.sleep(float(resp["delay"]))
        if "seed003" in resp:
            body, ctype = json.dumps(seed003.reply(resp["seed003"], raw)).encode(), "application/json"
        elif "mangle" in resp:
            body, ctype = json.dumps(_mangled_reply(resp["mangle"], raw)).encode(), "application/json"
        elif "json" in resp:
            body, ctype = json.dumps(resp["json"]).encode(), "application/json"
        else:
            body, ctype = str(resp.get("body", "")).encode(), resp.get("content_type", "text/plain")
        try:
            self._send(
                int(resp.get("status", 200)),
                body,
                ctype,
                resp.get("headers"),
                bool(resp.get("chunked")),
                float(resp.get("drip", 0)),
                float(resp.get("drip_headers", 0)),
            )
        except (BrokenPipeError, ConnectionResetError):
            pass

    def do_GET(self):  # noqa: N802
        self._handle("GET")

    def do_POST(self):  # noqa: N802
        self._handle("POST")

    def do_DELETE(self):  # noqa: N802
        self._handle("DELETE")


def _mangled_reply(spec: dict, raw: bytes) -> dict:
    req = json.loads(raw or b"{}")
    text = text_of_request(req)
    if spec.get("by_model"):
        kinds = str(req.get("model", "")).split(":")[1].split(",")
        key = f"{req.get('model')}\0{text}"
        with _lock:
            n = _seen[key] = _seen.get(key, -1) + 1
        kind = kinds[min(n, len(kinds) - 1)]
    else:
        kind = spec.get("kind") or pick_kind(spec["mix"], f"{spec.get('seed', 0)}:{raw.decode('utf-8', 'replace')}")
    answer = mangle(text, kind, f"{spec.get('seed', 0)}:{len(raw)}")
    prompt_chars = sum(len(m.get("content", "")) for m in req.get("messages", []))
    return {
        "id": "standin",
        "object": "chat.completion",
        "model": req.get("model", "standin"),
        "x_mangle": kind,
        "choices": [{"index": 0, "message": {"role": "assistant", "content": answer}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": max(1, prompt_chars // 4), "completion_tokens": max(1, len(answer) // 4)},
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, required=True)
    args = ap.parse_args()
    ThreadingHTTPServer.daemon_threads = True
    ThreadingHTTPServer((args.host, args.port), Handler).serve_forever()


if __name__ == "__main__":
    main()
