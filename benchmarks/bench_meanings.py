"""resolved_meanings on a ≈ 500,000-character book (issue 16 item 5; seed 003: a 200-page book), its cost in
parses, and the whole report's (issue 50).

The book: the prose documents of the public dev corpus (../shared/corpus: an RFC, research papers,
READMEs, policies — none written here, none repeated) joined with form feeds as page breaks, cut at
500,000 characters. Wall time with the embedded defaults (spaCy + WordNet, no LLM; goal < 2 minutes on one
core), mentions per second, and — as the same-run baseline — the resolver without the domain profile and
without one-sense-per-discourse pooling (what the domain-aware pass costs).

Issue 50's two yardsticks, printed first, each best of two against spaCy's full English pipeline (``nlp.pipe``
over the same prose chunks, every component, one core) in the same run (the machine is shared: only a ratio
measured in one run means anything):

1. ``resolved_meanings``' wall time over that parse of the book's prose. Each timed resolver is built anew
   with the per-process lexicon memos and sentence vectors empty, as a fresh worker starts; what lives on
   disk (sense vectors, the per-lemma WordNet memos of ``meanings/lexicon_memo.py``) stays, as it does
   between runs on one machine.
2. The whole ``textguard report`` (every asset and check, two workers, a fresh warehouse and instance each
   time) over the whole dev corpus, over that parse of the prose chunks the report's ``parsed_chunks`` holds.
"""

import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from benchmarks import SHARED_CORPUS
from textguard_pipeline.core.pipeline import parse_chunks
from textguard_pipeline.lib.nlp import load_spacy
from textguard_pipeline.meanings import wn_memo
from textguard_pipeline.meanings.resolver import build_resolver
from textguard_pipeline.meanings.sense_vectors import _SENTENCES
from textguard_pipeline.meanings.senses import _LEXICON_CACHES
from textguard_pipeline.settings import meanings_settings

CORPUS = SHARED_CORPUS
ORDER = [
    "txt/rfc8446.txt",
    "tex/fail_latin_poetic_style.tex",
    "tex/conv_arithmetic.tex",
    "md/amrex_joss_paper.md",
    "md/comply_policy_risk.md",
    "md/comply_policy_encryption.md",
    "md/evaluate_mauve_readme.md",
    "md/evaluate_comet_readme.md",
    "md/evaluate_cuad_readme.md",
    "md/evaluate_bleu_readme.md",
    "md/evaluate_coval_readme.md",
    "md/alce_readme.md",
    "md/gsm8k_readme.md",
    "md/conv_arithmetic_readme.md",
    "md/pl_learnprompting_chain_of_thought.md",
    "md/pl_learnprompting_ensembling.md",
]
TARGET = 500_000


def make_book() -> str:
    parts = [(CORPUS / p).read_text(encoding="utf-8") for p in ORDER if (CORPUS / p).is_file()]
    return "\f".join(parts)[:TARGET]


def _fresh(settings):
    """A resolver as a fresh worker builds it: models loaded (process-wide), every per-process memo empty."""
    _LEXICON_CACHES.clear()
    _SENTENCES.clear()
    wn_memo.clear()
    return build_resolver(settings)


def _run(settings, book: str) -> tuple[float, int]:
    chunks = parse_chunks(book, "md")
    t = time.perf_counter()
    df, _stats = _fresh(settings).resolve_document("book", book, chunks, "md")
    return time.perf_counter() - t, len(df)


def _parse(nlp, prose: list[str]) -> float:
    t = time.perf_counter()
    for _doc in nlp.pipe(prose, batch_size=64):
        pass
    return time.perf_counter() - t


def parses(settings, book: str, repeats: int = 2) -> None:
    """Issue 50: resolved_meanings' time over one full spaCy parse of the same prose, best of ``repeats``,
    interleaved (parse, resolve, parse, resolve …) so that a slow stretch of the machine hits both."""
    full = load_spacy(settings.spacy_model or None, profile="full")
    prose = [c.text for c in parse_chunks(book, "md") if c.chunk_type == "prose" and c.text.strip()]
    _parse(full, prose[:20])
    parse_s, ours_s = [], []
    for _ in range(repeats):
        parse_s.append(_parse(full, prose))
        ours_s.append(_run(settings, book)[0])
    p, o = min(parse_s), min(ours_s)
    print(
        f"spaCy full pipeline over the prose ({sum(map(len, prose)):,} characters): {', '.join(f'{x:.1f}' for x in parse_s)} s"
    )
    print(f"resolved_meanings (encoder {settings.sense_encoder}): {', '.join(f'{x:.1f}' for x in ours_s)} s")
    print(f"**resolved_meanings / spaCy full parse: {o / p:.2f}** (best of {repeats} each; goal ≤ 1.1)")


