"""The whole pipeline as plain functions: one per asset, plus ``run_document``.

Each ``build_<asset>`` makes that asset's table for ONE document from core
objects (the upstream results) and components (protector, NER backend, gate,
meaning resolver). The Dagster assets call exactly these functions — the
asset converts its upstream Parquet frames to core objects and adds metadata —
so there is one implementation, used by the UI, the backfills and a notebook::

    from textguard_pipeline.pipeline import components_from_env, run_document
    comps = components_from_env()
    frames = run_document("data/corpus/rfc8446.txt", "data/corpus", comps)
    frames["resolved_meanings"].head()

Components are built from the same settings the Dagster resources hold
(``*Settings.from_env()`` read the same env vars; the resources are made from them).
No Dagster imports here.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Protocol, Sequence

import pandas as pd

from .core.citations import CITATION_COLUMNS, CitationParser, DocumentCitations, document_citations, source_count_for
from .core.documents import doc_id_for
from .core.frames import parsed_chunks_frame
from .core.markers import (
    CandidateMiner,
    GateResult,
    MarkerOccurrence,
    StructureGateConfig,
    StructureNumberingGate,
    gate_config_from_env,
    gated_frame,
    group_occurrences,
    mining_exclusions,
    occurrences_frame,
)
from .core.parsing import Chunk, parse_document
from .ingest.languages import assign_languages, document_override
from .ingest.sources import entry_for, source_documents_frame
from .lib.llm import ChatClient, LLMConfig, llm_config_from_env
from .math_ner import ner_frame
from .math_ner.backends import build_extractor
from .protection import TermProtectionConfig, TermProtector, protected_frame
from .settings import (  # noqa: F401  (MeaningsSettings/ProtectionSettings/MathNerSettings: names kept for older imports)
    MathNerSettings,
    MeaningsSettings,
    ProtectionSettings,
    chunk_limits,
    env_bool,
    language_settings,
    llm_settings,
    math_ner_settings,
    meanings_settings,
    protection_settings,
)

logger = logging.getLogger(__name__)

#: The eight assets, in dependency order (the keys of ``run_document``'s result).
ASSETS = (
    "source_documents",
    "parsed_chunks",
    "protected_chunks",
    "ner_frames",
    "citation_maps",
    "candidate_markers",
    "gated_markers",
    "resolved_meanings",
)


class Log(Protocol):  # logging.Logger and Dagster's context.log both fit
    def info(self, msg: str, *a: Any) -> Any: ...
    def warning(self, msg: str, *a: Any) -> Any: ...
    def error(self, msg: str, *a: Any) -> Any: ...


def protector_for(settings: ProtectionSettings):
    """The TermProtector of ``settings`` (loads spaCy when NER is on; raises on an invalid custom term)."""
    return TermProtector(protection_config(settings))


def protection_config(settings: ProtectionSettings):
    """The validated TermProtectionConfig of ``settings``."""
    return TermProtectionConfig(
        use_ner=settings.use_ner,
        custom_terms=tuple(settings.custom_terms),
        protect_citations=settings.protect_citations,
        protect_numbers=settings.protect_numbers,
        protect_year_only=settings.protect_year_only,
        spacy_model=settings.spacy_model or None,
    )


def ner_backend_for(settings_: MathNerSettings) -> Any:
    """The math NER extractor of ``settings_`` (``math_ner.backends``); the TEXTGUARD_LLM_* client is
    configured only when the backend is llm/hybrid without a NER service URL (nothing paid otherwise).
    Called once per run: the extractor's client carries the run's meter and budget."""
    wants_llm = settings_.backend != "rules" and not settings_.url
    # the response cache (TEXTGUARD_LLM_CACHE) makes a re-run pay only for units it has not seen
    return build_extractor(settings_, LLMConfig.from_settings(llm_settings(), use_cache=True) if wants_llm else None)


def make_gate(config: StructureGateConfig, log: Log | None = None) -> StructureNumberingGate:
    """The StructureNumberingGate of ``config``; with an LLM client (TEXTGUARD_LLM_*) iff the SOFT_FLAG
    action is "llm" and an endpoint is set (else SOFT_FLAG candidates stay weak markers)."""
    llm_cfg = llm_config_from_env() if config.enabled and config.soft_flag_action == "llm" else None
    return StructureNumberingGate(config, llm=ChatClient(llm_cfg) if llm_cfg else None, log=log)


def gate_llm_label(gate: StructureNumberingGate) -> str | None:
    """``model@url`` of the gate's LLM, or None."""
    return getattr(getattr(gate.llm, "config", None), "label", None) if gate.llm is not None else None


