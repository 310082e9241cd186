"""The ONNX Runtime encoder (lib/encoder_onnx.py) against the numpy forward pass, its graph cache, its fallback."""

import logging
import subprocess
import sys

import numpy as np
import pytest

from textguard_pipeline.lib import encoder_onnx
from textguard_pipeline.lib.encoder import INSTALL_HINT, EncoderUnavailable, SentenceEncoder, model_dir

try:
    model_dir()
    HAVE_MODEL = True
except EncoderUnavailable:
    HAVE_MODEL = False

pytestmark = [
    pytest.mark.skipif(not HAVE_MODEL, reason=INSTALL_HINT),
    pytest.mark.skipif(not encoder_onnx.runtime_available(), reason="onnxruntime is not installed"),
]

TEXTS = [
    "",
    "a",
    "Ω",
    "The resistor limits the current through the LED.",
    "bank " * 300,  # far past 256 tokens: truncated as upstream
    "He sat on the river bank; she walked to the bank to deposit a cheque (and lost her card!).",
    "naïve café — déjà vu, 東京, émigré; x² + y² = z²",
    "    ",
]


@pytest.fixture(scope="module")
def reference():
    return SentenceEncoder(runtime="numpy")


@pytest.fixture(scope="module")
def graph_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("onnx-cache")


def _cosines(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return (a * b).sum(axis=1) / (np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1))


def test_onnx_runtime_gives_the_numpy_vectors_for_empty_short_long_and_unicode_texts(reference, graph_dir):
    ort = SentenceEncoder(runtime="onnx", cache_dir=graph_dir)
    assert ort.runtime == "onnxruntime fp32" and reference.runtime == "numpy"
    want = reference.encode(TEXTS)
    for batch_size in (1, 3, 8):  # padding inside a batch must not move a vector
        got = ort.encode(TEXTS, batch_size=batch_size)
        assert got.shape == (len(TEXTS), 384) and got.dtype == np.float32
        assert _cosines(got, want).min() > 0.9999
        assert np.allclose(np.linalg.norm(got, axis=1), 1.0, atol=1e-5)
    assert ort.encode([]).shape == (0, 384)


def test_the_cached_graph_is_reused_without_building_it_again(reference, graph_dir, monkeypatch):
    SentenceEncoder(runtime="onnx", cache_dir=graph_dir)  # built here unless the test above did
    graph = graph_dir / f"{encoder_onnx.graph_name('fp32', 'erf')}.onnx"
    before = graph.stat().st_mtime_ns

    def no_build(*args, **kwargs):
        raise AssertionError("the graph was built again although it is cached")

    monkeypatch.setattr(encoder_onnx, "build_graph", no_build)
    again = SentenceEncoder(runtime="onnx", cache_dir=graph_dir)
    assert graph.stat().st_mtime_ns == before
    assert _cosines(again.encode(TEXTS[3:4]), reference.encode(TEXTS[3:4])).min() > 0.9999


