"""deploy/env.example's TEXTGUARD_NER_URL is what `textguard ner-serve` serves (issue 14 item 9: it said :8088,
no /ner path)."""

import fcntl
import re
import socket
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from textguard_pipeline.cli import build_parser
from textguard_pipeline.math_ner import HttpNerBackend
from textguard_pipeline_tests.standin.client import process

ENV_EXAMPLE = Path(__file__).resolve().parents[2] / "deploy" / "env.example"


def example_ner_url() -> str:
    (url,) = re.findall(r"^#?\s*TEXTGUARD_NER_URL=(\S+)$", ENV_EXAMPLE.read_text(encoding="utf-8"), re.M)
    return url


def test_the_example_url_is_the_default_address_of_ner_serve():
    parts = urlsplit(example_ner_url())
    args = build_parser().parse_args(["ner-serve"])
    assert (parts.scheme, parts.hostname, parts.port, parts.path) == ("http", args.host, args.port, "/ner")


def test_ner_serve_started_with_the_example_values_answers_at_the_example_url(tmp_path):
    url = example_ner_url()
    parts = urlsplit(url)
    # the port is fixed by the example: serialise the test runs of this machine on it
    with open(f"/tmp/textguard-ner-example-{parts.port}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        with socket.socket() as s:
            if s.connect_ex((parts.hostname, parts.port)) == 0:
                pytest.skip(f"port {parts.port} is taken by another program")
        cmd = [
            sys.executable,
            "-m",
            "textguard_pipeline.cli",
            "ner-serve",
            "--host",
            parts.hostname,
            "--port",
            str(parts.port),
        ]
        with process(cmd, f"http://{parts.hostname}:{parts.port}/health"):
            client = HttpNerBackend(url, timeout_ms=5000, max_retries=0)
            res = client.extract("3 plus 4 equals 7")
            client.close()
    assert [e.canonical for e in res.entities] == ["3", "add", "4", "eq", "7"]
    assert [f.frame_type for f in res.frames] == ["ARITH_EXAMPLE"]
