"""What real models do to ``⟨TERM_001⟩`` placeholders and the text around them, as text transforms
(used by the stand-in's mangler mode, the property test and the round-trip benchmark).

Each kind is ``fn(text, rng) -> answer``. *Repairable* kinds alter one token in a way the round trip
may repair safely; *lossy* kinds lose, invent or garble a token (or refuse), so only a retry helps.
*Text* kinds (issue 47) wrap the answer in chatter (repairable) or change it where no token count
notices: one word, truncation, a summary, swapped tokens, changed numbers, a lost structure, the wrong
language, residue of other shapes, unknown namespaces, absurd numbers, a cut token, a huge answer.
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

# -- text faults: what models do to the words around the tokens (issue 47) ----------------------------

GERMAN = "Das Modell erreicht auf diesen Daten eine hohe Genauigkeit, und die Autoren berichten darüber ausführlich."


def _after_token(text: str, rng: random.Random, extra: Callable[[re.Match[str]], str]) -> str:
    """Keep every token and put ``extra`` right after one (residue next to a correct token)."""
    ms = list(PH.finditer(text))
    if not ms:
        return f"{text} {extra(PH.match('⟨TERM_001⟩'))}"  # type: ignore[arg-type]
    m = rng.choice(ms)
    return text[: m.end()] + extra(m) + text[m.end() :]


def _swap(text: str, rng: random.Random) -> str:
    toks = list(dict.fromkeys(m.group(0) for m in PH.finditer(text)))
    if len(toks) < 2:
        return _numbers(text, rng) if re.search(r"\d", PH.sub("", text)) else " and "
    a, b = toks[0], toks[1]
    return text.replace(a, "\0").replace(b, a).replace("\0", b)


def _numbers(text: str, rng: random.Random) -> str:
    out, pos = [], 0
    for m in [*PH.finditer(text), None]:
        end = m.start() if m else len(text)
        out.append(re.sub(r"\d+", lambda d: str(int(d.group(0)) + 1), text[pos:end]) + (m.group(0) if m else ""))
        pos = m.end() if m else end
    changed = "".join(out)
    return changed if changed != text else " and "


def _truncated(text: str, rng: random.Random) -> str:
    m = PH.search(text)
    cut = m.end() if m and m.end() < len(text) * 0.6 else len(text) // 3
    return text[: max(cut, 1)]


def _summary(text: str, rng: random.Random) -> str:
    first = re.split(r"(?<=[.!?])\s+", text.strip(), maxsplit=1)[0]
    return first if len(first) < len(text) * 0.4 else text[: len(text) // 4]


def _structure(text: str, rng: random.Random) -> str:
    if "\n\n" in text:
        return text.replace("\n\n", "\n")
    return text[2:] if text.startswith("# ") else f"# {text}"


def _german(text: str, rng: random.Random) -> str:
    toks = " ".join(m.group(0) for m in PH.finditer(text))
    reps = max(1, round(len(text) / len(GERMAN)))
    return " ".join([GERMAN] * reps) + (f" {toks}" if toks else "")


def _truncated_token(text: str, rng: random.Random) -> str:
    ms = list(PH.finditer(text))
    if not ms:
        return text + " ⟨TERM_0"
    m = ms[-1]
    return text[: m.start() + len(m.group(1)) + 3]


TEXT_REPAIRABLE: dict[str, Callable[[str, random.Random], str]] = {
    "preface": lambda t, r: f"Sure! Here is the paraphrase:\n\n{t}",
    "closing": lambda t, r: f"{t}\n\nI hope this helps! Let me know if you need anything else.",
    "fence": lambda t, r: f"```\n{t}\n```",
}

TEXT_LOSSY: dict[str, Callable[[str, random.Random], str]] = {
    "one_word": lambda t, r: " and ",
    "truncated": _truncated,
    "summary": _summary,
    "swap": _swap,
    "numbers": _numbers,
    "structure": _structure,
    "wrong_language": _german,
    "residue_dash": lambda t, r: _after_token(t, r, lambda m: f" (⟨{m.group(1)}-{m.group(2)}⟩)"),
    "residue_space": lambda t, r: _after_token(t, r, lambda m: f" ⟨{m.group(1)} {m.group(2)}⟩"),
    "residue_nameless": lambda t, r: _after_token(t, r, lambda m: f" ⟨{m.group(1)}⟩"),
    "lone_bracket": lambda t, r: f"{t} ⟨",
    "homoglyph": lambda t, r: _after_token(t, r, lambda m: f" ⟨\u0422{m.group(1)[1:]}_{m.group(2)}⟩"),
    "angle_brackets": lambda t, r: _after_token(t, r, lambda m: "\u232a").replace("⟨", "\u2329⟨", 1),
    "unknown_namespace": lambda t, r: f"{t} ⟨NAME_001⟩",
    "long_digits": lambda t, r: f"{t} ⟨TERM_{'1' * 4301}⟩",
    "truncated_token": _truncated_token,
    "huge": lambda t, r: f"{t} " + "lorem ipsum " * 120_000,
}

KINDS: dict[str, Callable[[str, random.Random], str]] = {
    "none": lambda t, r: t,
    **REPAIRABLE,
    **LOSSY,
    **TEXT_REPAIRABLE,
    **TEXT_LOSSY,
}

#: The benchmark's realistic mix: 40 % untouched, ≈ 40 % repairable, ≈ 20 % lossy.
REALISTIC_MIX = {"none": 40, **{k: 3 for k in REPAIRABLE}, "wrapped": 1, **{k: 2.5 for k in LOSSY}}
#: Issue 47's acceptance mix: about one answer in four has a fault (text faults and placeholder ones).
_FAULTS = [*TEXT_REPAIRABLE, *TEXT_LOSSY, *REPAIRABLE, *LOSSY]
MIXED_FAULTS = {"none": 75, **{k: 25 / len(_FAULTS) for k in _FAULTS}}


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
