"""Gloss–context similarity with the sentence encoder (issue 16 item 3).

Each WordNet sense is encoded once per process as "lemmas: definition; examples" (:func:`sense_text`); each
lemma of a document gets one context vector, the mean of the encoded sentences its mentions stand in (at most
:data:`SENTENCES_PER_LEMMA`, each cut to :data:`WINDOW_WORDS` words around the mention, each distinct one
encoded once per document, all in one batched call). The cosine of a sense with that vector, minus the mean over the
lemma's senses, times :data:`SIMILARITY_WEIGHT` joins the prior-plus-evidence score of
:meth:`~.senses.LeskDisambiguator.choose_scored` (``SenseEvidence.similarity``). The weight and the text
recipe were chosen on the dev half of the labelled set (``textguard_pipeline_tests/meanings/data``).

Without the model package (or with ``TEXTGUARD_SENSE_ENCODER=off``) nothing here runs and the
disambiguation is the encoder-free one. No dagster imports.
"""

from __future__ import annotations

import os
import re
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

from .lexicon_memo import sidecar_folder
from .senses import MeaningCandidate, _BoundedCache, first_sense, lexicon_cache
from .wn_tables import tables_for

#: Sentences of a lemma (per section) pooled into its context vector; a book repeats lemmas, so bounded.
SENTENCES_PER_LEMMA = 3
#: A "sentence" longer than this (a table, a run-on list) is cut around the mention.
MAX_SENTENCE_CHARS = 240
#: ... and to at most this many words around the mention (None: the whole sentence): the encoder's cost grows
#: with the tokens it reads (≈ 22 instead of ≈ 50), and a noun's sense shows in its near neighbours. Chosen on the
#: dev half of the labelled senses: 16 words 0.627 right against 0.619 for whole sentences (held-out 0.595 / 0.588).
WINDOW_WORDS: int | None = 16
#: Score units per unit of cosine above the lemma's mean (the prior's first-sense lead is ≈ 7–8 units).
SIMILARITY_WEIGHT = 70.0
#: Lesk's weights (own and pooled contexts) when the encoder speaks: word overlap then weighs half as much.
LESK_WEIGHT = 0.25
#: A lemma whose best sense leads by this much without the encoder (prior, domain, pooled context; score units)
#: is not encoded: its cosines hardly ever close such a gap (chosen on the dev half, docs/meanings.md).
ENCODER_GATE = float("inf")
#: Sentence vectors kept per process (≈ 1.5 kB each).
SENTENCE_CACHE = 20_000

ENCODERS = ("minilm", "off")
#: Names the model and the sense-text recipe: a change starts a new on-disk store. fp32 vectors (ONNX or numpy,
#: the same to a cosine of 0.9999996) keep this id; another precision is appended (:func:`encoder_id`).
ENCODER_ID = "all-MiniLM-L6-v2|lemmas2+def+ex1"


def encoder_id(encoder: Any) -> str:
    """:data:`ENCODER_ID` and the encoder's precision: int8 vectors never mix with fp32 ones, on disk or in memory."""
    precision = getattr(encoder, "precision", "fp32")
    return ENCODER_ID if precision == "fp32" else f"{ENCODER_ID}|{precision}"


#: Shards in a store beyond which loading merges them into one.
MAX_SHARDS = 64


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


_WORD = re.compile(r"\S+")
# a sentence ends at . ! ? followed by space, or at a blank line / line break before a capital
_SENT_END = re.compile(r"[.!?](?=\s)|\n\s*\n|\n(?=\s*[A-Z#*\-•])")


