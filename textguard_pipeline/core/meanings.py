"""Pass 2 — canonical meanings of mentions, merge keys, suppression, provenance (seed 003).

For each mention (from :mod:`core.mentions`) :class:`MeaningResolver`

1. gathers candidates with the seed's heuristics (:class:`CandidateFinder`):
   author → Wikidata persons; Title Case → Wikidata first (kept when ≥ 3 hits);
   ≥ 3 words → Wikidata + custom; else WordNet, then Wikidata, then custom;
2. chooses one: the embedded Lesk disambiguator (``core.wordnet_senses``) for
   WordNet candidates, the top hit for Wikidata-only candidates, or — when an
   LLM is configured — :class:`LLMDisambiguator` (batches of 10–30 entries,
   JSON results with confidence and reason_code, hard cases < 0.65 retried
   alone with more context);
3. gives every row ``meaning_type`` ∈ {wordnet, wikidata, custom} with
   ``meaning_id`` set iff the type is wordnet/wikidata, a ``merge_key``
   (``index_type|meaning_type|meaning_id``, or ``index_type|normalized_label|custom``),
   drops rows matched by a suppression rule before they are emitted, and
   records provenance (run_id, detector/model, prompt_version, settings_hash,
   extraction_version = hash of the document text);
4. optionally rates entries (Pass 3: indexability, specificity, overall_confidence)
   when an LLM is configured.
"""

from __future__ import annotations

import csv
import hashlib
import json
import re
import time
import unicodedata
from collections import Counter, defaultdict
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Mapping, Sequence

import pandas as pd

from .mentions import (
    INDEX_TYPES,
    STAGE_A_PROMPT_VERSION,
    EmbeddedDetector,
    EmbeddedSettings,
    LLMMentionDetector,
    Mention,
    MentionDetectionError,
    TextLayout,
    locate_mentions,
)
from .parsing import Chunk
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

