"""`textguard ner-serve`: serve the math entity recogniser over HTTP (the app is math_ner.service.create_app)."""

from __future__ import annotations

import argparse
import sys


def cmd_ner_serve(args: argparse.Namespace) -> int:
    # lazy: the CLI imports a command's modules when it runs (`textguard --help` stays fast)
    from dataclasses import replace

    import uvicorn  # heavy: only the serving command needs the ASGI server (and FastAPI, ≈ 0.9 s to import)

    # lazy: the CLI imports a command's modules when it runs (`textguard --help` stays fast)
    from ..lib.llm import LLMConfig
    from ..math_ner import make_backend
    from ..math_ner.backends import NerConfigError, build_extractor
    from ..math_ner.service import create_app
    from ..settings import llm_settings, math_ner_settings

    if args.upstream:
        backend = make_backend(args.upstream, timeout_ms=args.timeout_ms)
    else:  # the service runs its extractor itself: it never forwards to TEXTGUARD_NER_URL
        ner = replace(math_ner_settings(), backend=args.backend or math_ner_settings().backend)
        llm = LLMConfig.from_settings(llm_settings(), use_cache=True) if ner.backend != "rules" else None
        try:
            backend = build_extractor(ner, llm, use_url=False)
        except NerConfigError as exc:
            print(f"textguard ner-serve: {exc}", file=sys.stderr)
            return 2
    uvicorn.run(create_app(backend), host=args.host, port=args.port, log_level=args.log_level)
    return 0


def register_cli(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "ner-serve",
        help="serve the math entity recogniser over HTTP (POST /ner, /ner/batch, GET /health)",
        description="Serve the math entity recogniser (variables, constants, formulas …) over HTTP on this "
        "machine, so that several pipelines share one. Point the pipeline at it with TEXTGUARD_NER_URL.",
        epilog="""examples:
  textguard ner-serve --port 8001                   # then: export TEXTGUARD_NER_URL=http://127.0.0.1:8001
  textguard ner-serve --backend hybrid              # rules, plus the LLM at $TEXTGUARD_LLM_URL""",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--host", default="127.0.0.1", help="interface to bind (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8001, help="port (default 8001)")
    p.add_argument(
        "--upstream", default=None, help="pass requests on to this NER service URL instead of recognising here"
    )
    p.add_argument(
        "--timeout-ms",
        type=int,
        default=10_000,
        help="how long to wait for --upstream, in milliseconds (default 10000)",
    )
    p.add_argument(
        "--backend",
        choices=("rules", "llm", "hybrid"),
        default=None,
        help="how entities are found (default $TEXTGUARD_NER_BACKEND or rules): rules needs nothing else; "
        "llm asks the chat model at $TEXTGUARD_LLM_URL; hybrid uses both",
    )
    p.add_argument(
        "--log-level", default="warning", help="server log level: debug, info, warning or error (default warning)"
    )
    p.set_defaults(func=cmd_ner_serve)
