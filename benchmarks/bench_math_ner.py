"""Math NER on the sample corpus: what the hybrid (seed 001 Option B) sends to the LLM against LLM-only.

Both count the same windows (paragraphs, long ones cut at sentences ≤ 1,200 characters) of the same
text units, so the ratio is the share of LLM calls (and characters, ≈ tokens) the hybrid keeps. The
LLM is a dry run here — it records what would be sent and answers nothing — so no endpoint is needed
and nothing is paid; the wall time is the routing overhead on top of the rule-based extractor.
"""

from __future__ import annotations

import time
from pathlib import Path

from textguard_pipeline.core.documents import discover_documents, read_document
from textguard_pipeline.core.parsing import parse_document
from textguard_pipeline.math_ner import RuleBasedExtractor, ner_frame
from textguard_pipeline.math_ner.hybrid import HybridFrameExtractor
from textguard_pipeline.math_ner.schemas import NERResult

CORPUS = Path(__file__).resolve().parents[1] / "data" / "corpus"


class DryRunLLM:
    """Stands where the LLM extractor goes: counts the windows and characters it would be sent."""

    label = "dry-run"

    def __init__(self) -> None:
        self.calls = 0
        self.chars = 0

    def extract(self, text: str) -> NERResult:
        self.calls += 1
        self.chars += len(text)
        return NERResult(entities=[], frames=[])


def _run(docs, extractor) -> float:
    t0 = time.perf_counter()
    for doc_id, chunks in docs:
        ner_frame(doc_id, chunks, extractor)
    return time.perf_counter() - t0


def main() -> None:
    docs = []
    for doc_id, path in sorted(discover_documents(str(CORPUS)).items()):
        doc = read_document(path, CORPUS)
        docs.append((doc_id, parse_document(doc.text, doc.format)))
    rules_s = _run(docs, RuleBasedExtractor())
    rows = []
    for name, rules in (("LLM only", None), ("hybrid", RuleBasedExtractor())):
        llm = DryRunLLM()
        x = HybridFrameExtractor(llm, rules=rules)
        secs = _run(docs, x)
        rows.append((name, dict(x.units), llm.calls, llm.chars, secs))
    base_calls, base_chars = rows[0][2], rows[0][3]
    print(f"sample corpus: {len(docs)} documents; rules alone {rules_s * 1000:.0f} ms")
    print(
        f"{'mode':10} {'windows: rules / llm / skipped':32} {'sent':>6} {'chars sent':>11} "
        f"{'vs LLM only':>12} {'time':>8}"
    )
    for name, units, calls, chars, secs in rows:
        split = f"{units.get('rules', 0)} / {units.get('llm', 0)} / {units.get('skipped', 0)}"
        ratio = f"{calls / base_calls:.1%} / {chars / base_chars:.1%}" if base_calls else "-"
        print(f"{name:10} {split:32} {calls:6d} {chars:11,d} {ratio:>12} {secs * 1000:6.0f} ms")


if __name__ == "__main__":
    main()
