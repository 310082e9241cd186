"""Elementary-math NER and frames (seed 001): schemas, rule-based extractor, HTTP backend client.

* Schemas (pydantic): ``NEREntity``, the four frame models discriminated by
  ``frame_type`` (``Frame`` / ``FRAME_ADAPTER``), ``LLMNEROutput`` (the wire
  format of a backend), ``NERRequest`` / ``NERResponse`` (our service's JSON API).
* ``RuleBasedExtractor``: the embedded default, no network. English and Polish
  input, canonical English output. Recognisers (numbers, number words, lexicon
  phrases, symbols, contextual symbols, variables) propose candidates; the
  longest wins; frame builders read the resolved entities.
* ``HttpNerBackend``: POSTs raw text (``text/plain``) to a backend URL and
  validates the answer; failures are ``NerBackendError`` with an HTTP status
  (unreachable → 503, timeout → 504, invalid JSON/schema → 500).
* ``ner_frame(doc_id, chunks, backend)``: the ``ner_frames`` table of a document.

Frame extensions (optional, so any seed-conformant backend validates):
``start``/``end`` — the evidence range of a frame in the input text;
``correct`` on ARITH_EXAMPLE — the arithmetic was checked (False = wrong example).
"""

from __future__ import annotations

import json
import logging
import math
import re
import time
from dataclasses import dataclass, field
from typing import Annotated, Any, Iterable, Literal, Protocol, Union
from uuid import UUID

import httpx
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, field_validator, model_validator

log = logging.getLogger(__name__)

# ---------------------------------------------------------------------------
# Schemas (seed §2, §4, §5)

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


Frame = Annotated[Union[ArithExampleFrame, PropertyFrame, ProcedureFrame, DefinitionFrame],
                  Field(discriminator="frame_type")]
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

    def to_output(self) -> LLMNEROutput:
        return LLMNEROutput(entities=self.entities, frames=[frame_dict(f) for f in self.frames],
                            unmapped=self.unmapped)


class NerExtractor(Protocol):
    label: str

    def extract(self, text: str) -> NERResult: ...


# ---------------------------------------------------------------------------
# Lexicons

_EN_UNITS = {"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
             "eight": 8, "nine": 9}
_EN_TEENS = {"ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
             "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19}
_EN_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
            "eighty": 80, "ninety": 90}
_EN_SCALES = {"thousand": 1000, "million": 1_000_000}


def _forms(table: dict[str, int]) -> dict[str, int]:
    out: dict[str, int] = {}
    for forms, v in table.items():
        for f in forms.split("/"):
            out[f] = v
    return out


# Polish numerals with their common case forms (nominative / genitive / dative / instrumental).
_PL_UNITS = _forms({
    "zero/zera/zeru/zerem": 0,
    "jeden/jedna/jedno/jednego/jednej/jednemu/jednym/jedną": 1,
    "dwa/dwie/dwóch/dwu/dwoma/dwom/dwiema": 2,
    "trzy/trzech/trzem/trzema": 3,
    "cztery/czterech/czterem/czterema": 4,
    "pięć/pięciu/pięcioma": 5,
    "sześć/sześciu/sześcioma": 6,
    "siedem/siedmiu/siedmioma": 7,
    "osiem/ośmiu/ośmioma": 8,
    "dziewięć/dziewięciu/dziewięcioma": 9,
})
_PL_TEENS = _forms({
    "dziesięć/dziesięciu/dziesięcioma": 10, "jedenaście/jedenastu": 11, "dwanaście/dwunastu": 12,
    "trzynaście/trzynastu": 13, "czternaście/czternastu": 14, "piętnaście/piętnastu": 15,
    "szesnaście/szesnastu": 16, "siedemnaście/siedemnastu": 17, "osiemnaście/osiemnastu": 18,
    "dziewiętnaście/dziewiętnastu": 19,
})
_PL_TENS = _forms({
    "dwadzieścia/dwudziestu": 20, "trzydzieści/trzydziestu": 30, "czterdzieści/czterdziestu": 40,
    "pięćdziesiąt/pięćdziesięciu": 50, "sześćdziesiąt/sześćdziesięciu": 60,
    "siedemdziesiąt/siedemdziesięciu": 70, "osiemdziesiąt/osiemdziesięciu": 80,
    "dziewięćdziesiąt/dziewięćdziesięciu": 90,
})
_PL_HUNDREDS = _forms({
    "sto/stu": 100, "dwieście/dwustu": 200, "trzysta/trzystu": 300, "czterysta/czterystu": 400,
    "pięćset/pięciuset": 500, "sześćset/sześciuset": 600, "siedemset/siedmiuset": 700,
    "osiemset/ośmiuset": 800, "dziewięćset/dziewięciuset": 900,
})
_PL_SCALES = _forms({"tysiąc/tysiące/tysięcy/tysiąca/tysiącem": 1000,
                     "milion/miliony/milionów/miliona/milionem": 1_000_000})

_UNITS = {**_EN_UNITS, **_PL_UNITS}
_TEENS = {**_EN_TEENS, **_PL_TEENS}
_TENS = {**_EN_TENS, **_PL_TENS}
_SCALES = {**_EN_SCALES, **_PL_SCALES}
_NUMBER_WORDS = set(_UNITS) | set(_TEENS) | set(_TENS) | set(_PL_HUNDREDS) | set(_SCALES) | {"hundred"}

