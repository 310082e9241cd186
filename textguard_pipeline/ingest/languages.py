"""The language of every document and chunk, detected offline (py3langid), with overrides.

Detector: py3langid (langid.py's model, 97 languages, shipped inside the wheel: nothing is
downloaded). It was chosen over lingua-language-detector on our labelled EN/FR/PL chunks
(docs/languages.md has the figures): equal or better accuracy, ~9× faster per chunk, and far
better on short text; lingua's high-accuracy mode needs ~1.3 GB and over a minute to load.

Rules (docs/languages.md):

* the **document** language comes from, in order: the run override (``TEXTGUARD_LANGUAGE``), the
  document's own declaration (Markdown front matter ``language:`` / ``lang:``), the corpus mapping
  file ``.textguardlanguages`` (``<glob> <code>`` lines), else detection over its prose;
* a **prose chunk** with at least ``MIN_OWN_LETTERS`` letters is detected on its own and keeps a
  language other than its document's only when the detector is at least ``SWITCH_CONFIDENCE`` sure
  (a quoted abstract, the other half of a bilingual thesis);
* short prose chunks and non-prose chunks (structural, math, code) inherit the document's language;
* undetermined (too little text, or confidence under ``MIN_CONFIDENCE``) is ``None``.
"""

from __future__ import annotations

import fnmatch
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Sequence

from ..lib.placeholders import PLACEHOLDER_RE
from ..lib.text_patterns import URL_RE
from .chunks import Chunk, ChunkType

__all__ = [
    "MIN_OWN_LETTERS",
    "SWITCH_CONFIDENCE",
    "MIN_CONFIDENCE",
    "LANGUAGE_MAP_FILE",
    "Detection",
    "LanguageDetector",
    "default_detector",
    "detection_text",
    "front_matter_language",
    "mapped_language",
    "document_override",
    "assign_languages",
    "LanguageError",
]

#: A prose chunk needs this many letters (markup, math and digits removed) to be detected on its own:
#: on the tune half, py3langid is right on 99.6 % of 60-character prefixes and 100 % from 100 on.
MIN_OWN_LETTERS = 100
#: A chunk gets a language other than its document's only when the detector is at least this sure.
SWITCH_CONFIDENCE = 0.95
#: Below this (normalised probability), the language is undetermined (None).
MIN_CONFIDENCE = 0.5
#: The document detection reads at most this many characters of cleaned prose.
DOCUMENT_SAMPLE_CHARS = 20_000
#: A chunk is detected on at most this many characters of its words (accuracy is flat from 150 on).
CHUNK_SAMPLE_CHARS = 400
#: Corpus-level mapping file (hidden, so the scanner never takes it for a document).
LANGUAGE_MAP_FILE = ".textguardlanguages"

_ISO = re.compile(r"^[a-z]{2}$")
_TEX_CMD = re.compile(r"\\[A-Za-z@]+\*?(?:\[[^\]\n]{0,200}\])?")
_MD_LINK_TARGET = re.compile(r"\]\([^)\n]{0,500}\)")
_NON_LETTERS = re.compile(r"[^\w\s'’-]+|[\d_]+")
_SPACES = re.compile(r"\s+")


class LanguageError(ValueError):
    """An override that is not an ISO 639-1 code; names where it came from."""


@dataclass(frozen=True, slots=True)
class Detection:
    language: str | None
    confidence: float | None


def detection_text(text: str) -> str:
    """The words of ``text``: placeholders, TeX commands, URLs, link targets, digits and symbols removed."""
    t = PLACEHOLDER_RE.sub(" ", text)
    t = URL_RE.sub(" ", t)
    t = _MD_LINK_TARGET.sub("] ", t)
    t = _TEX_CMD.sub(" ", t)
    t = _NON_LETTERS.sub(" ", t)
    return _SPACES.sub(" ", t).strip()


def _letters(text: str) -> int:
    return sum(ch.isalpha() for ch in text)


class LanguageDetector:
    """py3langid over all its languages, probabilities normalised; the model loads on first use."""

    def __init__(self) -> None:
        self._identifier: Any = None

    def _ident(self) -> Any:
        if self._identifier is None:
            # heavy: loaded lazily, ~4 s and ~120 MB, needed only when a document is actually detected.
            from py3langid.langid import MODEL_FILE, LanguageIdentifier

            self._identifier = LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)
        return self._identifier

    def detect(self, text: str, *, cleaned: bool = False) -> Detection:
        words = text if cleaned else detection_text(text)
        if _letters(words) < 20:
            return Detection(None, None)
        lang, prob = self._ident().classify(words)
        prob = round(float(prob), 4)
        return Detection(str(lang), prob) if prob >= MIN_CONFIDENCE else Detection(None, prob)


