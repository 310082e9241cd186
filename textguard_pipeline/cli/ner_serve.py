"""`textguard ner-serve`: run the reference math NER backend (the app is math_ner.service.create_app)."""

from __future__ import annotations

import argparse


def cmd_ner_serve(args: argparse.Namespace) -> int:
    import uvicorn  # only the serving command needs the ASGI server (and FastAPI, ≈ 0.9 s to import)

    from ..math_ner import RuleBasedExtractor, make_backend
    from ..math_ner.service import create_app

    backend = make_backend(args.upstream, timeout_ms=args.timeout_ms) if args.upstream else RuleBasedExtractor()
    uvicorn.run(create_app(backend), host=args.host, port=args.port, log_level=args.log_level)
    return 0


def register_cli(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "ner-serve", help="run the reference math NER backend (POST /ner, /ner/batch, GET /health)"
    )
    p.add_argument("--host", default="127.0.0.1", help="interface to bind (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8001, help="port (default 8001)")
    p.add_argument(
        "--upstream", default=None, help="forward to this NER backend URL instead of the embedded rule-based extractor"
    )
    p.add_argument("--timeout-ms", type=int, default=10_000, help="upstream timeout in ms (default 10000)")
    p.add_argument("--log-level", default="warning", help="uvicorn log level (default warning)")
    p.set_defaults(func=cmd_ner_serve)
