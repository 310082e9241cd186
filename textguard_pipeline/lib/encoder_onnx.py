"""all-MiniLM-L6-v2 under ONNX Runtime: the graph built here from the safetensors weights, cached on disk.

:func:`build_graph` writes the BERT forward pass of :mod:`.encoder` (embeddings → 6 post-LayerNorm layers →
mean pooling → L2 normalisation) with ONNX Runtime's fused CPU kernels of the ``com.microsoft`` domain
(``Attention``, ``SkipLayerNormalization``, ``BiasGelu``): one kernel per attention block instead of a dozen
numpy temporaries. :func:`load_forward` keeps the serialised graph in ``textguard-onnx-<model hash>/`` beside
the model's files (written once, atomically, with a SHA-256 sidecar checked on every load: a damaged file is
rebuilt, never run) and :class:`OnnxForward` runs it on one thread, as the pipeline runs documents in
parallel processes.

``int8`` is the same graph after ``onnxruntime.quantization.quantize_dynamic`` (weights int8, activations
quantized per pass, which is why :class:`~.encoder.SentenceEncoder` runs it one text at a time); its vectors
differ from the fp32 ones (mean cosine 0.991) and cost a few labelled senses, so it is an option
(``TEXTGUARD_SENSE_ENCODER_PRECISION``), not the default (docs/measurements/meanings-benchmarks.md).

No dagster imports; ``onnx`` and ``onnxruntime`` are imported only when a graph is built or run.
"""

from __future__ import annotations

import hashlib
import json
import logging
from pathlib import Path
from typing import Any, Callable

import numpy as np

from ..settings import no_onnxruntime_telemetry
from .atomic import write_bytes_atomic, write_text_atomic

log = logging.getLogger(__name__)

#: Bump when the graph below changes: a new file name, so an old cache is never run by new code.
GRAPH_VERSION = 1
PRECISIONS = ("fp32", "int8")
#: GELU forms: "erf" is BERT's exact one (BiasGelu), "tanh" the approximation (FastGelu).
GELUS = ("erf", "tanh")


def runtime_available() -> bool:
    """Whether ``onnxruntime`` imports (the numpy path is used otherwise; ``onnx`` is needed to build a graph)."""
    no_onnxruntime_telemetry()
    try:
        import onnxruntime  # noqa: F401  # heavy: the runtime itself, probed once per encoder
    except ImportError:
        return False
    return True