@dataclass
class Components:
    """What the per-document functions need, built once (models load once)."""

    protector: Any
    ner_backend: Any
    gate: StructureNumberingGate
    resolver: Any
    citation_parser: CitationParser = field(default_factory=CitationParser)
    miner: CandidateMiner = field(default_factory=CandidateMiner)
    #: recorded in resolved_meanings.run_id (Dagster puts its run id there)
    run_id: str = ""
    log: Log = logger

    def close(self) -> None:
        for client in (self.ner_backend, self.gate.llm, getattr(self.resolver, "llm", None)):
            if client is not None and hasattr(client, "close"):
                client.close()

    def __enter__(self) -> "Components":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def components_from_env(log: Log = logger, run_id: str = "") -> Components:
    """Components from the same env vars as the code location's resources."""
    from .meanings.resolver import build_resolver  # wn and the resolver's spaCy profile: only when building

    return Components(
        protector=protector_for(protection_settings()),
        ner_backend=ner_backend_for(math_ner_settings()),
        gate=make_gate(gate_config_from_env(), log=log),
        resolver=build_resolver(meanings_settings()),
        run_id=run_id,
        log=log,
    )


# ---------------------------------------------------------------------------
# One function per asset (one document each)


def build_source_documents(
    doc_id: str, path: Path | str | None, corpus_root: Path | str, log: Log = logger
) -> pd.DataFrame:
    """The one-row ``source_documents`` table; a file that cannot be named, reached or read is a row
    with status="error" naming it."""
    entry = entry_for(doc_id, path, corpus_root) if path is not None else None
    return source_documents_frame(doc_id, entry, corpus_root, log)


def parse_chunks(
    text: str,
    fmt: str,
    rel_path: str | None = None,
    corpus_root: Path | str | None = None,
    run_language: str | None = None,
) -> list[Chunk]:
    """The chunks of a document (the objects behind ``parsed_chunks``), each with its language.

    ``run_language``: the run's override (None: ``TEXTGUARD_LANGUAGE``); ``rel_path``/``corpus_root``
    locate the corpus mapping file (docs/languages.md)."""
    soft, hard = chunk_limits()
    chunks = parse_document(text, fmt, chunk_chars=soft, chunk_max_chars=hard)
    if run_language is None:
        run_language = language_settings().language
    declared = None if run_language else document_override(text, fmt, rel_path, corpus_root)
    assign_languages(chunks, run_language=run_language, declared=declared)
    return chunks


def build_parsed_chunks(
    doc_id: str,
    text: str,
    fmt: str,
    rel_path: str | None = None,
    corpus_root: Path | str | None = None,
    run_language: str | None = None,
) -> pd.DataFrame:
    return parsed_chunks_frame(doc_id, parse_chunks(text, fmt, rel_path, corpus_root, run_language))


def build_protected_chunks(doc_id: str, chunks: Sequence[Chunk], protector: Any) -> pd.DataFrame:
    """Prose chunks with terms behind ⟨TERM_NNN⟩ (``protector``: a TermProtector)."""
    return protected_frame(doc_id, chunks, protector)


def build_ner_frames(
    doc_id: str, chunks: Sequence[Chunk], backend: Any, log: Log = logger
) -> tuple[pd.DataFrame, dict[str, Any]]:
    """Math entities and frames, and the report (rejected entities, unmapped frames)."""
    df, report = ner_frame(doc_id, chunks, backend)
    for r in report["rejected_entities"][:20]:
        log.warning(f"{doc_id}: entity {r['text']!r} dropped ({r['reason']})")
    return df, report


_CITATION_DTYPES = {
    "start": "int64",
    "end": "int64",
    "citation_id": "int64",
    "cluster_index": "int64",
    "sentence_index": "int64",
    "sentence_start": "int64",
    "sentence_end": "int64",
    "valid": "bool",
    "chunk_index": "int64",
    "cluster_start": "int64",
    "cluster_end": "int64",
}


def build_citation_maps(
    doc_id: str,
    text: str,
    chunks: Sequence[Chunk],
    doc_path: Path | str | None,
    parser: CitationParser,
    log: Log = logger,
) -> tuple[pd.DataFrame, DocumentCitations]:
    """Numeric [N] citations with their sentences; the source count comes from a
    ``<doc>.sources.json`` sidecar next to ``doc_path`` or the document's references list."""
    result = document_citations(doc_id, text, chunks, source_count_for(text, doc_path), parser)
    for r in result.invalid:
        log.warning(f"{doc_id} [{r['start']}:{r['end']}] {r['error']}")
    return pd.DataFrame(result.rows, columns=CITATION_COLUMNS).astype(_CITATION_DTYPES), result