# Lexicon phrases: (regex, type, canonical, confidence). Matched case-insensitively on
# word boundaries; the longest match wins, so "less than or equal to" beats "less than".
_PL_ADJ = r"(?:y|a|e|ą|ego|ej|ym|ych|emu|i)"  # adjective endings: mniejsz-y/-a/-e/-ą ...
_LEXICON: list[tuple[str, str, str, float]] = [
    # --- OPERATION (en)
    (r"plus|add|adds|added|adding|addition|additions|sum up", "OPERATION", "add", 0.95),
    (r"minus|subtract|subtracts|subtracted|subtracting|subtraction|subtractions|take away|takes away|taken away|taking away|took away",
     "OPERATION", "sub", 0.95),
    (r"times|multiply|multiplies|multiplying|multiplication|multiplications|multiplied(?: by)?",
     "OPERATION", "mul", 0.95),
    (r"divide|divides|dividing|division|divisions|divided(?: by)?|shared equally(?: between| among)?",
     "OPERATION", "div", 0.95),
    # --- OPERATION (pl)
    (r"dodać|dodaj|dodajemy|dodajesz|dodaje|dodając|dodany|dodana|dodane|dodawać|dodawanie|dodawania|dodawaniu"
     r"|dodawaniem|dodawań", "OPERATION", "add", 0.95),
    (r"odjąć|odejmij|odejmujemy|odejmujesz|odejmuje|odejmując|odjęty|odjęte|odejmowanie|odejmowania"
     r"|odejmowaniu|odejmowaniem|odjęciu", "OPERATION", "sub", 0.95),
    (r"razy|pomnożyć(?: przez)?|pomnóż(?: przez)?|pomnożone(?: przez)?|pomnożony(?: przez)?|pomnożona(?: przez)?"
     r"|mnożymy(?: przez)?|mnożyć(?: przez)?|mnożenie|mnożenia|mnożeniu|mnożeniem", "OPERATION", "mul", 0.95),
    (r"podzielić(?: przez)?|podziel(?: przez)?|podzielone(?: przez)?|podzielony(?: przez)?|podzielona(?: przez)?"
     r"|dzielimy(?: przez)?|dzielić(?: przez)?|dzielone(?: przez)?|dzielenie|dzielenia|dzieleniu|dzieleniem",
     "OPERATION", "div", 0.95),
    # --- RELATION (en)
    (r"equals|equal to|equal|is the same as|the same as", "RELATION", "eq", 0.95),
    (r"(?:is |are )?not equal to|(?:is |are )?not the same as|does not equal|doesn't equal|is different from|different from|unequal to",
     "RELATION", "neq", 0.95),
    (r"less than|smaller than|fewer than|lower than", "RELATION", "lt", 0.95),
    (r"greater than|more than|bigger than|larger than|higher than", "RELATION", "gt", 0.9),
    (r"less than or equal to|smaller than or equal to|at most|no more than|not greater than|not more than",
     "RELATION", "lte", 0.95),
    (r"greater than or equal to|bigger than or equal to|larger than or equal to|at least|no less than"
     r"|not less than|not smaller than", "RELATION", "gte", 0.95),
    # --- RELATION (pl)
    (r"równa się|równają się|równe|równy|równa|równą|wynosi|wynoszą|jest tyle samo co", "RELATION", "eq", 0.95),
    (r"nie jest równ" + _PL_ADJ + r"|nie równa się|różn" + _PL_ADJ + r" od", "RELATION", "neq", 0.95),
    (r"mniejsz" + _PL_ADJ + r" (?:niż|od)", "RELATION", "lt", 0.95),
    (r"większ" + _PL_ADJ + r" (?:niż|od)", "RELATION", "gt", 0.95),
    (r"mniejsz" + _PL_ADJ + r" (?:lub|albo|bądź) równ" + _PL_ADJ + r"(?: od)?|nie większ" + _PL_ADJ
     + r" (?:niż|od)|co najwyżej", "RELATION", "lte", 0.95),
    (r"większ" + _PL_ADJ + r" (?:lub|albo|bądź) równ" + _PL_ADJ + r"(?: od)?|nie mniejsz" + _PL_ADJ
     + r" (?:niż|od)|co najmniej|przynajmniej", "RELATION", "gte", 0.95),
    # --- PROPERTY
    (r"commutative|commutativity|commutes|przemienn" + _PL_ADJ + r"|przemienność|przemienności",
     "PROPERTY", "commutative", 0.95),
    (r"associative|associativity|łączn" + _PL_ADJ + r"|łączność|łączności", "PROPERTY", "associative", 0.95),
    (r"distributive|distributivity|distributes|rozdzielne|rozdzieln" + _PL_ADJ + r"|rozdzielność|rozdzielności",
     "PROPERTY", "distributive", 0.95),
    # bare "identity" is too common outside maths ("PSK identity"): only with element/property or an operation
    (r"identity element|identity property|identity(?= (?:for|of) (?:addition|multiplication))|element neutralny"
     r"|elementem neutralnym|elementu neutralnego|neutral element|neutral for|neutraln" + _PL_ADJ,
     "PROPERTY", "identity", 0.9),
    # --- CONCEPT
    (r"fractions?|ułam(?:ek|ka|ki|ków|kiem|kami|kach|kowi)", "CONCEPT", "fraction", 0.9),
    (r"digits?|cyfr(?:a|y|ę|ą|ze|om|ami|ach)?", "CONCEPT", "digit", 0.9),
    (r"place values?|wartość pozycyjn" + _PL_ADJ + r"|wartości pozycyjnej", "CONCEPT", "place_value", 0.9),
    (r"remainders?|reszt(?:a|y|ę|ą|cie)", "CONCEPT", "remainder", 0.9),
    (r"sums?|sum(?:a|y|ę|ą|ie)", "CONCEPT", "sum", 0.9),
    (r"differences?|różnic(?:a|y|ę|ą)", "CONCEPT", "difference", 0.9),
    (r"products?|iloczyn(?:u|em|y|ów)?", "CONCEPT", "product", 0.9),
    (r"quotients?|iloraz(?:u|em|y|ów)?", "CONCEPT", "quotient", 0.9),
    (r"addends?|składni(?:k|ka|ki|ków|kiem|kami)", "CONCEPT", "addend", 0.9),
    (r"minuends?|odjemn(?:a|ej|ą)", "CONCEPT", "minuend", 0.9),
    (r"subtrahends?|odjemni(?:k|ka|kiem)", "CONCEPT", "subtrahend", 0.9),
    (r"factors?|czynni(?:k|ka|ki|ków|kiem)", "CONCEPT", "factor", 0.9),
    (r"dividends?|dzieln(?:a|ej|ą)", "CONCEPT", "dividend", 0.9),
    (r"divisors?|dzielni(?:k|ka|ki|kiem)", "CONCEPT", "divisor", 0.9),
    (r"numerators?|liczni(?:k|ka|kiem)", "CONCEPT", "numerator", 0.9),
    (r"denominators?|mianowni(?:k|ka|kiem)", "CONCEPT", "denominator", 0.9),
    (r"equations?|równani(?:e|a|u|em)", "CONCEPT", "equation", 0.9),
    (r"even numbers?|liczb(?:a|y|ę|ą) parzyst" + _PL_ADJ, "CONCEPT", "even_number", 0.9),
    (r"odd numbers?|liczb(?:a|y|ę|ą) nieparzyst" + _PL_ADJ, "CONCEPT", "odd_number", 0.9),
    (r"multiples|multiple(?= of)|wielokrotnoś(?:ć|ci|cią)", "CONCEPT", "multiple", 0.9),
    (r"number lines?|o[śs] liczbow(?:a|ej|ą)", "CONCEPT", "number_line", 0.9),
]
_LEXICON_RES = [(re.compile(r"(?<![\w\\])(?:" + p + r")(?!\w)", re.I), t, c, conf) for p, t, c, conf in _LEXICON]

# Operators and relations written as symbols (LaTeX commands included).
_SYMBOLS: dict[str, tuple[str, str]] = {
    "+": ("OPERATION", "add"), "−": ("OPERATION", "sub"), "×": ("OPERATION", "mul"), "÷": ("OPERATION", "div"),
    "⋅": ("OPERATION", "mul"), "·": ("OPERATION", "mul"), "*": ("OPERATION", "mul"), "-": ("OPERATION", "sub"),
    "–": ("OPERATION", "sub"), "/": ("OPERATION", "div"), ":": ("OPERATION", "div"),
    "\\times": ("OPERATION", "mul"), "\\cdot": ("OPERATION", "mul"), "\\div": ("OPERATION", "div"),
    "=": ("RELATION", "eq"), "==": ("RELATION", "eq"), "<": ("RELATION", "lt"), ">": ("RELATION", "gt"),
    "≤": ("RELATION", "lte"), "⩽": ("RELATION", "lte"), "<=": ("RELATION", "lte"),
    "≥": ("RELATION", "gte"), "⩾": ("RELATION", "gte"), ">=": ("RELATION", "gte"),
    "≠": ("RELATION", "neq"), "!=": ("RELATION", "neq"),
    "\\le": ("RELATION", "lte"), "\\leq": ("RELATION", "lte"), "\\ge": ("RELATION", "gte"),
    "\\geq": ("RELATION", "gte"), "\\neq": ("RELATION", "neq"), "\\ne": ("RELATION", "neq"),
    "\\lt": ("RELATION", "lt"), "\\gt": ("RELATION", "gt"),
}
_SYMBOL_RE = re.compile(
    r"\\(?:times|cdot|div|leq|le|geq|ge|neq|ne|lt|gt)(?![A-Za-z])|<=|>=|!=|==|[+−×÷⋅·*\-–/:=<>≤⩽≥⩾≠]")
