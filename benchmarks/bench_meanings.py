"""resolved_meanings on a ≈ 500,000-character book (issue 16 item 5; seed 003: a 200-page book).

The book: the prose documents of the public dev corpus (/work/shared/corpus: an RFC, research papers,
READMEs, policies — none written here, none repeated) joined with form feeds as page breaks, cut at
500,000 characters. Wall time with the embedded defaults (spaCy + WordNet, no LLM; goal < 2 minutes on one
core), mentions per second, and — as the same-run baseline — the resolver without the domain profile and
without one-sense-per-discourse pooling (what the domain-aware pass costs).
"""

import time
from dataclasses import replace
from pathlib import Path

from textguard_pipeline.core.pipeline import parse_chunks
from textguard_pipeline.meanings.resolver import build_resolver
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
    # lists, word signals) empty — otherwise the second run rides on the first one's warm caches.
    _LEXICON_CACHES.clear()
    chunks = parse_chunks(book, "md")
    t = time.perf_counter()
    df, _stats = resolver.resolve_document("book", book, chunks, "md")
    return time.perf_counter() - t, len(df)


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
    base_s, base_n = _run(plain, book)
    ours_s, ours_n = _run(resolver, book)
    print("| resolver | wall time | mentions | mentions/s |")
    print("|---|---|---|---|")
    print(
        f"| embedded defaults (domain profile, sentence encoder, one sense per discourse) | {ours_s:.1f} s | {ours_n:,} | {ours_n / ours_s:,.0f} |"
    )
    print(f"| baseline: no domain profile, per-mention Lesk | {base_s:.1f} s | {base_n:,} | {base_n / base_s:,.0f} |")
    print(f"ratio (defaults / baseline wall time): {ours_s / base_s:.2f}; goal < 120 s on one core")
