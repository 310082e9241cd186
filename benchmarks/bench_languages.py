"""Protection throughput per language (issue 17), next to English in the same run.

Input: the prose chunks of the labelled multilingual set
(``textguard_pipeline_tests/protection/data/language_protection.jsonl``: Debian manual pages in
English, French and Polish, plus written sentences with local number and citation forms).
Each language's chunks go through ``protect_many`` (one call per language, as a document would)
and ``restore`` per chunk with the default configuration — English through en_core_web_sm,
French through fr_core_news_sm, Polish with rules only. Best of REPEAT runs, languages
interleaved so that machine load affects them alike; the ratio is words/s against English.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from textguard_pipeline.protection import TermProtectionConfig, TermProtector
from textguard_pipeline.protection.recognizers.ner_language import ner_status

SET = (
    Path(__file__).resolve().parents[1]
    / "textguard_pipeline_tests"
    / "protection"
    / "data"
    / "language_protection.jsonl"
)
REPEAT = 3


def _chunks(language: str) -> list:
    from textguard_pipeline_tests.protection.language_chunks import prose  # the test package's Chunk helper

    rows = [json.loads(line) for line in SET.open(encoding="utf-8")]
    return [prose(r["text"], language, i) for i, r in enumerate(r for r in rows if r["language"] == language)]


def main() -> None:
    protector = TermProtector(TermProtectionConfig())
    by_lang = {lang: _chunks(lang) for lang in ("en", "fr", "pl")}
    for chunks in by_lang.values():  # load each model and compile each language's patterns first
        protector.protect_many(chunks[:2])
    best = {lang: float("inf") for lang in by_lang}
    for _ in range(REPEAT):
        for lang, chunks in by_lang.items():
            t = time.perf_counter()
            for pc in protector.protect_many(chunks):
                protector.restore(pc.protected_text, pc)
            best[lang] = min(best[lang], time.perf_counter() - t)
    words = {lang: sum(len(c.text.split()) for c in chunks) for lang, chunks in by_lang.items()}
    rate = {lang: words[lang] / best[lang] for lang in by_lang}
    print(f"{'language':<9}{'chunks':>7}{'words':>8}{'words/s':>10}{'vs en':>8}  NER")
    for lang, chunks in by_lang.items():
        model, reason = ner_status(protector, lang)
        print(
            f"{lang:<9}{len(chunks):>7}{words[lang]:>8}{rate[lang]:>10.0f}{rate[lang] / rate['en']:>7.2f}x  "
            f"{model or 'off (' + str(reason) + ')'}"
        )


if __name__ == "__main__":
    main()