# Symbols that are also ordinary punctuation (hyphen, slash, colon, asterisk, x): only
# operators between two operands, and unspaced ones only inside an equation.
_AMBIGUOUS = {"-", "–", "/", ":", "*"}
_LIST_NUM_RE = re.compile(r"^[ \t]*(\d{1,3})(?=[.)][ \t])", re.M)
_NUM_RUN_RE = re.compile(r"(?<![\w.,])(?:\d+(?:[.,]\d+)*|\.\d+)(?![\w]|[.,]\d)")
_THOUSANDS_RE = re.compile(r"[1-9]\d{0,2}(?:,\d{3})+(?:\.\d+)?")
_WORD_RE = re.compile(r"[^\W\d_]+")
_LETTER_RE = re.compile(r"(?<![^\W_])[A-Za-z](?![^\W_])")
# Words that are an operator/relation only with a right operand: "3 times 4" but "3 times a week",
# "równe 7" but "dwie równe części".
_NEEDS_RIGHT_OPERAND = {"times", "razy", "equal", "równa", "równy", "równe", "równą", "wynosi", "wynoszą"}
# Copulas that mean "equals" only between a computation and a number: "3 plus 4 is 7".
_WEAK_EQ = {"is", "are", "makes", "make", "gives", "give", "leaves", "leave", "jest", "daje", "dają", "to", "będzie",
            "was", "zostaje", "zostanie", "zostają"}
_UNIT_BEFORE_RE = re.compile(r"[ \t]+[^\W\d_]{1,12}(?:/[^\W\d_]{1,12})?$")
_UNIT_GAP_RE = re.compile(r"[ \t]+[^\W\d_]{1,12}(?:/[^\W\d_]{1,12})?[ \t]*")
_WORD_LETTERS = {"a", "i", "o", "u", "w", "z"}
_COPULA_AFTER_RE = re.compile(r"\s+(?:is|are|jest|są)\s+", re.I)
_LET_BEFORE_RE = re.compile(r"(?<!\w)(?:let|niech)\s+$", re.I)
_RESULT_CONCEPTS = {"sum": "add", "difference": "sub", "product": "mul", "quotient": "div"}
_NEGATION_RE = re.compile(r"(?<!\w)(?:not|isn't|aren't|never|nie)(?!\w)|n't", re.I)
_ZERO_RE = re.compile(r"(?<!\w)(?:zero|zera|zeru|zerem|0)(?![\w.,]\d?)", re.I)
_GAP_OK_RE = re.compile(r"[ \t\n$(){}\\]*")  # what may sit between the tokens of a formula


@dataclass
class _Cand:
    start: int
    end: int
    type: str
    canonical: str
    confidence: float
    value: float | int | None = None
    weak: bool = False


def _num_value(s: str) -> int | float:
    f = float(s)
    return int(f) if f.is_integer() and "." not in s else f


def _parse_group(words: list[str], i: int) -> tuple[int, int]:
    """Value and end index of a number below 1000 starting at words[i] (end == i: none)."""
    n, j, value = len(words), i, 0
    if j < n and words[j] in _PL_HUNDREDS:
        value, j = _PL_HUNDREDS[words[j]], j + 1
    elif j + 1 < n and words[j] in _UNITS and words[j + 1] == "hundred" and _UNITS[words[j]] > 0:
        value, j = _UNITS[words[j]] * 100, j + 2
        if j + 1 < n and words[j] == "and" and (words[j + 1] in _UNITS or words[j + 1] in _TEENS
                                                or words[j + 1] in _TENS):
            j += 1
    if j < n and words[j] in _TENS:
        value, j = value + _TENS[words[j]], j + 1
        if j < n and words[j] in _UNITS and _UNITS[words[j]] > 0:
            value, j = value + _UNITS[words[j]], j + 1
    elif j < n and words[j] in _TEENS:
        value, j = value + _TEENS[words[j]], j + 1
    elif j < n and words[j] in _UNITS and (_UNITS[words[j]] > 0 or j == i):
        value, j = value + _UNITS[words[j]], j + 1
    return value, j


def parse_number_words(words: list[str]) -> tuple[int, int]:
    """Value of the longest number-word prefix of ``words`` (lowercase) and its length (0: none).

    "twenty one" → 21, "one hundred and five" → 105, "dwa tysiące dwadzieścia" → 2020,
    "sto" → 100; "one two" → 1 (a list, not a compound).
    """
    total, i, last_scale = 0, 0, None
    while i < len(words):
        g, j = _parse_group(words, i)
        if j < len(words) and words[j] in _SCALES and (last_scale is None or _SCALES[words[j]] < last_scale):
            if j == i:
                if words[j] not in _PL_SCALES:  # "tysiąc" alone is 1000; "thousand" needs a count
                    break
                g = 1
            total += g * _SCALES[words[j]]
            last_scale = _SCALES[words[j]]
            i = j + 1
            continue
        if j == i:
            break
        total += g
        i = j
        break
    if total == 0 and i == 0:
        return 0, 0
    return total, i


# ---------------------------------------------------------------------------
# Rule-based extractor


