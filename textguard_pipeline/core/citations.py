"""Compatibility shim: the seed-002 citation parser lives in :mod:`textguard_pipeline.citations`."""

from ..citations.documents import *  # noqa: F401,F403
from ..citations.documents import (  # noqa: F401
    CITATION_COLUMNS,
    DocumentCitations,
    ReferenceList,
    SourceCount,
    document_citations,
    find_reference_list,
    find_reference_lists,
    read_sources_sidecar,
    sidecar_paths,
    source_count_for,
)
from ..citations.parser import *  # noqa: F401,F403
from ..citations.parser import (  # noqa: F401
    ABBREVIATIONS,
    NUMBER_ABBREVIATIONS,
    Citation,
    CitationCluster,
    CitationParser,
    CitationValidationError,
    ParsedAnswer,
    Sentence,
    citation_error,
    validate_citation_list,
)
