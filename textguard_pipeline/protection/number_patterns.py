"""Number patterns (§5.3 with the E6 context rule)."""

from __future__ import annotations

import bisect
import re

_METRIC_WORDS = re.compile(
    r"(?<![\w])(?:accuracy|accuracies|precision|recall|F[-_ ]?1|F[-_ ]?score|f-measure|AUC|ROC|BLEU|ROUGE(?:-[\dLlSsWw]+)?|"
    r"METEOR|chrF|TER|WER|CER|perplexity|PPL|mAP|IoU|top-?[15]|exact\s+match|EM|score|scores|"
    r"error|loss|correlation|p-value|significan\w*|mean|average|median|std|variance|result|results|value)(?![\w])",
    re.IGNORECASE,
)
_NUM_ALWAYS = re.compile(
    # percentages (LaTeX writes 98\%), statistics "p < 0.05", ratios "1.5x" / "224×224", 1,000,000
    r"(?P<pct>(?<![\w.,])\d+(?:\.\d+)?\s?\\?%)"
    r"|(?P<stat>(?<![\w\\])[prtdFχ]\s*(?:<=|>=|[<>=≤≥])\s*-?\d*\.?\d+(?:[eE]-?\d+)?)"
    r"|(?P<ratio>(?<![\w.])(?!0[xX])\d+(?:\.\d+)?\s?[x×]\s?\d+(?:\.\d+)?(?![\w.])|(?<![\w.])\d+(?:\.\d+)?[x×](?![\w]))"
    r"|(?P<big>(?<![\w.,])\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\d]|,\d))"
)
_NUM_CONTEXT = re.compile(
    # decimals "0.89", colon ratios "3:1": only near a metric word (E6: "Model v3.2" alone is not a metric)
    r"(?P<dec>(?<![\d.,])\d+\.\d+(?![\d.]|\.\d))|(?P<colon>(?<![\w.:])\d+:\d+(?![\w:]))"
)
_CONTEXT_WINDOW = 50


def find_numbers(text: str) -> list[tuple[int, int, str]]:
    """Metric-like number spans ``(start, end, kind)`` (§5.3, E6)."""
    out: list[tuple[int, int, str]] = []
    for m in _NUM_ALWAYS.finditer(text):
        out.append((m.start(), m.end(), m.lastgroup or "number"))
    ctx = None
    for m in _NUM_CONTEXT.finditer(text):
        if ctx is None:
            ctx = [(w.start(), w.end()) for w in _METRIC_WORDS.finditer(text)]
            starts = [s for s, _ in ctx]
        if not ctx:
            break
        lo, hi = m.start() - _CONTEXT_WINDOW, m.end() + _CONTEXT_WINDOW
        i = bisect.bisect_left(starts, lo)
        # a metric word that starts inside the window, or one that starts before it and reaches in
        near = (i < len(ctx) and ctx[i][0] <= hi) or (i > 0 and ctx[i - 1][1] > lo)
        if near:
            out.append((m.start(), m.end(), m.lastgroup or "number"))
    return out