class RuleBasedExtractor:
    """Embedded, offline math NER for English and Polish (seed 001 entity types and frames)."""

    label = "rule_based"

    def extract(self, text: str) -> NERResult:
        cands = self._strong(text)
        ents = _drop_dangling(text, _resolve(cands))
        ents = _resolve(ents + self._contextual(text, ents))
        ents = self._variables(text, ents)
        for c in ents:  # "zero is the neutral element" → zero_neutral; "1 is the identity of ×" → identity
            if c.canonical == "identity":
                s = _sentence_start(text, c.start)
                m = _SENT_END_RE.search(text, c.end)
                if _ZERO_RE.search(text, s, m.start() if m else len(text)):
                    c.canonical = "zero_neutral"
        entities = [NEREntity(text=text[c.start:c.end], type=c.type, start=c.start, end=c.end,
                              canonical=c.canonical, confidence=c.confidence) for c in ents]
        frames, unmapped = _build_frames(text, ents)
        return NERResult(entities=entities, frames=frames, unmapped=unmapped)

    # -- recognisers -------------------------------------------------------

    def _strong(self, text: str) -> list[_Cand]:
        out: list[_Cand] = []
        list_nums = {m.start(1) for m in _LIST_NUM_RE.finditer(text)}
        for m in _NUM_RUN_RE.finditer(text):
            s = m.group(0)
            if m.start() in list_nums:
                continue  # "1. Align digits": a list marker, not a quantity
            if re.match(r"x[0-9a-fA-F]", text[m.end():m.end() + 2]) or re.match(r"(?:st|nd|rd|th)\b", text[m.end():m.end() + 3]):
                continue
            if _THOUSANDS_RE.fullmatch(s):
                v = _num_value(s.replace(",", ""))
            elif s.count(".") + s.count(",") == 0:
                v = int(s)
            elif s.count(".") + s.count(",") == 1:
                v = float(s.replace(",", "."))
            else:
                continue  # "1.2.3", "1,2,3": versions and lists, not one number
            out.append(_Cand(m.start(), m.end(), "NUMBER", _fmt(v), 0.99, v))
        out.extend(self._number_words(text))
        for rx, typ, canon, conf in _LEXICON_RES:
            for m in rx.finditer(text):
                out.append(_Cand(m.start(), m.end(), typ, canon, conf))
        return out

    def _number_words(self, text: str) -> list[_Cand]:
        words = [(m.start(), m.end(), m.group(0).lower()) for m in _WORD_RE.finditer(text)]
        out: list[_Cand] = []
        i = 0
        while i < len(words):
            if words[i][2] not in _NUMBER_WORDS:
                i += 1
                continue
            # a run of number words joined by one space or a hyphen ("and" allowed inside)
            j = i + 1
            while j < len(words) and text[words[j - 1][1]:words[j][0]] in (" ", "-") and \
                    (words[j][2] in _NUMBER_WORDS or words[j][2] == "and"):
                j += 1
            run = [w[2] for w in words[i:j]]
            k = 0
            while k < len(run):
                value, n = parse_number_words(run[k:])
                if n == 0:
                    k += 1
                    continue
                s, e = words[i + k][0], words[i + k + n - 1][1]
                out.append(_Cand(s, e, "NUMBER", str(value), 0.9, value))
                k += n
            i = j
        return out

    def _contextual(self, text: str, ents: list[_Cand]) -> list[_Cand]:
        """Symbols between operands; "x" between numbers; copulas meaning "equals"."""
        numeric_end = {c.end: c for c in ents if c.type == "NUMBER"}
        numeric_start = {c.start: c for c in ents if c.type == "NUMBER"}
        taken = bytearray(len(text) + 1)
        for c in ents:
            taken[c.start:c.end] = b"\x01" * (c.end - c.start)

        def inside(p: int) -> bool:
            return taken[p] == 1

        def left_operand(p: int) -> str | None:
            q = p
            while q > 0 and text[q - 1] in " \t$":
                q -= 1
            if q in numeric_end:
                return "num"
            if q > 0 and text[q - 1] in ")]}":
                return "paren"
            unit = _UNIT_BEFORE_RE.search(text, max(0, q - 40), q)
            if unit and unit.start() in numeric_end and unit.end() == q:
                return "num"  # "20 miles + 15 miles": a quantity with its unit
            if _LETTER_RE.match(text, q - 1) if q > 0 else False:
                return "letter"
            return None

        def right_operand(p: int) -> str | None:
            q = p
            while q < len(text) and text[q] in " \t$":
                q += 1
            if q in numeric_start:
                return "num"
            if q < len(text) and text[q] in "([{":
                return "paren"
            if q < len(text) and _LETTER_RE.match(text, q):
                return "letter"
            return None

        out: list[_Cand] = []
        for m in _SYMBOL_RE.finditer(text):
            sym = m.group(0)
            if inside(m.start()):
                continue
            left, right = left_operand(m.start()), right_operand(m.end())
            typ, canon = _SYMBOLS[sym]
            ambiguous = sym in _AMBIGUOUS or sym in "<>"
            if left is None or right is None:
                # an unambiguous symbol needs a number on one side at least ("sum >= 10")
                if not ambiguous and "num" in (left, right):
                    out.append(_Cand(m.start(), m.end(), typ, canon, 0.9))
                continue
            if ambiguous:
                spaced = text[m.start() - 1:m.start()].isspace() and text[m.end():m.end() + 1].isspace()
                if "num" not in (left, right):
                    continue
                if sym == ":" and not spaced and (text[m.start() - 1:m.start()].isspace()
                                                  or text[m.end():m.end() + 1].isspace()):
                    continue  # "jeden: 7" is punctuation; "6 : 2" and "6:2" are division
                out.append(_Cand(m.start(), m.end(), typ, canon, 0.8, weak=not spaced))
            else:
                out.append(_Cand(m.start(), m.end(), typ, canon, 0.99))
        # "3 x 4", "3x4": x as multiplication between two numbers
        for m in re.finditer(r"(?<=[\d\s])[xX](?=[\s\d])", text):
            if not inside(m.start()) and left_operand(m.start()) == "num" and right_operand(m.end()) == "num":
                out.append(_Cand(m.start(), m.end(), "OPERATION", "mul", 0.8))
        # copulas: "3 plus 4 is 7", "Suma 3 i 4 wynosi 7" (wynosi is in the lexicon)
        for m in _WORD_RE.finditer(text):
            w = m.group(0).lower()
            if w not in _WEAK_EQ or inside(m.start()):
                continue
            if left_operand(m.start()) == "num" and right_operand(m.end()) == "num":
                sent_start = _sentence_start(text, m.start())
                before = [c for c in ents if sent_start <= c.start < m.start()]
                if any(c.type == "OPERATION" or (c.type == "CONCEPT" and c.canonical in _RESULT_CONCEPTS)
                       for c in before):
                    out.append(_Cand(m.start(), m.end(), "RELATION", "eq", 0.8))
        # unspaced ambiguous symbols stay only inside an equation (a chain holding a relation)
        in_equation = {id(x) for ch in _chains(text, _resolve(ents + out))
                       if any(x.type == "RELATION" for x in ch) for x in ch}
        return [c for c in out if not c.weak or id(c) in in_equation]

    def _variables(self, text: str, ents: list[_Cand]) -> list[_Cand]:
        """Single letters used as unknowns.

        A lone letter is a variable when it touches an operator/relation symbol
        ("x + 3"), or is the operand of a relation word ("n is at least 6",
        "x jest mniejsze od 10"), or follows "let"/"niech"; then its other lone
        occurrences in the text are too. Letters that are words (a, I, i, o, u,
        w, z) count only next to a symbol.
        """
        taken = [(c.start, c.end) for c in ents]
        symbol_edges: set[int] = set()
        relation_edges: set[int] = set()
        for c in ents:
            if c.type in ("OPERATION", "RELATION") and not text[c.start:c.end][:1].isalpha():
                symbol_edges.update((c.start, c.end))
            elif c.type == "RELATION":
                relation_edges.update((c.start, c.end))
        found: dict[int, _Cand] = {}
        lone = [m for m in _LETTER_RE.finditer(text) if not any(s <= m.start() < e for s, e in taken)]
        for m in lone:
            q = m.start()
            while q > 0 and text[q - 1] in " \t$(":
                q -= 1
            r = m.end()
            while r < len(text) and text[r] in " \t$)":
                r += 1
            word_letter = m.group(0).lower() in _WORD_LETTERS
            near_symbol = q in symbol_edges or r in symbol_edges
            near_relation = False
            if not word_letter:
                cop = _COPULA_AFTER_RE.match(text, m.end())
                near_relation = (cop.end() if cop else r) in relation_edges or q in relation_edges
                near_relation = near_relation or bool(_LET_BEFORE_RE.search(text, max(0, m.start() - 12), m.start()))
            if near_symbol or near_relation:
                found[m.start()] = _Cand(m.start(), m.end(), "VARIABLE", m.group(0).lower(), 0.8)
        names = {c.canonical for c in found.values() if c.canonical not in _WORD_LETTERS}
        for m in lone:
            if m.start() not in found and m.group(0).lower() in names:
                found[m.start()] = _Cand(m.start(), m.end(), "VARIABLE", m.group(0).lower(), 0.7)
        return sorted(list(ents) + list(found.values()), key=lambda c: c.start)


