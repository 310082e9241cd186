"""Math NER schemas (seed 001 §2, §4, §5): entities, the four frame models, wire formats, results.

Frame extensions (optional, so any seed-conformant backend validates):
``start``/``end`` — the evidence range of a frame in the input text;
``correct`` on ARITH_EXAMPLE — the arithmetic was checked (False = wrong example).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Any, Literal, Protocol, Union
from uuid import UUID

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, field_validator, model_validator

EntityType = Literal["OPERATION", "PROPERTY", "NUMBER", "VARIABLE", "RELATION", "CONCEPT"]
ENTITY_TYPES: tuple[str, ...] = ("OPERATION", "PROPERTY", "NUMBER", "VARIABLE", "RELATION", "CONCEPT")
Operation = Literal["add", "sub", "mul", "div"]
RelationName = Literal["eq", "lt", "gt", "lte", "gte", "neq"]
PropertyName = Literal["commutative", "associative", "distributive", "zero_neutral", "identity"]
MAX_TEXT_CHARS = 10_000


class NEREntity(BaseModel):
    """One entity: ``text == input[start:end]``; canonical form in English."""

    text: str
    type: EntityType
    start: int = Field(ge=0)
    end: int = Field(ge=0)
    canonical: str = Field(min_length=1)
    confidence: float = Field(ge=0.0, le=1.0)

    @model_validator(mode="after")
    def _ordered(self) -> "NEREntity":
        if self.end < self.start:
            raise ValueError(f"end {self.end} < start {self.start}")
        return self


class _FrameBase(BaseModel):
    model_config = ConfigDict(extra="ignore")
    source_span_id: UUID | None = None  # injected by the adapter, never sent by a backend
    start: int | None = Field(default=None, ge=0)  # extension: evidence range in the input
    end: int | None = Field(default=None, ge=0)


class ArithExampleFrame(_FrameBase):
    frame_type: Literal["ARITH_EXAMPLE"]
    operation: Operation
    operands: list[int | float | str] = Field(min_length=1)
    result: int | float | str
    correct: bool | None = None  # extension: operands combined with operation give result


class PropertyFrame(_FrameBase):
    frame_type: Literal["PROPERTY"]
    subject: str = Field(min_length=1)
    property_name: PropertyName
    value: bool | str


class ProcedureFrame(_FrameBase):
    frame_type: Literal["PROCEDURE"]
    operation: Operation
    steps: list[str] = Field(min_length=1)


class DefinitionFrame(_FrameBase):
    frame_type: Literal["DEFINITION"]
    term: str = Field(min_length=1)
    definition: str = Field(min_length=1)


Frame = Annotated[
    Union[ArithExampleFrame, PropertyFrame, ProcedureFrame, DefinitionFrame], Field(discriminator="frame_type")
]
FRAME_ADAPTER: TypeAdapter = TypeAdapter(Frame)


def validate_frame(raw: Any) -> Any:
    """The typed frame of ``raw`` (a dict or JSON string); raises ValidationError."""
    if isinstance(raw, str):
        return FRAME_ADAPTER.validate_json(raw)
    return FRAME_ADAPTER.validate_python(raw)


def frame_dict(frame: Any) -> dict[str, Any]:
    """Wire form of a frame: no ``None`` fields (so no source_span_id)."""
    return frame.model_dump(mode="json", exclude_none=True)


class LLMNEROutput(BaseModel):
    """What a backend returns for ``POST text/plain`` (frames raw, validated one by one)."""

    entities: list[NEREntity]
    frames: list[dict[str, Any]]
    unmapped: list[str] = []


class NERRequest(BaseModel):
    text: str = Field(..., min_length=1, max_length=MAX_TEXT_CHARS)
    doc_id: UUID | None = None
    span_id: UUID | None = None

    @field_validator("text")
    @classmethod
    def _not_blank(cls, v: str) -> str:
        if not v.strip():
            raise ValueError("text is blank")
        return v


class NERResponse(BaseModel):
    span_id: UUID | None = None
    text: str
    entities: list[NEREntity]
    frames: list[Frame]
    unmapped: list[str] = []
    processing_time_ms: int


class NERBatchRequest(BaseModel):
    spans: list[NERRequest] = Field(..., min_length=1, max_length=100)
    domain: str = "math_elementary"


class NERBatchResponse(BaseModel):
    results: list[NERResponse]


@dataclass
class NERResult:
    """What an extractor returns for one input text.

    ``invalid_frames``: frames a backend sent that fail their schema (kept, with
    the error, so they are flagged rather than lost). ``rejected_entities``:
    entities whose quote could not be anchored in the input.
    """

    entities: list[NEREntity]
    frames: list[Any]
    unmapped: list[str] = field(default_factory=list)
    invalid_frames: list[dict[str, Any]] = field(default_factory=list)
    rejected_entities: list[dict[str, Any]] = field(default_factory=list)
    #: windows of the input by route (rules / llm / skipped) when a hybrid or LLM extractor read it
    units: dict[str, int] = field(default_factory=dict)
    #: the hybrid extractor's windows: {start, end, route, reason} (offsets in the text)
    windows: list[dict[str, Any]] = field(default_factory=list)
    #: which extractor produced each entity / frame (parallel lists), when more than one did
    entity_sources: list[str] | None = None
    frame_sources: list[str] | None = None

    def sources(self, default: str) -> dict[str, list[str]]:
        """The per-item source lists, created (every item from ``default``) on first use."""
        if self.entity_sources is None:
            self.entity_sources = [default] * len(self.entities)
        if self.frame_sources is None:
            self.frame_sources = [default] * len(self.frames)
        return {"entities": self.entity_sources, "frames": self.frame_sources}

    def to_output(self) -> LLMNEROutput:
        return LLMNEROutput(entities=self.entities, frames=[frame_dict(f) for f in self.frames], unmapped=self.unmapped)


class NerExtractor(Protocol):
    label: str

    def extract(self, text: str) -> NERResult: ...


def _short_error(exc: ValidationError) -> str:
    return "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors()[:3])
