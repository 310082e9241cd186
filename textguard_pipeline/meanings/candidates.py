"""Meaning types, labels, merge keys and the seed's candidate heuristics (seed 003, Pass 2).

:class:`CandidateFinder`: author → Wikidata persons; Title Case → Wikidata first (kept when ≥ 3 hits);
≥ 3 words → Wikidata + custom; else WordNet, then Wikidata, then custom.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass
from typing import Any

from . import senses  # attribute lookups at call time (tests swap senses.wordnet_candidates)
from .wikidata import WikidataClient, WikidataError

MEANING_TYPES = ("wordnet", "wikidata", "custom")
SUPPRESSION_MODES = ("block_suggestion", "block_all")
DISAMBIGUATION_PROMPT_VERSION = "disambiguate/2024-02-v1"
RATING_PROMPT_VERSION = "rate/2024-02-v1"
EMBEDDED_VERSION = "embedded/1"
HARD_CASE_THRESHOLD = 0.65
WIKIDATA_ID = re.compile(r"^wikidata:Q[1-9][0-9]*$")
_TITLE_CASE = re.compile(r"^[A-Z][a-z]+(?: [A-Z][a-z]+)*$")
_ACRONYM = re.compile(r"^[A-Z][A-Z0-9-]+s?$")

#: filled after the rows are built (rating, provenance, token attribution)
LATE_COLUMNS = (
    "indexability",
    "specificity",
    "overall_confidence",
    "run_id",
    "prompt_version",
    "settings_hash",
    "extraction_version",
    "prompt_tokens",
    "completion_tokens",
)

RESOLVED_COLUMNS = [
    "doc_id",
    "start",
    "end",
    "text",
    "index_type",
    "label",
    "normalized_label",
    "entry_label",
    "page",
    "line",
    "column",
    "chunk_index",
    "chunk_start",
    "chunk_end",
    "detector",
    "detector_model",
    "validation_status",
    "meaning_type",
    "meaning_id",
    "meaning_lemma",
    "meaning_gloss",
    "meaning_confidence",
    "meaning_source",
    "reason_code",
    "candidate_rule",
    "n_candidates",
    "merge_key",
    "lexicon",
    "head_meaning_id",
    "head_meaning_gloss",
    "meaning_reason",
    *LATE_COLUMNS,
]


# ---------------------------------------------------------------------------
# Labels and merge keys


def normalize_label(label: str) -> str:
    """NFKC, case-folded, whitespace collapsed, edge punctuation stripped."""
    s = unicodedata.normalize("NFKC", label or "").casefold()
    s = " ".join(s.split())
    return s.strip(" .,;:!?\"'()[]{}«»“”‘’")


def merge_key(index_type: str, meaning_type: str, meaning_id: str | None, normalized_label: str) -> str:
    """``index_type|meaning_type|meaning_id`` when there is a meaning id, else ``index_type|normalized_label|custom``."""
    if meaning_type in ("wordnet", "wikidata") and meaning_id:
        return f"{index_type}|{meaning_type}|{meaning_id}"
    return f"{index_type}|{normalized_label}|{meaning_type}"


def is_title_case(label: str) -> bool:
    return bool(_TITLE_CASE.match(label))


def text_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


# ---------------------------------------------------------------------------
# Candidates


@dataclass(frozen=True)
class Candidate:
    meaning_type: str
    meaning_id: str | None
    label: str
    gloss: str
    rank: int = 0
    wordnet: Any = None  # the MeaningCandidate for WordNet senses

    def as_prompt(self) -> dict[str, Any]:
        return {"meaning_type": self.meaning_type, "meaning_id": self.meaning_id, "gloss": self.gloss or self.label}


def custom_candidate(label: str) -> Candidate:
    return Candidate("custom", None, label, "None of these fit")


class CandidateFinder:
    """The seed's candidate heuristics, cached per (label, index_type, lookup)."""

    def __init__(self, wnet: Any, wikidata: WikidataClient | None = None, limit: int = 8):
        self.wnet = wnet
        self.wikidata = wikidata if wikidata is not None and wikidata.enabled else None
        self.limit = limit
        self._cache: dict[tuple, tuple[list[Candidate], str]] = {}
        self.wikidata_errors: Counter = Counter()
        self.last_wikidata_error: str | None = None

    def _wd(self, label: str, type_: str | None = None) -> list[Candidate]:
        if self.wikidata is None:
            return []
        try:
            hits = self.wikidata.search(label, type=type_)
        except WikidataError as exc:
            # Counted and reported in the asset's metadata; the row falls back to the next source.
            self.wikidata_errors[exc.kind] += 1
            self.last_wikidata_error = str(exc)
            return []
        return [Candidate("wikidata", h.meaning_id, h.label, h.description, i + 1) for i, h in enumerate(hits)]

    def _wn(self, lookup: str, pos: str | None, limit: int) -> list[Candidate]:
        # Shared across resolvers (runs) in this process: it depends on the lexicon only.
        cache = senses.lexicon_cache(self.wnet, "candidates")
        key = (lookup, pos, limit)
        hit = cache.get(key)
        if hit is not None:
            return list(hit)
        found = senses.wordnet_candidates(self.wnet, lookup, pos=pos, limit=limit)
        if _ACRONYM.match(lookup):
            # WordNet lookups ignore case: "BLEU" must not become the cheese "bleu".
            found = [c for c in found if c.lemma == lookup]
        out = [Candidate("wordnet", c.meaning_id, c.lemma, c.gloss, c.sense_rank, c) for c in found]
        cache[key] = tuple(out)
        return out

    def find(
        self, label: str, index_type: str, lookup: str = "", pos: str | None = None, limit: int | None = None
    ) -> tuple[list[Candidate], str]:
        """(candidates, rule) — the last candidate is ``custom`` whenever custom is an option."""
        limit = limit or self.limit
        key = (label, index_type, lookup, pos, limit)
        hit = self._cache.get(key)
        if hit is None:
            hit = self._cache[key] = self._find(label, index_type, lookup or label, pos, limit)
        return hit

    def _find(
        self, label: str, index_type: str, lookup: str, pos: str | None, limit: int
    ) -> tuple[list[Candidate], str]:
        custom = custom_candidate(label)
        if index_type == "author":
            name = lookup if "," not in lookup else " ".join(reversed([p.strip() for p in lookup.split(",", 1)]))
            return self._wd(name, "person")[:limit] + [custom], "author_wikidata_person"
        if is_title_case(label):
            wd = self._wd(label)
            if len(wd) >= 3:
                return wd[:limit] + [custom], "title_case_wikidata"
        if len(label.split()) >= 3:
            return self._wd(label)[:limit] + [custom], "multiword_wikidata_custom"
        wn_c = self._wn(lookup, pos, limit)
        if wn_c:
            return wn_c, "wordnet"
        wd = self._wd(label)
        if wd:
            return wd[:limit] + [custom], "wikidata_fallback"
        return [custom], "custom_fallback"