def build_graph(weights: dict[str, np.ndarray], cfg: dict[str, Any], gelu: str = "erf") -> Any:
    """The ONNX model (opset 18 + ``com.microsoft``) of the encoder: inputs ``input_ids`` (int64, n × L) and
    ``attention_mask`` (int32, n × L, 1 for a real token), output ``embeddings`` (float32, n × hidden, unit
    rows)."""
    from onnx import TensorProto, helper, numpy_helper  # heavy: only when a graph is built

    if gelu not in GELUS:
        raise ValueError(f"gelu must be one of {GELUS}, not {gelu!r}")
    w = {
        k.removeprefix("bert."): np.asarray(v, dtype=np.float32) for k, v in weights.items() if "position_ids" not in k
    }
    hidden, heads, eps = (
        int(cfg["hidden_size"]),
        int(cfg["num_attention_heads"]),
        float(cfg.get("layer_norm_eps", 1e-12)),
    )
    inits: list[Any] = []
    nodes: list[Any] = []

    def const(name: str, value: np.ndarray) -> str:
        inits.append(numpy_helper.from_array(np.ascontiguousarray(value), name))
        return name

    def node(op: str, inputs: list[str], name: str, domain: str = "", **attrs: Any) -> str:
        nodes.append(helper.make_node(op, inputs, [name], name=name, domain=domain, **attrs))
        return name

    def skip_ln(dense_out: str, residual: str, prefix: str, name: str, bias_name: str) -> str:
        """LayerNorm(dense_out + dense bias + residual), BERT's post-LN residual, as one fused kernel."""
        inputs = [
            dense_out,
            residual,
            const(f"{name}_g", w[f"{prefix}LayerNorm.weight"]),
            const(f"{name}_b", w[f"{prefix}LayerNorm.bias"]),
            const(bias_name, w[f"{prefix}dense.bias"]),
        ]
        return node("SkipLayerNormalization", inputs, name, domain="com.microsoft", epsilon=eps)

    # embeddings: word + position[:L] + token type 0, then LayerNorm
    word = node("Gather", [const("word", w["embeddings.word_embeddings.weight"]), "input_ids"], "emb_word")
    length = node(
        "Slice",
        [node("Shape", ["input_ids"], "ids_shape"), const("one", np.array([1])), const("two", np.array([2]))],
        "ids_len",
    )
    pos = node(
        "Slice",
        [const("position", w["embeddings.position_embeddings.weight"]), const("zero", np.array([0])), length],
        "emb_pos",
    )
    summed = node(
        "Add",
        [node("Add", [word, pos], "emb_wp"), const("type0", w["embeddings.token_type_embeddings.weight"][0])],
        "emb_sum",
    )
    x = node(
        "LayerNormalization",
        [summed, const("ln0_g", w["embeddings.LayerNorm.weight"]), const("ln0_b", w["embeddings.LayerNorm.bias"])],
        "emb_ln",
        axis=-1,
        epsilon=eps,
    )
    for i in range(int(cfg["num_hidden_layers"])):
        p = f"encoder.layer.{i}."
        qkv_w = np.concatenate([w[f"{p}attention.self.{n}.weight"] for n in ("query", "key", "value")], axis=0).T
        qkv_b = np.concatenate([w[f"{p}attention.self.{n}.bias"] for n in ("query", "key", "value")])
        att = node(
            "Attention",
            [x, const(f"l{i}_qkv_w", qkv_w), const(f"l{i}_qkv_b", qkv_b), "attention_mask"],
            f"l{i}_att",
            domain="com.microsoft",
            num_heads=heads,
        )
        out = node("MatMul", [att, const(f"l{i}_out_w", w[f"{p}attention.output.dense.weight"].T)], f"l{i}_out")
        x = skip_ln(out, x, f"{p}attention.output.", f"l{i}_ln1", f"l{i}_out_b")
        inner = node("MatMul", [x, const(f"l{i}_inter_w", w[f"{p}intermediate.dense.weight"].T)], f"l{i}_inter")
        act = node(
            "BiasGelu" if gelu == "erf" else "FastGelu",
            [inner, const(f"l{i}_inter_b", w[f"{p}intermediate.dense.bias"])],
            f"l{i}_gelu",
            domain="com.microsoft",
        )
        ffn = node("MatMul", [act, const(f"l{i}_ffn_w", w[f"{p}output.dense.weight"].T)], f"l{i}_ffn")
        x = skip_ln(ffn, x, f"{p}output.", f"l{i}_ln2", f"l{i}_ffn_b")
    # mean over real tokens, then unit length
    mask = node(
        "Unsqueeze",
        [node("Cast", ["attention_mask"], "mask_f", to=TensorProto.FLOAT), const("minus1", np.array([-1]))],
        "mask_3d",
    )
    total = node("ReduceSum", [node("Mul", [x, mask], "masked"), const("axis1", np.array([1]))], "pool_sum", keepdims=0)
    count = node(
        "Max",
        [
            node("ReduceSum", [mask, const("axis1b", np.array([1]))], "mask_count", keepdims=0),
            const("tiny", np.array(1e-9, dtype=np.float32)),
        ],
        "mask_count_min",
    )
    pooled = node("Div", [total, count], "pooled")
    norm = node(
        "Max",
        [
            node("ReduceL2", [pooled, const("axis_last", np.array([-1]))], "pooled_norm", keepdims=1),
            const("tiny2", np.array(1e-12, dtype=np.float32)),
        ],
        "pooled_norm_min",
    )
    nodes.append(helper.make_node("Div", [pooled, norm], ["embeddings"], name="embeddings"))
    graph = helper.make_graph(
        nodes,
        "all-MiniLM-L6-v2",
        [
            helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["batch", "length"]),
            helper.make_tensor_value_info("attention_mask", TensorProto.INT32, ["batch", "length"]),
        ],
        [helper.make_tensor_value_info("embeddings", TensorProto.FLOAT, ["batch", hidden])],
        initializer=inits,
    )
    opsets = [helper.make_opsetid("", 18), helper.make_opsetid("com.microsoft", 1)]
    return helper.make_model(graph, opset_imports=opsets, producer_name="textguard_pipeline")


def quantize(model_bytes: bytes) -> bytes:
    """``model_bytes`` with int8 weights (``quantize_dynamic``; the embedding table stays float)."""
    import tempfile  # lazy: quantizing is rare (once per cache)

    from onnx import TensorProto  # heavy: only when a graph is quantized

    no_onnxruntime_telemetry()
    from onnxruntime.quantization import QuantType, quantize_dynamic  # heavy: only when a graph is quantized

    with tempfile.TemporaryDirectory() as tmp:
        src, dst = Path(tmp) / "fp32.onnx", Path(tmp) / "int8.onnx"
        src.write_bytes(model_bytes)
        quantize_dynamic(
            src,
            dst,
            weight_type=QuantType.QInt8,
            # per output channel, 7-bit: on AVX2 without VNNI the u8×s8 kernel saturates 8-bit products
            # (per-tensor 8-bit weights: cosine 0.957 to fp32 on the bench's windows; these: 0.991)
            per_channel=True,
            reduce_range=True,
            op_types_to_quantize=["MatMul", "Attention"],
            # the contrib ops' outputs have no inferred type: they are float
            extra_options={"DefaultTensorType": TensorProto.FLOAT},
        )
        return dst.read_bytes()


