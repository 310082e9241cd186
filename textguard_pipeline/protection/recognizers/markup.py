"""What machines read, hidden whole: addresses, references, targets, identifiers, names with digits, quantities.

The chunk's markup comes from ``parsed_chunks.markup_spans`` (:mod:`...ingest.markup`, found once); the
machine-read kinds become terms with ``source = "markup"`` and a ``label`` naming them. On top of the markup
:mod:`.markup_forms` finds what a reader types rather than a markup language. Runs before citations, NER and
numbers (priority 15), so none of them cuts through an address or a reference.
"""

from __future__ import annotations

from typing import Any

from ...ingest.markup import addresses
from ..model import Candidate, TermProtectionConfig, TextChunk
from .base import PerChunkRecognizer
from .markup_forms import CROSSREF

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
        out = [Candidate(s, e, self.name, HIDDEN_KINDS[k]) for s, e, k in chunk.markup if k in HIDDEN_KINDS]
        for s, e, k in chunk.markup:
            if k == "rst_literal":  # a literal stays readable, an address in it is hidden (``https://…``)
                out += [Candidate(a, b, self.name, "url") for a, b in addresses(chunk.text, s, e)]
        if chunk.markup and "\\" in chunk.text:  # "Table~\ref{tab:1}": the reference goes with its noun
            out += [
                Candidate(m.start(), m.end(), self.name, "crossref")
                for m in CROSSREF.finditer(chunk.text)
                if "\\" in m.group(0)  # the others are markup_forms' (after citations: "[p.~3]" is a locator)
            ]
        return out

    def find(self, text: str) -> list[Candidate]:
        return []
