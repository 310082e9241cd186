"""Pathological text shapes for protection (issue 14), shared by the tests and ``make bench``."""

from __future__ import annotations

import random

_SYLLABLES = ("ka", "lo", "ver", "min", "tor", "sen", "ba", "ri", "mel", "dan")


def shape(kind: str, kb: int, seed: int = 1) -> str:
    """``list``: ``kb`` KB of comma-separated capitalised words; ``dense``: the same with `` (2020)``
    after about every tenth word (each one anchors a narrative-citation look-back)."""
    rnd = random.Random(seed)
    parts: list[str] = []
    n = 0
    while n < kb * 1000:
        word = "".join(rnd.choice(_SYLLABLES) for _ in range(3)).capitalize()
        if kind == "dense" and rnd.random() < 0.1:
            word += " (2020)"
        parts.append(word)
        n += len(word) + 2
    return ", ".join(parts)