def sentence_at(context: str, text: str, hint: int) -> str:
    """The sentence of ``context`` around the quote ``text`` (nearest to offset ``hint``), whitespace folded."""
    i = context.find(text, max(0, hint - 20)) if text else -1
    if i < 0:
        i = context.find(text) if text else -1
    if i < 0:
        i = min(max(0, hint), len(context))
    j = i + len(text)
    start, end = 0, len(context)
    for m in _SENT_END.finditer(context):
        if m.end() <= i:
            start = m.end()
        elif m.start() >= j:
            end = m.end()
            break
    half = MAX_SENTENCE_CHARS // 2
    if end - start > MAX_SENTENCE_CHARS:
        start, end = max(start, i - half), min(end, j + half)
    if WINDOW_WORDS is not None:
        before = [w.start() for w in _WORD.finditer(context, start, i)]
        after = [w.end() for w in _WORD.finditer(context, j, end)]
        room = max(0, WINDOW_WORDS - len(context[i:j].split()))
        left = min(len(before), max((room + 1) // 2, room - len(after)))  # the words before first: modifiers
        right = min(len(after), room - left)
        start, end = (before[-left] if left else i), (after[right - 1] if right else j)
    return " ".join(context[start:end].split())


def sense_text(wnet: Any, candidate: MeaningCandidate) -> str:
    """What the encoder reads for a sense: "lemma, synonyms: definition; example; example"."""
    sid = candidate.meaning_id
    tables = tables_for(wnet) if candidate.source == "wordnet" else None
    if tables is not None and sid in tables:  # wn's answers, read from the bulk tables
        synonyms, definition, examples = tables.lemmas(sid), tables.definition(sid), tables.examples(sid)
    else:
        try:
            ss = wnet.synset(sid) if candidate.source == "wordnet" else None
        except Exception:  # noqa: BLE001 - an id of another lexicon: the candidate's own gloss
            ss = None
        if ss is None:
            return f"{candidate.lemma}: {candidate.gloss}"
        synonyms, definition, examples = ss.lemmas(), ss.definition(), ss.examples()
    lemmas = [candidate.lemma] + [lem for lem in synonyms if lem.lower() != candidate.lemma.lower()][:2]
    parts = [definition or candidate.gloss, *examples[:1]]
    return ", ".join(lem.replace("_", " ") for lem in lemmas) + ": " + "; ".join(p for p in parts if p)


class SenseStore:
    """Sense vectors on disk beside the lexicon database, so that a sense is encoded once per machine, not
    once per process: shards of (ids, float16 vectors), each written to a temporary name and renamed (a
    reader never sees half a file; concurrent writers each add their own shard). Shards older than the
    database are ignored; many small shards are merged into one on load."""

    def __init__(self, folder: Path | None, database: Path | None = None):
        self.folder = folder
        self.database = database

    @classmethod
    def for_lexicon(cls, wnet: Any, model: str = "", encoder: str = ENCODER_ID) -> "SenseStore":
        """The store of a lexicon's senses as encoded by the model whose weights hash to ``model``, at
        ``encoder`` (:func:`encoder_id`)."""
        return cls(*sidecar_folder(wnet, "sense-vectors", f"{encoder}|{model}"))

    def _shards(self) -> list[Path]:
        if self.folder is None or not self.folder.is_dir():
            return []
        return sorted(self.folder.glob("*.npz"))

    def load(self) -> dict[str, np.ndarray]:
        out: dict[str, np.ndarray] = {}
        fresh_after = _mtime(self.database) if self.database is not None else 0.0
        shards = [p for p in self._shards() if _mtime(p) >= fresh_after]
        for path in shards:
            try:
                with np.load(path) as z:
                    out.update(zip(z["ids"].tolist(), z["vectors"]))
            except (OSError, ValueError, KeyError):  # a shard removed by a merge meanwhile, or damaged
                continue
        if len(shards) > MAX_SHARDS and self.save(out):
            for path in shards:
                path.unlink(missing_ok=True)
        return out

    def save(self, vectors: dict[str, np.ndarray]) -> bool:
        """Best effort (a read-only data directory just means encoding again next time)."""
        if self.folder is None or not vectors:
            return False
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            name = f"{time.time_ns()}-{os.getpid()}-{len(vectors)}"
            tmp = self.folder / f"{name}.tmp.npz"
            np.savez(tmp, ids=np.array(list(vectors)), vectors=np.stack(list(vectors.values())))
            tmp.replace(self.folder / f"{name}.npz")
            return True
        except OSError:
            return False


class SenseSimilarity:
    """Encodes senses (cached per process and lexicon, and on disk) and documents' sentences; cosine per sense."""

    def __init__(self, wnet: Any, encoder: Any, store: SenseStore | None = None, senses: Any = None):
        """``encoder`` reads the documents' sentences, ``senses`` (default: the same) the sense glosses; the
        sense memo and store are keyed by the latter's :func:`encoder_id`, the sentence memo by the former's."""
        self.wnet = wnet
        self.encoder = encoder
        self.sense_encoder = senses if senses is not None else encoder
        sid = encoder_id(self.sense_encoder)
        self._senses: dict[str, np.ndarray] = lexicon_cache(wnet, f"sense_vectors:{sid}")
        self.store = store if store is not None else SenseStore.for_lexicon(wnet, _model_tag(encoder), sid)
        if not getattr(self._senses, "stored", False):  # once per memo: a new lexicon object reads the store again
            self._senses.update(self.store.load())
            self._senses.stored = True  # type: ignore[attr-defined] - the memo is a dict subclass
        # Per process, not per resolver: a document resolved again (reports, the labelled-set tests, the next
        # run of an in-process executor, which builds its resolver anew) does not pay for its sentences twice.
        cid = encoder_id(encoder)
        self._sentences: dict[str, np.ndarray] = _SENTENCES.setdefault(cid, _BoundedCache(SENTENCE_CACHE))

    def sense_vectors(self, candidates: Sequence[MeaningCandidate]) -> dict[str, np.ndarray]:
        missing = {c.meaning_id: c for c in candidates if c.meaning_id not in self._senses}
        if missing:
            # float16 in memory as on disk: a warm run decides exactly as a cold one
            vecs = self.sense_encoder.encode([sense_text(self.wnet, c) for c in missing.values()])
            vecs = vecs.astype(np.float16)
            new = dict(zip(missing, vecs))
            self._senses.update(new)
            self.store.save(new)
        return {c.meaning_id: self._senses[c.meaning_id] for c in candidates}

    def similarities(self, groups: dict[Any, tuple[list[str], list[MeaningCandidate]]]) -> dict[Any, dict[str, float]]:
        """``groups``: key → (sentences, candidate senses) → key → {meaning id: cosine with the pooled context}."""
        return self._similarities(groups)[0]

    def _similarities(self, groups: dict) -> tuple[dict[Any, dict[str, float]], np.ndarray | None]:
        """:meth:`similarities` and the unit mean of every sentence encoded (None without any)."""
        sentences = list(dict.fromkeys(s for sents, _c in groups.values() for s in sents))
        if not sentences:
            return {}, None
        # read before writing: the bounded cache empties itself when full, mid-batch too
        vec_of = {s: self._sentences[s] for s in sentences if s in self._sentences}
        todo = [s for s in sentences if s not in vec_of]
        for s, v in zip(todo, self.encoder.encode(todo)):
            vec_of[s] = self._sentences[s] = v
        senses = self.sense_vectors(list({c.meaning_id: c for _s, cs in groups.values() for c in cs}.values()))
        out = {}
        for key, (sents, cands) in groups.items():
            ctx = np.mean([vec_of[s] for s in sents], axis=0)
            ctx /= max(float(np.linalg.norm(ctx)), 1e-12)
            out[key] = {c.meaning_id: float(senses[c.meaning_id].astype(np.float32) @ ctx) for c in cands}
        return out, _unit(np.mean([vec_of[s] for s in sentences], axis=0))

    def field(self, centroid: np.ndarray | None, candidates: Sequence[MeaningCandidate]) -> dict[str, float]:
        """{meaning id: cosine of the sense with ``centroid``}, the document's field (:meth:`attach`); {} without
        one."""
        if centroid is None or not candidates:
            return {}
        vecs = self.sense_vectors(candidates)
        return {mid: float(v.astype(np.float32) @ centroid) for mid, v in vecs.items()}

    def attach(
        self, evidence: dict, mentions: Sequence[Any], keys: Sequence[Any], senses_of: Callable, lead: Callable | None
    ) -> np.ndarray | None:
        """Fill ``similarity`` of each :class:`~.senses.SenseEvidence` in ``evidence`` (key → evidence or None;
        keys start with (index type, lemma)) from the sentences of the lemma's mentions in the whole document
        (one sense per discourse; per section cost a lemma's sentences once per section, for no gain on dev);
        ``senses_of(i)`` = the WordNet senses of mention ``i``; ``lead(mention text, senses, evidence)`` = the
        best sense's lead without the encoder (None: every lemma is encoded). A lemma whose lead is at least
        :data:`ENCODER_GATE` in every section is not encoded: its evidence gets the encoder's weights and no
        cosines. Returns the document's centroid (the mean of the sentences encoded; None without any), whose
        cosine with each sense of every encoded lemma fills ``field`` (issue 51: the field the document is about)."""
        groups: dict[Any, tuple[list[str], list[MeaningCandidate]]] = {}
        seen: dict[Any, set] = defaultdict(set)
        open_: dict[Any, bool] = {}
        for i, (m, key) in enumerate(zip(mentions, keys)):
            ev = evidence.get(key)
            if ev is None:
                continue
            cands = senses_of(i)
            if len(cands) < 2:
                continue
            if key not in open_:  # the first mention of the key, as the chooser will see it first
                open_[key] = lead is None or lead(m.text, cands, ev) < ENCODER_GATE
            sents, _c = groups.setdefault(key[:2], ([], cands))
            if len(sents) >= SENTENCES_PER_LEMMA:
                continue
            s = sentence_at(m.context, m.text, min(250, m.start))
            if s and s not in seen[key[:2]]:
                seen[key[:2]].add(s)
                sents.append(s)
        wanted = {key[:2] for key, is_open in open_.items() if is_open}
        sims, centroid = self._similarities({k: g for k, g in groups.items() if k in wanted})
        # the document's field: every sentence encoded here, averaged; the senses of each encoded lemma against it
        # (their vectors are in memory already: one dot product per sense, nothing encoded)
        fields = {k: self.field(centroid, groups[k][1]) for k in sims}
        for key, ev in evidence.items():
            if ev is not None and key[:2] in sims:
                _speak(ev, sims[key[:2]])
                ev.field = fields[key[:2]] or None
            elif ev is not None and key[:2] in groups and key[:2] not in wanted:
                _speak(ev, {})
        return centroid

    def attach_heads(
        self,
        heads: dict,
        mentions: Sequence[Any],
        keys: Sequence[Any],
        lead: Callable | None,
        centroid: np.ndarray | None = None,
    ) -> None:
        """The same evidence for the head nouns of compounds WordNet lacks ("porcelain crown" → crown):
        ``heads``: key → (head, its senses, pooled context, evidence) or None; ``keys[i]`` = mention ``i``'s key.
        The head's senses are compared with the sentences the compound stands in (at most
        :data:`SENTENCES_PER_LEMMA` per compound), all compounds of the document in one batch; ``lead`` as in
        :meth:`attach`."""
        groups: dict[Any, tuple[list[str], list[MeaningCandidate]]] = {}
        closed = set()
        for m, key in zip(mentions, keys):
            head = heads.get(key)
            if head is None or head[3] is None or len(head[1]) < 2 or key in closed:
                continue
            senses = [c.wordnet for c in head[1]]
            if key not in groups and lead is not None and lead(head[0], senses, head[3]) >= ENCODER_GATE:
                closed.add(key)
                continue
            sents, _c = groups.setdefault(key, ([], senses))
            s = sentence_at(m.context, m.text, min(250, m.start))
            if s and s not in sents and len(sents) < SENTENCES_PER_LEMMA:
                sents.append(s)
        for key, sims in self.similarities(groups).items():
            _speak(heads[key][3], sims)
            heads[key][3].field = self.field(centroid, groups[key][1]) or None  # the document's, from attach
        for key in closed:
            _speak(heads[key][3], {})


def lead(lesk: Any, mention_text: str, candidates: Sequence[MeaningCandidate], ev: Any, text_weight: float) -> float:
    """How far the lemma's best sense leads the runner-up on the evidence that costs no encoder (prior, domain,
    pooled context at ``text_weight``: the Lesk weights the encoder leaves), in the units of ``lesk``'s
    ``choose_scored``: the encoder is worth asking only when its cosines could close that gap
    (:data:`ENCODER_GATE`)."""
    if len(candidates) < 2:
        return float("inf")
    first = first_sense(candidates)
    totals = []
    for c in candidates:
        domain, pooled_score = lesk.per_lemma(mention_text, c, ev)
        totals.append(ev.prior(c, first) + domain + text_weight * (pooled_score or 0.0))
    totals.sort(reverse=True)
    return totals[0] - totals[1]


def _model_tag(encoder: Any) -> str:
    """The hash of the encoder's weights file (a new model's vectors never mix with the old one's)."""
    from ..lib.encoder import model_hash  # heavy: numpy-only module, imported with the encoder it describes

    path = getattr(encoder, "path", None)
    try:
        return model_hash(path) if path is not None else ""
    except OSError:
        return ""


class _Deferred:
    """An fp32 encoder built on its first ``encode`` (a warm sense store never needs it)."""

    precision = "fp32"

    def __init__(self, make: Callable[[], Any], path: Path):
        self.make, self.path = make, path

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        return self.make().encode(texts)


def _unit(v: np.ndarray) -> np.ndarray:
    v = np.asarray(v, dtype=np.float32)
    return v / max(float(np.linalg.norm(v)), 1e-12)


def _speak(evidence: Any, sims: dict[str, float]) -> None:
    """The encoder's cosines join the evidence; word overlap then weighs :data:`LESK_WEIGHT`."""
    evidence.similarity = sims
    evidence.similarity_weight = SIMILARITY_WEIGHT
    evidence.local_weight = evidence.pooled_weight = LESK_WEIGHT


_WARNED: set[str] = set()
#: encoder id → sentence → unit vector, for every SenseSimilarity of the process
_SENTENCES: dict[str, dict[str, np.ndarray]] = {}


def load_sense_similarity(wnet: Any, setting: str, log: Callable[[str], None] | None = None, precision: str = "fp32"):
    """The encoder-backed similarity at ``precision`` (fp32 | int8), or None (``off``, or the model package
    missing: one line says how to install it, once per process)."""
    if setting not in ENCODERS:
        raise ValueError(f"TEXTGUARD_SENSE_ENCODER must be one of {', '.join(ENCODERS)}, not {setting!r}")
    if setting == "off":
        return None
    from ..lib.encoder import EncoderUnavailable, default_encoder  # heavy: numpy encoder, only when switched on

    try:
        encoder = default_encoder(precision)
        # The glosses in fp32 whatever reads the sentences: they are encoded once per machine (the store), so
        # int8 would save nothing there and only add its error to every cosine.
        senses = encoder if encoder.precision == "fp32" else _Deferred(lambda: default_encoder("fp32"), encoder.path)
        return SenseSimilarity(wnet, encoder, senses=senses)
    except EncoderUnavailable as exc:
        if str(exc) not in _WARNED:
            _WARNED.add(str(exc))
            (log or (lambda msg: print(msg, file=sys.stderr)))(f"textguard meanings: {exc}")
        return None
