"""E9/E11: placeholder-shaped text the parser did not map, and lone ``⟨``/``⟩``."""

from __future__ import annotations

import bisect
import re

from ...lib.placeholders import CLOSE, OPEN, PLACEHOLDER_RE
from ..model import Candidate, TextChunk
from .base import PerChunkRecognizer


class LiteralRecognizer(PerChunkRecognizer):
    """The parser already maps placeholder-shaped source text to ``⟨LIT_NNN⟩``;
    this catches chunks built elsewhere and the stray brackets, so the text an
    LLM sees has no bracket except our own placeholders. Always on."""

    name = "literal"
    priority = 10
    _RE = re.compile(r"[⟨⟩]+")

    def find_chunk(self, chunk: TextChunk) -> list[Candidate]:
        return self.find(chunk.text, chunk.parser_placeholders)

    def find(self, text: str, known: frozenset[str] = frozenset()) -> list[Candidate]:
        """``known``: the chunk's parser placeholders (left alone)."""
        if OPEN not in text and CLOSE not in text:
            return []
        out: list[Candidate] = []
        taken: list[tuple[int, int]] = []
        for m in PLACEHOLDER_RE.finditer(text):
            if m.group(0) not in known:
                out.append(Candidate(m.start(), m.end(), self.name, "PLACEHOLDER_LIKE"))
            taken.append((m.start(), m.end()))
        starts = [s for s, _ in taken]
        for m in self._RE.finditer(text):
            # split the bracket run around placeholder tokens it touches
            pos = m.start()
            while pos < m.end():
                i = bisect.bisect_right(starts, pos) - 1
                if i >= 0 and taken[i][0] <= pos < taken[i][1]:
                    pos = taken[i][1]
                    continue
                j = bisect.bisect_right(starts, pos)
                stop = min(m.end(), taken[j][0] if j < len(taken) else m.end())
                if stop > pos:
                    out.append(Candidate(pos, stop, self.name, "BRACKET"))
                pos = stop
        return out
