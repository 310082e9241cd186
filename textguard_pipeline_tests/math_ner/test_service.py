"""`textguard ner-serve` as a real process on 127.0.0.1: HTTP contract, seed §9 cases, error mapping."""

import sys

import httpx
import pytest

from textguard_pipeline.math_ner import HttpNerBackend, LLMNEROutput, NERResponse, RuleBasedExtractor
from textguard_pipeline_tests.math_ner.test_rules_and_client import assert_seed_case_1, assert_seed_case_2
from textguard_pipeline_tests.standin.client import free_port, process


def serve(*extra: str):
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    cmd = [
        sys.executable,
        "-m",
        "textguard_pipeline.cli",
        "ner-serve",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        *extra,
    ]
    return base, process(cmd, f"{base}/health")


@pytest.fixture(scope="module")
def ner_url():
    base, proc = serve()
    with proc:
        yield base


def test_health(ner_url):
    r = httpx.get(f"{ner_url}/health")
    assert r.status_code == 200 and r.json()["status"] == "ok"


def test_seed_cases_through_the_service(ner_url):
    client = HttpNerBackend(f"{ner_url}/ner", timeout_ms=5000)
    assert_seed_case_1(client.extract("Addition is commutative: 3 + 4 = 4 + 3"))
    text = "3 dodać 4 równa się 7"
    assert_seed_case_2(client.extract(text), text)


def test_service_gives_what_the_embedded_extractor_gives(ner_url):
    text = (
        "Dodawanie jest przemienne. Suma to wynik dodawania.\nTo add:\n1. align digits\n2. add ones\n"
        "2 + 2 = 5 and twenty-one minus one is twenty."
    )
    remote = HttpNerBackend(f"{ner_url}/ner").extract(text)
    local = RuleBasedExtractor().extract(text)
    assert remote.entities == local.entities and remote.frames == local.frames


def test_text_plain_contract(ner_url):
    r = httpx.post(f"{ner_url}/ner", content="3 plus 4 equals 7".encode(), headers={"Content-Type": "text/plain"})
    assert r.status_code == 200 and set(r.json()) == {"entities", "frames", "unmapped"}
    out = LLMNEROutput.model_validate(r.json())
    assert [e.canonical for e in out.entities] == ["3", "add", "4", "eq", "7"]
    assert all("source_span_id" not in f for f in out.frames)


def test_json_contract(ner_url):
    span = "6f1c1f0e-4b8a-4a8e-9a0e-3f3c2b1a0d9e"
    r = httpx.post(f"{ner_url}/ner", json={"text": "3 plus 4 equals 7", "span_id": span})
    assert r.status_code == 200
    resp = NERResponse.model_validate(r.json())
    assert str(resp.span_id) == span and resp.text == "3 plus 4 equals 7" and resp.processing_time_ms >= 0
    assert resp.frames[0].frame_type == "ARITH_EXAMPLE"


def test_batch(ner_url):
    r = httpx.post(
        f"{ner_url}/ner/batch", json={"spans": [{"text": "2 + 2 = 4"}, {"text": "sto"}], "domain": "math_elementary"}
    )
    assert r.status_code == 200
    results = r.json()["results"]
    assert [len(x["entities"]) for x in results] == [5, 1] and results[1]["entities"][0]["canonical"] == "100"


@pytest.mark.parametrize(
    "kwargs",
    [
        {"content": b"", "headers": {"Content-Type": "text/plain"}},
        {"content": b"   \n", "headers": {"Content-Type": "text/plain"}},
        {"content": ("x" * 10_001).encode(), "headers": {"Content-Type": "text/plain"}},
        {"content": b"\xff\xfe", "headers": {"Content-Type": "text/plain"}},
        {"json": {}},
        {"json": {"text": ""}},
        {"json": {"text": "y" * 10_001}},
        {"content": b"{not json", "headers": {"Content-Type": "application/json"}},
    ],
)
def test_422_for_missing_empty_or_too_long_text(ner_url, kwargs):
    assert httpx.post(f"{ner_url}/ner", **kwargs).status_code == 422