def _drop_dangling(text: str, ents: list[_Cand]) -> list[_Cand]:
    starts = {c.start for c in ents if c.type == "NUMBER"}
    out = []
    for c in ents:
        if text[c.start:c.end].lower() in _NEEDS_RIGHT_OPERAND:
            q = c.end
            while q < len(text) and text[q] in " \t$":
                q += 1
            if q not in starts and not (q < len(text) and (text[q] == "(" or _lone_letter(text, q))):
                continue
        out.append(c)
    return out


def _lone_letter(text: str, q: int) -> bool:
    """A single letter at q that is not followed by another word ("3 times a" yes, "3 times a week" no)."""
    if not _LETTER_RE.match(text, q):
        return False
    m = re.compile(r"\s*[^\W\d_]").match(text, q + 1)
    return m is None


def _fmt(v: int | float) -> str:
    if isinstance(v, float):
        return repr(v)
    return str(v)


def _resolve(cands: list[_Cand]) -> list[_Cand]:
    """Non-overlapping candidates: longest first, then the earliest."""
    chosen: list[_Cand] = []
    occupied = bytearray(max((c.end for c in cands), default=0) + 1)
    for c in sorted(cands, key=lambda c: (-(c.end - c.start), c.start, c.weak)):
        if c.end <= c.start or occupied.find(1, c.start, c.end) != -1:
            continue
        chosen.append(c)
        occupied[c.start:c.end] = b"\x01" * (c.end - c.start)
    return sorted(chosen, key=lambda c: c.start)


# Sentence ends: . ! ? ; before whitespace, a blank line, a line ending in ":", a line break before a
# list item. A plain line break is a soft wrap (hard-wrapped text such as RFCs), not an end.
_SENT_END_RE = re.compile(r"(?<=[.!?;])\s+|\n[ \t]*\n\s*|(?<=:)[ \t]*\n\s*"
                          r"|\n(?=[ \t]*(?:\d{1,3}[.)]|[-*•+]|[a-z][.)])[ \t])")


def _sentence_start(text: str, pos: int) -> int:
    start = 0
    for m in _SENT_END_RE.finditer(text, 0, pos):
        start = m.end()
    return start


def sentences(text: str) -> list[tuple[int, int]]:
    """(start, end) of sentences: split at . ! ? ; followed by space, and at line ends."""
    out, pos = [], 0
    for m in _SENT_END_RE.finditer(text):
        if m.start() > pos:
            out.append((pos, m.start()))
        pos = m.end()
    if pos < len(text):
        out.append((pos, len(text)))
    return [(s, e) for s, e in out if text[s:e].strip()]


_COPULA_GAP_RE = re.compile(r"[ \t$)]*\s(?:is|are|was|will be|jest|są|będzie)\s+", re.I)


def _gap_ok(text: str, a: int, b: int, before_relation: bool = False, unit_before_symbol: bool = False) -> bool:
    """Only formula glue between two tokens (a copula may precede a relation: "7 jest równe")."""
    if b < a or "\n\n" in text[a:b]:
        return False
    if _GAP_OK_RE.fullmatch(text, a, b) is not None:
        return True
    if unit_before_symbol and _UNIT_GAP_RE.fullmatch(text, a, b) is not None:
        return True  # "4 * 20 sheep = 80"
    return before_relation and _COPULA_GAP_RE.fullmatch(text, a, b) is not None


def _chains(text: str, ents: list[_Cand]) -> list[list[_Cand]]:
    """Alternating operand / operator-or-relation runs: "3 + 4 = 7", "x < 5"."""
    chains: list[list[_Cand]] = []
    cur: list[_Cand] = []
    for c in ents:
        is_operand = c.type in ("NUMBER", "VARIABLE")
        is_op = c.type in ("OPERATION", "RELATION")
        if cur and _gap_ok(text, cur[-1].end, c.start, c.type == "RELATION",
                           cur[-1].type == "NUMBER" and is_op and not text[c.start].isalpha()):
            want_operand = cur[-1].type in ("OPERATION", "RELATION")
            if (want_operand and is_operand) or (not want_operand and is_op):
                cur.append(c)
                continue
        if cur:
            chains.append(cur)
        cur = [c] if is_operand else []
    if cur:
        chains.append(cur)
    out = []
    for ch in chains:
        while ch and ch[-1].type not in ("NUMBER", "VARIABLE"):
            ch = ch[:-1]
        if len(ch) >= 3:
            out.append(ch)
    return out


def _apply(op: str, operands: list[float]) -> float | None:
    acc = operands[0]
    for v in operands[1:]:
        if op == "add":
            acc += v
        elif op == "sub":
            acc -= v
        elif op == "mul":
            acc *= v
        else:
            if v == 0:
                return None
            acc /= v
    return acc


def _same(a: float | None, b: float | None) -> bool:
    return a is not None and b is not None and math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)


def _num(v: float) -> int | float:
    return int(v) if float(v).is_integer() else round(float(v), 10)


def _build_frames(text: str, ents: list[_Cand]) -> tuple[list[Any], list[str]]:
    frames: list[Any] = []
    unmapped: list[str] = []
    frames += _arith_frames(text, ents, unmapped)
    frames += _result_concept_frames(text, ents)
    frames += _property_frames(text, ents)
    frames += _procedure_frames(text, ents)
    frames += _definition_frames(text, ents)
    frames.sort(key=lambda f: (f.start or 0, f.end or 0))
    return frames, unmapped


def _arith_frames(text: str, ents: list[_Cand], unmapped: list[str]) -> list[Any]:
    out = []
    for ch in _chains(text, ents):
        rels = [c for c in ch if c.type == "RELATION"]
        if not rels or any(r.canonical != "eq" for r in rels):
            continue
        sides: list[list[_Cand]] = [[]]
        for c in ch:
            if c.type == "RELATION":
                sides.append([])
            else:
                sides[-1].append(c)
        if any(c.type == "VARIABLE" for side in sides for c in side):
            continue  # algebra, not an arithmetic example
        exprs = []
        for i, side in enumerate(sides):
            ops = {c.canonical for c in side if c.type == "OPERATION"}
            if not ops:
                continue
            if len(ops) > 1:
                unmapped.append(text[side[0].start:side[-1].end])
                continue
            op = ops.pop()
            operands = [c.value for c in side if c.type == "NUMBER"]
            # the stated result is the number next to the expression: "3 + 4 = 7", "7 = 3 + 4",
            # "f(4) = 0,9 + 0,8 = 1,7"
            near = [sides[j][0].value for j in (i + 1, i - 1) if 0 <= j < len(sides) and len(sides[j]) == 1]
            exprs.append((op, operands, _apply(op, [float(v) for v in operands]), near[0] if near else None))
        if not exprs:
            continue
        span = (ch[0].start, ch[-1].end)
        for op, operands, value, stated in exprs:
            if stated is not None:
                result = stated
                correct = _same(value, float(result))
            else:
                result = _num(value) if value is not None else "undefined"
                correct = value is not None and all(_same(value, v) for _, _, v, _ in exprs)
            out.append(ArithExampleFrame(frame_type="ARITH_EXAMPLE", operation=op, operands=operands,
                                         result=result, correct=correct, start=span[0], end=span[1]))
    return out


