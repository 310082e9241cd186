"""Term protection: recognisers find spans, the operator hides them behind ``⟨TERM_NNN⟩``, restore puts
them back byte-exactly. Library code only (no Dagster); the asset and its checks are in ``defs.py``.

Map: ``model`` (config, chunk input, results) · ``recognizers/`` (one per module) · ``registry``
(config → recognisers) · ``operator`` (overlaps → placeholders) · ``protector`` (TermProtector) ·
``restore`` (stored rows and their restoration rule) · ``citation_patterns`` / ``number_patterns`` /
``vocabulary`` (the patterns and the word tables a language can extend) · ``errors``.
"""

from .errors import (
    EmptyTextError,
    InvalidCustomTermError,
    MissingPlaceholdersError,
    NotProseChunkError,
    PlaceholderError,
    ProtectionError,
    RecognizerConfigError,
    UnknownPlaceholdersError,
)
from .model import (
    DEFAULT_RECOGNIZERS,
    TERM_NS,
    Candidate,
    ProtectedChunk,
    ProtectedTerm,
    TermProtectionConfig,
    TextChunk,
    validate_custom_terms,
)
from .protector import TermProtector
from .restore import PROTECTED_COLUMNS, TERM_FIELDS, protected_frame, restoration_failures, restore_protected, term_rows

__all__ = [
    "DEFAULT_RECOGNIZERS",
    "PROTECTED_COLUMNS",
    "TERM_FIELDS",
    "TERM_NS",
    "Candidate",
    "EmptyTextError",
    "InvalidCustomTermError",
    "MissingPlaceholdersError",
    "NotProseChunkError",
    "PlaceholderError",
    "ProtectedChunk",
    "ProtectedTerm",
    "ProtectionError",
    "RecognizerConfigError",
    "TermProtectionConfig",
    "TermProtector",
    "TextChunk",
    "UnknownPlaceholdersError",
    "protected_frame",
    "restoration_failures",
    "restore_protected",
    "term_rows",
    "validate_custom_terms",
]
