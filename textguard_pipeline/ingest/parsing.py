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

from .chunks import Chunk, ChunkType, _assemble, _inline_spans, _prose_chunk, offset_map_for
from .markup import attach_markup, find_markup, spans_within
from .paragraphs import DEFAULT_CHUNK_CHARS, DEFAULT_CHUNK_MAX_CHARS, split_prose, usual_width
from .regions import _md_regions, _tex_regions, _txt_regions

__all__ = ["Chunk", "ChunkType", "offset_map_for", "parse_document"]


def parse_document(
    text: str,
    fmt: str,
    *,
    chunk_chars: int = DEFAULT_CHUNK_CHARS,
    chunk_max_chars: int = DEFAULT_CHUNK_MAX_CHARS,
) -> list[Chunk]:
    """Chunks of ``text`` (format ``tex``, ``md`` or ``txt``) tiling it exactly.

    Prose is split at blank lines; plain text, and any prose stretch over ``chunk_chars``, also where the
    line shape ends a paragraph; what is still over ``chunk_chars`` is cut at a sentence, clause or word
    boundary (:mod:`.paragraphs`), and no prose chunk exceeds ``chunk_max_chars``."""
    if fmt not in ("tex", "md", "txt"):
        raise ValueError(f"unsupported format {fmt!r}; expected tex, md or txt")
    if chunk_chars < 1 or chunk_max_chars < chunk_chars:
        raise ValueError(f"chunk limits {chunk_chars}/{chunk_max_chars}: need 1 <= chunk_chars <= chunk_max_chars")
    if not text:
        return []
    regions = {"tex": _tex_regions, "md": _md_regions, "txt": _txt_regions}[fmt](text)
    regions = [r for r in regions if r[1] > r[0]]
    # Markdown prose regions come pre-split; keep region order and types as given.
    segs = _assemble(text, regions)
    width = None
    chunks: list[Chunk] = []
    for s, e, t in segs:
        if t != ChunkType.PROSE:
            chunks.append(Chunk(len(chunks), str(t), s, e, text[s:e], {}))
            continue
        pieces = [(s, e)]
        found = None
        if fmt == "txt" or e - s > chunk_chars:
            if width is None:
                width = usual_width(text)
            inline = [(a, b) for a, b, _ in _inline_spans(text, s, e, fmt)]
            found = find_markup(text, fmt, s, e)  # once: the cuts avoid it, and it is each piece's markup
            pieces = split_prose(
                text, s, e, width, inline, fmt=fmt, by_lines=fmt == "txt", soft=chunk_chars, hard=chunk_max_chars,
                markup=found,
            )  # fmt: skip
        for a, b in pieces:
            chunk = _prose_chunk(len(chunks), text, a, b, fmt)
            if found is not None:
                chunk.markup_spans = spans_within(found, a, b)
            chunks.append(chunk)
    attach_markup(text, fmt, [c for c in chunks if c.markup_spans is None])
    return chunks