def find_markers(text: str, chunks: Sequence[Chunk], miner: CandidateMiner) -> list[MarkerOccurrence]:
    """Every marker occurrence outside code and math (the objects behind ``candidate_markers``)."""
    return miner.find_occurrences(text, mining_exclusions(chunks))


def build_candidate_markers(doc_id: str, text: str, chunks: Sequence[Chunk], miner: CandidateMiner) -> pd.DataFrame:
    return occurrences_frame(doc_id, find_markers(text, chunks, miner))


def gate_markers(
    doc_id: str,
    text: str,
    occurrences: Sequence[MarkerOccurrence],
    gate: StructureNumberingGate,
    log: Log | None = None,
) -> GateResult:
    """The StructureNumberingGate over a document's occurrences (in document order)."""
    occ = sorted(occurrences, key=lambda o: o.span.start)
    res = gate.run(group_occurrences(occ), text, doc_id, log=log)
    rejected = [c.value for c in res.candidates if not c.kept]
    kept = [f"{c.value} ({c.structure_risk})" for c in res.kept]
    (log or gate.log).info(
        f"[gated_markers] {doc_id}: kept {kept[:12]}{' …' if len(kept) > 12 else ''}; "
        f"rejected {rejected[:12]}{' …' if len(rejected) > 12 else ''}"
    )
    return res


def build_gated_markers(
    doc_id: str,
    text: str,
    occurrences: Sequence[MarkerOccurrence],
    gate: StructureNumberingGate,
    log: Log | None = None,
) -> pd.DataFrame:
    return gated_frame(doc_id, gate_markers(doc_id, text, occurrences, gate, log), gate.config)


def build_resolved_meanings(
    doc_id: str, text: str, chunks: Sequence[Chunk], fmt: str, resolver: Any, run_id: str = "", log: Log = logger
) -> tuple[pd.DataFrame, Any]:
    """Mentions with their meanings, and the resolver's per-document stats."""
    df, stats = resolver.resolve_document(doc_id, text, chunks, fmt, run_id)
    if stats.llm_fallback:
        log.warning(f"[resolved_meanings] {doc_id}: LLM detector failed, embedded detector used: {stats.llm_fallback}")
    return df, stats


# ---------------------------------------------------------------------------
# The whole pipeline for one document


def run_document(
    path: Path | str,
    corpus_root: Path | str,
    components: Components,
    on_frame: Callable[[str, pd.DataFrame], None] | None = None,
) -> dict[str, pd.DataFrame]:
    """All eight tables of one document, in dependency order (the same frames the assets write).

    An unreadable document gives only its ``source_documents`` error row (as in
    Dagster, where the downstream assets skip it). An asset that fails raises.
    ``on_frame(asset, frame)`` is called as each table is ready (e.g. to write it).
    """
    log = components.log
    doc_id = doc_id_for(path, corpus_root)
    out: dict[str, pd.DataFrame] = {}

    def put(name: str, df: pd.DataFrame) -> None:
        out[name] = df
        if on_frame is not None:
            on_frame(name, df)

    src = build_source_documents(doc_id, path, corpus_root, log)
    put("source_documents", src)
    row = src.iloc[0]
    if row["status"] != "ok":
        return out
    text, fmt = row["text"], row["format"]
    chunks = parse_chunks(text, fmt, row["path"], corpus_root)
    put("parsed_chunks", parsed_chunks_frame(doc_id, chunks))
    put("protected_chunks", build_protected_chunks(doc_id, chunks, components.protector))
    put("ner_frames", build_ner_frames(doc_id, chunks, components.ner_backend, log)[0])
    put("citation_maps", build_citation_maps(doc_id, text, chunks, path, components.citation_parser, log)[0])
    occurrences = find_markers(text, chunks, components.miner)
    put("candidate_markers", occurrences_frame(doc_id, occurrences))
    put("gated_markers", build_gated_markers(doc_id, text, occurrences, components.gate, log))
    put(
        "resolved_meanings",
        build_resolved_meanings(doc_id, text, chunks, fmt, components.resolver, components.run_id, log)[0],
    )
    return out
