"""What real models do to ``⟨TERM_001⟩`` placeholders, as text transforms (used by the stand-in's
mangler mode, the property test and the round-trip benchmark).

Each kind is ``fn(text, rng) -> answer``. *Repairable* kinds alter one token in a way the round trip
may repair safely; *lossy* kinds lose, invent or garble a token (or refuse), so only a retry helps.
"""

from __future__ import annotations

import random
import re
from typing import Callable

PH = re.compile(r"⟨([A-Z][A-Z0-9]*)_(\d+)⟩")
FULLWIDTH = str.maketrans("0123456789", "０１２３４５６７８９")


def _one(text: str, rng: random.Random, fn: Callable[[re.Match[str]], str]) -> str:
    ms = list(PH.finditer(text))
    if not ms:
        return text
    m = rng.choice(ms)
    return text[: m.start()] + fn(m) + text[m.end() :]


def _ns_num(m: re.Match[str]) -> tuple[str, str]:
    return m.group(1), m.group(2)


REPAIRABLE: dict[str, Callable[[str, random.Random], str]] = {
    "inner_spaces": lambda t, r: _one(t, r, lambda m: f"⟨ {m.group(1)}_{m.group(2)} ⟩"),
    "ascii_brackets": lambda t, r: _one(t, r, lambda m: f"<{m.group(1)}_{m.group(2)}>"),
    "square_brackets": lambda t, r: _one(t, r, lambda m: f"[{m.group(1)}_{m.group(2)}]"),
    "cjk_brackets": lambda t, r: _one(t, r, lambda m: f"〈{m.group(1)}_{m.group(2)}〉"),
    "case": lambda t, r: _one(t, r, lambda m: m.group(0).lower()),
    "unpadded": lambda t, r: _one(t, r, lambda m: f"⟨{m.group(1)}_{int(m.group(2))}⟩"),
    "bare": lambda t, r: _one(t, r, lambda m: f"{m.group(1)}_{m.group(2)}"),
    "markdown_escaped": lambda t, r: _one(t, r, lambda m: f"\\⟨{m.group(1)}\\_{m.group(2)}\\⟩"),
    "fullwidth_digits": lambda t, r: _one(t, r, lambda m: f"⟨{m.group(1)}_{m.group(2).translate(FULLWIDTH)}⟩"),
    "zero_width": lambda t, r: _one(t, r, lambda m: f"⟨{m.group(1)[:2]}\u200b{m.group(1)[2:]}_{m.group(2)}⟩"),
    "doubled_brackets": lambda t, r: _one(t, r, lambda m: f"⟨{m.group(0)}⟩"),
    "stray_copy": lambda t, r: _one(t, r, lambda m: f"{m.group(0)} (<{m.group(1)}_{m.group(2)}>)"),
    "wrapped": lambda t, r: f"<text>\n{t}\n</text>",
}


def _drop(text: str, rng: random.Random) -> str:
    return _one(text, rng, lambda m: "")


def _drop_repeat(text: str, rng: random.Random) -> str:
    toks = [m.group(0) for m in PH.finditer(text)]
    repeated = [t for t in dict.fromkeys(toks) if toks.count(t) > 1]
    if not repeated:
        return _drop(text, rng)
    tok = rng.choice(repeated)
    i = text.rindex(tok)
    return text[:i] + text[i + len(tok) :]


def _invent(text: str, rng: random.Random) -> str:
    return f"{text} See also ⟨TERM_{rng.randint(900, 999)}⟩."


def _merge(text: str, rng: random.Random) -> str:
    ms = list(PH.finditer(text))
    if len(ms) < 2:
        return _drop(text, rng)
    a, b = ms[0], ms[1]
    return text[: a.start()] + f"⟨{a.group(1)}_{a.group(2)}_{b.group(2)}⟩" + text[a.end() : b.start()] + text[b.end() :]


def _translated_name(text: str, rng: random.Random) -> str:
    return _one(text, rng, lambda m: f"⟨BEGRIFF_{m.group(2)}⟩")


LOSSY: dict[str, Callable[[str, random.Random], str]] = {
    "drop": _drop,
    "drop_repeat": _drop_repeat,
    "invent": _invent,
    "merge": _merge,
    "translated_name": _translated_name,
    "refusal": lambda t, r: "I'm sorry, but I can't help with rewriting this text.",
    "empty": lambda t, r: "",
    "echo": lambda t, r: (
        "Keep every placeholder token exactly as written, character for character: the ⟨ and ⟩ "
        f"brackets, the capital letters, the underscore and all the digits.\n{t}"
    ),
}

KINDS: dict[str, Callable[[str, random.Random], str]] = {"none": lambda t, r: t, **REPAIRABLE, **LOSSY}

#: The benchmark's realistic mix: 40 % untouched, ≈ 40 % repairable, ≈ 20 % lossy.
REALISTIC_MIX = {"none": 40, **{k: 3 for k in REPAIRABLE}, "wrapped": 1, **{k: 2.5 for k in LOSSY}}


def mangle(text: str, kind: str, seed: int | str = 0) -> str:
    return KINDS[kind](text, random.Random(str(seed)))


def pick_kind(mix: dict[str, float], key: str) -> str:
    rng = random.Random(key)
    kinds = list(mix)
    return rng.choices(kinds, weights=[mix[k] for k in kinds])[0]


def text_of_request(body: dict) -> str:
    """The protected text of a round-trip request (between the ``<text>`` lines of the last user message)."""
    content = [m for m in body.get("messages", []) if m.get("role") == "user"][-1]["content"]
    m = re.search(r"\n<text>\n(.*)\n</text>\s*$", content, re.S)
    return m.group(1) if m else content
