"""Pass 2 — canonical meanings of mentions, merge keys, suppression, provenance (seed 003).

For each mention (from :mod:`.detector` or :mod:`.stage_a`) :class:`MeaningResolver`

1. gathers candidates with the seed's heuristics (:class:`CandidateFinder`):
   author → Wikidata persons; Title Case → Wikidata first (kept when ≥ 3 hits);
   ≥ 3 words → Wikidata + custom; else WordNet, then Wikidata, then custom;
2. chooses one: the embedded Lesk disambiguator (``.senses``) for
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

import hashlib
import json
import time
from collections import Counter, defaultdict
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Sequence

import pandas as pd

from ..ingest.parsing import Chunk
from ..lib.llm import ChatClient, LLMConfig, StrictChatClient, UsageTally
from ..lib.nlp import load_spacy, model_label
from ..settings import MeaningsSettings, llm_settings, wordnet_settings
from . import wn_memo
from .calibration import load_calibration
from .candidates import (
    DISAMBIGUATION_PROMPT_VERSION,
    EMBEDDED_VERSION,
    LATE_COLUMNS,
    RATING_PROMPT_VERSION,
    RESOLVED_COLUMNS,
    Candidate,
    CandidateFinder,
    custom_candidate,
    merge_key,
    normalize_label,
    text_hash,
)
from .choose import Decision, EmbeddedChooser, Item, LLMDisambiguator, rate_terms
from .decisions import EmbeddedDecisions, abstain
from .detector import EmbeddedDetector, EmbeddedSettings, exclusion_shares
from .domains import section_ids
from .llm_runs import split_evenly
from .mentions import STAGE_A_PROMPT_VERSION, Mention, MentionDetectionError, TextLayout, locate_mentions
from .sense_vectors import load_sense_similarity
from .senses import flush_lexicon_memos
from .stage_a import LLMMentionDetector
from .suppression import SuppressionRule, load_suppressions, suppressing_rule
from .wikidata import WikidataClient, WikidataConfig, default_cache_dir
from .wordnet_install import WordNetNotInstalled, install_wordnet, open_wordnet, wordnet_status

#: The one settings class (the resolver's knobs and the environment's are the same object).
MeaningSettings = MeaningsSettings


#: The knobs that change what the resolver emits (the settings hash covers these and the components).
_HASHED = (
    "index_types",
    "use_llm",
    "rate",
    "llm_batch_size",
    "hard_threshold",
    "candidate_limit",
    "boundary",
    "page_chars",
    "min_occurrences_subject",
    "min_occurrences_author",
    "domain_aware",
    "one_sense_per_discourse",
    "sense_encoder",
    "sense_encoder_precision",
    "low_confidence",
)


#: chunk languages the installed WordNet serves (None = undetermined, the project default); no French or
#: Polish WordNet installs offline here (docs/languages.md)
WORDNET_LANGUAGES = frozenset({None, "en"})


def embedded_settings(settings: MeaningsSettings) -> EmbeddedSettings:
    return EmbeddedSettings(
        index_types=settings.index_types,
        min_occurrences={"subject": settings.min_occurrences_subject, "author": settings.min_occurrences_author},
    )


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
    #: dominant lexicographer files of the document; noun chunks seen; share dropped by each exclusion rule
    domains: list[str] = field(default_factory=list)
    noun_chunks: int = 0
    excluded_share: dict[str, float] = field(default_factory=dict)
    #: tokens and cost per LLM pass (stage_a, disambiguation, rating; see lib.llm.UsageTally)
    usage: dict[str, dict[str, float]] = field(default_factory=dict)
    #: (prompt, completion) tokens attributed to each mention index (not in the metadata)
    mention_tokens: dict[int, list[int]] = field(default_factory=dict, repr=False)

    def as_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d.pop("mention_tokens")
        for k in ("by_meaning_type", "by_reason", "by_rule"):
            d[k] = dict(getattr(self, k))
        return d

    def charge(self, i: int, prompt_tokens: int, completion_tokens: int) -> None:
        t = self.mention_tokens.setdefault(i, [0, 0])
        t[0] += prompt_tokens
        t[1] += completion_tokens


class MeaningResolver(EmbeddedDecisions):
    """Detect mentions and resolve their meanings for one document at a time."""

    def __init__(
        self,
        *,
        nlp: Any,
        wnet: Any,
        lexicon: str,
        lexicon_warning: str | None = None,
        wikidata: WikidataClient | None = None,
        llm: Any = None,
        suppressions: Sequence[SuppressionRule] = (),
        settings: MeaningSettings | None = None,
        spacy_label: str = "",
    ):
        self.settings = settings or MeaningSettings()
        wn_memo.install()  # issue 50: wn's lemma lookups asked of SQLite once per process
        self.nlp = nlp
        self.wnet = wnet
        self.lexicon = lexicon
        self.lexicon_warning = lexicon_warning
        self.llm = llm if self.settings.use_llm else None
        self.suppressions = list(suppressions)
        self.finder = CandidateFinder(wnet, wikidata, limit=self.settings.candidate_limit)
        self.chooser = EmbeddedChooser(wnet, load_calibration())
        # None: off or not installed
        self.similarity = load_sense_similarity(
            wnet, self.settings.sense_encoder, precision=self.settings.sense_encoder_precision
        )
        self.embedded = EmbeddedDetector(nlp, wnet, embedded_settings(self.settings))
        self.spacy_label = spacy_label
        #: chunk index → section number of the document being resolved (per-section domain profiles)
        self._sections: dict[int, int] = {}
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
            "settings": {k: getattr(self.settings, k) for k in _HASHED},
            "lexicon": self.lexicon,
            "spacy": self.spacy_label,
            "wikidata": self.wikidata_label,
            "llm": self.llm_model,
            "prompt_version": self.prompt_version,
            "suppressions": [asdict(r) for r in self.suppressions],
        }
        return hashlib.sha256(json.dumps(blob, sort_keys=True, default=str).encode()).hexdigest()[:16]

    # -- per document -------------------------------------------------------

    def detect(self, text: str, chunks: Sequence[Chunk], fmt: str, stats: ResolveStats) -> list[Mention]:
        layout = TextLayout(text, chunks)
        mentions: list[Mention] | None = None
        if self.llm is not None:
            det = LLMMentionDetector(
                self.llm,
                index_types=self.settings.index_types,
                page_chars=self.settings.page_chars,
                boundary=self.settings.boundary,
            )
            try:
                mentions = det.detect(layout)
                stats.detector = "llm"
            except MentionDetectionError as exc:
                # The document still gets mentions; the rows and metadata say which detector made them.
                stats.llm_fallback = str(exc)
            stats.stage_a = det.stats.as_dict()
            stats.usage["stage_a"] = det.tally.as_dict()
        if mentions is None:
            mentions = self.embedded.detect(text, chunks, fmt)
            stats.detector = "embedded"
        located = locate_mentions(mentions, layout)
        if self.llm is not None and stats.detector == "llm":
            for i, m in enumerate(located):  # each window's tokens, split evenly over its mentions
                stats.charge(i, *det.mention_tokens.get((m.start, m.end, m.index_type), (0, 0)))
        return located

    def decide(self, text: str, chunks: Sequence[Chunk], fmt: str, stats: ResolveStats) -> tuple:
        """(mentions, their candidates and rule, decisions, head meanings, domain profile, unsupported flags) of
        one document, before rows are built; ``stats.seconds["detect"]`` = the detector's time."""
        t0 = time.perf_counter()
        mentions = self.detect(text, chunks, fmt, stats)
        stats.mentions = len(mentions)
        stats.seconds["detect"] = time.perf_counter() - t0
        # issue 17: a mention in a language without an installed WordNet is never looked up in the English one
        languages = {c.index: getattr(c, "language", None) for c in chunks}
        unsupported = [languages.get(m.chunk_index) not in WORDNET_LANGUAGES for m in mentions]
        found = [
            ([custom_candidate(m.label)], "unsupported_language")
            if skip
            else self.finder.find(m.label, m.index_type, m.lookup, m.pos)
            for m, skip in zip(mentions, unsupported)
        ]
        self._sections = section_ids(chunks)
        decisions, heads, profile = self._supported_decisions(mentions, found, unsupported)
        if self.llm is not None:
            self._llm_decisions(mentions, found, decisions, stats)
        decisions = abstain(text, mentions, decisions, self.settings.low_confidence)
        return mentions, found, decisions, heads, profile, unsupported

    def resolve_document(
        self, doc_id: str, text: str, chunks: Sequence[Chunk], fmt: str = "txt", run_id: str = ""
    ) -> tuple[pd.DataFrame, ResolveStats]:
        stats = ResolveStats()
        t0 = time.perf_counter()
        mentions, found, decisions, heads, profile, unsupported = self.decide(text, chunks, fmt, stats)
        t1, t2 = t0 + stats.seconds.pop("detect"), time.perf_counter()
        rows = []
        kept: list[int] = []  # mention index of each row (token attribution)
        for i, (m, (cands, rule), d) in enumerate(zip(mentions, found, decisions)):
            c = d.candidate
            norm = normalize_label(m.label)
            row = {
                "doc_id": doc_id,
                "start": m.start,
                "end": m.end,
                "text": m.text,
                "index_type": m.index_type,
                "label": m.label,
                "normalized_label": norm,
                "entry_label": m.label,
                "page": m.page,
                "line": m.line,
                "column": m.column,
                "chunk_index": m.chunk_index,
                "chunk_start": m.chunk_start,
                "chunk_end": m.chunk_end,
                "detector": m.detector,
                "detector_model": self.llm_model if m.detector.startswith("llm") else self.spacy_label,
                "validation_status": m.validation_status,
                "meaning_type": c.meaning_type,
                "meaning_id": c.meaning_id if c.meaning_type != "custom" else None,
                "meaning_lemma": c.label if c.meaning_type != "custom" else None,
                "meaning_gloss": c.gloss if c.meaning_type != "custom" else None,
                "meaning_confidence": d.confidence,
                "meaning_source": d.source,
                "reason_code": d.reason_code,
                "candidate_rule": rule,
                "n_candidates": sum(1 for x in cands if x.meaning_type != "custom"),
                "merge_key": merge_key(m.index_type, c.meaning_type, c.meaning_id, norm),
                "lexicon": self.lexicon,
                "head_meaning_id": heads[i][0] if c.meaning_type == "custom" and heads[i] else None,
                "head_meaning_gloss": heads[i][1] if c.meaning_type == "custom" and heads[i] else None,
                "meaning_reason": "unsupported_language" if unsupported[i] else None,
            }
            rule_hit = suppressing_rule(self.suppressions, row, doc_id)
            if rule_hit is not None:
                stats.suppressed += 1
                continue
            rows.append(row)
            kept.append(i)
        df = pd.DataFrame(rows, columns=[c for c in RESOLVED_COLUMNS if c not in LATE_COLUMNS])
        df = self._entries(df)
        df = self._token_columns(df, kept, stats)
        df = self._rate(df, stats)
        df["run_id"] = run_id
        df["prompt_version"] = self.prompt_version
        df["settings_hash"] = self.settings_hash()
        df["extraction_version"] = text_hash(text)
        df = df[RESOLVED_COLUMNS].astype(
            {
                "start": "int64",
                "end": "int64",
                "page": "int64",
                "line": "int64",
                "column": "int64",
                "chunk_index": "int64",
                "chunk_start": "int64",
                "chunk_end": "int64",
                "n_candidates": "int64",
                "meaning_confidence": "float64",
                "indexability": "float64",
                "specificity": "float64",
                "overall_confidence": "float64",
                "prompt_tokens": "Int64",
                "completion_tokens": "Int64",
            }
        )
        stats.by_meaning_type = Counter(df["meaning_type"])
        stats.by_reason = Counter(df["reason_code"])
        stats.by_rule = Counter(df["candidate_rule"])
        stats.wikidata_errors = dict(self.finder.wikidata_errors)
        stats.domains = profile.dominant() if profile is not None else []
        if stats.detector == "embedded":
            kept = sum(m.index_type == "subject" for m in mentions)
            stats.noun_chunks, stats.excluded_share = exclusion_shares(self.embedded.excluded, kept)
        stats.seconds = {
            "detect": round(t1 - t0, 3),
            "resolve": round(t2 - t1, 3),
            "total": round(time.perf_counter() - t0, 3),
        }
        flush_lexicon_memos(self.wnet)  # issue 50: the next process reads this document's WordNet lookups
        return df, stats

    # -- helpers --------------------------------------------------------------

    @staticmethod
    def _entries(df: pd.DataFrame) -> pd.DataFrame:
        """entry_label: the most frequent label of each merge key (first seen on ties)."""
        if df.empty:
            return df
        counts: dict[str, Counter] = {}  # per merge key, its labels in the order first seen (no per-group frames)
        for key, label in zip(df["merge_key"].tolist(), df["label"].tolist()):
            counts.setdefault(key, Counter())[label] += 1
        best = {key: max(c, key=c.__getitem__) for key, c in counts.items()}  # max keeps the first of equals
        df["entry_label"] = df["merge_key"].map(best)
        return df

    def _llm_decisions(
        self,
        mentions: Sequence[Mention],
        found: Sequence[tuple[list[Candidate], str]],
        decisions: list[Decision],
        stats: ResolveStats,
    ) -> None:
        """One item per (index_type, label); mentions with a single real candidate need no model."""
        dis = LLMDisambiguator(
            self.llm, batch_size=self.settings.llm_batch_size, hard_threshold=self.settings.hard_threshold
        )
        groups: dict[tuple[str, str], list[int]] = defaultdict(list)
        for i, (m, (cands, _rule)) in enumerate(zip(mentions, found)):
            if sum(1 for c in cands if c.meaning_type != "custom") >= 1 and len(cands) > 1:
                groups[(m.index_type, m.label)].append(i)
        items = []
        for n, ((itype, label), idx) in enumerate(groups.items(), 1):
            first = mentions[idx[0]]
            cands = found[idx[0]][0]
            more, _ = self.finder.find(
                first.label, first.index_type, first.lookup, first.pos, limit=2 * self.settings.candidate_limit
            )
            if not any(c.meaning_type == "custom" for c in more):
                more = list(more) + [custom_candidate(label)]
            if not any(c.meaning_type == "custom" for c in cands):
                cands = list(cands) + [custom_candidate(label)]
            context = " … ".join(dict.fromkeys(mentions[i].context[:400] for i in idx[:2]))
            larger = " … ".join(dict.fromkeys(mentions[i].context for i in idx[:5]))
            items.append(Item(f"entry_{n}", label, itype, context, larger, cands, more))
        answers = dis.resolve(items)
        stats.usage["disambiguation"] = dis.tally.as_dict()
        for it, idx in zip(items, groups.values()):  # an item's tokens, split evenly over its mentions
            pt, ct = dis.usage.get(it.item_id, (0, 0))
            for i, p, c in zip(idx, split_evenly(pt, len(idx)), split_evenly(ct, len(idx))):
                stats.charge(i, p, c)
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
        terms = [
            (f"entry_{i}", str(first.loc[k, "entry_label"]), str(first.loc[k, "index_type"]))
            for i, k in enumerate(keys, 1)
        ]
        counter: Counter = Counter()
        tally, usage = UsageTally(), {}
        ratings = rate_terms(self.llm, terms, stats=counter, tally=tally, usage=usage)
        by_key = {k: ratings.get(f"entry_{i}") for i, k in enumerate(keys, 1)}
        for col, j in (("indexability", 0), ("specificity", 1), ("overall_confidence", 2)):
            df[col] = df["merge_key"].map(lambda k: by_key[k][j] if by_key.get(k) else None)
        stats.llm.update(dict(counter))
        stats.usage["rating"] = tally.as_dict()
        # a term's rating tokens, split evenly over the rows of its merge key
        pts, cts = df["prompt_tokens"].to_numpy(copy=True), df["completion_tokens"].to_numpy(copy=True)
        rows_of = df.groupby("merge_key", sort=False).indices
        for i, k in enumerate(keys, 1):
            pt, ct = usage.get(f"entry_{i}", (0, 0))
            rows = rows_of[k]
            pts[rows] += split_evenly(pt, len(rows))
            cts[rows] += split_evenly(ct, len(rows))
        df["prompt_tokens"], df["completion_tokens"] = pts, cts
        return df

    def _token_columns(self, df: pd.DataFrame, kept: Sequence[int], stats: ResolveStats) -> pd.DataFrame:
        """prompt_tokens / completion_tokens of each row: null without an LLM, else the shares of the Stage A
        window, disambiguation call and rating call that produced it (suppressed rows' shares are dropped)."""
        if self.llm is None:
            df["prompt_tokens"] = pd.array([None] * len(df), dtype="Int64")
            df["completion_tokens"] = pd.array([None] * len(df), dtype="Int64")
            return df
        df["prompt_tokens"] = pd.array([stats.mention_tokens.get(i, (0, 0))[0] for i in kept], dtype="Int64")
        df["completion_tokens"] = pd.array([stats.mention_tokens.get(i, (0, 0))[1] for i in kept], dtype="Int64")
        return df