_DEFAULT: LanguageDetector | None = None


def default_detector() -> LanguageDetector:
    """One detector per process (the model is loaded once)."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = LanguageDetector()
    return _DEFAULT


def _code(value: str, where: str) -> str:
    code = value.strip().strip("\"'").lower()
    if not _ISO.match(code):
        raise LanguageError(f"{where}: language must be an ISO 639-1 code such as 'en', got {value.strip()!r}")
    return code


_FRONT_KEY = re.compile(r"^(?:language|lang)[ \t]*[:=][ \t]*(\S.*?)[ \t]*$", re.I)


def front_matter_language(text: str, fmt: str) -> str | None:
    """``language:`` (or ``lang:``) in a Markdown front matter block (``---`` … ``---`` / ``+++``)."""
    if fmt != "md":
        return None
    lines = text.split("\n", 200)
    if not lines or lines[0].strip() not in ("---", "+++"):
        return None
    fence = lines[0].strip()
    for line in lines[1:200]:
        if line.strip() in (fence, "..."):
            return None
        m = _FRONT_KEY.match(line.strip())
        if m:
            return _code(m.group(1), "front matter")
    return None


def mapped_language(rel_path: str, corpus_root: Path | str | None) -> str | None:
    """The code of the first ``<glob> <code>`` line of ``<corpus>/.textguardlanguages`` matching the path."""
    if corpus_root is None:
        return None
    f = Path(corpus_root) / LANGUAGE_MAP_FILE
    if not f.is_file():
        return None
    for n, raw in enumerate(f.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        pattern, _, code = line.rpartition(" ")
        if not pattern.strip():
            raise LanguageError(f"{LANGUAGE_MAP_FILE} line {n}: expected '<glob> <code>', got {line!r}")
        if fnmatch.fnmatch(rel_path, pattern.strip()):
            return _code(code, f"{LANGUAGE_MAP_FILE} line {n}")
    return None


def document_override(text: str, fmt: str, rel_path: str | None, corpus_root: Path | str | None) -> str | None:
    """The document's declared language: its front matter first, then the corpus mapping file."""
    return front_matter_language(text, fmt) or (mapped_language(rel_path, corpus_root) if rel_path else None)


def _document_detection(chunks: Sequence[Chunk], detector: LanguageDetector) -> Detection:
    parts: list[str] = []
    size = 0
    for c in chunks:
        if str(c.chunk_type) == ChunkType.PROSE:
            words = detection_text(c.text)
            parts.append(words)
            size += len(words)
            if size >= DOCUMENT_SAMPLE_CHARS:
                break
    return detector.detect(" ".join(parts)[:DOCUMENT_SAMPLE_CHARS], cleaned=True)


def assign_languages(
    chunks: Iterable[Chunk],
    *,
    run_language: str = "",
    declared: str | None = None,
    detector: LanguageDetector | None = None,
) -> Detection:
    """Set ``language``/``language_confidence`` on every chunk; return the document's language.

    ``run_language`` (TEXTGUARD_LANGUAGE) forces every chunk; ``declared`` (front matter or mapping
    file) fixes the document's language, which short and non-prose chunks inherit.
    """
    chunks = list(chunks)
    if run_language:
        for c in chunks:
            c.language, c.language_confidence = run_language, 1.0
        return Detection(run_language, 1.0)
    det = detector or default_detector()
    doc = Detection(declared, 1.0) if declared else _document_detection(chunks, det)
    seen: dict[str, Detection] = {}  # repeated paragraphs (boilerplate, generated text) are detected once
    for c in chunks:
        c.language, c.language_confidence = doc.language, doc.confidence
        if str(c.chunk_type) != ChunkType.PROSE:
            continue
        words = detection_text(c.text)
        if _letters(words) < MIN_OWN_LETTERS:
            continue
        sample = words[:CHUNK_SAMPLE_CHARS]
        own = seen.get(sample)
        if own is None:
            own = seen[sample] = det.detect(sample, cleaned=True)
        if own.language is None:
            continue
        if own.language == doc.language:
            c.language_confidence = own.confidence if not declared else doc.confidence
        elif doc.language is None or (own.confidence or 0.0) >= SWITCH_CONFIDENCE:
            c.language, c.language_confidence = own.language, own.confidence
    return doc
