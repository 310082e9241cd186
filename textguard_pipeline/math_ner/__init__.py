"""Elementary-math NER and frames (seed 001): one slice, library modules without Dagster.

* ``schemas`` — pydantic models: ``NEREntity``, the four frame models (``Frame`` / ``FRAME_ADAPTER``),
  ``LLMNEROutput`` (a backend's wire format), ``NERRequest`` / ``NERResponse`` (our service's JSON API).
* ``lexicons`` + ``rules`` + ``frame_rules`` — ``RuleBasedExtractor``, the embedded offline default
  (English and Polish input, canonical English output).
* ``http_backend`` — ``HttpNerBackend``: POST ``text/plain`` to a backend URL, validate the answer;
  failures are ``NerBackendError`` with the HTTP status our API answers (503 / 504 / 500 / 502).
* ``table`` — ``ner_frame(doc_id, chunks, backend)``: the ``ner_frames`` rows of one document.
* ``service`` — the FastAPI app of ``textguard ner-serve``; ``defs`` — the Dagster asset and checks.
"""

from .frame_rules import sentences
from .http_backend import RAW_LOG_CHARS, HttpNerBackend, NerBackendError, anchor_entities, make_backend
from .lexicons import parse_number_words
from .rules import RuleBasedExtractor
from .schemas import (
    ENTITY_TYPES,
    FRAME_ADAPTER,
    MAX_TEXT_CHARS,
    ArithExampleFrame,
    DefinitionFrame,
    EntityType,
    Frame,
    LLMNEROutput,
    NERBatchRequest,
    NERBatchResponse,
    NEREntity,
    NerExtractor,
    NERRequest,
    NERResponse,
    NERResult,
    Operation,
    ProcedureFrame,
    PropertyFrame,
    PropertyName,
    RelationName,
    frame_dict,
    validate_frame,
)
from .table import NER_COLUMNS, UNIT_MAX_CHARS, check_arith, frame_row_problems, ner_frame, text_units

__all__ = [
    "ENTITY_TYPES",
    "FRAME_ADAPTER",
    "MAX_TEXT_CHARS",
    "NER_COLUMNS",
    "RAW_LOG_CHARS",
    "UNIT_MAX_CHARS",
    "ArithExampleFrame",
    "DefinitionFrame",
    "EntityType",
    "Frame",
    "HttpNerBackend",
    "LLMNEROutput",
    "NERBatchRequest",
    "NERBatchResponse",
    "NEREntity",
    "NERRequest",
    "NERResponse",
    "NERResult",
    "NerBackendError",
    "NerExtractor",
    "Operation",
    "ProcedureFrame",
    "PropertyFrame",
    "PropertyName",
    "RelationName",
    "RuleBasedExtractor",
    "anchor_entities",
    "check_arith",
    "frame_dict",
    "frame_row_problems",
    "make_backend",
    "ner_frame",
    "parse_number_words",
    "sentences",
    "text_units",
    "validate_frame",
]