_OF_RE = re.compile(r"\s+(?:of|of the numbers|liczb|z)\s+|\s+", re.I)
_AND_RE = re.compile(r"\s+(?:and|i|oraz)\s+|\s*,\s*", re.I)


def _result_concept_frames(text: str, ents: list[_Cand]) -> list[Any]:
    """"the sum of 3 and 4 is 7", "Iloczyn liczb 6 i 7 to 42"."""
    out = []
    for i, c in enumerate(ents):
        if c.type != "CONCEPT" or c.canonical not in _RESULT_CONCEPTS or i + 4 >= len(ents):
            continue
        a, b, rel, res = ents[i + 1:i + 5]
        if not (a.type == b.type == res.type == "NUMBER" and rel.type == "RELATION" and rel.canonical == "eq"):
            continue
        if not (_OF_RE.fullmatch(text, c.end, a.start) and _AND_RE.fullmatch(text, a.end, b.start)
                and re.fullmatch(r"\s*,?\s*", text[b.end:rel.start]) and re.fullmatch(r"\s*", text[rel.end:res.start])):
            continue
        op = _RESULT_CONCEPTS[c.canonical]
        value = _apply(op, [float(a.value), float(b.value)])
        out.append(ArithExampleFrame(frame_type="ARITH_EXAMPLE", operation=op, operands=[a.value, b.value],
                                     result=res.value, correct=_same(value, float(res.value)),
                                     start=c.start, end=res.end))
    return out


_CLAUSE_RE = re.compile(r",\s*(?:and|but|while|whereas|a|ale|zaś|oraz|natomiast)?\s+|\s+(?:whereas|while|natomiast|zaś)\s+",
                        re.I)


def _property_frames(text: str, ents: list[_Cand]) -> list[Any]:
    """PROPERTY frames: a property word and the operation it is said of (same clause first)."""
    out = []
    for s, e in sentences(text):
        inside = [c for c in ents if s <= c.start < e]
        ops = [c for c in inside if c.type == "OPERATION"]
        if not ops:
            continue
        cuts = [s] + [m.end() for m in _CLAUSE_RE.finditer(text, s, e)] + [e]
        seen = set()
        for p in (c for c in inside if c.type == "PROPERTY"):
            lo = max(x for x in cuts if x <= p.start)
            hi = min(x for x in cuts if x > p.start)
            pool = [o for o in ops if lo <= o.start < hi] or ops
            before = [o for o in pool if o.end <= p.start]
            subj = before[-1] if before else min(pool, key=lambda o: abs(o.start - p.end))
            name = p.canonical
            if name == "identity" and _ZERO_RE.search(text, s, e):
                name = "zero_neutral"
            a, b = (subj.end, p.start) if subj.start < p.start else (max(lo, p.start - 20), p.start)
            negated = bool(_NEGATION_RE.search(text[a:b]))
            key = (subj.canonical, name)
            if key in seen:
                continue
            seen.add(key)
            out.append(PropertyFrame(frame_type="PROPERTY", subject=subj.canonical, property_name=name,
                                     value=not negated, start=min(subj.start, p.start), end=max(subj.end, p.end)))
    return out


_ITEM_RE = re.compile(r"^([ \t]*(?:\d{1,3}[.)]|[-*•+]|[a-z][.)])[ \t]+)(.*\S)[ \t]*$")


def _procedure_frames(text: str, ents: list[_Cand]) -> list[Any]:
    """An intro line holding an operation word and ending with ":" followed by ≥ 2 list items."""
    lines = []
    pos = 0
    for ln in text.split("\n"):
        lines.append((pos, pos + len(ln), ln))
        pos += len(ln) + 1
    out = []
    k = 0
    while k < len(lines):
        ls, le, ln = lines[k]
        if not ln.rstrip().endswith(":") or _ITEM_RE.match(ln):
            k += 1
            continue
        ops = [c for c in ents if ls <= c.start < le and c.type == "OPERATION" and text[c.start].isalpha()]
        steps: list[tuple[int, int, str]] = []
        q = k + 1
        while q < len(lines):
            qs, qe, qln = lines[q]
            m = _ITEM_RE.match(qln)
            if m:
                st = qs + len(m.group(1))
                step = m.group(2).rstrip(" .;,")
                steps.append((st, st + len(step), step))
                q += 1
            elif not qln.strip() and q + 1 < len(lines) and _ITEM_RE.match(lines[q + 1][2]):
                q += 1
            else:
                break
        if ops and len(steps) >= 2:
            ls_content = ls + (len(ln) - len(ln.lstrip()))
            out.append(ProcedureFrame(frame_type="PROCEDURE", operation=ops[0].canonical,
                                      steps=[s[2] for s in steps], start=ls_content, end=steps[-1][0] + len(
                                          text[steps[-1][0]:lines[q - 1][1]].rstrip())))
            k = q
        else:
            k += 1
    return out


_DET_RE = re.compile(r"^(?:a|an|the|each|every)\s+", re.I)
_CALLED_RE = re.compile(r"^(?P<x>.+?)\s+(?:is|are)\s+(?:called|known as|named)\s+(?P<y>.+)$", re.I)
_PL_CALLED_RE = re.compile(r"^(?P<x>.+?)\s+(?:nazywamy|nazywa się|nazywają się|to inaczej)\s+(?P<y>.+)$", re.I)
_MEANS_RE = re.compile(r"^(?P<x>.+?)\s+(?:means|mean|is defined as|are defined as|refers to|oznacza|oznaczają)"
                       r"\s+(?P<y>.+)$", re.I)
_COPULA_RE = re.compile(r"^(?P<x>.+?)\s+(?P<cop>is|are|to|jest|są)\s+(?P<y>.+)$", re.I)
# Operation words that can head a definition (nouns, not verbs: "added to ..." is no definition).
_OP_NOUN_RE = re.compile(r"(?:addition|subtraction|multiplication|division|dodawanie|odejmowanie|mnożenie"
                         r"|dzielenie)", re.I)
_POLISH_WORD_RE = re.compile(r".*(?:[ąćęłńóśźż].*|anie|enie|a|ą|ę|y|ek|ik|yn|az)", re.I)
_NOT_DEFINITION_START = re.compile(r"^(?:not|nie|also|też|także|always|zawsze|never|nigdy|called|equal|równ)", re.I)


