"""What machines read, hidden whole: addresses, references, targets, identifiers, names with digits, quantities.

The chunk's markup comes from ``parsed_chunks.markup_spans`` (:mod:`...ingest.markup`, found once); the
machine-read kinds become terms with ``source = "markup"`` and a ``label`` naming them. On top of the markup
:mod:`.markup_forms` finds what a reader types rather than a markup language. Runs before citations, NER and
numbers (priority 15), so none of them cuts through an address or a reference. A LaTeX reference with the noun
before it (``Table~\\ref{tab:1}``, one ``latex_ref`` span of the finder) is a ``crossref``.
"""

from __future__ import annotations

import re
from typing import Any

from ...ingest.markup import addresses
from ...lib.placeholders import CLOSE, OPEN, PLACEHOLDER_RE
from ..model import Candidate, TermProtectionConfig, TextChunk
from .base import PerChunkRecognizer

#: markup kind → label of the term that hides it (kinds not listed stay visible: commands, braces, separators;
#: ``latex_cite`` is the citation recogniser's; Markdown inline code is already a ⟨CODE⟩ placeholder; a
#: reStructuredText literal stays readable, so that a number inside it is the number recogniser's)
HIDDEN_KINDS: dict[str, str] = {
    "url": "url",
    "md_autolink": "url",
    "email": "email",
    "doi": "identifier",
    "arxiv": "identifier",
    "latex_ref": "latex_ref",
    "latex_verb": "code",
    "latex_file": "file",
    "latex_comment": "comment",
    "md_target": "md_target",
    "md_refdef": "md_target",
    "html_tag": "html",
    "html_entity": "html",
    "rst_role": "rst_role",
    "rst_target": "rst_target",
    "rst_subst": "rst_subst",
}


class MarkupRecognizer(PerChunkRecognizer):
    name = "markup"
    priority = 15

    @classmethod
    def from_config(cls, config: TermProtectionConfig) -> Any:
        return cls() if config.protect_markup else None

    def find_chunk(self, chunk: TextChunk) -> list[Candidate]:
        text = chunk.text
        out = []
        for s, e, k in chunk.markup:
            if k == "rst_literal":  # a literal stays readable, an address in it is hidden (``https://…``)
                out += [Candidate(a, b, self.name, "url") for a, b in addresses(text, s, e)]
                continue
            label = HIDDEN_KINDS.get(k)
            if label is None:
                continue
            s, e = _outside_parser_tokens(text, s, e, chunk.parser_placeholders)
            if e <= s:
                continue  # markup inside the parser's math or code: its placeholder hides it
            if k == "latex_ref" and text[s] != "\\":  # "Table~\\ref{tab:1}": the reference with its noun
                label = "crossref"
            out.append(Candidate(s, e, self.name, label))
        return out

    def find(self, text: str) -> list[Candidate]:
        return []


def _outside_parser_tokens(text: str, s: int, e: int, parser_placeholders: frozenset[str]) -> tuple[int, int]:
    """``[s, e)`` without a parser placeholder at its start or end: a markup span that began or ended inside the
    original of one (``ingest.markup.chunk_text_ranges`` takes the whole placeholder in) keeps only its part
    outside, so the term lies inside the markup span in document offsets too; no markup starts with math."""
    if not parser_placeholders:
        return s, e
    first = PLACEHOLDER_RE.match(text, s) if text[s] == OPEN else None
    if first is not None and first.group(0) in parser_placeholders:
        s = first.end()
    last = _LAST_TOKEN.search(text, max(s, e - 40), e) if e > s and text[e - 1] == CLOSE else None
    if last is not None and last.group(0) in parser_placeholders:
        e = last.start()
    return s, e


_LAST_TOKEN = re.compile(PLACEHOLDER_RE.pattern + r"\Z")