class GraphCache:
    """The serialised graphs of one model in ``folder``: ``<name>.onnx`` plus ``<name>.json`` holding its
    SHA-256. The sidecar is written after the graph, so a graph without a matching sidecar (half a copy, a
    damaged disk, an older writer) is rebuilt rather than run."""

    def __init__(self, folder: Path | None):
        self.folder = folder

    def get(self, name: str) -> bytes | None:
        if self.folder is None:
            return None
        graph, sidecar = self.folder / f"{name}.onnx", self.folder / f"{name}.json"
        try:
            want = json.loads(sidecar.read_text(encoding="utf-8"))["sha256"]
            data = graph.read_bytes()
        except FileNotFoundError:
            return None
        except (OSError, ValueError, KeyError, TypeError) as exc:
            log.warning("encoder graph cache %s unreadable (%s): rebuilding it", graph, type(exc).__name__)
            return None
        if hashlib.sha256(data).hexdigest() != want:
            log.warning("encoder graph cache %s does not match its checksum: rebuilding it", graph)
            return None
        return data

    def put(self, name: str, data: bytes) -> None:
        if self.folder is None:
            return
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            write_bytes_atomic(self.folder / f"{name}.onnx", data)
            write_text_atomic(self.folder / f"{name}.json", json.dumps({"sha256": hashlib.sha256(data).hexdigest()}))
        except OSError as exc:  # an unwritable cache costs a rebuild per process, nothing else
            log.warning("encoder graph cache %s not writable (%s): the graph is kept in memory", self.folder, exc)


def graph_name(precision: str, gelu: str) -> str:
    return f"minilm-v{GRAPH_VERSION}-{precision}-{gelu}"


def graph_bytes(
    cache: GraphCache, precision: str, gelu: str, weights: Callable[[], dict[str, np.ndarray]], cfg: dict[str, Any]
) -> bytes:
    """The serialised graph from ``cache``, or built (int8 from the fp32 graph) and stored there."""
    if precision not in PRECISIONS:
        raise ValueError(f"precision must be one of {PRECISIONS}, not {precision!r}")
    name = graph_name(precision, gelu)
    data = cache.get(name)
    if data is not None:
        return data
    if precision == "int8":
        data = quantize(graph_bytes(cache, "fp32", gelu, weights, cfg))
    else:
        data = build_graph(weights(), cfg, gelu).SerializeToString()
    cache.put(name, data)
    return data


class OnnxForward:
    """One ONNX Runtime session on one thread: ``forward(ids, mask)`` → unit vectors."""

    def __init__(self, data: bytes):
        no_onnxruntime_telemetry()
        import onnxruntime as ort  # heavy: only when the encoder runs under it

        opts = ort.SessionOptions()
        # the pipeline runs documents in parallel processes: one thread each, and no spinning
        opts.intra_op_num_threads = 1
        opts.inter_op_num_threads = 1
        opts.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
        opts.log_severity_level = 3
        self.session = ort.InferenceSession(data, sess_options=opts, providers=["CPUExecutionProvider"])

    def forward(self, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        return self.session.run(
            ["embeddings"], {"input_ids": ids, "attention_mask": mask.astype(np.int32, copy=False)}
        )[0]


def load_forward(
    folder: Path | None, precision: str, gelu: str, weights: Callable[[], dict[str, np.ndarray]], cfg: dict[str, Any]
) -> OnnxForward:
    """An :class:`OnnxForward` from the cache in ``folder`` (None: built in memory); a cached graph that
    ONNX Runtime refuses is built again once."""
    cache = GraphCache(folder)
    data = graph_bytes(cache, precision, gelu, weights, cfg)
    try:
        return OnnxForward(data)
    except Exception as exc:  # noqa: BLE001 - ORT raises its own types for a graph it cannot load
        log.warning("encoder graph %s refused by ONNX Runtime (%s): rebuilding it", graph_name(precision, gelu), exc)
        if folder is not None:
            for suffix in (".json", ".onnx"):
                (folder / f"{graph_name(precision, gelu)}{suffix}").unlink(missing_ok=True)
        return OnnxForward(graph_bytes(cache, precision, gelu, weights, cfg))


def default_cache_folder(model_path: Path, model_hash: str) -> Path:
    """Beside the model's package files: installed and removed with it, writable where pip could write it."""
    return Path(model_path).parent / f"textguard-onnx-{model_hash}"


__all__ = [
    "GELUS",
    "PRECISIONS",
    "GraphCache",
    "OnnxForward",
    "build_graph",
    "default_cache_folder",
    "load_forward",
    "runtime_available",
]
