"""Scoring of the multilingual protection set (issue 17 item 5): per-language span-exact precision/recall."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from .language_chunks import prose

SET = Path(__file__).parent / "data" / "language_protection.jsonl"


def examples(split: str | None = None, language: str | None = None) -> list[dict]:
    rows = [json.loads(line) for line in SET.open(encoding="utf-8")]
    return [
        r for r in rows if (split is None or r["split"] == split) and (language is None or r["language"] == language)
    ]


@dataclass
class LanguageScore:
    tp: int = 0
    fp: int = 0
    fn: int = 0
    allowed: int = 0  # protected proper names listed as allowed (neither credited nor penalised)
    names_protected: int = 0  # Polish personal names outside citations that got protected (must stay 0)
    false_positives: list = field(default_factory=list)
    misses: list = field(default_factory=list)

    @property
    def precision(self) -> float:
        return self.tp / max(1, self.tp + self.fp)

    @property
    def recall(self) -> float:
        return self.tp / max(1, self.tp + self.fn)

    def __str__(self) -> str:
        return (
            f"precision {self.precision:.1%} recall {self.recall:.1%} "
            f"(tp={self.tp} fp={self.fp} fn={self.fn} allowed={self.allowed})"
        )


def _occurrences(text: str, needles: list[str]) -> list[tuple[int, int]]:
    out = []
    for n in needles:
        out += [(m.start(), m.end()) for m in re.finditer(rf"(?<!\w){re.escape(n)}(?!\w)", text)]
    return out


def _gold(text: str, expected: list[str]) -> set[tuple[int, int]]:
    want: set[tuple[int, int]] = set()
    for g in expected:  # each label is its own occurrence (the same string twice: two occurrences)
        i = text.index(g)
        while (i, i + len(g)) in want:
            i = text.index(g, i + 1)
        want.add((i, i + len(g)))
    return want


def score(protector, rows: list[dict]) -> LanguageScore:
    """Every term the protector issues on each row's chunk (in the row's language) against ``expected``;
    terms overlapping an ``allowed`` proper name count apart; restoration must be byte-exact."""
    s = LanguageScore()
    chunks = [prose(r["text"], r["language"], i) for i, r in enumerate(rows)]
    for r, pc in zip(rows, protector.protect_many(chunks)):
        text = r["text"]
        assert protector.restore(pc.protected_text, pc) == text, r["source"]
        pred = {(t.chunk_start, t.chunk_end) for t in pc.terms}
        want = _gold(text, r["expected"])
        allowed = _occurrences(text, r["allowed"])
        names = _occurrences(text, r["unprotected_names"])
        s.tp += len(pred & want)
        s.fn += len(want - pred)
        for a, b in sorted(pred - want):
            if any(a < e and s_ < b for s_, e in allowed):
                s.allowed += 1
            else:
                s.fp += 1
                s.false_positives.append((r["source"], text[a:b]))
        s.names_protected += sum(1 for a, b in pred for s_, e in names if a < e and s_ < b)
        s.misses += [(r["source"], text[a:b]) for a, b in sorted(want - pred)]
    return s
