"""Term protection (seed 000): hide terms behind ``⟨TERM_NNN⟩`` and put them back byte-exactly.

Shape (as in spaCy / Presidio): *recognisers* (``recognizers/``, one per
module, loaded by ``registry`` from the config) find spans; the *operator*
(``operator``) turns the chosen spans into placeholders. Default priority (E1):

    literal > markup > citation > custom > markup_forms > ner > number
"""

from __future__ import annotations

from typing import Any, Sequence

from ..ingest.markup import find_markup
from ..ingest.parsing import Chunk, ChunkType
from ..lib.placeholder_audit import missing_occurrences, stray_tokens
from ..lib.placeholders import UnknownPlaceholderError, restore_placeholders
from .errors import EmptyTextError, MissingPlaceholdersError, NotProseChunkError, UnknownPlaceholdersError
from .markup_rules import EXEMPT_SOURCES, MarkupFence
from .model import ProtectedChunk, TermProtectionConfig, TextChunk
from .operator import apply_placeholders, select_spans
from .registry import build_recognizers


class TermProtector:
    """Protect prose chunks and restore paraphrases of them.

    >>> tp = TermProtector(TermProtectionConfig(use_ner=False))
    >>> pc = tp.protect_text("As shown by Smith (2024), accuracy is 95%.")
    >>> pc.protected_text
    'As shown by ⟨TERM_000⟩, accuracy is ⟨TERM_001⟩.'
    >>> tp.restore(pc.protected_text, pc)
    'As shown by Smith (2024), accuracy is 95%.'

    ``recognizers`` (name → recogniser) replaces the ones the config would build.
    """

    def __init__(self, config: TermProtectionConfig | None = None, recognizers: dict[str, Any] | None = None):
        self.config = config or TermProtectionConfig()
        self.recognizers = build_recognizers(self.config) if recognizers is None else recognizers

    @property
    def nlp(self):
        r = self.recognizers.get("ner")
        return getattr(r, "nlp", None)

    def _ranked(self) -> list[tuple[str, Any]]:
        items = list(self.recognizers.items())
        return sorted(items, key=lambda kv: getattr(kv[1], "priority", 1000))  # stable on ties

    # -- protect -----------------------------------------------------------
    def protect(self, chunk: Chunk) -> ProtectedChunk:
        """Protect one prose chunk (see :meth:`protect_many` for a whole document)."""
        return self.protect_many([chunk])[0]

    def protect_many(self, chunks: Sequence[Chunk]) -> list[ProtectedChunk]:
        """Protect the prose chunks of a document; each recogniser sees all of them at once."""
        for c in chunks:
            if str(c.chunk_type) != ChunkType.PROSE:
                raise NotProseChunkError(f"chunk {c.index} is {c.chunk_type!s}, only prose chunks are protected")
            if not isinstance(c.text, str):
                raise NotProseChunkError(f"chunk {c.index}: text must be a str")
        inputs = [TextChunk.of(c) for c in chunks]
        found = [
            (rec.find_many(inputs), bool(getattr(rec, "rejects_placeholders", False)), name in EXEMPT_SOURCES)
            for name, rec in self._ranked()
        ]
        out = []
        for i, (c, tc) in enumerate(zip(chunks, inputs)):
            fence = MarkupFence(tc.markup) if tc.markup else None
            ranked = [(f[i] if fence is None or exempt else _fenced(f[i], fence), rej) for f, rej, exempt in found]
            out.append(apply_placeholders(c, select_spans(c.text, tc.parser_placeholders, ranked)))
        return out

    def protect_text(self, text: str, start: int = 0) -> ProtectedChunk:
        """Protect a bare string (one prose chunk, no parser placeholders; its markup read as plain text's)."""
        chunk = Chunk(0, ChunkType.PROSE, start, start + len(text), text, {})
        chunk.markup_spans = [(s.start + start, s.end + start, s.label) for s in find_markup(text, "txt")]
        return self.protect(chunk)

    # -- validate / restore ------------------------------------------------
    def validate_placeholders(self, text: str, chunk: ProtectedChunk) -> tuple[bool, list[str]]:
        """(all present as often as in ``protected_text``?, the placeholders short of that, in order)."""
        missing = missing_occurrences(chunk.protected_text, text, chunk.expected_placeholders())
        return not missing, missing

    def restore(self, paraphrased_text: str, chunk: ProtectedChunk) -> str:
        """Put every term and parser original back (§7.3/§8), in one pass.

        Raises :class:`MissingPlaceholdersError` (E8) when a placeholder of
        ``protected_text`` is absent, :class:`UnknownPlaceholdersError` when the
        text has a placeholder-shaped token the chunk did not issue. Repeated
        placeholders restore at every occurrence.
        """
        if not isinstance(paraphrased_text, str):
            raise TypeError("paraphrased_text must be a str")
        if paraphrased_text == "" and chunk.protected_text != "":
            raise EmptyTextError("paraphrased_text is empty")
        ok, missing = self.validate_placeholders(paraphrased_text, chunk)
        if not ok:
            raise MissingPlaceholdersError(missing)
        # An answer equal to the protected text has nothing stray by construction: skip the audit (the costly part).
        strays = (
            []
            if paraphrased_text == chunk.protected_text
            else stray_tokens(paraphrased_text, chunk.protected_text, chunk.expected_placeholders())
        )
        if strays:  # e.g. a stray <TERM_000> next to the correct token: refuse rather than leave it in
            raise UnknownPlaceholdersError(sorted(set(strays)))
        try:
            return restore_placeholders(paraphrased_text, chunk.placeholders(), strict=True)
        except UnknownPlaceholderError as exc:
            raise UnknownPlaceholdersError(exc.placeholders) from None


def _fenced(cands: list, fence: MarkupFence) -> list:
    """The candidates that lie inside one markup span or touch none (the boundary rule, issue 45): the others
    are dropped here (NER trims its entities to their text before, ``recognizers.ner.clear_of_markup``)."""
    return [c for c in cands if fence.breach(c.start, c.end) is None]
