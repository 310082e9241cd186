"""The ``candidate_markers`` and ``gated_markers`` tables for one document, and the gate of a config
(the one implementation the assets, their resource, a notebook and ``pipeline.run_document`` call)."""

from __future__ import annotations

from typing import Sequence

import pandas as pd

from ..ingest.parsing import Chunk
from ..lib.llm import ChatClient, StrictChatClient, llm_config_from_env
from ..lib.log import Log
from .gate import GateResult, StructureNumberingGate
from .miner import CandidateMiner, group_occurrences
from .model import MarkerOccurrence, StructureGateConfig
from .tables import gated_frame, mining_exclusions, occurrences_frame


def make_gate(
    config: StructureGateConfig, log: Log | None = None, llm_fallback: bool | None = None
) -> StructureNumberingGate:
    """The StructureNumberingGate of ``config``; with an LLM client (TEXTGUARD_LLM_*) iff the SOFT_FLAG
    action is "llm" and an endpoint is set (else SOFT_FLAG candidates stay weak markers).

    A configured endpoint that is unreachable (or over budget) is an outage: the document fails, as in the
    round trip, unless ``llm_fallback`` (default: the config's, TEXTGUARD_MARKERS_LLM_FALLBACK) keeps them weak
    instead."""
    llm_cfg = llm_config_from_env() if config.enabled and config.soft_flag_action == "llm" else None
    if llm_fallback is None:
        llm_fallback = config.llm_fallback
    client = (ChatClient if llm_fallback else StrictChatClient)(llm_cfg) if llm_cfg else None
    return StructureNumberingGate(config, llm=client, log=log)


def gate_llm_label(gate: StructureNumberingGate) -> str | None:
    """``model@url`` of the gate's LLM, or None."""
    return getattr(getattr(gate.llm, "config", None), "label", None) if gate.llm is not None else None


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
