"""The values of term protection: its config, the recogniser input and output, and the protected chunk."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

from ..ingest.markup import blank, markup_in_text
from ..ingest.parsing import Chunk
from ..lib.placeholders import CLOSE, OPEN, PLACEHOLDER_RE
from .errors import InvalidCustomTermError
from .registry import DEFAULT_RECOGNIZERS, default_names

TERM_NS = "TERM"


def validate_custom_terms(terms: Iterable[str]) -> None:
    """E9: reject empty terms and terms that contain ``⟨``/``⟩`` (placeholder-like)."""
    for term in terms:
        if not isinstance(term, str) or not term.strip():
            raise InvalidCustomTermError(f"custom term {term!r} is empty")
        if PLACEHOLDER_RE.search(term):
            raise InvalidCustomTermError(f"custom term {term!r} matches the placeholder format ⟨NS_NNN⟩")
        if OPEN in term or CLOSE in term:
            raise InvalidCustomTermError(f"custom term {term!r} contains the reserved brackets ⟨ ⟩")


@dataclass(frozen=True, slots=True)
class TermProtectionConfig:
    """Which recognisers run. ``spacy_model`` None = the default model (core.nlp).

    ``recognizers`` is the registry's configuration (see :data:`DEFAULT_RECOGNIZERS`);
    the switches below turn the built-in ones off.
    """

    use_ner: bool = True
    custom_terms: tuple[str, ...] = ()
    protect_citations: bool = True
    protect_numbers: bool = True
    protect_year_only: bool = False
    #: hide what machines read (addresses, references, targets) and typed forms (cross-references, [N] …) whole
    protect_markup: bool = True
    spacy_model: str | None = None
    recognizers: tuple[str, ...] = DEFAULT_RECOGNIZERS

    def __post_init__(self) -> None:
        object.__setattr__(self, "custom_terms", tuple(self.custom_terms))
        object.__setattr__(self, "recognizers", tuple(self.recognizers))
        validate_custom_terms(self.custom_terms)


@dataclass(frozen=True, slots=True)
class TextChunk:
    """What a recogniser reads: one prose text and its context.

    ``parser_placeholders``: the parser's ``⟨MATH/CODE/LIT_NNN⟩`` tokens of this text;
    ``language``: an ISO code when known (None = the project default, English);
    ``markup``: ``(start, end, kind)`` of the chunk's markup in ``text`` offsets (``parsed_chunks.markup_spans``).
    """

    text: str
    parser_placeholders: frozenset[str] = frozenset()
    language: str | None = None
    markup: tuple[tuple[int, int, str], ...] = ()
    #: the prose view, made once (markup_forms and NER both read it)
    _view: str | None = field(default=None, init=False, repr=False, compare=False)

    @classmethod
    def of(cls, chunk: Chunk | str | TextChunk) -> TextChunk:
        if isinstance(chunk, TextChunk):
            return chunk
        if isinstance(chunk, str):  # the pre-registry API passed bare texts
            return cls(chunk)
        markup = markup_in_text(chunk) or ()
        return cls(chunk.text, frozenset(chunk.math_placeholders), getattr(chunk, "language", None), tuple(markup))

    def prose_view(self) -> str:
        """``text`` with its markup blanked (same length): what a model that reads words should see."""
        if self._view is None:
            object.__setattr__(self, "_view", blank(self.text, self.markup) if self.markup else self.text)
        return self._view


@dataclass(frozen=True, slots=True)
class Candidate:
    """A span found by a recogniser, in chunk-text offsets."""

    start: int
    end: int
    source: str
    label: str


@dataclass(frozen=True, slots=True)
class ProtectedTerm:
    """One protected occurrence. ``start/end`` are absolute document offsets;
    ``chunk_start/chunk_end`` are offsets in ``chunk.text``; ``original`` is the
    exact source quote (``document[start:end]``)."""

    placeholder: str
    original: str
    source: str
    label: str
    start: int
    end: int
    chunk_start: int
    chunk_end: int

    def as_row(self) -> dict[str, Any]:
        return {
            "placeholder": self.placeholder,
            "original": self.original,
            "source": self.source,
            "label": self.label,
            "start": self.start,
            "end": self.end,
        }


@dataclass(slots=True)
class ProtectedChunk:
    """A prose chunk with its terms behind placeholders (the chunk is unchanged)."""

    chunk: Chunk
    protected_text: str
    term_placeholders: dict[str, str]
    terms: list[ProtectedTerm] = field(default_factory=list)

    @property
    def math_placeholders(self) -> dict[str, str]:
        return self.chunk.math_placeholders

    @property
    def text(self) -> str:
        return self.chunk.text

    def placeholders(self) -> dict[str, str]:
        """The merged map of every placeholder present in ``protected_text``.

        A parser placeholder swallowed by a term span is not present any more
        (its original lives inside the term's original), so it is left out.
        """
        merged = {**self.chunk.math_placeholders, **self.term_placeholders}
        return {p: merged[p] for p in self.expected_placeholders() if p in merged}

    def expected_placeholders(self) -> list[str]:
        """Distinct issued placeholders of ``protected_text``, in order of appearance."""
        known = self.term_placeholders.keys() | self.chunk.math_placeholders.keys()
        seen: dict[str, None] = {}
        for m in PLACEHOLDER_RE.finditer(self.protected_text):
            tok = m.group(0)
            if tok in known:
                seen.setdefault(tok, None)
        return list(seen)

    def counts(self) -> dict[str, int]:
        """Protected occurrences per recogniser (every default recogniser listed, zero included)."""
        out = dict.fromkeys(default_names(), 0)
        for t in self.terms:
            out[t.source] = out.get(t.source, 0) + 1
        return out
