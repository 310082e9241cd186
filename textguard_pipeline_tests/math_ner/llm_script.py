"""Scripted chat answers for the LLM extractor tests (the stand-in server speaks the chat-completions API)."""

from __future__ import annotations

import json

from textguard_pipeline.lib.llm import LLMConfig

ROUTE = "POST /v1/chat/completions"
SEED_TEXT = "3 plus 4 equals 7, because addition is commutative"
#: seed 001 §2.3, the full example output for SEED_TEXT
SEED_OUTPUT = {
    "entities": [
        {"text": "3", "type": "NUMBER", "start": 0, "end": 1, "canonical": "3", "confidence": 0.99},
        {"text": "plus", "type": "OPERATION", "start": 2, "end": 6, "canonical": "add", "confidence": 0.99},
        {"text": "4", "type": "NUMBER", "start": 7, "end": 8, "canonical": "4", "confidence": 0.99},
        {"text": "equals", "type": "RELATION", "start": 9, "end": 15, "canonical": "eq", "confidence": 0.99},
        {"text": "7", "type": "NUMBER", "start": 16, "end": 17, "canonical": "7", "confidence": 0.99},
        {"text": "addition", "type": "OPERATION", "start": 30, "end": 38, "canonical": "add", "confidence": 0.97},
        {
            "text": "commutative",
            "type": "PROPERTY",
            "start": 42,
            "end": 53,
            "canonical": "commutative",
            "confidence": 0.98,
        },
    ],
    "frames": [
        {"frame_type": "ARITH_EXAMPLE", "operation": "add", "operands": [3, 4], "result": 7},
        {"frame_type": "PROPERTY", "subject": "add", "property_name": "commutative", "value": True},
    ],
    "unmapped": [],
}
WORD_PROBLEM = "Tom has 3 apples and buys 4 more. How many apples does he have now?"
WORD_OUTPUT = {
    "entities": [
        {"text": "3", "type": "NUMBER", "start": 8, "end": 9, "canonical": "3", "confidence": 0.99},
        {"text": "4", "type": "NUMBER", "start": 26, "end": 27, "canonical": "4", "confidence": 0.99},
        {"text": "buys", "type": "OPERATION", "start": 21, "end": 25, "canonical": "add", "confidence": 0.8},
    ],
    "frames": [{"frame_type": "ARITH_EXAMPLE", "operation": "add", "operands": [3, 4], "result": 7}],
    "unmapped": ["How many apples"],
}


def chat(content: str | dict, prompt_tokens: int = 400, completion_tokens: int = 120, **extra) -> dict:
    """A scripted chat-completions response carrying ``content`` (a dict is sent as its JSON) and usage."""
    text = content if isinstance(content, str) else json.dumps(content)
    return {
        "status": 200,
        **extra,
        "json": {
            "id": "standin",
            "object": "chat.completion",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
            "usage": {
                "prompt_tokens": prompt_tokens,
                "completion_tokens": completion_tokens,
                "total_tokens": prompt_tokens + completion_tokens,
            },
        },
    }


def config(standin, **kw) -> LLMConfig:
    return LLMConfig(
        base_url=f"{standin.base_url}/v1",
        model="standin-model",
        **{"timeout_s": 5.0, "max_retries": 2, "backoff_s": 0.01, **kw},
    )


def chat_requests(standin) -> list[dict]:
    """The chat requests the stand-in received, as parsed JSON bodies."""
    return [json.loads(r["body"]) for r in standin.requests() if r["path"] == "/v1/chat/completions"]
