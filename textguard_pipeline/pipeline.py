"""The whole pipeline for one document: ``run_document`` composed from the slices' build functions.

Each ``build_<asset>`` (in its slice's ``build.py``: ``ingest``, ``protection``, ``math_ner``,
``citations``, ``markers``, ``meanings``) makes that asset's table for ONE document from
library objects (the upstream results) and components (protector, NER backend, gate, meaning
resolver). The Dagster assets call exactly these functions — the asset converts its upstream
Parquet frames to library objects and adds metadata — so there is one implementation, used by the
UI, the backfills and a notebook::

    from textguard_pipeline.pipeline import components_from_env, run_document
    comps = components_from_env()
    frames = run_document("data/corpus/rfc8446.txt", "data/corpus", comps)
    frames["resolved_meanings"].head()

Components are built from the same settings the Dagster resources hold
(``*Settings.from_env()`` read the same env vars; the resources are made from them).
No Dagster imports here, and nothing in the package imports this module (the CLI and benchmarks may).
The build functions' names stay importable from here for older imports.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import pandas as pd

# The build functions live in their slices; the names below are re-exported for older imports.
from .citations.build import _CITATION_DTYPES, build_citation_maps  # noqa: F401
from .citations.documents import (  # noqa: F401
    CITATION_COLUMNS,
    DocumentCitations,
    document_citations,
    source_count_for,
)
from .citations.parser import CitationParser
from .ingest.build import build_parsed_chunks, build_source_documents, parse_chunks  # noqa: F401
from .ingest.documents import doc_id_for
from .ingest.frames import parsed_chunks_frame
from .ingest.languages import assign_languages, document_override  # noqa: F401
from .ingest.parsing import Chunk, parse_document  # noqa: F401
from .ingest.sources import entry_for, source_documents_frame  # noqa: F401
from .lib.llm import ChatClient, LLMConfig, llm_config_from_env  # noqa: F401
from .lib.log import Log
from .markers.build import (  # noqa: F401
    build_candidate_markers,
    build_gated_markers,
    find_markers,
    gate_llm_label,
    gate_markers,
    make_gate,
)
from .markers.gate import GateResult, StructureNumberingGate  # noqa: F401
from .markers.miner import CandidateMiner, group_occurrences  # noqa: F401
from .markers.model import MarkerOccurrence, StructureGateConfig, gate_config_from_env  # noqa: F401
from .markers.tables import gated_frame, mining_exclusions, occurrences_frame  # noqa: F401
from .math_ner.backends import build_extractor  # noqa: F401
from .math_ner.build import build_ner_frames, ner_backend_for
from .math_ner.table import ner_frame  # noqa: F401
from .meanings.build import build_resolved_meanings
from .protection.build import build_protected_chunks, protection_config, protector_for  # noqa: F401
from .protection.model import TermProtectionConfig  # noqa: F401
from .protection.protector import TermProtector  # noqa: F401
from .protection.restore import protected_frame  # noqa: F401
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
    from .meanings.resolver import build_resolver  # heavy: wn and the resolver's spaCy profile; only when building

    return Components(
        protector=protector_for(protection_settings()),
        ner_backend=ner_backend_for(math_ner_settings()),
        gate=make_gate(gate_config_from_env(), log=log),
        resolver=build_resolver(meanings_settings()),
        run_id=run_id,
        log=log,
    )


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
