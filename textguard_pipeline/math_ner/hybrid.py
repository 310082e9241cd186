"""``HybridFrameExtractor`` (seed 001 §7 Option B): rules first, the LLM only for what they leave unmatched.

A text unit is cut into windows (paragraphs; a long paragraph into runs of sentences of at most
``WINDOW_MAX_CHARS``). The rule-based extractor reads the whole unit; then each window is

* ``rules``   — a rule frame overlaps it: the rules have read it;
* ``llm``     — no rule frame, but quantities in a relation the rules could not read (``routing.py``: a
  property word, a quantity next to an operation, relation or concept, two quantities joined by a verb or
  a preposition, one quantity with a cue or a question): sent to the LLM;
* ``skipped`` — neither (no numbers, or only years, versions, dates, identifiers, table rows …): no call.

Each window's route and reason are kept on the result (``NERResult.windows``) and counted as
``route:reason`` (``reasons``).

The windows for the LLM go in batches (``extract_batch`` — ``POST /ner/batch`` of the HTTP backend — or
``extract_many``, concurrent chat calls). The LLM's entities that overlap a rule entity are dropped
(rules first); its frames get the window as their evidence range. With ``rules=None`` every non-blank
window goes to the LLM: that is the ``llm`` backend, so both count their units the same way.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from .frame_rules import sentences
from .routing import decide
from .rules import RuleBasedExtractor
from .schemas import NerExtractor, NERResult

WINDOW_MAX_CHARS = 1200
_PARAGRAPH_RE = re.compile(r"\n[ \t]*\n\s*")


def windows(text: str, max_chars: int = WINDOW_MAX_CHARS) -> list[tuple[int, int]]:
    """(start, end) of the windows of ``text``: paragraphs, long ones cut into sentence runs ≤ max_chars."""
    out: list[tuple[int, int]] = []
    pos = 0
    bounds = [(m.start(), m.end()) for m in _PARAGRAPH_RE.finditer(text)] + [(len(text), len(text))]
    for gap_start, gap_end in bounds:
        if text[pos:gap_start].strip():
            out.extend(_cut(text, pos, gap_start, max_chars))
        pos = gap_end
    return [_trim(text, a, b) for a, b in out]


def _trim(text: str, a: int, b: int) -> tuple[int, int]:
    """[a, b) without its leading and trailing whitespace (the model sees the text, not the layout)."""
    seg = text[a:b]
    return a + len(seg) - len(seg.lstrip()), b - (len(seg) - len(seg.rstrip()))


def _cut(text: str, start: int, end: int, max_chars: int) -> list[tuple[int, int]]:
    if end - start <= max_chars:
        return [(start, end)]
    out: list[tuple[int, int]] = []
    cur = prev_end = start
    for s, e in sentences(text[start:end]):
        s, e = start + s, start + e
        if e - cur > max_chars and s > cur:
            out.append((cur, prev_end))  # the whitespace between two windows belongs to neither
            cur = s
        while e - cur > max_chars:  # one sentence longer than a window: cut it hard
            out.append((cur, cur + max_chars))
            cur += max_chars
        prev_end = e
    if cur < end and text[cur:end].strip():
        out.append((cur, end))
    return [(a, b) for a, b in out if text[a:b].strip()]


def route(text: str, window: tuple[int, int], rules: NERResult) -> str:
    """``rules`` | ``llm`` | ``skipped`` for one window of a unit the rules have read (reason: :func:`decide`)."""
    return decide(text, window, rules)[0]


class HybridFrameExtractor:
    """Rules first; only unmatched math-looking windows go to ``llm`` (``rules=None``: every window does)."""

    def __init__(
        self,
        llm: NerExtractor,
        rules: RuleBasedExtractor | None = None,
        batch_size: int = 8,
        window_chars: int = WINDOW_MAX_CHARS,
    ):
        self.llm = llm
        self.rules = rules
        self.batch_size = max(1, batch_size)
        self.window_chars = window_chars
        self.label = f"hybrid(rule_based+{llm.label})" if rules is not None else llm.label
        self.units: Counter = Counter()  # windows by route, over every call (the run's report)
        self.reasons: Counter = Counter()  # windows by "route:reason"
        self.llm_chars = 0

    def close(self) -> None:
        if hasattr(self.llm, "close"):
            self.llm.close()

    def usage(self) -> dict[str, int]:
        return dict(self.llm.usage()) if hasattr(self.llm, "usage") else {}

    def extract(self, text: str) -> NERResult:
        return self.extract_many([text])[0]

    def extract_many(self, texts: list[str]) -> list[NERResult]:
        base = [self.rules.extract(t) if self.rules is not None else NERResult([], []) for t in texts]
        pending: list[tuple[int, int, int]] = []  # (text index, window start, window end)
        for i, (text, res) in enumerate(zip(texts, base)):
            counts: Counter = Counter()
            for w in windows(text, self.window_chars):
                r, why = decide(text, w, res) if self.rules is not None else ("llm", "llm_backend")
                counts[r] += 1
                res.windows.append({"start": w[0], "end": w[1], "route": r, "reason": why})
                self.reasons[f"{r}:{why}"] += 1
                if r == "llm":
                    pending.append((i, *w))
            res.units = dict(counts)
            self.units.update(counts)
        answers = self._ask([texts[i][a:b] for i, a, b in pending])
        for (i, a, b), ans in zip(pending, answers):
            self.llm_chars += b - a
            _merge(base[i], ans, a, b, self.llm.label, self.rules is not None)
        return base

    def _ask(self, texts: list[str]) -> list[NERResult]:
        call = getattr(self.llm, "extract_batch", None) or getattr(self.llm, "extract_many", None)
        out: list[NERResult] = []
        for k in range(0, len(texts), self.batch_size):
            part = texts[k : k + self.batch_size]
            out.extend(call(part) if call is not None else [self.llm.extract(t) for t in part])
        return out


def _merge(into: NERResult, ans: NERResult, a: int, b: int, label: str, rules_first: bool) -> None:
    """Add the LLM's answer for window [a, b) to a unit's result (offsets made unit-relative)."""
    taken = [(e.start, e.end) for e in into.entities] if rules_first else []
    src = into.sources("rule_based")
    for e in ans.entities:
        s, t = a + e.start, a + e.end
        if any(s < y and x < t for x, y in taken):
            continue
        into.entities.append(e.model_copy(update={"start": s, "end": t}))
        src["entities"].append(label)
    for f in ans.frames:
        span = (
            {"start": a + f.start, "end": a + f.end}
            if f.start is not None and f.end is not None
            else {"start": a, "end": b}
        )
        into.frames.append(f.model_copy(update=span))
        src["frames"].append(label)
    into.invalid_frames.extend({**bad, "start": a, "end": b, "backend": label} for bad in ans.invalid_frames)
    into.rejected_entities.extend({**r, "window_start": a} for r in ans.rejected_entities)
    into.unmapped.extend(ans.unmapped)
    order = sorted(range(len(into.entities)), key=lambda k: (into.entities[k].start, into.entities[k].end))
    into.entities[:] = [into.entities[k] for k in order]
    src["entities"][:] = [src["entities"][k] for k in order]


def llm_units_report(extractor: Any) -> dict[str, Any]:
    """Windows by route, characters sent, and the LLM client's usage so far (empty for other extractors)."""
    if not isinstance(extractor, HybridFrameExtractor):
        return {}
    return {
        "units": {k: int(extractor.units.get(k, 0)) for k in ("rules", "llm", "skipped")},
        "reasons": dict(extractor.reasons),
        "llm_chars": extractor.llm_chars,
        "usage": extractor.usage(),
    }