def _report(corpus: Path, place: Path) -> float:
    """Wall time of ``textguard report`` on two workers over ``corpus``, with a fresh warehouse and instance."""
    shutil.rmtree(place, ignore_errors=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DAGSTER_", "TEXTGUARD_CORPUS", "TEXTGUARD_WARE"))}
    env.update(DAGSTER_HOME=str(place / "home"), TEXTGUARD_CORPUS_DIR=str(corpus))
    env.update(TEXTGUARD_WAREHOUSE=str(place / "warehouse"), TEXTGUARD_REPORT_WORKERS="2")
    cmd = [sys.executable, "-m", "textguard_pipeline.cli", "report", "--out", str(place / "out"), "--quiet"]
    t = time.perf_counter()
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=3600)
    took = time.perf_counter() - t
    line = next((ln for ln in done.stdout.splitlines() if ln.startswith("Throughput:")), done.stdout[-300:])
    print(f"  report rc {done.returncode}: {line.strip()}")
    return took


def _report_prose(warehouse: Path) -> list[str]:
    """The prose chunks of every document as the report's ``parsed_chunks`` holds them."""
    import pandas as pd  # heavy: only to read the report's files back

    texts = []
    for path in sorted(warehouse.rglob("*.parquet")):
        if "parsed_chunks" in path.parts:
            df = pd.read_parquet(path, columns=["chunk_type", "text"])
            texts += [t for k, t in zip(df["chunk_type"], df["text"]) if k == "prose" and t.strip()]
    return texts


def report_parses(settings, repeats: int = 2) -> None:
    """Issue 50: the whole report on two workers over one single-core full parse of its prose, best of each."""
    full = load_spacy(settings.spacy_model or None, profile="full")
    with tempfile.TemporaryDirectory(prefix="bench-report-") as tmp:
        corpus = Path(tmp) / "corpus"
        shutil.copytree(CORPUS, corpus, ignore=shutil.ignore_patterns("SOURCES.md"))
        files = [f for f in corpus.rglob("*") if f.is_file()]
        size = sum(f.stat().st_size for f in files)  # measured here: the folder is gone after the block
        report_s, parse_s, prose = [], [], []
        for _ in range(repeats):
            report_s.append(_report(corpus, Path(tmp) / "run"))
            prose = prose or _report_prose(Path(tmp) / "run" / "warehouse")
            parse_s.append(_parse(full, prose))
    r, p = min(report_s), min(parse_s)
    print(
        f"textguard report, 2 workers, {CORPUS} ({len(files)} files, {size:,} bytes): {', '.join(f'{x:.1f}' for x in report_s)} s"
    )
    print(
        f"spaCy full pipeline over its prose ({sum(map(len, prose)):,} characters), one core: {', '.join(f'{x:.1f}' for x in parse_s)} s"
    )
    print(f"**whole report (2 workers) / spaCy full parse: {r / p:.2f}** (best of {repeats} each; goal ≤ 1.0)")


def main() -> None:
    if not CORPUS.is_dir():
        print(f"skipped: {CORPUS} is absent")
        return
    book = make_book()
    settings = replace(meanings_settings(), use_llm=False)
    plain = replace(settings, domain_aware=False, one_sense_per_discourse=False)
    print(f"book: {len(book):,} characters, {book.count(chr(12)) + 1} parts; lexicon {_fresh(settings).lexicon}")
    _run(plain, book[:20_000])  # warm models and the on-disk stores on both sides equally
    _run(settings, book[:20_000])
    parses(settings, book)
    if os.environ.get("BENCH_MEANINGS_REPORT", "1") != "0":
        report_parses(settings)
    base_s, base_n = _run(plain, book)
    ours_s, ours_n = _run(settings, book)
    print("| resolver | wall time | mentions | mentions/s |")
    print("|---|---|---|---|")
    print(
        f"| embedded defaults (domain profile, sentence encoder, one sense per discourse) | {ours_s:.1f} s | {ours_n:,} | {ours_n / ours_s:,.0f} |"
    )
    print(f"| baseline: no domain profile, per-mention Lesk | {base_s:.1f} s | {base_n:,} | {base_n / base_s:,.0f} |")
    print(f"ratio (defaults / baseline wall time): {ours_s / base_s:.2f}; goal < 120 s on one core")
