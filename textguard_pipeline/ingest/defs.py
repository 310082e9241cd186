"""Dagster definitions of the ingest slice: `source_documents` (the root), `parsed_chunks` and their checks."""

from collections import Counter
from typing import Callable

import dagster as dg
import pandas as pd
from dagster import AssetChecksDefinition, AssetExecutionContext, asset

from .. import settings
from ..defs_kit.checks import documents_ok_check, frame_check
from ..defs_kit.resources import CorpusResource
from ..defs_kit.runner import asset_kwargs, first_frame, head_where, markdown_table, per_document, source_row
from .build import build_parsed_chunks
from .documents import scan_corpus
from .rules import chunk_tiling_rule, markup_spans_rule, source_rule_factory
from .sources import source_documents_frame


@asset(**asset_kwargs("ingest", {"python", "parquet"}, "1"))
def source_documents(context: AssetExecutionContext, corpus: CorpusResource):
    """The documents of the corpus, decoded as strict UTF-8: doc_id, path, format, sha256, text, n_chars.

    A file that cannot be read or named (invalid UTF-8 content or file name, permission denied, a FIFO,
    a symlink leading outside the corpus, a doc_id collision) becomes a row with status="error" and the
    reason naming the file; the `source_documents_readable` check reports it.
    """
    entries = scan_corpus(corpus.corpus_dir)

    def build(doc_id: str) -> pd.DataFrame:
        return source_documents_frame(doc_id, entries.get(doc_id), corpus.corpus_dir, context.log)

    return per_document(
        context,
        build,
        preview=lambda fr: markdown_table(
            pd.concat(fr.values()), ["doc_id", "format", "n_chars", "status", "error"], n=10
        ),
        extra_metadata=lambda fr: {"formats": dict(Counter(f.iloc[0]["format"] for f in fr.values() if len(f)))},
    )


@asset(**asset_kwargs("parse", {"python", "parquet"}, "7"))
def parsed_chunks(context: AssetExecutionContext, corpus: CorpusResource, source_documents):
    """Lossless chunks (prose / structural / math_block / code) tiling each document; inline math as ⟨MATH_NNN⟩.

    Prose chunks carry their `markup_spans` (start, end, kind; absolute offsets): docs/ingest.md.
    Each chunk carries its `language` (ISO 639-1, null when undetermined) and `language_confidence`,
    detected offline or overridden (front matter, `.textguardlanguages`, TEXTGUARD_LANGUAGE): docs/languages.md.
    """
    run_language = settings.language_settings().language

    def build(doc_id: str, src: pd.DataFrame) -> pd.DataFrame:
        row = source_row(src, doc_id)
        return build_parsed_chunks(doc_id, row["text"], row["format"], row["path"], corpus.corpus_dir, run_language)

    def preview(frames: dict[str, pd.DataFrame]) -> str:
        key, df = first_frame(frames)
        shown = head_where(df, "chunk_type", lambda t: t == "prose", 5)
        return f"**{key}**\n\n" + markdown_table(shown, ["chunk_index", "chunk_type", "start", "end", "text"])

    return per_document(
        context,
        build,
        source_documents,
        preview=preview,
        extra_metadata=lambda fr: {
            "chunk_types": dict(Counter(t for f in fr.values() for t in f["chunk_type"])),
            "language_chars": language_chars(fr),
        },
    )


def language_chars(frames: dict[str, pd.DataFrame]) -> dict[str, int]:
    """Characters per chunk language ("undetermined" for null): the document's languages at a glance."""
    counts: Counter[str] = Counter()
    for f in frames.values():
        for lang, s, e in zip(f["language"], f["start"], f["end"]):
            counts[lang if isinstance(lang, str) else "undetermined"] += int(e - s)
    return dict(counts)


def ingest_checks(corpus_dir_fn: Callable[[], str] = settings.corpus_dir) -> list[AssetChecksDefinition]:
    """The checks of the root assets (``corpus_dir_fn`` locates the files whose sha256 is re-checked)."""
    return [
        frame_check(
            "source_documents",
            "source_documents_readable",
            source_rule_factory(corpus_dir_fn),
            description="Each file decoded as strict UTF-8 (else: file and byte offset), sha256 matches the file, "
            "doc_id is a safe key.",
            blocking=False,
            with_sources=False,
        ),
        frame_check(
            "parsed_chunks",
            "parsed_chunks_tiling",
            chunk_tiling_rule,
            description="Chunks tile the document (0 … len, no gap, no overlap); restoring ⟨MATH⟩/⟨CODE⟩/⟨LIT⟩ "
            "gives source[start:end].",
        ),
        frame_check(
            "parsed_chunks",
            "parsed_chunks_markup_ranges",
            markup_spans_rule,
            description="Every markup span (markup_spans: start, end, kind) lies in its prose chunk, in order, and "
            "its quote is source_documents.text[start:end] (absolute offsets).",
        ),
        documents_ok_check("parsed_chunks"),
    ]


assets = [source_documents, parsed_chunks]

#: This slice's Dagster definitions (merged by ``textguard_pipeline.definitions``).
defs = dg.Definitions(assets=[source_documents, parsed_chunks], asset_checks=ingest_checks())