def test_batch_422(ner_url):
    assert httpx.post(f"{ner_url}/ner/batch", json={"spans": []}).status_code == 422
    assert httpx.post(f"{ner_url}/ner/batch", json={"spans": [{"text": ""}]}).status_code == 422


def test_upstream_failures_map_to_503_504_500(fresh_standin):
    """With --upstream the service is the seed's API in front of another backend: 503 / 504 / 500."""
    base, proc = serve("--upstream", f"http://127.0.0.1:{free_port()}/ner", "--timeout-ms", "500")
    with proc:
        r = httpx.post(f"{base}/ner", content=b"3 + 4 = 7", headers={"Content-Type": "text/plain"}, timeout=30)
        assert r.status_code == 503 and r.json()["kind"] == "unreachable"
    base, proc = serve("--upstream", f"{fresh_standin.base_url}/ner", "--timeout-ms", "300")
    with proc:
        fresh_standin.script({"POST /ner": [{"status": 200, "json": {}, "delay": 1.0}]})
        r = httpx.post(f"{base}/ner", json={"text": "3 + 4 = 7"}, timeout=30)
        assert r.status_code == 504 and r.json()["kind"] == "timeout"
        fresh_standin.script({"POST /ner": [{"status": 200, "body": "<html>oops</html>", "content_type": "text/html"}]})
        r = httpx.post(f"{base}/ner", content=b"3 + 4 = 7", headers={"Content-Type": "text/plain"}, timeout=30)
        assert r.status_code == 500 and r.json()["kind"] == "invalid_response"


def test_oversized_bodies_get_413_with_a_short_json_error(ner_url):
    big = ("3 + 4 = 7 " * 20_000).encode()  # 200 kB: over the cap of /ner
    for kwargs in (
        {"content": big, "headers": {"Content-Type": "text/plain"}},
        {"json": {"text": big.decode()}},
        {"content": iter([big[:100_000], big[100_000:]]), "headers": {"Content-Type": "text/plain"}},
    ):
        r = httpx.post(f"{ner_url}/ner", timeout=30, **kwargs)
        assert r.status_code == 413 and r.json()["kind"] == "too_large" and len(r.content) < 200
    r = httpx.post(f"{ner_url}/ner/batch", json={"spans": [{"text": "x" * 10_000}] * 1_500}, timeout=30)
    assert r.status_code == 413 and len(r.content) < 200
    assert httpx.get(f"{ner_url}/health").status_code == 200  # and the service is still up


def test_422_bodies_do_not_echo_the_input(ner_url):
    marker = "zzqq" * 2_600  # 10,400 characters: too long, but under the byte cap
    for r in (
        httpx.post(f"{ner_url}/ner", json={"text": marker}),
        httpx.post(f"{ner_url}/ner", content=marker.encode(), headers={"Content-Type": "text/plain"}),
        httpx.post(f"{ner_url}/ner/batch", json={"spans": [{"text": marker}] * 3}),
        httpx.post(
            f"{ner_url}/ner",
            content=b'{"text": "zzqq' + b"zzqq" * 100 + b'"',
            headers={"Content-Type": "application/json"},
        ),
    ):
        assert r.status_code == 422
        assert "zzqq" not in r.text and len(r.content) < 1_000


@pytest.mark.parametrize("digits", [309, 400, 4_301])
def test_huge_operands_give_frames_not_500(ner_url, digits):
    a = "9" * digits
    r = httpx.post(
        f"{ner_url}/ner",
        content=f"{a} + 1 = 1{'0' * digits}".encode(),
        headers={"Content-Type": "text/plain"},
        timeout=30,
    )
    assert r.status_code == 200
    (frame,) = LLMNEROutput.model_validate(r.json()).frames
    assert frame["frame_type"] == "ARITH_EXAMPLE" and frame["correct"] is True