def build_resolver(settings: MeaningsSettings) -> MeaningResolver:
    """A MeaningResolver (loads spaCy and opens WordNet; installs the small shipped lexicon when none is
    installed and ``install_small_lexicon`` allows it)."""
    try:
        wnet = open_wordnet()
    except WordNetNotInstalled:
        if not settings.install_small_lexicon or wordnet_settings().lexicon:
            raise  # a named lexicon that is missing is the user's to install, never replaced by another
        # No lexicon yet (e.g. a fresh clone before `textguard wordnet install`): the small shipped
        # WN-LMF file, offline; wordnet_status() carries the limited-coverage warning into metadata. Not
        # recorded as the choice: only `textguard wordnet install` chooses for later runs.
        install_wordnet(lexicon=None, wndb_dirs=(), allow_download=False, log=lambda _msg: None, record=False)
        open_wordnet.cache_clear()
        wnet = open_wordnet()
    status = wordnet_status()
    nlp = load_spacy(settings.spacy_model or None, profile="parse")
    # the response cache (TEXTGUARD_LLM_CACHE, on by default) is what lets a killed run resume without paying again
    llm_cfg = LLMConfig.from_settings(llm_settings(), use_cache=True) if settings.use_llm else None
    if settings.use_llm and llm_cfg is None:
        raise ValueError("use_llm is on but TEXTGUARD_LLM_URL is not set")
    wikidata = WikidataClient(
        WikidataConfig(
            base_url=settings.wikidata_url or "https://www.wikidata.org",
            mode=settings.wikidata_mode,
            cache_dir=settings.wikidata_cache_dir or default_cache_dir(),
        )
    )
    return MeaningResolver(
        nlp=nlp,
        wnet=wnet,
        lexicon=status.spec,
        lexicon_warning=status.warning,
        wikidata=wikidata,
        llm=(ChatClient if settings.llm_fallback else StrictChatClient)(llm_cfg) if llm_cfg else None,
        suppressions=load_suppressions(settings.suppressions_path),
        settings=replace(settings, use_llm=llm_cfg is not None),
        spacy_label=model_label(nlp),
    )
