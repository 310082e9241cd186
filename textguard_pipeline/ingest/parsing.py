"""Lossless chunker for LaTeX, Markdown and plain text.

``parse_document(text, fmt)`` returns chunks whose ``[start, end)`` ranges tile
the document exactly. Non-prose chunks (``structural``, ``math_block``,
``code``) carry the source slice verbatim. Prose chunks carry the slice with
inline constructs behind placeholders, listed in ``math_placeholders``
(placeholder → original):

* ``⟨MATH_NNN⟩`` inline math (``$..$``, ``\\(..\\)``, inline ``$$..$$`` in Markdown);
* ``⟨CODE_NNN⟩`` inline Markdown code spans (their own namespace, so code is
  never mistaken for math and both restore the same way);
* ``⟨LIT_NNN⟩`` source text that already looks like a placeholder (e.g. a
  literal ``⟨TERM_001⟩``), so that restoration stays exact (seed 000, E9/E11).

Prose chunks also carry their ``markup_spans`` (:mod:`.markup`).

Restoring the placeholders of a prose chunk gives ``source[start:end]``.
Whitespace-only gaps (blank lines) are attached to the chunk before them.
"""

from __future__ import annotations

from .chunks import Chunk, ChunkType, _assemble, _prose_chunk, offset_map_for
from .markup import attach_markup
from .regions import _md_regions, _tex_regions, _txt_regions

__all__ = ["Chunk", "ChunkType", "offset_map_for", "parse_document"]


def parse_document(text: str, fmt: str) -> list[Chunk]:
    """Chunks of ``text`` (format ``tex``, ``md`` or ``txt``) tiling it exactly."""
    if fmt not in ("tex", "md", "txt"):
        raise ValueError(f"unsupported format {fmt!r}; expected tex, md or txt")
    if not text:
        return []
    regions = {"tex": _tex_regions, "md": _md_regions, "txt": _txt_regions}[fmt](text)
    regions = [r for r in regions if r[1] > r[0]]
    # Markdown prose regions come pre-split; keep region order and types as given.
    segs = _assemble(text, regions)
    chunks: list[Chunk] = []
    for idx, (s, e, t) in enumerate(segs):
        if t == ChunkType.PROSE:
            chunks.append(_prose_chunk(idx, text, s, e, fmt))
        else:
            chunks.append(Chunk(idx, str(t), s, e, text[s:e], {}))
    attach_markup(text, fmt, chunks)
    return chunks
