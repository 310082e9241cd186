"""The rewrite request (seed 000 §11.1) and what a model's answer is before it is audited.

Messages: a system instruction that says how to treat ``⟨…_NNN⟩`` tokens; one user message with the
task instruction and the chunk's protected text between a line ``<text>`` and a line ``</text>``. A
retry adds a stricter note naming what the previous answer lost, so it is a new request (and a new
cache key). :data:`PROMPT_VERSION` is recorded with every row: change it whenever a text here changes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

PROMPT_VERSION = "rewrite-v2"

SYSTEM_PROMPT = (
    "You rewrite text as the user asks. The text contains placeholder tokens such as ⟨TERM_000⟩ or ⟨MATH_001⟩; "
    "each one stands for a citation, name, number or formula that will be put back after you answer.\n"
    "Rules for placeholder tokens:\n"
    "1. Keep every placeholder token exactly as written, character for character: the ⟨ and ⟩ brackets, "
    "the capital letters, the underscore and all the digits.\n"
    "2. Keep each placeholder token as many times as it occurs in the text. Never drop, invent, merge or "
    "split a token, and never translate, reorder, reformat or escape anything inside one.\n"
    "3. A token may move inside its sentence when the grammar of the rewrite needs it.\n"
    "Answer with the rewritten text only: no preface, no comments, no <text> tags."
)

TASKS = {
    "paraphrase": "Paraphrase the text between <text> and </text>: keep its meaning and its language, change the wording.",
    "simplify": "Rewrite the text between <text> and </text> in simpler, plainer words, keeping its meaning.",
}


def task_instruction(task: str) -> str:
    """``paraphrase`` | ``translate:<language>`` | ``simplify`` | any other text (used as the instruction)."""
    task = task.strip()
    if not task:
        raise ValueError(
            "empty rewrite task: set TEXTGUARD_REWRITE_TASK (paraphrase, translate:<language>, simplify, "
            "or an instruction)"
        )
    if task.lower() in TASKS:
        return TASKS[task.lower()]
    if task.lower().startswith("translate:"):
        language = task.split(":", 1)[1].strip()
        if not language:
            raise ValueError("translate:<language> needs a language, e.g. translate:German")
        return f"Translate the text between <text> and </text> into {language}."
    return f"{task}\nApply this to the text between <text> and </text>."


def stricter_note(lost: dict[str, int], other_problems: list[str]) -> str:
    """What a retry adds: what the last answer did wrong, naming the tokens it lost (with how often each
    must appear) and every other finding."""
    parts = ["Your previous answer was rejected."]
    if lost:
        need = ", ".join(f"{p} ({n}×)" if n > 1 else p for p, n in lost.items())
        parts.append(f"It lost: {need}.")
    if other_problems:
        parts.append(("It also had: " if lost else "It had: ") + "; ".join(other_problems[:5]) + ".")
    parts.append(
        "This time copy every ⟨…⟩ token exactly, as many times as it occurs in the text; keep every number, "
        "link, command and line structure; answer with the rewritten text only."
    )
    return " ".join(parts)


def build_messages(protected_text: str, instruction: str, note: str | None = None) -> list[dict[str, str]]:
    user = instruction if note is None else f"{note}\n\n{instruction}"
    return [
        {"role": "system", "content": SYSTEM_PROMPT},
        {"role": "user", "content": f"{user}\n<text>\n{protected_text}\n</text>"},
    ]


_WRAPPED = re.compile(r"<text>[ \t]*\n?(.*?)\n?[ \t]*</text>", re.S)
_REFUSAL = re.compile(
    r"^\W{0,3}(?:I['’]m sorry|I am sorry|sorry,|I apologi[sz]e|I can(?:['’]|no)t (?:help|assist|comply|do|provide|"
    r"rewrite|translate|paraphrase)|I cannot|I['’]m unable|I am unable|I['’]m not able|I am not able|I won['’]t|"
    r"I will not|As an AI)",
    re.I,
)


_WRAP_WORDS = r"(?:sure|certainly|of course|absolutely|okay|ok|alright|great|gladly)"
_HERE = r"(?:here(?:['’]s| is| are)|below is|below are|the following is)"
_ABOUT = r"(?:paraphras\w*|translat\w*|rewrit\w*|rephras\w*|simplif\w*|simpler|version|text|passage)"
_PREFACE = re.compile(
    rf"\A\W{{0,3}}(?:{_WRAP_WORDS}[!.,]*[ \t]*(?:\n\s*|(?={_HERE}))|(?={_HERE}))"
    rf"(?:{_HERE}\b[^\n:]{{0,80}}\b{_ABOUT}\b[^\n:]{{0,40}}:[ \t]*(?:\n\s*)?)?",
    re.I,
)
_CLOSING = re.compile(
    r"(?:\n\s*|(?<=[.!?\]])[ \t]+)(?:I hope (?:this|that|it) helps|Hope (?:this|that) helps|Let me know\b|"
    r"Feel free to\b|If you (?:need|want|would like|have)\b|Is there anything else|"
    r"(?:Note|Notes):[ \t]|This (?:paraphrase|translation|version|rewrite|simplified)\b|"
    r"I (?:have|'ve|’ve) (?:kept|preserved|paraphrased|rewritten|translated|simplified)\b)[^\n]*(?:\n[^\n]*){0,3}\s*\Z",
    re.I,
)
_FENCE = re.compile(r"\A```[\w+.-]*[ \t]*\n(.*?)\n?```[ \t]*\Z", re.S)


@dataclass(frozen=True)
class Answer:
    """The text to audit, or why this answer is a failed attempt (``problem``); ``repairs`` lists the
    prefaces, closing remarks and code fences removed (kinds ``preface`` and ``fence``)."""

    text: str
    problem: str | None = None
    repairs: tuple[dict[str, str], ...] = ()


def _unwrap_chatter(text: str, source: str) -> tuple[str, list[dict[str, str]]]:
    """Remove a preface, a closing remark and a wrapping code fence the source did not have."""
    repairs: list[dict[str, str]] = []
    for _ in range(3):
        before = text
        m = _PREFACE.match(text)
        if m and 0 < m.end() < len(text) and not _PREFACE.match(source):
            repairs.append({"found": text[: m.end()].strip()[:120], "placeholder": "", "kind": "preface"})
            text = text[m.end() :].strip()
        m = _CLOSING.search(text)
        if m and m.start() > 0 and not _CLOSING.search(source):
            repairs.append({"found": text[m.start() :].strip()[:120], "placeholder": "", "kind": "preface"})
            text = text[: m.start()].strip()
        m = _FENCE.match(text)
        if m and not source.lstrip().startswith("```"):
            repairs.append({"found": text.split("\n", 1)[0], "placeholder": "", "kind": "fence"})
            text = m.group(1).strip()
        if text == before:
            break
    return text, repairs


def _sentences(text: str) -> list[str]:
    return [s.strip() for s in re.split(r"(?<=[.:!?])\s+|\n", text) if len(s.strip()) >= 24]


def read_answer(
    content: str, *, finish_reason: str | None, refusal: str | None, messages: list[dict[str, str]], protected_text: str
) -> Answer:
    """Unwrap ``<text>`` tags; name an empty, refused, truncated or instruction-echoing answer; remove a
    preface, a closing remark and a wrapping code fence the source did not have (recorded as repairs)."""
    if refusal:
        return Answer("", f"refusal: {refusal.strip()[:120]}")
    if finish_reason == "content_filter":
        return Answer("", "refusal: the endpoint's content filter stopped the answer")
    text = content.strip()
    if "<text>" not in protected_text and "</text>" not in protected_text:  # else the tags may be the source's own
        m = _WRAPPED.search(text)
        if m:
            text = m.group(1).strip()
        elif text.startswith("<text>"):
            text = text[len("<text>") :].strip()
    if not text:
        return Answer("", "empty answer")
    if finish_reason == "length":
        return Answer(text, "truncated answer (finish_reason=length)")
    if _REFUSAL.match(text) and not _REFUSAL.match(protected_text):
        return Answer(text, f"refusal: {text[:120]!r}")
    for msg in messages:
        instruction = msg["content"].split("\n<text>\n", 1)[0]  # not the text itself
        for sentence in _sentences(instruction):
            if sentence in text and sentence not in protected_text:
                return Answer(text, f"echoed the instruction: {sentence[:80]!r}")
    text, repairs = _unwrap_chatter(text, protected_text)
    if not text:
        return Answer("", "empty answer (only a preface or a fence)")
    return Answer(text, repairs=tuple(repairs))
