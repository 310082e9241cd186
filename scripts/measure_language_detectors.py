"""Measure lingua-language-detector and py3langid on the labelled chunks (tune and held-out halves).

Prints accuracy per split and language (all chunks, and prose chunks ≥ 200 chars), load time, time per
chunk and peak RSS growth. Run: python scripts/measure_language_detectors.py
"""

from __future__ import annotations

import json
import resource
import sys
import time
from pathlib import Path

DATA = Path(__file__).resolve().parents[1] / "textguard_pipeline_tests" / "ingest" / "data" / "language_chunks.jsonl"


def rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _code(lang):
    return lang.iso_code_639_1.name.lower() if lang is not None else None


def lingua_all():
    from lingua import LanguageDetectorBuilder

    det = LanguageDetectorBuilder.from_all_languages().with_preloaded_language_models().build()
    return lambda t: _code(det.detect_language_of(t))


def lingua_low():
    from lingua import LanguageDetectorBuilder

    det = LanguageDetectorBuilder.from_all_languages().with_low_accuracy_mode().build()
    return lambda t: _code(det.detect_language_of(t))


def langid_all():
    from py3langid.langid import MODEL_FILE, LanguageIdentifier

    ident = LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)
    return lambda t: ident.classify(t)[0]


DETECTORS = {
    "py3langid": langid_all,
    "lingua (all, high accuracy)": lingua_all,
    "lingua (all, low accuracy)": lingua_low,
}


def main() -> None:
    rows = [json.loads(line) for line in DATA.open(encoding="utf-8")]
    which = sys.argv[1:] or list(DETECTORS)
    for name in which:
        r0 = rss_mb()
        t0 = time.perf_counter()
        detect = DETECTORS[name]()
        detect("warm up the models with a short English sentence")
        load = time.perf_counter() - t0
        t1 = time.perf_counter()
        got = [detect(r["text"]) for r in rows]
        per = (time.perf_counter() - t1) / len(rows) * 1000
        print(f"== {name}: load {load:.2f}s, {per:.2f} ms/chunk, peak RSS +{rss_mb() - r0:.0f} MB")
        for split in ("tune", "heldout"):
            for lang in ("en", "fr", "pl"):
                sel = [(r, g) for r, g in zip(rows, got) if r["split"] == split and r["language"] == lang]
                ok = sum(g == r["language"] for r, g in sel)
                wrong = sorted({g for r, g in sel if g != r["language"]}, key=str)
                print(f"  {split:7s} {lang}: {ok}/{len(sel)} = {ok / len(sel):.1%}  wrong→{wrong}")
        # short text (the first N characters, cut at a word), tune half only: where inheriting pays
        tune = [r for r in rows if r["split"] == "tune"]
        for n in (20, 40, 60, 100, 150):
            cut = [(r, r["text"][:n].rsplit(" ", 1)[0]) for r in tune]
            ok = sum(detect(t) == r["language"] for r, t in cut)
            print(f"  tune, first {n:3d} chars: {ok}/{len(cut)} = {ok / len(cut):.1%}")


if __name__ == "__main__":
    main()
