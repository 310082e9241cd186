"""The cost estimate of the seed-003 LLM passes, shown before a run and recorded next to the actual cost.

Stage A is estimated from its real window prompts (the same characters the client will send, ≈ 4 a
token) plus an answer length proportional to the primary page; disambiguation and rating, whose prompts
depend on Stage A's answers, from the document's characters. Prices: TEXTGUARD_LLM_PRICE_IN_PER_1K /
_OUT_PER_1K. Answers the response cache already holds are not paid again, so a resumed run costs less
than its estimate (the metadata shows both).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence

from ..lib.llm import estimate_tokens
from .mentions import TextLayout
from .stage_a import LLMMentionDetector

#: passes with a usage record in the metadata, in run order
PASSES = ("stage_a", "disambiguation", "rating")

# Output-side assumptions of the estimate (the prompt side is computed from the real prompts). A Stage A
# answer repeats label, quote, page and offsets per mention (≈ 120 characters of JSON) for about one
# mention per 250 characters of page text; disambiguation sends ≈ 1 item per 200 characters of text with
# a context and up to 8 glossed candidates (≈ 700 characters) and gets ≈ 110 characters back per item;
# rating sends ≈ 60 and gets ≈ 90 characters per distinct entry (≈ 1 per 300 characters of text).
STAGE_A_ANSWER_PER_CHAR = 120 / 250
DISAMBIGUATION_ITEM_CHARS = 200
DISAMBIGUATION_PROMPT_PER_CHAR = 700 / DISAMBIGUATION_ITEM_CHARS
DISAMBIGUATION_ANSWER_PER_CHAR = 110 / DISAMBIGUATION_ITEM_CHARS
RATING_PROMPT_PER_CHAR = 60 / 300
RATING_ANSWER_PER_CHAR = 90 / 300


@dataclass
class CostEstimate:
    """Expected tokens per pass and the cost at the configured prices."""

    prompt_tokens: dict[str, int] = field(default_factory=lambda: dict.fromkeys(PASSES, 0))
    completion_tokens: dict[str, int] = field(default_factory=lambda: dict.fromkeys(PASSES, 0))
    requests: dict[str, int] = field(default_factory=lambda: dict.fromkeys(PASSES, 0))
    price_in_per_1k: float = 0.0
    price_out_per_1k: float = 0.0
    documents: int = 0
    characters: int = 0

    def add(self, other: "CostEstimate") -> None:
        for p in PASSES:
            self.prompt_tokens[p] += other.prompt_tokens.get(p, 0)
            self.completion_tokens[p] += other.completion_tokens.get(p, 0)
            self.requests[p] += other.requests.get(p, 0)
        self.documents += other.documents
        self.characters += other.characters

    def cost(self, passes: Iterable[str] = PASSES) -> float:
        return sum(
            self.prompt_tokens[p] / 1000 * self.price_in_per_1k
            + self.completion_tokens[p] / 1000 * self.price_out_per_1k
            for p in passes
        )

    def as_dict(self) -> dict[str, Any]:
        return {
            "documents": self.documents,
            "characters": self.characters,
            "requests": dict(self.requests),
            "prompt_tokens": dict(self.prompt_tokens),
            "completion_tokens": dict(self.completion_tokens),
            "cost_usd": {p: round(self.cost([p]), 6) for p in PASSES} | {"total": round(self.cost(), 6)},
        }

    def summary(self) -> str:
        tokens = sum(self.prompt_tokens.values()) + sum(self.completion_tokens.values())
        return (
            f"LLM cost estimate: ${self.cost():.4f} for {self.documents} document(s), {self.characters:,} characters"
            f" (≈ {tokens:,} tokens in {sum(self.requests.values())} requests; Stage A ${self.cost(['stage_a']):.4f},"
            f" disambiguation ${self.cost(['disambiguation']):.4f}, rating ${self.cost(['rating']):.4f}; ±20 %:"
            " the answers' length varies with the text, strict retries and hard cases add to it;"
            " answers already in the response cache cost nothing)"
        )


def estimate_document(
    text: str,
    stage_a_messages: Sequence[list[dict[str, str]]],
    *,
    rate: bool,
    batch_size: int,
    price_in_per_1k: float,
    price_out_per_1k: float,
) -> CostEstimate:
    """The estimate of one document: Stage A from its real window prompts (``stage_a_messages``, exact
    characters) plus the answer ratio above; disambiguation and rating from the document's characters."""
    est = CostEstimate(price_in_per_1k=price_in_per_1k, price_out_per_1k=price_out_per_1k, documents=1)
    est.characters = len(text)
    chars = len(text.strip())
    for msgs in stage_a_messages:
        est.prompt_tokens["stage_a"] += estimate_tokens(json.dumps(msgs, ensure_ascii=False))
        primary = json.loads(msgs[-1]["content"])
        page = next((p for p in primary["pages"] if p["pageNumber"] == primary["primaryPage"]), None)
        est.completion_tokens["stage_a"] += math.ceil(
            len(page["pageText"] if page else "") * STAGE_A_ANSWER_PER_CHAR / 4
        )
    est.requests["stage_a"] = len(stage_a_messages)
    if chars:
        items = max(1, math.ceil(chars / DISAMBIGUATION_ITEM_CHARS))
        est.requests["disambiguation"] = math.ceil(items / batch_size)
        est.prompt_tokens["disambiguation"] = math.ceil(chars * DISAMBIGUATION_PROMPT_PER_CHAR / 4)
        est.completion_tokens["disambiguation"] = math.ceil(chars * DISAMBIGUATION_ANSWER_PER_CHAR / 4)
        if rate:
            est.requests["rating"] = math.ceil(max(1, chars / 300) / 30)
            est.prompt_tokens["rating"] = math.ceil(chars * RATING_PROMPT_PER_CHAR / 4)
            est.completion_tokens["rating"] = math.ceil(chars * RATING_ANSWER_PER_CHAR / 4)
    return est


def estimate_text(text: str, settings: Any, price_in_per_1k: float, price_out_per_1k: float) -> CostEstimate:
    """The estimate of one document text under ``settings`` (a MeaningsSettings)."""
    det = LLMMentionDetector(None, index_types=settings.index_types, page_chars=settings.page_chars)
    msgs = [det._messages(window, primary, None) for window, primary in det.windows(TextLayout(text))]
    return estimate_document(
        text,
        msgs,
        rate=settings.rate,
        batch_size=settings.llm_batch_size,
        price_in_per_1k=price_in_per_1k,
        price_out_per_1k=price_out_per_1k,
    )


def estimate_texts(texts: Iterable[str], settings: Any, llm: Any) -> CostEstimate:
    """The estimate of a run over ``texts`` with the prices of ``llm`` (an LLMConfig or LLMSettings)."""
    total = CostEstimate(price_in_per_1k=llm.price_in_per_1k, price_out_per_1k=llm.price_out_per_1k)
    for text in texts:
        total.add(estimate_text(text, settings, llm.price_in_per_1k, llm.price_out_per_1k))
    return total
