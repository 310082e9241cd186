"""resolved_meanings on a ≈ 500,000-character book (issue 16 item 5; seed 003: a 200-page book), and its cost in
parses (issue 50).

The book: the prose documents of the public dev corpus (/work/shared/corpus: an RFC, research papers,
READMEs, policies — none written here, none repeated) joined with form feeds as page breaks, cut at
500,000 characters. Wall time with the embedded defaults (spaCy + WordNet, no LLM; goal < 2 minutes on one
core), mentions per second, and — as the same-run baseline — the resolver without the domain profile and
without one-sense-per-discourse pooling (what the domain-aware pass costs).

Issue 50's yardstick, printed first: ``resolved_meanings``' wall time over spaCy's full English pipeline
(``nlp.pipe`` over the same prose chunks, every component) in the same run, best of two each (the machine
is shared: only a ratio measured in one run means anything). Each timed resolver run starts with the
per-process lexicon memos empty, as a fresh worker does; the on-disk sense vectors stay (a second run has
them).
"""

import time
from dataclasses import replace
from pathlib import Path

from textguard_pipeline.core.pipeline import parse_chunks
from textguard_pipeline.lib.nlp import load_spacy
from textguard_pipeline.meanings.resolver import build_resolver
from textguard_pipeline.meanings.sense_vectors import _SENTENCES
from textguard_pipeline.meanings.senses import _LEXICON_CACHES
from textguard_pipeline.settings import meanings_settings

CORPUS = Path("/work/shared/corpus")
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


def _run(resolver, book: str) -> tuple[float, int]:
    # Both timed runs start from the same state: models loaded, the per-lexicon memos (signatures, sense
    # lists, word signals) and the process's sentence vectors empty — otherwise the second run rides on the
    # first one's warm caches.
    _LEXICON_CACHES.clear()
    _SENTENCES.clear()
    chunks = parse_chunks(book, "md")
    t = time.perf_counter()
    df, _stats = resolver.resolve_document("book", book, chunks, "md")
    return time.perf_counter() - t, len(df)


def _parse(nlp, prose: list[str]) -> float:
    t = time.perf_counter()
    for _doc in nlp.pipe(prose, batch_size=64):
        pass
    return time.perf_counter() - t


def parses(resolver, book: str, repeats: int = 2) -> None:
    """Issue 50: resolved_meanings' time over one full spaCy parse of the same prose, best of ``repeats``,
    interleaved (parse, resolve, parse, resolve …) so that a slow stretch of the machine hits both."""
    full = load_spacy(resolver.settings.spacy_model or None, profile="full")
    prose = [c.text for c in parse_chunks(book, "md") if c.chunk_type == "prose" and c.text.strip()]
    _parse(full, prose[:20])
    parse_s, ours_s = [], []
    for _ in range(repeats):
        parse_s.append(_parse(full, prose))
        ours_s.append(_run(resolver, book)[0])
    p, o = min(parse_s), min(ours_s)
    print(
        f"spaCy full pipeline over the prose ({sum(map(len, prose)):,} characters): {', '.join(f'{x:.1f}' for x in parse_s)} s"
    )
    print(f"resolved_meanings (encoder {resolver.settings.sense_encoder}): {', '.join(f'{x:.1f}' for x in ours_s)} s")
    print(f"**resolved_meanings / spaCy full parse: {o / p:.2f}** (best of {repeats} each; goal ≤ 1.1)")


def main() -> None:
    if not CORPUS.is_dir():
        print(f"skipped: {CORPUS} is absent")
        return
    book = make_book()
    settings = replace(meanings_settings(), use_llm=False)
    resolver = build_resolver(settings)
    plain = build_resolver(replace(settings, domain_aware=False, one_sense_per_discourse=False))
    print(f"book: {len(book):,} characters, {book.count(chr(12)) + 1} parts; lexicon {resolver.lexicon}")
    _run(plain, book[:20_000])  # warm caches and models on both sides equally
    _run(resolver, book[:20_000])
    parses(resolver, book)
    base_s, base_n = _run(plain, book)
    ours_s, ours_n = _run(resolver, book)
    print("| resolver | wall time | mentions | mentions/s |")
    print("|---|---|---|---|")
    print(
        f"| embedded defaults (domain profile, sentence encoder, one sense per discourse) | {ours_s:.1f} s | {ours_n:,} | {ours_n / ours_s:,.0f} |"
    )
    print(f"| baseline: no domain profile, per-mention Lesk | {base_s:.1f} s | {base_n:,} | {base_n / base_s:,.0f} |")
    print(f"ratio (defaults / baseline wall time): {ours_s / base_s:.2f}; goal < 120 s on one core")