@pytest.mark.parametrize("damage", ["truncated", "garbage with a matching checksum", "sidecar missing"])
def test_a_damaged_cached_graph_is_rebuilt_not_run(reference, tmp_path, caplog, damage):
    SentenceEncoder(runtime="onnx", cache_dir=tmp_path)
    name = encoder_onnx.graph_name("fp32", "erf")
    graph, sidecar = tmp_path / f"{name}.onnx", tmp_path / f"{name}.json"
    good = graph.read_bytes()
    if damage == "truncated":  # half a file: its checksum no longer matches
        graph.write_bytes(good[: len(good) // 2])
    elif damage == "garbage with a matching checksum":  # passes the checksum, ONNX Runtime refuses it
        import hashlib
        import json

        graph.write_bytes(b"not an onnx graph")
        sidecar.write_text(json.dumps({"sha256": hashlib.sha256(b"not an onnx graph").hexdigest()}))
    else:
        sidecar.unlink()
    with caplog.at_level(logging.WARNING):
        enc = SentenceEncoder(runtime="onnx", cache_dir=tmp_path)
    assert enc.runtime == "onnxruntime fp32"
    assert _cosines(enc.encode(TEXTS[3:6]), reference.encode(TEXTS[3:6])).min() > 0.9999
    assert graph.read_bytes() == good  # the rebuilt graph is the same bytes, stored again
    if damage != "sidecar missing":
        assert "rebuilding" in caplog.text


def test_an_unwritable_cache_keeps_the_graph_in_memory(reference, tmp_path, caplog):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    with caplog.at_level(logging.WARNING):
        enc = SentenceEncoder(runtime="onnx", cache_dir=blocker / "cache")
    assert enc.runtime == "onnxruntime fp32" and "not writable" in caplog.text
    assert _cosines(enc.encode(TEXTS[3:4]), reference.encode(TEXTS[3:4])).min() > 0.9999


def test_without_onnxruntime_the_encoder_falls_back_to_numpy(tmp_path):
    # a fresh interpreter where onnxruntime cannot be imported: "auto" runs numpy, "onnx" says what is missing
    code = (
        "import sys; sys.modules['onnxruntime'] = None\n"
        "from textguard_pipeline.lib.encoder import SentenceEncoder, EncoderUnavailable, runtime_status\n"
        "print(runtime_status())\n"
        f"enc = SentenceEncoder(cache_dir={str(tmp_path)!r})\n"
        "print(enc.runtime, enc.encode(['a river bank']).shape)\n"
        f"print(SentenceEncoder(precision='int8', cache_dir={str(tmp_path)!r}).precision)\n"
        "try:\n    SentenceEncoder(runtime='onnx')\nexcept EncoderUnavailable as e:\n    print('refused:', e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.splitlines()[0].startswith("runs on numpy, fp32 (onnxruntime not installed")  # what doctor prints
    assert out.splitlines()[1] == "numpy (1, 384)"
    assert out.splitlines()[2] == "fp32"  # int8 asked, numpy has no int8: its vectors are fp32 (their store too)
    assert "refused: onnxruntime is not installed" in out
    assert not list(tmp_path.iterdir())  # nothing was built


def test_doctor_says_the_encoder_runs_on_onnx_runtime_at_the_configured_precision(monkeypatch):
    from textguard_pipeline.operations.doctor import check_models

    def encoder_line() -> str:
        return next(f.detail for f in check_models() if "minilm" in f.what)

    monkeypatch.delenv("TEXTGUARD_SENSE_ENCODER_PRECISION", raising=False)
    assert "; runs on ONNX Runtime 1." in encoder_line() and encoder_line().endswith(", fp32")
    monkeypatch.setenv("TEXTGUARD_SENSE_ENCODER_PRECISION", "int8")
    assert encoder_line().endswith(", int8")


def test_an_unknown_runtime_or_precision_is_refused(graph_dir):
    with pytest.raises(ValueError, match="runtime must be one of"):
        SentenceEncoder(runtime="torch")
    with pytest.raises(ValueError, match="precision must be one of"):
        SentenceEncoder(runtime="onnx", precision="fp16", cache_dir=graph_dir)


def test_the_int8_graph_is_quantized_from_the_cached_fp32_graph_and_stays_near_it(graph_dir):
    fp32 = SentenceEncoder(runtime="onnx", cache_dir=graph_dir)
    int8 = SentenceEncoder(runtime="onnx", precision="int8", cache_dir=graph_dir)
    assert int8.runtime == "onnxruntime int8"
    assert (graph_dir / f"{encoder_onnx.graph_name('int8', 'erf')}.onnx").stat().st_size < 0.8 * (
        graph_dir / f"{encoder_onnx.graph_name('fp32', 'erf')}.onnx"
    ).stat().st_size
    cos = _cosines(int8.encode(TEXTS), fp32.encode(TEXTS))
    assert cos.min() > 0.95 and cos.max() < 0.999999  # near, but not the same numbers


def test_an_int8_vector_does_not_depend_on_the_texts_encoded_with_it(graph_dir):
    # dynamic quantization scales activations per pass: batched, a text's vector moved with its companions
    int8 = SentenceEncoder(runtime="onnx", precision="int8", cache_dir=graph_dir)
    alone = np.vstack([int8.encode([t]) for t in TEXTS])
    assert np.array_equal(int8.encode(TEXTS), alone)
    assert np.array_equal(int8.encode(TEXTS[::-1], batch_size=8, call_tokens=0)[::-1], alone)


def test_running_under_onnx_runtime_opens_no_telemetry_store(tmp_path):
    # the wheel's telemetry otherwise opens ~/.cache/Microsoft/DeveloperTools/.onnxruntime/onnxruntime.db
    code = (
        "import os\n"
        "from textguard_pipeline.lib.encoder import SentenceEncoder\n"
        f"SentenceEncoder(runtime='onnx', cache_dir={str(tmp_path)!r}).encode(['a river bank'])\n"
        "fds = []\n"
        "for f in os.listdir('/proc/self/fd'):\n"
        "    try:\n"
        "        fds.append(os.readlink(f'/proc/self/fd/{f}'))\n"
        "    except OSError:\n"
        "        pass\n"
        "print([f for f in fds if 'onnxruntime' in f or 'Microsoft' in f])\n"
    )
    env = {k: v for k, v in __import__("os").environ.items() if k != "ORT_DISABLE_TELEMETRY"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env).stdout
    assert out.strip() == "[]"
