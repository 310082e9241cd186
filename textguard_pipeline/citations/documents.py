"""The document-level half of seed 002: source counts and ``citation_maps`` rows.

:func:`document_citations` runs the :class:`~.parser.CitationParser` over the
prose chunks of a document and gives rows with absolute offsets; the source
count comes from a ``<doc>.sources.json`` sidecar or the document's own
references list (:func:`find_reference_list`). Stdlib only.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Optional

from .parser import Citation, CitationCluster, CitationParser, ParsedAnswer, Sentence, citation_error
from .rst import numbering as rst_numbering
from .tables import table_cells

__all__ = [
    "ReferenceList",
    "SourceCount",
    "DocumentCitations",
    "find_reference_list",
    "find_reference_lists",
    "read_sources_sidecar",
    "source_count_for",
    "document_citations",
    "CITATION_COLUMNS",
]


# ---------------------------------------------------------------------------
# Documents: source counts and citation_maps rows

#: Columns of the ``citation_maps`` asset (one row per citation id).
CITATION_COLUMNS = [
    "doc_id",
    "start",
    "end",
    "text",
    "citation_id",
    "cluster_index",
    "sentence_index",
    "sentence_start",
    "sentence_end",
    "valid",
    "error",
    "validation",
    "form",
    "chunk_index",
    "cluster_start",
    "cluster_end",
    "sentence_text",
]

_REF_HEADING = re.compile(
    r"""^[ \t]*(?:
        \#{1,6}[ \t]+                                   # Markdown heading
      | \\(?:section|subsection|subsubsection|chapter|paragraph)\*?\{   # LaTeX heading
      | (?:\d+(?:\.\d+)*\.?[ \t]+)?                     # plain text, optionally numbered
    )
    (?:\*\*)?(?:(?:normative|informative|cited|numbered)[ \t]+)?
    (?P<name>references|sources|bibliography|works[ \t]+cited|citations|reference[ \t]+list)
    (?:\*\*)?[ \t]*:?[ \t]*\}?[ \t]*$""",
    re.IGNORECASE | re.MULTILINE | re.VERBOSE,
)
_REF_ENTRY = re.compile(r"^[ \t]*(?:[-*+][ \t]+)?\[(\d{1,6})\][ \t:.]*\S", re.MULTILINE)
_NEXT_HEADING = re.compile(
    r"^(?:\#{1,6}[ \t]+\S|\\(?:section|subsection|chapter|part|appendix)\b|\\end\{document\})", re.MULTILINE
)


@dataclass(frozen=True)
class ReferenceList:
    """A "References"/"Sources" section with ``[N] …`` entries: its range and entry ids."""

    start: int
    end: int
    ids: frozenset[int]
    heading: str
    kind: str = "list"  # "list": a references section; "rst": reST footnote/citation definitions (not a range)

    @property
    def num_sources(self) -> int:
        return max(self.ids)


@dataclass(frozen=True)
class SourceCount:
    """How many sources a document's citations may point to, and where that came from.

    With several references lists (answers each followed by their sources), a
    citation is checked against the first list after it, else the last one.
    """

    num_sources: Optional[int]
    origin: str  # "sidecar", "references", "none"
    note: str
    lists: tuple[ReferenceList, ...] = ()

    @property
    def checked(self) -> bool:
        return self.num_sources is not None

    def at(self, pos: int) -> tuple[Optional[int], Optional[frozenset[int]], str]:
        """(num_sources, entry ids or None, note) that apply to a citation at ``pos``."""
        if self.origin != "references":
            return self.num_sources, None, self.note
        if len(self.lists) == 1:
            return self.num_sources, self.lists[0].ids, self.note
        ref = next((r for r in self.lists if r.start > pos), self.lists[-1])
        return ref.num_sources, ref.ids, f"checked: {ref.num_sources} sources (references list at offset {ref.start})"


def find_reference_lists(text: str) -> list[ReferenceList]:
    """Every references section of ``text`` that has ``[N] …`` entries, in order.

    A section runs from its heading to the next Markdown/LaTeX heading or the
    end of the text; entries are lines starting with ``[N]`` (optionally after
    a list bullet).
    """
    out: list[ReferenceList] = []
    for h in _REF_HEADING.finditer(text):
        body = h.end()
        nxt = _NEXT_HEADING.search(text, body + 1)
        end = nxt.start() if nxt else len(text)
        ids = frozenset(int(m.group(1)) for m in _REF_ENTRY.finditer(text, body, end))
        ids = frozenset(i for i in ids if i >= 1)
        if ids:
            out.append(ReferenceList(h.start(), end, ids, h.group(0).strip()))
    rst = rst_numbering(text)
    if rst.span is not None and rst.defined and not out:
        out.append(ReferenceList(rst.span[0], rst.span[1], rst.defined, ".. [label] definitions", "rst"))
    return out


def find_reference_list(text: str) -> Optional[ReferenceList]:
    """The last references section with ``[N] …`` entries (None when there is none)."""
    lists = find_reference_lists(text)
    return lists[-1] if lists else None


def sidecar_paths(doc_path: Path | str) -> list[Path]:
    """Candidate sidecars of ``answer.md``: ``answer.md.sources.json``, ``answer.sources.json``."""
    p = Path(doc_path)
    return [p.with_name(p.name + ".sources.json"), p.with_name(p.stem + ".sources.json")]


def read_sources_sidecar(doc_path: Path | str) -> Optional[tuple[int, Path]]:
    """(number of sources, sidecar path) from a sidecar next to the document, or None.

    Accepted JSON: a list of sources; ``{"sources": [...]}``; ``{"num_sources": N}``.
    A sidecar that exists but cannot be used raises ValueError naming the file.
    """
    for sc in sidecar_paths(doc_path):
        if not sc.is_file():
            continue
        try:
            data = json.loads(sc.read_text(encoding="utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise ValueError(f"{sc}: not valid UTF-8 JSON: {exc}") from exc
        if isinstance(data, list):
            return len(data), sc
        if isinstance(data, dict):
            if isinstance(data.get("sources"), list):
                return len(data["sources"]), sc
            n = data.get("num_sources")
            if isinstance(n, int) and not isinstance(n, bool) and n >= 0:
                return n, sc
        raise ValueError(f'{sc}: expected a JSON list, {{"sources": [...]}} or {{"num_sources": N}}')
    return None


def source_count_for(text: str, doc_path: Path | str | None = None) -> SourceCount:
    """The source count of a document: a sidecar wins over references lists;
    with neither, range validation is skipped (and the note says so)."""
    lists = tuple(find_reference_lists(text))
    if doc_path is not None:
        try:
            found = read_sources_sidecar(doc_path)
        except ValueError as exc:
            return SourceCount(None, "none", f"skipped: unusable sidecar ({exc})", lists)
        if found is not None:
            n, sc = found
            note = f"checked: {n} sources (sidecar {sc.name})"
            if lists and lists[-1].num_sources != n:
                note += f"; the references list names {lists[-1].num_sources}"
            return SourceCount(n, "sidecar", note, lists)
    if lists:
        n = lists[-1].num_sources
        return SourceCount(n, "references", f"checked: {n} sources (references list)", lists)
    return SourceCount(None, "none", "skipped: no source count")


@dataclass
class DocumentCitations:
    """Citations of one document with absolute offsets (``parsed.original_text`` is the document)."""

    parsed: ParsedAnswer
    rows: list[dict[str, Any]]
    source_count: SourceCount
    references: list[ReferenceList]

    @property
    def invalid(self) -> list[dict[str, Any]]:
        return [r for r in self.rows if not r["valid"]]


def document_citations(
    doc_id: str,
    source: str,
    chunks: Iterable[Any],
    source_count: SourceCount,
    parser: Optional[CitationParser] = None,
) -> DocumentCitations:
    """Parse the prose chunks of a document into ``citation_maps`` rows.

    Each prose chunk's ``text`` is parsed as is: inline math and code stand
    behind ⟨MATH⟩/⟨CODE⟩ placeholders there, so ``[N]`` inside them (and in
    math/code chunks, which are skipped) is never a citation. Offsets go back
    to the document through ``chunk.offset_map()``. Sentences are numbered
    across the document; references sections themselves are not parsed.
    """
    parser = parser or CitationParser()
    refs = list(source_count.lists) or find_reference_lists(source)
    sections = [r for r in refs if r.kind == "list"]  # reST definitions are scattered: no range to skip
    rst = rst_numbering(source) if "]_" in source else None

    def in_refs(pos: int) -> bool:
        return any(r.start <= pos < r.end for r in sections)

    all_cits: list[Citation] = []
    all_sents: list[Sentence] = []
    clusters: list[CitationCluster] = []
    chunk_of: dict[int, int] = {}
    pieces: list[tuple[Any, Any, Any]] = []  # (chunk, parsed text, local → absolute span)
    for chunk in chunks:
        if any(r.start <= chunk.start and chunk.end <= r.end for r in sections):
            continue
        if str(chunk.chunk_type) == "prose":
            pieces.append((chunk, parser.parse(chunk.text, None, rst=rst), _mapper(chunk.offset_map())))
        elif str(chunk.chunk_type) == "structural":
            # a table's cells are prose: each cell is parsed alone (its sentences are the cell's)
            for a, b in table_cells(source, chunk.start, chunk.end):
                pieces.append((chunk, parser.parse(source[a:b], None, rst=rst), _shift(a)))
    for chunk, local, absolute in pieces:
        # A citation goes with its sentence: both are dropped when the sentence starts in a references list.
        cmap: dict[int, Citation] = {}
        for s in local.sentences:
            r = absolute(s.start_pos, s.end_pos)
            if r is None or in_refs(r[0]):
                continue
            members = []
            for c in s.citations:
                cr = absolute(c.start_pos, c.end_pos)
                if cr is None:
                    continue
                cmap[id(c)] = Citation(c.citation_id, cr[0], cr[1], source[cr[0] : cr[1]], c.form)
                chunk_of[cr[0]] = chunk.index
                members.append(cmap[id(c)])
            all_sents.append(Sentence(source[r[0] : r[1]], r[0], r[1], members))
        for cl in local.clusters:
            members = [cmap[id(c)] for c in cl.citations if id(c) in cmap]
            r = absolute(cl.start_pos, cl.end_pos)
            if members and r is not None:
                clusters.append(CitationCluster(members, r[0], r[1], source[r[0] : r[1]]))
        all_cits.extend(cmap[id(c)] for c in local.citations if id(c) in cmap)

    all_sents.sort(key=lambda x: x.start_pos)
    parsed = parser._answer(source, sorted(all_cits, key=lambda c: c.start_pos), all_sents, clusters)
    rows = _rows(doc_id, parsed, source_count, chunk_of)
    return DocumentCitations(parsed, rows, source_count, refs)


def _mapper(om: Any) -> Any:
    def absolute(s: int, e: int) -> tuple[int, int] | None:
        try:
            return om.span_to_source(s, e)
        except ValueError:  # cannot happen: placeholders hold no brackets or stops
            return None

    return absolute


def _shift(base: int) -> Any:
    return lambda s, e: (base + s, base + e)


def _rows(doc_id: str, parsed: ParsedAnswer, sc: SourceCount, chunk_of: dict[int, int]) -> list[dict[str, Any]]:
    sent_of: dict[int, int] = {}
    for i, s in enumerate(parsed.sentences):
        for c in s.citations:
            sent_of[id(c)] = i
    cluster_of: dict[int, tuple[int, CitationCluster]] = {}
    for k, cl in enumerate(parsed.clusters):
        for c in cl.citations:
            cluster_of[id(c)] = (k, cl)
    seen: set[tuple[int, int, int]] = set()
    rows: list[dict[str, Any]] = []
    for c in parsed.citations:
        num_sources, ids, note = sc.at(c.start_pos)
        err = citation_error(c, num_sources, parsed.original_text)
        if err is None and ids is not None and c.citation_id not in ids:
            err = f"Citation [{c.citation_id}] has no entry in the references list"
        key = (c.start_pos, c.end_pos, c.citation_id)
        if err is None and key in seen:
            err = f"Duplicate citation [{c.citation_id}] at position {c.start_pos}"
        seen.add(key)
        si = sent_of.get(id(c))
        sent = parsed.sentences[si] if si is not None else None
        k, cl = cluster_of.get(id(c), (-1, CitationCluster([c], c.start_pos, c.end_pos, c.marker)))
        rows.append(
            {
                "doc_id": doc_id,
                "start": c.start_pos,
                "end": c.end_pos,
                "text": c.marker,
                "citation_id": c.citation_id,
                "cluster_index": k,
                "sentence_index": si if si is not None else -1,
                "sentence_start": sent.start_pos if sent else -1,
                "sentence_end": sent.end_pos if sent else -1,
                "valid": err is None,
                "error": err,
                "validation": note,
                "form": c.form,
                "chunk_index": chunk_of.get(c.start_pos, -1),
                "cluster_start": cl.start_pos,
                "cluster_end": cl.end_pos,
                "sentence_text": sent.text if sent else "",
            }
        )
    return rows
