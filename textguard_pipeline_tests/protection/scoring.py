"""Span-exact precision/recall of the protector on a labelled set ``(origin, text, gold)``."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Score:
    tp: int = 0
    fp: int = 0
    fn: int = 0
    misses: list = field(default_factory=list)

    @property
    def precision(self) -> float:
        return self.tp / max(1, self.tp + self.fp)

    @property
    def recall(self) -> float:
        return self.tp / max(1, self.tp + self.fn)

    def __str__(self) -> str:
        return f"precision {self.precision:.1%} recall {self.recall:.1%} (tp={self.tp} fp={self.fp} fn={self.fn})"


def gold_spans(text: str, gold: list[str]) -> set[tuple[int, int]]:
    """Each gold item is the span's text, found after the previous one; ``ratio=«1»`` marks the span
    inside a longer context when the bare text would be found too early (``1`` in ``l1_ratio=1``)."""
    want, pos = set(), 0
    for g in gold:
        if "«" in g:
            context, lead = g.replace("«", "").replace("»", ""), g.index("«")
            i = text.index(context, pos) + lead
            want.add((i, i + g.index("»") - lead - 1))
        else:
            i = text.index(g, pos)
            want.add((i, i + len(g)))
        pos = i + 1
    return want


def score(protector, examples, source: str) -> Score:
    """Compare the ``source`` terms the protector finds with the gold spans (restoration checked too)."""
    s = Score()
    for origin, text, gold in examples:
        pc = protector.protect_text(text)
        assert protector.restore(pc.protected_text, pc) == text
        pred = {(t.chunk_start, t.chunk_end) for t in pc.terms if t.source == source}
        want = gold_spans(text, gold)
        s.tp += len(pred & want)
        s.fp += len(pred - want)
        s.fn += len(want - pred)
        if pred != want:
            s.misses.append(
                (
                    origin,
                    [text[a:b] for a, b in sorted(pred - want)],
                    [text[a:b] for a, b in sorted(want - pred)],
                    text[:160],
                )
            )
    return s
