"""Long chunks go to the model in sentence-aligned pieces; a placeholder is never split.

A piece ends after sentence punctuation (``. ! ? …`` and closing quotes/brackets) followed by
whitespace; a sentence longer than the limit is cut at whitespace. Placeholders contain no whitespace,
so no cut ever falls inside one (:func:`split_text` asserts it). Each piece carries the whitespace that
followed it in the source, so ``"".join(p + sep for p, sep in pieces) == text``.
"""

from __future__ import annotations

import re

from ..lib.placeholders import PLACEHOLDER_RE

_SENTENCE_END = re.compile(r"[.!?…。！？][\"'”’)\]»]*(\s+)")
_SPACE = re.compile(r"\s+")


def _units(text: str, pattern: re.Pattern[str]) -> list[tuple[str, str]]:
    """(unit, whitespace after it) for each cut of ``pattern`` (group 1 or the whole match is the whitespace)."""
    out, pos = [], 0
    for m in pattern.finditer(text):
        ws_start = m.start(1) if m.groups() else m.start()
        if ws_start <= pos or m.end() >= len(text):
            continue
        out.append((text[pos:ws_start], text[ws_start : m.end()]))
        pos = m.end()
    out.append((text[pos:], ""))
    return out


def split_text(text: str, max_chars: int) -> list[tuple[str, str]]:
    """Pieces of at most ``max_chars`` (when the text allows it) as ``(piece, separator)`` pairs."""
    if len(text) <= max_chars:
        return [(text, "")]
    units: list[tuple[str, str]] = []
    for sentence, sep in _units(text, _SENTENCE_END):
        if len(sentence) <= max_chars:
            units.append((sentence, sep))
        else:
            words = _units(sentence, _SPACE)
            words[-1] = (words[-1][0], sep)
            units.extend(words)
    pieces: list[tuple[str, str]] = []
    cur, cur_sep = "", ""
    for unit, sep in units:
        if cur and len(cur) + len(cur_sep) + len(unit) > max_chars:
            pieces.append((cur, cur_sep))
            cur, cur_sep = unit, sep
        else:
            cur, cur_sep = (cur + cur_sep + unit if cur else unit), sep
    pieces.append((cur, cur_sep))
    whole = [m.group(0) for m in PLACEHOLDER_RE.finditer(text)]
    assert [m.group(0) for p, _ in pieces for m in PLACEHOLDER_RE.finditer(p)] == whole, "a cut split a placeholder"
    return pieces
