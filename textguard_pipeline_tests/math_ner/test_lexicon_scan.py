"""The lexicon phrases found through one combined scan are those each phrase's own scan finds (issue 50)."""

from __future__ import annotations

from pathlib import Path

from textguard_pipeline.math_ner.lexicons import _LEXICON_RES
from textguard_pipeline.math_ner.rules import RuleBasedExtractor

CORPUS = Path(__file__).resolve().parents[2] / "data" / "corpus"


def _every_phrase_scanned(extractor: RuleBasedExtractor, text: str) -> list:
    """``_strong`` as it was: each of the 45 phrase patterns over the whole text."""
    out = [c for c in extractor._strong(text) if c.type == "NUMBER"]
    for rx, typ, canon, conf in _LEXICON_RES:
        for m in rx.finditer(text):
            out.append((m.start(), m.end(), typ, canon, conf))
    return out


def _as_tuples(cands: list) -> list:
    return [c if isinstance(c, tuple) else (c.start, c.end, c.type, c.canonical, c.confidence) for c in cands]


def test_the_combined_scan_finds_every_phrase_each_phrase_pattern_finds():
    extractor = RuleBasedExtractor()
    texts = [
        "Add 3 and 4: the sum is 7.",
        "\\sum of digits, then subtract the remainder; dodaj liczby, suma iloczynów.",
        "No phrase here at all.",
        "x plus y times z divided by w, the quotient and the product; PLUS Sum DIGITS",
        "resummed additionally (no phrase inside words) but addition at the end: addition",
    ]
    for path in sorted(CORPUS.glob("*")):
        if path.suffix in {".md", ".tex", ".txt"}:
            text = path.read_text(encoding="utf-8")
            texts.extend(text[i : i + 3000] for i in range(0, min(len(text), 30_000), 3000))
    found = 0
    for text in texts:
        got = _as_tuples(extractor._strong(text))
        want = _as_tuples(_every_phrase_scanned(extractor, text))
        assert got == want, text[:80]
        found += len(want)
    assert found > 200
