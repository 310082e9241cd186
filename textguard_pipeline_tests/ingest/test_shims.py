"""The pre-restructure module paths keep every public name, bound to the same objects as the new homes."""

import importlib

import pytest

SHIMS = {
    "textguard_pipeline.core.documents": ["textguard_pipeline.ingest.documents"],
    "textguard_pipeline.core.parsing": ["textguard_pipeline.ingest.parsing"],
    "textguard_pipeline.core.citations": [
        "textguard_pipeline.citations.parser",
        "textguard_pipeline.citations.documents",
    ],
    "textguard_pipeline.core.markers": [
        "textguard_pipeline.markers.model",
        "textguard_pipeline.markers.miner",
        "textguard_pipeline.markers.gate",
        "textguard_pipeline.markers.tables",
    ],
}


@pytest.mark.parametrize("shim", sorted(SHIMS))
def test_shim_exports_every_public_name(shim):
    old = importlib.import_module(shim)
    for home_name in SHIMS[shim]:
        home = importlib.import_module(home_name)
        public = getattr(home, "__all__", None) or [n for n in vars(home) if not n.startswith("_")]
        for name in public:
            if isinstance(getattr(home, name), type(importlib)):
                continue
            if getattr(getattr(home, name), "__module__", home_name) != home_name:
                continue  # imported into the home module, not defined there
            assert getattr(old, name) is getattr(home, name), f"{shim}.{name}"


def test_pinned_names_of_earlier_issues():
    from textguard_pipeline.core.citations import CITATION_COLUMNS, CitationParser, document_citations  # noqa: F401
    from textguard_pipeline.core.documents import discover_documents, doc_id_for, read_document  # noqa: F401
    from textguard_pipeline.core.markers import (  # noqa: F401
        CandidateMiner,
        StructureGateConfig,
        StructureNumberingGate,
        gate_config_from_env,
    )
    from textguard_pipeline.core.parsing import Chunk, ChunkType, parse_document  # noqa: F401


def test_gate_settings_reject_unknown_booleans():
    from textguard_pipeline.core.markers import gate_config_from_env

    assert gate_config_from_env({"TEXTGUARD_MARKERS_GATE": "off"}).enabled is False
    with pytest.raises(ValueError, match="not a boolean"):
        gate_config_from_env({"TEXTGUARD_MARKERS_GATE": "maybe"})