RESOLVED_COLUMNS = [
    "doc_id", "start", "end", "text",
    "index_type", "label", "normalized_label", "entry_label",
    "page", "line", "column", "chunk_index", "chunk_start", "chunk_end",
    "detector", "detector_model", "validation_status",
    "meaning_type", "meaning_id", "meaning_lemma", "meaning_gloss", "meaning_confidence",
    "meaning_source", "reason_code", "candidate_rule", "n_candidates",
    "merge_key", "lexicon",
    "indexability", "specificity", "overall_confidence",
    "run_id", "prompt_version", "settings_hash", "extraction_version",
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
        from .wordnet_senses import lexicon_cache, wordnet_candidates

        # Shared across resolvers (runs) in this process: it depends on the lexicon only.
        cache = lexicon_cache(self.wnet, "candidates")
        key = (lookup, pos, limit)
        hit = cache.get(key)
        if hit is not None:
            return list(hit)
        found = wordnet_candidates(self.wnet, lookup, pos=pos, limit=limit)
        if _ACRONYM.match(lookup):
            # WordNet lookups ignore case: "BLEU" must not become the cheese "bleu".
            found = [c for c in found if c.lemma == lookup]
        out = [Candidate("wordnet", c.meaning_id, c.lemma, c.gloss, c.sense_rank, c) for c in found]
        cache[key] = tuple(out)
        return out

    def find(self, label: str, index_type: str, lookup: str = "", pos: str | None = None,
             limit: int | None = None) -> tuple[list[Candidate], str]:
        """(candidates, rule) — the last candidate is ``custom`` whenever custom is an option."""
        limit = limit or self.limit
        key = (label, index_type, lookup, pos, limit)
        hit = self._cache.get(key)
        if hit is None:
            hit = self._cache[key] = self._find(label, index_type, lookup or label, pos, limit)
        return hit

    def _find(self, label: str, index_type: str, lookup: str, pos: str | None, limit: int) -> tuple[list[Candidate], str]:
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


# ---------------------------------------------------------------------------
# Decisions


@dataclass
class Decision:
    candidate: Candidate
    confidence: float | None
    reason_code: str
    source: str  # lesk | top_hit | none | llm:<model>


class EmbeddedChooser:
    """Lesk over WordNet senses (first-sense backoff); the top hit for Wikidata; custom otherwise."""

    def __init__(self, wnet: Any):
        from .wordnet_senses import LeskDisambiguator

        self.lesk = LeskDisambiguator(wnet)

    def choose(self, mention_text: str, context: str, candidates: Sequence[Candidate]) -> Decision:
        wn_c = [c for c in candidates if c.meaning_type == "wordnet"]
        if wn_c:
            chosen, conf, reason = self.lesk.choose(mention_text, context, [c.wordnet for c in wn_c])
            if chosen is not None:
                cand = next(c for c in wn_c if c.meaning_id == chosen.meaning_id)
                return Decision(cand, conf, reason, "lesk")
        wd = [c for c in candidates if c.meaning_type == "wikidata"]
        if wd:
            # Without a model to read the context, the search engine's ranking is the prior.
            return Decision(wd[0], 0.8 if len(wd) == 1 else 0.5, "single_candidate" if len(wd) == 1 else "top_search_hit",
                            "top_hit")
        custom = next((c for c in candidates if c.meaning_type == "custom"), None)
        return Decision(custom or custom_candidate(mention_text), None, "no_candidates", "none")


@dataclass
class Item:
    """One entry to disambiguate (all mentions of a label in a document share it)."""

    item_id: str
    label: str
    index_type: str
    context: str
    larger_context: str
    candidates: list[Candidate]
    more_candidates: list[Candidate] = field(default_factory=list)


DISAMBIGUATION_SYSTEM = """You choose the meaning of index entries.
Each item has a label, its index type, a context and candidate meanings (meaning_type, meaning_id, gloss).
Pick the candidate whose gloss fits the context; pick the custom candidate (meaning_id null) when none fits.
Answer with JSON only:
{"results": [{"itemId": "entry_1", "meaning_type": "wordnet", "meaning_id": "<one of the item's candidate ids or null>",
  "confidence": 0.92, "reason_code": "clear_match"}]}
reason_code is one of: clear_match, context_match, weak_match, none_fit, ambiguous.
confidence is between 0 and 1."""


class LLMDisambiguator:
    """Batch disambiguation (``batch_size`` items per call), hard cases retried alone."""

    def __init__(self, client: Any, *, batch_size: int = 20, hard_threshold: float = HARD_CASE_THRESHOLD):
        if not 1 <= batch_size <= 30:
            raise ValueError("batch_size must be between 1 and 30 (the seed uses 10-30)")
        self.client = client
        self.batch_size = batch_size
        self.hard_threshold = hard_threshold
        self.stats: Counter = Counter()
        self.errors: list[str] = []

    @property
    def source(self) -> str:
        return f"llm:{getattr(getattr(self.client, 'config', None), 'model', '?')}"

    def _messages(self, items: Sequence[Item], larger: bool) -> list[dict[str, str]]:
        payload = {"items": [{
            "itemId": it.item_id, "label": it.label, "indexType": it.index_type,
            "context": it.larger_context if larger else it.context,
            "candidates": [c.as_prompt() for c in ((it.more_candidates or it.candidates) if larger else it.candidates)],
        } for it in items]}
        return [{"role": "system", "content": DISAMBIGUATION_SYSTEM},
                {"role": "user", "content": json.dumps(payload, ensure_ascii=False)}]

    def _call(self, items: Sequence[Item], larger: bool) -> dict[str, Decision]:
        from .llm import LLMError

        self.stats["calls"] += 1
        try:
            reply = self.client.chat_json(self._messages(items, larger))
        except LLMError as exc:
            self.stats[f"error_{exc.kind}"] += 1
            self.errors.append(str(exc))
            return {}
        results = reply.get("results") if isinstance(reply, dict) else None
        if not isinstance(results, list):
            self.stats["error_shape"] += 1
            self.errors.append("reply has no 'results' list")
            return {}
        by_id = {it.item_id: it for it in items}
        out: dict[str, Decision] = {}
        for r in results:
            if not isinstance(r, dict) or r.get("itemId") not in by_id:
                continue
            it = by_id[r["itemId"]]
            pool = (it.more_candidates or it.candidates) if larger else it.candidates
            mid = r.get("meaning_id")
            if mid is None or r.get("meaning_type") == "custom":
                cand = next((c for c in pool if c.meaning_type == "custom"), custom_candidate(it.label))
            else:
                cand = next((c for c in pool if c.meaning_id == mid), None)
                if cand is None:  # an id that was not offered: never invent meanings
                    self.stats["invalid_choice"] += 1
                    continue
            try:
                conf = max(0.0, min(1.0, float(r.get("confidence"))))
            except (TypeError, ValueError):
                conf = 0.0
            out[it.item_id] = Decision(cand, conf, str(r.get("reason_code") or "unspecified")[:40], self.source)
        return out

    def resolve(self, items: Sequence[Item]) -> dict[str, Decision]:
        """Decisions by item id; items the model did not answer validly are absent (caller falls back)."""
        out: dict[str, Decision] = {}
        for i in range(0, len(items), self.batch_size):
            batch = items[i:i + self.batch_size]
            self.stats["batches"] += 1
            out.update(self._call(batch, larger=False))
        hard = [it for it in items if it.item_id in out and (out[it.item_id].confidence or 0.0) < self.hard_threshold]
        for it in hard:
            self.stats["hard_retries"] += 1
            again = self._call([it], larger=True).get(it.item_id)
            if again is not None:
                out[it.item_id] = again
                self.stats["hard_retry_answers"] += 1
        return out


RATING_SYSTEM = """For each term, rate:
- Indexability (0-1): Would a reader look this up?
- Specificity (0-1): Concrete/specific vs generic/vague?

Return overall confidence as average of the two.
Answer with JSON only:
{"ratings": [{"termId": "entry_1", "indexability": 0.90, "specificity": 0.95, "overallConfidence": 0.93}]}"""


def rate_terms(client: Any, terms: Sequence[tuple[str, str, str]], batch_size: int = 30,
               stats: Counter | None = None) -> dict[str, tuple[float, float, float]]:
    """Pass 3: ``terms`` = (term_id, label, index_type) → {term_id: (indexability, specificity, overall)}."""
    from .llm import LLMError

    stats = stats if stats is not None else Counter()
    out: dict[str, tuple[float, float, float]] = {}
    for i in range(0, len(terms), batch_size):
        batch = terms[i:i + batch_size]
        payload = {"terms": [{"termId": t, "label": lab, "indexType": it} for t, lab, it in batch]}
        stats["rating_calls"] += 1
        try:
            reply = client.chat_json([{"role": "system", "content": RATING_SYSTEM},
                                      {"role": "user", "content": json.dumps(payload, ensure_ascii=False)}])
        except LLMError as exc:
            stats[f"rating_error_{exc.kind}"] += 1
            continue
        wanted = {t for t, _l, _i in batch}
        for r in (reply.get("ratings") if isinstance(reply, dict) else None) or []:
            if not isinstance(r, dict) or r.get("termId") not in wanted:
                continue
            try:
                ind = max(0.0, min(1.0, float(r["indexability"])))
                spec = max(0.0, min(1.0, float(r["specificity"])))
            except (KeyError, TypeError, ValueError):
                stats["rating_invalid"] += 1
                continue
            out[r["termId"]] = (ind, spec, round((ind + spec) / 2, 4))
    return out


# ---------------------------------------------------------------------------
# Suppression


class SuppressionError(ValueError):
    """The suppression file is malformed (the message names the file and line)."""


@dataclass(frozen=True)
class SuppressionRule:
    index_type: str  # "" = every index type
    normalized_label: str
    meaning_id: str
    meaning_type: str
    scope: str  # project | document:<doc_id> | page_range:<a>-<b>
    suppression_mode: str  # block_suggestion | block_all
    reason: str = ""

    def in_scope(self, doc_id: str, page: int) -> bool:
        if self.scope in ("", "project"):
            return True
        kind, _, arg = self.scope.partition(":")
        if kind == "document":
            return arg == doc_id
        if kind == "page_range":
            a, _, b = arg.partition("-")
            return int(a) <= page <= int(b or a)
        return False

    def matches(self, row: Mapping[str, Any], doc_id: str) -> bool:
        """block_suggestion: the suppressed meaning (by meaning_id; by label for custom rules);
        block_all: the meaning or the label, whatever meaning the row resolved to."""
        if self.index_type and row.get("index_type") != self.index_type:
            return False
        if not self.in_scope(doc_id, int(row.get("page") or 0)):
            return False
        mid = row.get("meaning_id") or ""
        label = row.get("normalized_label") or ""
        if self.suppression_mode == "block_all":
            return bool((self.meaning_id and mid == self.meaning_id) or (self.normalized_label and label == self.normalized_label))
        if self.meaning_id:
            return mid == self.meaning_id
        # A label-only suggestion block is the fallback for custom entries (seed: merge by label only
        # when there is no meaning id); a meaning_type column widens it to that type.
        if row.get("meaning_type") != (self.meaning_type or "custom"):
            return False
        return bool(self.normalized_label) and label == self.normalized_label


def default_suppressions_path() -> str:
    """``$TEXTGUARD_SUPPRESSIONS``, default ``data/suppressions.csv`` of the project."""
    import os

    from ..settings import PROJECT_ROOT

    return os.environ.get("TEXTGUARD_SUPPRESSIONS") or str(PROJECT_ROOT / "data" / "suppressions.csv")


SUPPRESSION_COLUMNS = ("meaning_id", "normalized_label", "index_type", "scope", "suppression_mode")
_SCOPE = re.compile(r"^(?:project|document:[a-z0-9._-]+|page_range:\d+(?:-\d+)?)$")


def load_suppressions(path: str | Path | None) -> list[SuppressionRule]:
    """Rules from a CSV with columns meaning_id, normalized_label, index_type, scope, suppression_mode
    (optional: meaning_type, reason). A missing file means no rules; a malformed one raises."""
    if not path:
        return []
    p = Path(path)
    if not p.is_file():
        return []
    with p.open(newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(line for line in fh if not line.lstrip().startswith("#")))
    if rows:
        missing = [c for c in SUPPRESSION_COLUMNS if c not in rows[0]]
        if missing:
            raise SuppressionError(f"{p}: missing columns {missing} (need {', '.join(SUPPRESSION_COLUMNS)})")
    out = []
    for n, r in enumerate(rows, 2):
        mode = (r.get("suppression_mode") or "block_suggestion").strip()
        scope = (r.get("scope") or "project").strip()
        itype = (r.get("index_type") or "").strip()
        mid = (r.get("meaning_id") or "").strip()
        label = normalize_label(r.get("normalized_label") or "")
        mtype = (r.get("meaning_type") or "").strip()
        if mode not in SUPPRESSION_MODES:
            raise SuppressionError(f"{p} line {n}: suppression_mode {mode!r} is not one of {SUPPRESSION_MODES}")
        if not _SCOPE.match(scope):
            raise SuppressionError(f"{p} line {n}: scope {scope!r} is not project, document:<doc_id> or page_range:<a>-<b>")
        if itype and itype not in INDEX_TYPES:
            raise SuppressionError(f"{p} line {n}: index_type {itype!r} is not one of {INDEX_TYPES}")
        if mtype and mtype not in MEANING_TYPES:
            raise SuppressionError(f"{p} line {n}: meaning_type {mtype!r} is not one of {MEANING_TYPES}")
        if not mid and not label:
            raise SuppressionError(f"{p} line {n}: a rule needs a meaning_id or a normalized_label")
        out.append(SuppressionRule(itype, label, mid, mtype, scope, mode, (r.get("reason") or "").strip()))
    return out


def suppressing_rule(rules: Sequence[SuppressionRule], row: Mapping[str, Any], doc_id: str) -> SuppressionRule | None:
    return next((r for r in rules if r.matches(row, doc_id)), None)


# ---------------------------------------------------------------------------
# Row rules (shared by the resolver's self-check and the asset checks)


def meaning_id_violations(df: pd.DataFrame) -> list[dict[str, Any]]:
    """meaning_id set iff meaning_type is wordnet/wikidata, with the right id shape."""
    out = []
    for r in df.itertuples(index=False):
        mid, mtype = r.meaning_id, r.meaning_type
        has = isinstance(mid, str) and mid != ""
        why = None
        if mtype not in MEANING_TYPES:
            why = f"meaning_type {mtype!r} is not one of {MEANING_TYPES}"
        elif mtype == "custom" and has:
            why = "custom meaning with a meaning_id"
        elif mtype != "custom" and not has:
            why = f"{mtype} meaning without meaning_id"
        elif mtype == "wikidata" and not WIKIDATA_ID.match(mid):
            why = f"wikidata id {mid!r} is not wikidata:Q…"
        elif mtype == "wordnet":
            lex = str(getattr(r, "lexicon", "") or "").split(":", 1)[0]
            if lex and not mid.startswith(lex + "-"):
                why = f"wordnet id {mid!r} is not prefixed by its lexicon {lex!r}"
        if why:
            out.append({"start": r.start, "end": r.end, "text": r.text, "meaning_type": mtype,
                        "meaning_id": mid, "reason": why})
    return out


def merge_key_violations(df: pd.DataFrame) -> list[dict[str, Any]]:
    """merge_key recomputes from the row; one entry_label and one meaning per merge key."""
    out = []
    labels: dict[str, set] = defaultdict(set)
    meanings: dict[str, set] = defaultdict(set)
    for r in df.itertuples(index=False):
        mid = r.meaning_id if isinstance(r.meaning_id, str) and r.meaning_id else None
        expected = merge_key(r.index_type, r.meaning_type, mid, r.normalized_label)
        if r.merge_key != expected:
            out.append({"start": r.start, "end": r.end, "text": r.text, "expected": expected, "found": r.merge_key,
                        "reason": "merge_key does not follow from the row"})
        if normalize_label(r.label) != r.normalized_label:
            out.append({"start": r.start, "end": r.end, "text": r.text, "expected": normalize_label(r.label),
                        "found": r.normalized_label, "reason": "normalized_label is not normalize_label(label)"})
        labels[r.merge_key].add(r.entry_label)
        meanings[r.merge_key].add((r.index_type, r.meaning_type, mid))
    for key, ls in labels.items():
        if len(ls) > 1:
            out.append({"merge_key": key, "found": sorted(map(str, ls))[:5], "reason": "several entry labels for one merge key"})
    for key, ms in meanings.items():
        if len(ms) > 1:
            out.append({"merge_key": key, "found": sorted(map(str, ms))[:5], "reason": "several meanings for one merge key"})
    return out


def suppression_violations(df: pd.DataFrame, rules: Sequence[SuppressionRule], doc_id: str) -> list[dict[str, Any]]:
    out = []
    if not rules:
        return out
    for row in df.to_dict("records"):
        rule = suppressing_rule(rules, row, doc_id)
        if rule is not None:
            out.append({"start": row["start"], "end": row["end"], "text": row["text"], "meaning_id": row["meaning_id"],
                        "reason": f"suppressed by {rule.suppression_mode} rule {rule.meaning_id or rule.normalized_label!r}"})
    return out


# ---------------------------------------------------------------------------
# The resolver


@dataclass
class MeaningSettings:
    index_types: tuple[str, ...] = INDEX_TYPES
    use_llm: bool = False
    rate: bool = True  # Pass 3, only when an LLM is configured
    llm_batch_size: int = 20
    hard_threshold: float = HARD_CASE_THRESHOLD
    candidate_limit: int = 8
    boundary: str = "split"
    page_chars: int = 6000
    min_occurrences_subject: int = 1
    min_occurrences_author: int = 1

    def embedded(self) -> EmbeddedSettings:
        return EmbeddedSettings(index_types=self.index_types,
                                min_occurrences={"subject": self.min_occurrences_subject,
                                                 "author": self.min_occurrences_author})


@dataclass
class ResolveStats:
    mentions: int = 0
    suppressed: int = 0
    by_meaning_type: Counter = field(default_factory=Counter)
    by_reason: Counter = field(default_factory=Counter)
    by_rule: Counter = field(default_factory=Counter)
    detector: str = ""
    llm_fallback: str | None = None
    stage_a: dict[str, int] = field(default_factory=dict)
    llm: dict[str, int] = field(default_factory=dict)
    wikidata_errors: dict[str, int] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        d = asdict(self)
        for k in ("by_meaning_type", "by_reason", "by_rule"):
            d[k] = dict(getattr(self, k))
        return d


class MeaningResolver:
    """Detect mentions and resolve their meanings for one document at a time."""

    def __init__(self, *, nlp: Any, wnet: Any, lexicon: str, lexicon_warning: str | None = None,
                 wikidata: WikidataClient | None = None,
                 llm: Any = None, suppressions: Sequence[SuppressionRule] = (),
                 settings: MeaningSettings | None = None, spacy_label: str = ""):
        self.settings = settings or MeaningSettings()
        self.nlp = nlp
        self.wnet = wnet
        self.lexicon = lexicon
        self.lexicon_warning = lexicon_warning
        self.llm = llm if self.settings.use_llm else None
        self.suppressions = list(suppressions)
        self.finder = CandidateFinder(wnet, wikidata, limit=self.settings.candidate_limit)
        self.chooser = EmbeddedChooser(wnet)
        self.embedded = EmbeddedDetector(nlp, wnet, self.settings.embedded())
        self.spacy_label = spacy_label
        self.wikidata_label = wikidata.config.label if wikidata is not None else "wikidata:off"

    # -- provenance ---------------------------------------------------------

    @property
    def llm_model(self) -> str | None:
        return getattr(getattr(self.llm, "config", None), "label", None) if self.llm is not None else None

    @property
    def prompt_version(self) -> str:
        if self.llm is None:
            return EMBEDDED_VERSION
        parts = [STAGE_A_PROMPT_VERSION, DISAMBIGUATION_PROMPT_VERSION]
        if self.settings.rate:
            parts.append(RATING_PROMPT_VERSION)
        return "+".join(parts)

    def settings_hash(self) -> str:
        blob = {
            "settings": asdict(self.settings), "lexicon": self.lexicon, "spacy": self.spacy_label,
            "wikidata": self.wikidata_label, "llm": self.llm_model, "prompt_version": self.prompt_version,
            "suppressions": [asdict(r) for r in self.suppressions],
        }
        return hashlib.sha256(json.dumps(blob, sort_keys=True, default=str).encode()).hexdigest()[:16]

    # -- per document -------------------------------------------------------

    def detect(self, text: str, chunks: Sequence[Chunk], fmt: str, stats: ResolveStats) -> list[Mention]:
        layout = TextLayout(text, chunks)
        mentions: list[Mention] | None = None
        if self.llm is not None:
            det = LLMMentionDetector(self.llm, index_types=self.settings.index_types, page_chars=self.settings.page_chars,
                                     boundary=self.settings.boundary)
            try:
                mentions = det.detect(layout)
                stats.detector = "llm"
            except MentionDetectionError as exc:
                # The document still gets mentions; the rows and metadata say which detector made them.
                stats.llm_fallback = str(exc)
            stats.stage_a = det.stats.as_dict()
        if mentions is None:
            mentions = self.embedded.detect(text, chunks, fmt)
            stats.detector = "embedded"
        return locate_mentions(mentions, layout)

    def resolve_document(self, doc_id: str, text: str, chunks: Sequence[Chunk], fmt: str = "txt",
                         run_id: str = "") -> tuple[pd.DataFrame, ResolveStats]:
        stats = ResolveStats()
        t0 = time.perf_counter()
        mentions = self.detect(text, chunks, fmt, stats)
        stats.mentions = len(mentions)
        t1 = time.perf_counter()
        found = [self.finder.find(m.label, m.index_type, m.lookup, m.pos) for m in mentions]
        decisions = [self.chooser.choose(m.text, m.context, cands) for m, (cands, _rule) in zip(mentions, found)]
        if self.llm is not None:
            self._llm_decisions(mentions, found, decisions, stats)
        t2 = time.perf_counter()
        rows = []
        for m, (cands, rule), d in zip(mentions, found, decisions):
            c = d.candidate
            norm = normalize_label(m.label)
            row = {
                "doc_id": doc_id, "start": m.start, "end": m.end, "text": m.text,
                "index_type": m.index_type, "label": m.label, "normalized_label": norm, "entry_label": m.label,
                "page": m.page, "line": m.line, "column": m.column, "chunk_index": m.chunk_index,
                "chunk_start": m.chunk_start, "chunk_end": m.chunk_end,
                "detector": m.detector, "detector_model": self.llm_model if m.detector.startswith("llm") else self.spacy_label,
                "validation_status": m.validation_status,
                "meaning_type": c.meaning_type, "meaning_id": c.meaning_id if c.meaning_type != "custom" else None,
                "meaning_lemma": c.label if c.meaning_type != "custom" else None,
                "meaning_gloss": c.gloss if c.meaning_type != "custom" else None,
                "meaning_confidence": d.confidence, "meaning_source": d.source, "reason_code": d.reason_code,
                "candidate_rule": rule, "n_candidates": sum(1 for x in cands if x.meaning_type != "custom"),
                "merge_key": merge_key(m.index_type, c.meaning_type, c.meaning_id, norm),
                "lexicon": self.lexicon,
            }
            rule_hit = suppressing_rule(self.suppressions, row, doc_id)
            if rule_hit is not None:
                stats.suppressed += 1
                continue
            rows.append(row)
        df = pd.DataFrame(rows, columns=RESOLVED_COLUMNS[:-7])
        df = self._entries(df)
        df = self._rate(df, stats)
        df["run_id"] = run_id
        df["prompt_version"] = self.prompt_version
        df["settings_hash"] = self.settings_hash()
        df["extraction_version"] = text_hash(text)
        df = df[RESOLVED_COLUMNS].astype({"start": "int64", "end": "int64", "page": "int64", "line": "int64",
                                          "column": "int64", "chunk_index": "int64", "chunk_start": "int64",
                                          "chunk_end": "int64", "n_candidates": "int64",
                                          "meaning_confidence": "float64", "indexability": "float64",
                                          "specificity": "float64", "overall_confidence": "float64"})
        stats.by_meaning_type = Counter(df["meaning_type"])
        stats.by_reason = Counter(df["reason_code"])
        stats.by_rule = Counter(df["candidate_rule"])
        stats.wikidata_errors = dict(self.finder.wikidata_errors)
        stats.seconds = {"detect": round(t1 - t0, 3), "resolve": round(t2 - t1, 3),
                         "total": round(time.perf_counter() - t0, 3)}
        return df, stats

    # -- helpers --------------------------------------------------------------

    @staticmethod
    def _entries(df: pd.DataFrame) -> pd.DataFrame:
        """entry_label: the most frequent label of each merge key (first seen on ties)."""
        if df.empty:
            return df
        best: dict[str, str] = {}
        for key, group in df.groupby("merge_key", sort=False):
            counts = Counter(group["label"])
            top = max(counts.values())
            best[key] = next(lab for lab in group["label"] if counts[lab] == top)
        df["entry_label"] = df["merge_key"].map(best)
        return df

    def _llm_decisions(self, mentions: Sequence[Mention], found: Sequence[tuple[list[Candidate], str]],
                       decisions: list[Decision], stats: ResolveStats) -> None:
        """One item per (index_type, label); mentions with a single real candidate need no model."""
        dis = LLMDisambiguator(self.llm, batch_size=self.settings.llm_batch_size,
                               hard_threshold=self.settings.hard_threshold)
        groups: dict[tuple[str, str], list[int]] = defaultdict(list)
        for i, (m, (cands, _rule)) in enumerate(zip(mentions, found)):
            if sum(1 for c in cands if c.meaning_type != "custom") >= 1 and len(cands) > 1:
                groups[(m.index_type, m.label)].append(i)
        items = []
        for n, ((itype, label), idx) in enumerate(groups.items(), 1):
            first = mentions[idx[0]]
            cands = found[idx[0]][0]
            more, _ = self.finder.find(first.label, first.index_type, first.lookup, first.pos,
                                       limit=2 * self.settings.candidate_limit)
            if not any(c.meaning_type == "custom" for c in more):
                more = list(more) + [custom_candidate(label)]
            if not any(c.meaning_type == "custom" for c in cands):
                cands = list(cands) + [custom_candidate(label)]
            context = " … ".join(dict.fromkeys(mentions[i].context[:400] for i in idx[:2]))
            larger = " … ".join(dict.fromkeys(mentions[i].context for i in idx[:5]))
            items.append(Item(f"entry_{n}", label, itype, context, larger, cands, more))
        answers = dis.resolve(items)
        for it, idx in zip(items, groups.values()):
            d = answers.get(it.item_id)
            if d is None:
                continue  # the embedded decision stays (counted in llm stats)
            for i in idx:
                decisions[i] = d
        stats.llm = dict(dis.stats)
        stats.llm["answered_items"] = len(answers)
        stats.llm["items"] = len(items)

    def _rate(self, df: pd.DataFrame, stats: ResolveStats) -> pd.DataFrame:
        df["indexability"] = None
        df["specificity"] = None
        df["overall_confidence"] = None
        if self.llm is None or not self.settings.rate or df.empty:
            return df
        keys = list(dict.fromkeys(df["merge_key"]))
        first = df.drop_duplicates("merge_key").set_index("merge_key")
        terms = [(f"entry_{i}", str(first.loc[k, "entry_label"]), str(first.loc[k, "index_type"]))
                 for i, k in enumerate(keys, 1)]
        counter: Counter = Counter()
        ratings = rate_terms(self.llm, terms, stats=counter)
        by_key = {k: ratings.get(f"entry_{i}") for i, k in enumerate(keys, 1)}
        for col, j in (("indexability", 0), ("specificity", 1), ("overall_confidence", 2)):
            df[col] = df["merge_key"].map(lambda k: by_key[k][j] if by_key.get(k) else None)
        stats.llm.update(dict(counter))
        return df


def frame_rules_for(df: pd.DataFrame, rules: Sequence[SuppressionRule], doc_id: str) -> dict[str, list[dict[str, Any]]]:
    """All row-rule violations of a resolved_meanings frame (used by tests and notebooks)."""
    return {"meaning_id": meaning_id_violations(df), "merge_keys": merge_key_violations(df),
            "suppression": suppression_violations(df, rules, doc_id)}

