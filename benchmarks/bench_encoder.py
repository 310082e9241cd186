"""The sentence encoder's runtimes (issue 50, item 2): numpy against ONNX Runtime, fp32 and int8, in one run.

The texts are what ``meanings/sense_vectors.py`` encodes: windows of ``WINDOW_WORDS`` (16) words of prose,
here cut from the public dev corpus (../shared/corpus; the project's own docs/*.md where it is absent).
Every variant encodes the same texts through :meth:`SentenceEncoder.encode` on one thread; variants are
interleaved repeat by repeat and each keeps its best CPU time (``time.process_time``: on a shared machine
the time the process itself was given). The ratio is numpy's time over the variant's; the cosine is the
variant's lowest against numpy's vectors. Graphs are built (and cached) before timing. The padding line says
what share of each batch's token positions are padding, with ``encode``'s length-sorted batches and without.
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np

from benchmarks import SHARED_CORPUS
from textguard_pipeline.lib.encoder import BATCH_SIZE, CALL_TOKENS, EncoderUnavailable, SentenceEncoder, length_batches
from textguard_pipeline.lib.encoder_onnx import runtime_available
from textguard_pipeline.meanings.sense_vectors import WINDOW_WORDS

TEXTS = 128
#: (most texts per pass, a pass's cost in tokens) tried for int8
CUTS = ((8, 8), (8, 16), (8, 32), (16, 16), (16, 32))
REPEATS = 2
DOCS = Path(__file__).resolve().parents[1] / "docs"


def windows(n: int = TEXTS, words: int = WINDOW_WORDS or 16) -> tuple[list[str], Path]:
    """``n`` windows of ``words`` words spread over the corpus's Markdown and plain-text files, and where."""
    root, files = SHARED_CORPUS, sorted(SHARED_CORPUS.glob("*/*.md")) + sorted(SHARED_CORPUS.glob("*/*.txt"))
    if not files:
        root, files = DOCS, sorted(DOCS.glob("*.md"))
    tokens = " ".join(p.read_text(encoding="utf-8", errors="replace") for p in files).split()
    step = max(words, len(tokens) // n)
    return [" ".join(tokens[i : i + words]) for i in range(0, len(tokens) - words, step)][:n], root


def main() -> None:
    try:
        numpy_enc = SentenceEncoder(runtime="numpy")
    except EncoderUnavailable as exc:
        print(f"skipped: {exc}")
        return
    texts, root = windows()
    tokens = sum(len(t) for t in numpy_enc.tokenize(texts))
    # (name, encoder, most texts per pass, a pass's cost in tokens: 0 = fixed batches of the most)
    variants: list[tuple[str, SentenceEncoder, int, int]] = [("numpy fp32", numpy_enc, BATCH_SIZE, CALL_TOKENS)]
    if runtime_available():
        fp32 = SentenceEncoder(runtime="onnx")
        int8 = SentenceEncoder(runtime="onnx", precision="int8")
        variants += [(f"onnxruntime fp32, batch {b}", fp32, b, 0) for b in (4, BATCH_SIZE)]
        variants += [(f"onnxruntime fp32, ≤ {BATCH_SIZE} by length", fp32, BATCH_SIZE, CALL_TOKENS)]
        variants += [(f"onnxruntime int8, batch {b}", int8, b, 0) for b in (4, BATCH_SIZE, 16)]
        variants += [(f"onnxruntime int8, ≤ {b} by length, {c}", int8, b, c) for b, c in CUTS]
    else:
        print("onnxruntime is not installed: numpy only")
    reference = numpy_enc.encode(texts)
    best = {name: float("inf") for name, *_rest in variants}
    cosine = {}
    for r in range(REPEATS):
        turn = variants[r % len(variants) :] + variants[: r % len(variants)]  # the first slot rotates
        for name, enc, batch, call in turn:
            t = time.process_time()
            got = enc.encode(texts, batch_size=batch, call_tokens=call)
            best[name] = min(best[name], time.process_time() - t)
            cosine[name] = float((got * reference).sum(axis=1).min())
    base = best["numpy fp32"]
    print(
        f"{len(texts)} windows of {WINDOW_WORDS} words of {root}, {tokens / len(texts):.1f} tokens each; best of {REPEATS}"
    )
    print(f"{'runtime':<34} {'CPU s':>7} {'ms/text':>8} {'numpy/this':>11} {'min cosine':>11}")
    for name, *_rest in variants:
        s = best[name]
        print(f"{name:<34} {s:7.2f} {1000 * s / len(texts):8.2f} {base / s:10.2f}x {cosine[name]:11.6f}")
    lengths = [len(t) for t in numpy_enc.tokenize(texts)]
    print(
        "padding share of the token positions, sorted / in text order: "
        + ", ".join(
            f"batch {b}: {padding(lengths, b, True):.1%} / {padding(lengths, b, False):.1%}" for b in (4, 8, 16)
        )
    )
    cut = sorted(lengths)
    runs = length_batches(cut, BATCH_SIZE, CALL_TOKENS)
    cells = sum((e - s) * cut[e - 1] for s, e in runs)
    print(
        f"cut by length (≤ {BATCH_SIZE}, {CALL_TOKENS} tokens a pass): {len(runs)} passes, padding {1 - sum(cut) / cells:.1%}"
    )
    assert np.isfinite(base)


def padding(lengths: list[int], batch: int, by_length: bool) -> float:
    """Padded positions over all positions when ``lengths`` are batched ``batch`` at a time."""
    order = sorted(lengths) if by_length else list(lengths)
    cells = sum(max(order[s : s + batch]) * len(order[s : s + batch]) for s in range(0, len(order), batch))
    return 1 - sum(order) / max(1, cells)


if __name__ == "__main__":
    main()