def _definition_frames(text: str, ents: list[_Cand]) -> list[Any]:
    out = []
    for s, e in sentences(text):
        seg = text[s:e]
        lead = _ITEM_RE.match(seg)
        off = s + (len(lead.group(1)) if lead else len(seg) - len(seg.lstrip()))
        body = text[off:e].rstrip()
        body_core = body.rstrip(".!")
        if not body_core or any(c.type == "RELATION" and not text[c.start].isalpha() for c in ents if off <= c.start < e):
            continue
        inside = [c for c in ents if off <= c.start < off + len(body_core)]

        def head_entity(a: int, b: int) -> _Cand | None:
            """The OPERATION/CONCEPT entity opening text[a:b] (after a determiner)."""
            seg_txt = text[a:b]
            det = _DET_RE.match(seg_txt)
            first = a + (det.end() if det else 0)
            for c in inside:
                if c.start == first and c.type in ("OPERATION", "CONCEPT"):
                    return c
            return None

        frame = None
        for rx, swapped in ((_CALLED_RE, True), (_PL_CALLED_RE, True), (_MEANS_RE, False), (_COPULA_RE, False)):
            m = rx.match(body_core)
            if not m:
                continue
            xs, xe = off + m.start("x"), off + m.end("x")
            ys, ye = off + m.start("y"), off + m.end("y")
            if swapped:  # "X is called Y": Y is the term, X its definition
                term_c = head_entity(ys, ye)
                y_words = _DET_RE.sub("", text[ys:ye]).split()
                if term_c is not None:
                    term = term_c.canonical
                elif 1 <= len(y_words) <= 3 and all(w.isalpha() for w in y_words):
                    term = "_".join(w.lower() for w in y_words)
                else:
                    continue
                if not any(c.type in ("OPERATION", "CONCEPT") for c in inside if xs <= c.start < xe):
                    continue
                frame = (term, xs, xe)
            else:
                x_txt = text[xs:xe]
                if len(x_txt.split()) > 5 or re.search(r"[\d,;:]", x_txt) or _NEGATION_RE.search(x_txt):
                    continue
                term_c = head_entity(xs, xe)
                if term_c is None:
                    continue
                head = text[term_c.start:term_c.end]
                if term_c.type == "OPERATION" and not _OP_NOUN_RE.fullmatch(head):
                    continue
                if "cop" in m.groupdict() and m.group("cop").lower() == "to" and not _POLISH_WORD_RE.fullmatch(head):
                    continue  # "X to Y" is a Polish copula only
                y_txt = text[ys:ye]
                y_ents = [c for c in inside if ys <= c.start < ye]
                if _NOT_DEFINITION_START.match(y_txt) or re.match(r"^\W*\d", y_txt):
                    continue
                if y_ents and y_ents[0].type in ("PROPERTY", "NUMBER", "RELATION") and \
                        not _DET_RE.sub("", text[ys:y_ents[0].start] + " ").strip():
                    continue  # "Addition is commutative", "The sum is 7", "an associative operation"
                frame = (term_c.canonical, ys, ye)
            break
        if frame is not None:
            term, ds, de = frame
            out.append(DefinitionFrame(frame_type="DEFINITION", term=term, definition=text[ds:de],
                                       start=off, end=off + len(body_core)))
    return out


# ---------------------------------------------------------------------------
# HTTP backend client (seed §3.3, §5)


class NerBackendError(RuntimeError):
    """A failed backend call. ``kind``: unreachable | timeout | unavailable | invalid_response | http;
    ``status``: the HTTP status our API answers with (503 / 504 / 500 / 502)."""

    STATUS = {"unreachable": 503, "unavailable": 503, "timeout": 504, "invalid_response": 500, "http": 502}

    def __init__(self, kind: str, message: str, raw: str | None = None):
        self.kind = kind
        self.status = self.STATUS[kind]
        self.raw = raw
        super().__init__(f"NER backend {kind} ({self.status}): {message}")

    @property
    def retryable(self) -> bool:
        return self.status in (503, 504)


RAW_LOG_CHARS = 2000


class HttpNerBackend:
    """Client of a NER backend: ``POST url`` with the raw text as ``text/plain``.

    Retries 503/504-class failures (unreachable, timeout, backend 503/504) up to
    ``max_retries`` times with exponential backoff; anything else fails at once.
    """

    def __init__(self, url: str, timeout_ms: int = 10_000, max_retries: int = 2, backoff_s: float = 0.25,
                 client: httpx.Client | None = None, logger: logging.Logger | None = None):
        self.url = url
        self.label = url
        self.timeout_ms = timeout_ms
        self.max_retries = max_retries
        self.backoff_s = backoff_s
        self._client = client or httpx.Client(timeout=timeout_ms / 1000)
        self._log = logger or log

    def close(self) -> None:
        self._client.close()

    def _post(self, text: str) -> httpx.Response:
        last: NerBackendError | None = None
        for attempt in range(self.max_retries + 1):
            if attempt:
                time.sleep(self.backoff_s * (2 ** (attempt - 1)))
            try:
                r = self._client.post(self.url, content=text.encode("utf-8"),
                                      headers={"Content-Type": "text/plain; charset=utf-8"})
            except httpx.TimeoutException as exc:
                last = NerBackendError("timeout", f"{self.url} gave no answer within {self.timeout_ms} ms ({exc!r})")
                continue
            except httpx.TransportError as exc:
                last = NerBackendError("unreachable", f"{self.url}: {exc!r}")
                continue
            if r.status_code in (503, 504):
                last = NerBackendError("unavailable" if r.status_code == 503 else "timeout",
                                       f"{self.url} answered {r.status_code}", raw=r.text[:RAW_LOG_CHARS])
                continue
            if r.status_code >= 400:
                raise NerBackendError("http", f"{self.url} answered {r.status_code}: {r.text[:200]}",
                                      raw=r.text[:RAW_LOG_CHARS])
            return r
        assert last is not None
        raise last

    def extract(self, text: str) -> NERResult:
        r = self._post(text)
        raw = r.text
        try:
            data = json.loads(raw)
        except json.JSONDecodeError as exc:
            self._log.error("NER backend %s returned invalid JSON (%s); raw response (truncated): %s",
                            self.url, exc.msg, raw[:RAW_LOG_CHARS])
            raise NerBackendError("invalid_response", f"invalid JSON: {exc.msg} at {exc.pos}",
                                  raw=raw[:RAW_LOG_CHARS]) from None
        try:
            out = LLMNEROutput.model_validate(data)
        except ValidationError as exc:
            self._log.error("NER backend %s returned JSON that is not LLMNEROutput (%d errors); raw response "
                            "(truncated): %s", self.url, exc.error_count(), raw[:RAW_LOG_CHARS])
            raise NerBackendError("invalid_response", f"schema mismatch: {exc.errors()[0]['msg']} at "
                                  f"{exc.errors()[0]['loc']}", raw=raw[:RAW_LOG_CHARS]) from None
        entities, rejected = anchor_entities(text, out.entities)
        frames, invalid = [], []
        for raw_frame in out.frames:
            try:
                f = validate_frame(raw_frame)
            except ValidationError as exc:
                invalid.append({"frame": raw_frame, "error": _short_error(exc)})
                continue
            if f.start is not None and f.end is not None and not (f.start <= f.end <= len(text)):
                f = f.model_copy(update={"start": None, "end": None})  # unusable range: frame covers the input
            frames.append(f)
        for rej in rejected:
            self._log.warning("NER backend %s: entity %r not found in the input; dropped", self.url, rej["text"])
        return NERResult(entities=entities, frames=frames, unmapped=list(out.unmapped),
                         invalid_frames=invalid, rejected_entities=rejected)


