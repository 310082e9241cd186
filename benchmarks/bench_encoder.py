"""The sentence encoder's runtimes (issue 50, item 2): numpy against ONNX Runtime, fp32 and int8, in one run.

The texts are what ``meanings/sense_vectors.py`` encodes: windows of ``WINDOW_WORDS`` (16) words of prose,
here cut from the public dev corpus (../shared/corpus; the project's own docs/*.md where it is absent).
Every variant encodes the same texts through :meth:`SentenceEncoder.encode` on one thread; variants are
interleaved repeat by repeat and each keeps its best CPU time (``time.process_time``: on a shared machine
the time the process itself was given). The ratio is numpy's time over the variant's; the cosine is the
variant's lowest against numpy's vectors. Graphs are built (and cached) before timing.
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np

from benchmarks import SHARED_CORPUS
from textguard_pipeline.lib.encoder import BATCH_SIZE, EncoderUnavailable, SentenceEncoder
from textguard_pipeline.lib.encoder_onnx import runtime_available
from textguard_pipeline.meanings.sense_vectors import WINDOW_WORDS

TEXTS = 128
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
    variants: list[tuple[str, SentenceEncoder, int]] = [("numpy fp32", numpy_enc, BATCH_SIZE)]
    if runtime_available():
        fp32 = SentenceEncoder(runtime="onnx")
        int8 = SentenceEncoder(runtime="onnx", precision="int8")
        variants += [(f"onnxruntime fp32, batch {b}", fp32, b) for b in (4, BATCH_SIZE, 16)]
        variants += [(f"onnxruntime int8, batch {BATCH_SIZE}", int8, BATCH_SIZE)]
    else:
        print("onnxruntime is not installed: numpy only")
    reference = numpy_enc.encode(texts)
    best = {name: float("inf") for name, _e, _b in variants}
    cosine = {}
    for r in range(REPEATS):
        turn = variants[r % len(variants) :] + variants[: r % len(variants)]  # the first slot rotates
        for name, enc, batch in turn:
            t = time.process_time()
            got = enc.encode(texts, batch_size=batch)
            best[name] = min(best[name], time.process_time() - t)
            cosine[name] = float((got * reference).sum(axis=1).min())
    base = best["numpy fp32"]
    print(
        f"{len(texts)} windows of {WINDOW_WORDS} words of {root}, {tokens / len(texts):.1f} tokens each; best of {REPEATS}"
    )
    print(f"{'runtime':<28} {'CPU s':>7} {'ms/text':>8} {'numpy/this':>11} {'min cosine':>11}")
    for name, _e, _b in variants:
        s = best[name]
        print(f"{name:<28} {s:7.2f} {1000 * s / len(texts):8.2f} {base / s:10.2f}x {cosine[name]:11.6f}")
    assert np.isfinite(base)


if __name__ == "__main__":
    main()