def _short_error(exc: ValidationError) -> str:
    return "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors()[:3])


def anchor_entities(text: str, entities: Iterable[NEREntity]) -> tuple[list[NEREntity], list[dict[str, Any]]]:
    """Entities whose quote is at ``[start:end]``; others moved to the nearest exact occurrence.

    An entity whose quote does not occur in ``text`` (or is empty) is rejected,
    never kept with a wrong range.
    """
    ok, rejected = [], []
    for e in entities:
        if e.text and e.end <= len(text) and text[e.start:e.end] == e.text:
            ok.append(e)
            continue
        occ = [m.start() for m in re.finditer(re.escape(e.text), text)] if e.text else []
        if not occ:
            rejected.append({"text": e.text, "start": e.start, "end": e.end, "type": e.type,
                             "reason": "quote not found in the input"})
            continue
        best = min(occ, key=lambda p: (abs(p - e.start), p))
        ok.append(e.model_copy(update={"start": best, "end": best + len(e.text)}))
    ok.sort(key=lambda e: (e.start, e.end))
    return ok, rejected


def make_backend(url: str | None, timeout_ms: int = 10_000, max_retries: int = 2) -> NerExtractor:
    """The HTTP backend at ``url``, or the embedded rule-based extractor when unset."""
    if url and url.strip():
        return HttpNerBackend(url.strip(), timeout_ms=timeout_ms, max_retries=max_retries)
    return RuleBasedExtractor()


# ---------------------------------------------------------------------------
# The ner_frames table

NER_COLUMNS = ["doc_id", "kind", "start", "end", "text", "chunk_index", "entity_type", "canonical", "confidence",
               "frame_index", "frame_type", "frame_json", "arith_correct", "valid", "error", "backend"]
UNIT_MAX_CHARS = 4000


def text_units(chunks: Iterable[Any], max_chars: int = UNIT_MAX_CHARS) -> list[tuple[int, int, str]]:
    """(first chunk index, absolute start, source text) of the pieces sent to a backend.

    Adjacent prose chunks are joined (a procedure's intro and its list may be
    separate paragraphs), up to ``max_chars``; a longer chunk is cut at line ends.
    Math stays in: the source text of a chunk has its ``$…$`` restored.
    """
    pieces: list[tuple[int, int, str]] = []
    for c in chunks:
        if str(c.chunk_type) != "prose":
            continue
        src = c.source_text()
        pos = 0
        while len(src) - pos > max_chars:
            cut = src.rfind("\n", pos, pos + max_chars)
            if cut <= pos:
                cut = src.rfind(" ", pos, pos + max_chars)
            cut = pos + max_chars if cut <= pos else cut + 1
            pieces.append((c.index, c.start + pos, src[pos:cut]))
            pos = cut
        if pos < len(src):
            pieces.append((c.index, c.start + pos, src[pos:]))
    units: list[tuple[int, int, str]] = []
    for idx, start, txt in pieces:
        if units:
            u_idx, u_start, u_txt = units[-1]
            if u_start + len(u_txt) == start and len(u_txt) + len(txt) <= max_chars:
                units[-1] = (u_idx, u_start, u_txt + txt)
                continue
        units.append((idx, start, txt))
    return [u for u in units if u[2].strip()]


def ner_frame(doc_id: str, chunks: Iterable[Any], backend: NerExtractor) -> tuple["Any", dict[str, Any]]:
    """The ``ner_frames`` rows of one document and a report (counts, rejected entities).

    One row per entity (``kind="entity"``) and per frame (``kind="frame"``);
    ``start/end/text`` are absolute: the entity's quote, or the text the frame
    came from. A backend error propagates (the document fails, with its status).
    """
    import pandas as pd

    rows: list[list[Any]] = []
    rejected: list[dict[str, Any]] = []
    unmapped: list[str] = []
    for chunk_index, base, unit in text_units(chunks):
        res = backend.extract(unit)
        for e in res.entities:
            rows.append([doc_id, "entity", base + e.start, base + e.end, e.text, chunk_index, e.type, e.canonical,
                         e.confidence, None, None, None, None, True, None, backend.label])
        for f in res.frames:
            s, e_ = (f.start, f.end) if f.start is not None and f.end is not None else (0, len(unit))
            correct = getattr(f, "correct", None) if f.frame_type == "ARITH_EXAMPLE" else None
            if f.frame_type == "ARITH_EXAMPLE" and correct is None:
                correct = check_arith(f)
            rows.append([doc_id, "frame", base + s, base + e_, unit[s:e_], chunk_index, None, None, None, None,
                         f.frame_type, json.dumps(_stored(f), ensure_ascii=False), correct, True, None,
                         backend.label])
        for bad in res.invalid_frames:
            ft = bad["frame"].get("frame_type") if isinstance(bad["frame"], dict) else None
            rows.append([doc_id, "frame", base, base + len(unit), unit, chunk_index, None, None, None, None,
                         str(ft) if ft is not None else None, json.dumps(bad["frame"], ensure_ascii=False, default=str),
                         None, False, bad["error"], backend.label])
        rejected += [{**r, "unit_start": base} for r in res.rejected_entities]
        unmapped += res.unmapped
    df = pd.DataFrame(rows, columns=NER_COLUMNS)
    df["frame_index"] = pd.array([None] * len(df), dtype="Int64")
    frame_pos = df.index[df["kind"] == "frame"]
    df.loc[frame_pos, "frame_index"] = range(len(frame_pos))
    df = df.astype({"start": "int64", "end": "int64", "chunk_index": "int64", "confidence": "float64",
                    "arith_correct": "boolean", "valid": "bool"})
    return df, {"rejected_entities": rejected, "unmapped": unmapped}


def _stored(frame: Any) -> dict[str, Any]:
    """Frame JSON as stored: the row's absolute start/end replace the input-relative ones."""
    d = frame_dict(frame)
    d.pop("start", None)
    d.pop("end", None)
    return d


def check_arith(frame: Any) -> bool | None:
    """Whether an ARITH_EXAMPLE's operands give its result (None: not numeric)."""
    try:
        operands = [float(v) for v in frame.operands]
        result = float(frame.result)
    except (TypeError, ValueError):
        return None
    return _same(_apply(frame.operation, operands), result)


def frame_row_problems(row: Any) -> list[str]:
    """Why a ``ner_frames`` row breaks its schema (empty list: it is valid)."""
    if row["kind"] == "entity":
        try:
            NEREntity(text=row["text"], type=row["entity_type"], start=0, end=len(row["text"]),
                      canonical=row["canonical"], confidence=row["confidence"])
        except ValidationError as exc:
            return [f"entity: {_short_error(exc)}"]
        return []
    if row["kind"] != "frame":
        return [f"unknown kind {row['kind']!r}"]
    try:
        f = validate_frame(row["frame_json"])
    except (ValidationError, TypeError) as exc:
        return [f"frame: {_short_error(exc) if isinstance(exc, ValidationError) else exc}"]
    if f.frame_type != row["frame_type"]:
        return [f"frame_type column {row['frame_type']!r} != frame {f.frame_type!r}"]
    return []
