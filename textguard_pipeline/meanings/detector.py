"""The embedded (offline) mention detector: spaCy noun chunks, PERSON entities, WordNet multi-word lemmas.

The seed's exclusions (common verbs, generic nouns, everyday words, structural terms) come from signals —
part of speech, spaCy's stop list, WordNet polysemy (a frequency proxy), WordNet's generic-noun test and
hypernyms — not from long hand lists.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from itertools import groupby
from typing import Any, Iterator, Sequence

from ..ingest.markup import markup_in_text
from ..ingest.parsing import Chunk
from ..lib.ner_memo import parse_with_memo
from ..lib.nlp import english_labels, language_model, load_spacy, spacy_input
from ..lib.placeholders import PLACEHOLDER_RE
from ..lib.spans import Span
from . import mentions as _m
from .forms import ACRONYM as _ACRONYM
from .forms import (
    PLURAL_ACRONYM,
    acronym_modifier,
    free_noun,
    glued_hyphen,
    head_lemma,
    hyphen_word,
    hyphenated_tail,
    idiom_start,
    label_form,
    lookup_form,
    package_name,
    particle_bound,
    prefix_bound,
    surface_form,
    title_cased,
    verb_read_as_noun,
)
from .french import noun_chunks
from .mentions import _PARTICLES, INDEX_TYPES, Mention, analysis_text, author_label, prose_islands
from .senses import gloss_stats
from .signals import SHOUTED_MIN_GLOSS_SHARE, WordSignals  # noqa: F401 - re-exported (core.mentions)

# ---------------------------------------------------------------------------
# Embedded detector

_WORD = re.compile(r"^[A-Za-z][A-Za-z'’\-]*[A-Za-z]{2}$")
_CAMEL = re.compile(r"[a-z][A-Z]")
_NAME_TOKEN = re.compile(r"^(?:[A-Z][a-zà-ÿ'’\-]+(?:-[A-Z][a-zà-ÿ'’]+)?|[A-Z]\.|[A-Z][a-z]?[A-Z][a-z]+)$")
# Entities that are proper nouns of people/places/organizations or quantities: not subjects.
_NON_SUBJECT_ENTS = frozenset("PERSON ORG GPE LOC NORP FAC DATE TIME MONEY QUANTITY PERCENT CARDINAL ORDINAL".split())
#: entities whose nouns are units of measure ("5 miles", "12 ft by 3 ft")
_UNIT_ENTS = frozenset({"QUANTITY"})
_TRIM_POS = {"DET", "PRON", "NUM", "PUNCT", "SYM", "X", "SPACE", "CCONJ", "ADP", "PART", "AUX", "ADV", "INTJ", "SCONJ"}
_MODIFIER_POS = {"NOUN", "PROPN", "ADJ", "VERB"}
_LOWER_WORD = re.compile(r"\b[a-z]{3,}\b")
_LONG_WORD = re.compile(r"[A-Za-z]{4,}")
#: a capitalized word after a lower-case one: mid-sentence, so a name ("written in Python"); not a numbered
#: reference ("in Algorithm 2", "Table 3"), which names one element of a common kind
_MID_CAPITAL = re.compile(r"(?<=[a-z,;] )[A-Z][a-z]{2,}\b(?![ \t]*\d)")


def _title_line(line: str) -> bool:
    """Every word of four letters or more capitalized: a heading in Title Case."""
    return all(w[0].isupper() for w in _LONG_WORD.findall(line))


#: exclusion rules a document keyword overrides
_KEYWORD_RULES = frozenset({"everyday_polysemy", "generic_noun", "structural_term", "stop_word"})


@dataclass
class EmbeddedSettings:
    index_types: tuple[str, ...] = INDEX_TYPES
    max_words: int = 4
    # WordNet polysemy as a frequency proxy: words this ambiguous are everyday language.
    everyday_noun_senses: int = 15
    everyday_adj_senses: int = 6
    min_occurrences: dict[str, int] = field(default_factory=lambda: {"subject": 1, "author": 1})
    context_chars: int = 250
    #: a generic or very polysemous noun is kept when it is a keyword of the document: at least
    #: ``keyword_min`` mentions and a share of the document's noun chunks ≥ ``keyword_ratio`` × its share of
    #: WordNet's glosses ("music" in an essay on engraving, "care" in a medical record, not "value" or "use")
    keyword_min: int = 3
    keyword_ratio: float = 3.0
    #: longest text handed to spaCy at once, and how many such texts per batch (memory bound)
    window_chars: int = 20_000
    spacy_batch_size: int = 16


def spacy_windows(text: str, size: int) -> Iterator[tuple[int, str]]:
    """``(offset, piece)`` tiling ``text`` in pieces of at most ``size`` characters, cut after the last
    newline, else sentence end, else space in the second half of each piece (so phrases stay whole)."""
    n, pos = len(text), 0
    if n <= size:
        yield 0, text
        return
    while pos < n:
        end = min(n, pos + size)
        if end < n:
            half = pos + size // 2
            cut = max(text.rfind("\n", half, end), -1)
            if cut < 0:
                cut = max(text.rfind(". ", half, end) + 1, text.rfind("? ", half, end) + 1, 0) or -1
            if cut <= 0:
                cut = text.rfind(" ", half, end)
            end = cut + 1 if cut > pos else end
        yield pos, text[pos:end]
        pos = end


#: chunk languages the configured (English) model reads; None = undetermined
_MODEL_LANGUAGES = frozenset({None, "en"})


class EmbeddedDetector:
    """spaCy noun chunks + PERSON entities + WordNet multi-word lemmas, with signal-based exclusions."""

    name = "embedded"

    def __init__(self, nlp: Any, wnet: Any, settings: EmbeddedSettings | None = None):
        self.nlp = nlp
        self.signals = WordSignals(wnet)
        self.settings = settings or EmbeddedSettings()
        #: noun chunks dropped by each exclusion rule in the last ``detect`` call (per-document report)
        self.excluded: Counter = Counter()
        self._pending: list[tuple[str, str, Mention]] = []
        self._last_dropped: tuple[list[Any], str, str] | None = None
        #: pieces of the current noun chunk left beside what it was reduced to (judged on their own)
        self._rest: list[list[Any]] = []
        self._in_quantity: set[int] = set()
        self._src: tuple[str, int] = ("", 0)
        #: words the document's prose uses in lower case; Title-Case proper-noun tokens read as common words
        self._lower_words: set[str] = set()
        self._names: set[str] = set()
        self._plain: set[int] = set()
        self._broken_ends: dict[int, dict[int, int]] = {}  # per prose chunk: join_broken_words' ends

    # -- public -----------------------------------------------------------

    def detect(self, text: str, chunks: Sequence[Chunk], fmt: str = "txt") -> list[Mention]:
        prose = [c for c in chunks if c.chunk_type == "prose" and c.text.strip()]
        # Captions, titles and front-matter descriptions name key concepts too (issue 16).
        prose = sorted(prose + (islands := [i for c in chunks for i in prose_islands(c, fmt)]), key=lambda c: c.start)
        joined = [
            _m.join_broken_words(analysis_text(c.text, fmt, markup_in_text(c)), self.signals.common_word) for c in prose
        ]
        masked, self._broken_ends = [m for m, _ in joined], {id(c): ends for c, (_, ends) in zip(prose, joined)}
        self._pads = _m.paragraph_neighbours(prose, masked, self.settings.context_chars, {id(i) for i in islands})
        lower = Counter(w for m in masked for w in _LOWER_WORD.findall(m))
        self._lower_words = set(lower)
        mid = Counter(
            w.lower() for m in masked for ln in m.splitlines() if not _title_line(ln) for w in _MID_CAPITAL.findall(ln)
        )
        self._names = {w for w, n in mid.items() if n > lower[w]}  # capitalized mid-sentence more often than not
        # Bounded windows, pulled lazily in small batches: a 10 MB paragraph never reaches spaCy whole (E088)
        pieces = [
            (chunk, mtext, offset, piece)
            for chunk, mtext in zip(prose, masked)
            for offset, piece in spacy_windows(mtext, self.settings.window_chars)
        ]
        if {getattr(c, "language", None) for c in prose} <= _MODEL_LANGUAGES:
            docs = parse_with_memo(self.nlp, (spacy_input(p[3]) for p in pieces), self.settings.spacy_batch_size)
        else:
            docs = self._docs_per_language(pieces)
        out: list[Mention] = []
        self.excluded = Counter()
        self._pending: list[tuple[str, str, Mention]] = []
        self._in_quantity: set[int] = set()  # ids of the mentions read inside quantity entities
        for (chunk, mtext, offset, _piece), doc in zip(pieces, docs):
            if doc is not None:
                out.extend(self._chunk_mentions(text, chunk, mtext, doc, offset))
        out = self._admit_keywords(sorted(out, key=lambda m: (m.start, m.end)))
        return self._apply_min_occurrences(self._units_named_alone(out))

    def _units_named_alone(self, out: list[Mention]) -> list[Mention]:
        """Units read inside quantities stay only when the document names them on their own at least as often
        ("You have: mile" in a units manual): a word problem's "12 inches" measures something, it is not its
        subject."""
        if not self._in_quantity:
            return out
        inside = Counter(m.lookup for m in out if id(m) in self._in_quantity)
        alone = Counter(m.lookup for m in out if id(m) not in self._in_quantity)
        return [m for m in out if id(m) not in self._in_quantity or alone[m.lookup] >= inside[m.lookup]]

    def _admit_keywords(self, out: list[Mention]) -> list[Mention]:
        """Re-admit the generic, polysemous and structural nouns that are keywords of this document (seed 003: key
        concepts)."""
        if not self._pending:
            return out
        counts = Counter(m.lookup for m in out if m.index_type == "subject")
        counts.update(lemma for _rule, lemma, _m in self._pending)
        for m in out:
            if m.index_type != "subject" or " " not in m.lookup:
                continue
            words = m.lookup.split()
            # a noun recurs as the modifier of the compounds it forms too ("volume measures", "foot bones"), and
            # as the head of the WordNet multi-word lemmas that name kinds of it ("northern hemisphere"); not as
            # the head of any compound ("total number" is no kind of number the text is about), nor of "part of speech"
            counts.update(words[:-1])
            if m.detector == "wordnet_mwe" and "of" not in words:
                counts[words[-1]] += 1
        # a structural noun ("header", "section") is a keyword only when the document also makes terms of it:
        # "request header", "header value" — "this section" and "next chapter" point at the text itself
        compounds = Counter(
            w for m in out + [p[2] for p in self._pending] if " " in m.lookup for w in set(m.lookup.split())
        )
        chunks = sum(self.excluded.values()) + sum(1 for m in out if m.index_type == "subject")
        stats = gloss_stats(self.signals.wnet)
        admitted = []
        for rule, lemma, m in self._pending:
            n = counts[lemma]
            if self.signals.structural(lemma) and compounds[lemma] < self.settings.keyword_min:
                continue
            if n >= self.settings.keyword_min and n / max(1, chunks) >= self.settings.keyword_ratio * max(
                stats.frequency(lemma), 1e-6
            ):
                admitted.append(m)
                self.excluded[rule] -= 1
        return sorted(out + admitted, key=lambda m: (m.start, m.end)) if admitted else out

    def _docs_per_language(self, pieces: list) -> Iterator[Any]:
        """Issue 17: each piece parsed by its chunk's language's model (entities relabelled as English's);
        None for a language without a model — never another language's model. Yielded in order, one run of
        same-language pieces at a time, lazily: a long French paragraph never holds all its Docs at once."""
        for lang, run in groupby(pieces, key=lambda p: getattr(p[0], "language", None)):
            run = list(run)
            if lang in _MODEL_LANGUAGES:
                nlp = self.nlp
            else:
                lm = language_model(lang)
                if lm.name is None:
                    yield from (None for _ in run)
                    continue
                nlp = load_spacy(lm.name)
            texts = (spacy_input(p[3]) for p in run)
            for doc in parse_with_memo(nlp, texts, self.settings.spacy_batch_size):
                yield english_labels(doc, lang)

    # -- per chunk ----------------------------------------------------------

    def _span(self, text: str, chunk: Chunk, mtext: str, s: int, e: int) -> Span | None:
        """Absolute span of chunk-text range [s, e), or None when it touches a placeholder."""
        e = self._broken_ends[id(chunk)].get(e, e)  # "carry-\n ing capacity" ends after "ing"
        if PLACEHOLDER_RE.search(chunk.text, s, e) or any(
            m.start() < e and s < m.end() for m in PLACEHOLDER_RE.finditer(chunk.text, max(0, s - 12), e)
        ):
            return None
        try:
            a, b = chunk.offset_map().span_to_source(s, e)
        except ValueError:
            return None
        span = Span.of(text, a, b)
        if span.text != chunk.text[s:e] or _m.MARKUP_CHARS.search(span.text):
            return None  # markup inside (identifiers like brevity_penalty, LaTeX, emphasis)
        return span

    def _context(self, mtext: str, s: int, e: int) -> str:
        return _m.context_window(mtext, s, e, self.settings.context_chars, self._pad)

    def _chunk_mentions(self, text: str, chunk: Chunk, mtext: str, doc: Any, offset: int = 0) -> list[Mention]:
        """Mentions of one spaCy doc: the window of ``mtext`` that starts at ``offset``."""
        out: list[Mention] = []
        taken: list[tuple[int, int]] = []
        want = set(self.settings.index_types)
        self._src = (chunk.text, offset)  # the markup the spaCy doc (of the blanked text) no longer shows
        self._pad = self._pads.get(id(chunk), ("", ""))
        self._plain = self._plain_tokens(doc, mtext, offset)
        blocked_ents = [
            (ent.start, ent.end) for ent in doc.ents if ent.label_ in _NON_SUBJECT_ENTS and not acronym_modifier(ent)
        ]
        if "author" in want:
            for ent in doc.ents:
                if ent.label_ != "PERSON":
                    continue
                toks = self._name_tokens(ent)
                if not toks:
                    continue
                s, e = offset + toks[0].idx, offset + toks[-1].idx + len(toks[-1].text)
                span = self._span(text, chunk, mtext, s, e)
                if span is None:
                    continue
                out.append(
                    Mention(
                        span.start,
                        span.end,
                        span.text,
                        "author",
                        author_label(" ".join(t.text for t in toks)),
                        "spacy_ner:PERSON",
                        lookup=" ".join(t.text for t in toks),
                        context=self._context(mtext, s, e),
                    )
                )
                taken.append((s, e))
        if "subject" in want:
            doc_text = doc.text
            for nc in noun_chunks(doc, getattr(chunk, "language", None), self.excluded):
                if any(a < nc.end and nc.start < b for a, b in blocked_ents):
                    # "the ALPN protocol": the name is not a subject, the common noun after it may be one.
                    last = max(b for a, b in blocked_ents if a < nc.end and nc.start < b)
                    if last >= nc.end or any(a < nc.end and last < b for a, b in blocked_ents):
                        self.excluded["named_entity"] += 1
                        continue
                    nc = doc[last : nc.end]
                for piece in _m.definition_pieces(nc, doc_text):
                    self._rest = []
                    self._emit(self._subject(piece), text, chunk, mtext, offset, out, taken)
                    # The pieces a chunk lost to the clean tail or beside a multi-word lemma, read as phrases of
                    # their own: "the inductor's inductance" → inductor too (issue 16: heads and owners kept).
                    for run in self._rest:
                        found = self._judge(run)
                        if found != "no_noun_head":  # a modifier that is no noun ("oriented") is no phrase
                            self._emit(found, text, chunk, mtext, offset, out, taken)
            self._quantity_units(doc, text, chunk, mtext, offset, out, taken)
        return out

    def _quantity_units(self, doc: Any, text: str, chunk: Chunk, mtext: str, offset: int, out: list, taken: list):
        """The unit nouns inside quantity entities ("5 miles", "mile = 5280 ft"), each judged as a phrase of
        its own: the quantity as a whole is no subject, its unit may be a key concept of the text. The row
        spans only the noun; the numbers beside it are left to whatever protects them."""
        for ent in doc.ents:
            if ent.label_ not in _UNIT_ENTS:
                continue
            run: list[Any] = []
            for tok in [*ent, None]:
                if tok is not None and tok.pos_ == "NOUN" and self._valid_word(tok):
                    run.append(tok)
                    continue
                if run:
                    found = self._judge(run)
                    if found != "no_noun_head":
                        n, k = len(out), len(self._pending)
                        self._emit(found, text, chunk, mtext, offset, out, taken)
                        self._in_quantity.update(id(m) for m in out[n:])
                        self._in_quantity.update(id(p[2]) for p in self._pending[k:])
                run = []

    def _emit(self, found, text: str, chunk: Chunk, mtext: str, offset: int, out: list, taken: list) -> None:
        """Record one judged noun phrase: a mention, a pending keyword, or an exclusion count."""
        pending = None
        if isinstance(found, str):
            self.excluded[found] += 1
            if found not in _KEYWORD_RULES or self._last_dropped is None:
                return
            pending, found = found, self._last_dropped
        toks, detector, lookup = found
        s, e = offset + toks[0].idx, offset + toks[-1].idx + len(toks[-1].text)
        if any(a < e and s < b for a, b in taken):
            return
        span = self._span(text, chunk, mtext, s, e)
        if span is None:
            return
        label = label_form(toks, self.signals, keep_form=lookup == surface_form(toks), plain=self._plain)
        mention = Mention(
            span.start,
            span.end,
            span.text,
            "subject",
            label,
            detector,
            lookup=lookup,
            pos="n",
            context=self._context(mtext, s, e),
        )
        if pending is not None:
            # decided once the document is read; a structural compound is decided by its head
            key = lookup.split()[-1] if pending == "structural_term" else lookup
            self._pending.append((pending, key, mention))
            return
        out.append(mention)
        taken.append((s, e))

    def _plain_tokens(self, doc: Any, mtext: str, offset: int) -> set[int]:
        """Indices of the proper-noun tokens that are common words in Title Case ("## Multiple Commands",
        "Options", "a Dependency Injection system"): spaCy tags them PROPN, but the document's prose also uses the
        word in lower case and it stands in a Title-Case line (a heading) or beside another such word. A name
        made of common words used only capitalized ("Red Hat") stays a name, and so does a word the prose capitalizes
        mid-sentence more often than not ("written in Python" beside "the python interpreter")."""
        cands = set()
        for t in doc:
            if t.pos_ != "PROPN" or not title_cased(t.text) or not self.signals.common_word(t.lower_):
                continue
            if t.lower_ in self._names:
                continue
            base = self.signals.noun_base(t.lower_)
            if {t.lower_, base, base + "s"} & self._lower_words:
                cands.add(t.i)
        plain = set()
        for i in cands:
            if i - 1 in cands or i + 1 in cands:
                plain.add(i)
                continue
            at = offset + doc[i].idx
            end = mtext.find("\n", at)
            line = mtext[mtext.rfind("\n", 0, at) + 1 : end if end >= 0 else len(mtext)]
            if _title_line(line):
                plain.add(i)
        return plain

    def _name_tokens(self, ent: Any) -> list[Any] | None:
        toks = [t for t in ent if not t.is_space]
        while toks and (toks[-1].text in {"'s", "’s", "'", "’"} or toks[-1].is_punct):
            toks.pop()
        # "Papineni et al." → "Papineni"
        words = [t.text for t in toks]
        if "et" in words:
            toks = toks[: words.index("et")]
        while toks and toks[0].is_punct:
            toks.pop(0)
        if not toks or len(toks) > 4:
            return None
        if not all(_NAME_TOKEN.match(t.text) or t.text.lower() in _PARTICLES for t in toks):
            return None
        if not any(len(t.text) > 2 and t.text[1:].islower() for t in toks):
            return None
        # Title-Case headings ("Record Layer", "Deep Learning") pass for names; WordNet stores proper
        # names capitalized and common words in lower case, so a "name" made only of common words is not one.
        words = [t.text.lower() for t in toks if len(t.text) > 2 and not t.text.endswith(".")]
        if words and all(self.signals.common_word(w) for w in words):
            return None
        return toks

    def _trim_lead(self, toks: list[Any], valid: bool = True) -> list[Any]:
        """Without leading determiners, stop words (and, with ``valid``, symbols) — but never the last noun: spaCy's
        stop list holds nouns too ("move", "name", "call"), and "a move" is a move."""
        while toks and (
            toks[0].pos_ in _TRIM_POS
            or (toks[0].is_stop and (len(toks) > 1 or toks[0].pos_ != "NOUN"))
            or (valid and not self._valid_word(toks[0]))
        ):
            toks = toks[1:]
        return toks

    def _valid_word(self, tok: Any) -> bool:
        return bool(_WORD.match(tok.text)) and not _CAMEL.search(tok.text) or bool(_ACRONYM.match(tok.text))

    def _everyday_modifier(self, tok: Any) -> bool:
        if tok.is_stop:
            return True
        if tok.pos_ == "ADJ":
            return (
                self.signals.senses(tok.lemma_.lower(), "a") + self.signals.senses(tok.lemma_.lower(), "s")
                >= self.settings.everyday_adj_senses
            )
        return False

    def _subject(self, nc: Any) -> tuple[list[Any], str, str] | str:
        """(tokens, detector, lookup), or the name of the exclusion rule that dropped the noun chunk; for the
        rules a document keyword overrides, ``_last_dropped`` keeps what the chunk would have been."""
        self._last_dropped = None
        nc_toks = list(nc)  # A phrase that ends a WordNet adverb names nothing; one that an adverb from before it
        # runs into begins after the adverb ("On [the other hand arguments]", "In [practice compilers]"), not at one inside it.
        starts = [(t.i, idiom_start(t, self.signals)) for t in nc_toks]
        if starts[-1][1] is not None:
            return "idiom"
        cut = max((i + 1 for i, a in starts if a is not None and a < nc.start), default=0)
        toks = self._trim_lead([t for t in nc_toks if t.i >= cut])
        word = hyphenated_tail(toks)
        if word and package_name(word, self.signals):  # "add python-dotenv": one entry, not its parts
            return word, "package_name", lookup_form(word, self.signals)
        if word:
            # A hyphenated word WordNet knows whose tail is no noun is read whole ("the trade-off", "a follow-up");
            # any other is read in its parts, each a noun in its own right ("e-mail" → mail, "bit-depth"), also
            # those spaCy left outside the chunk ("the sub" + "-command").
            lookup, tail = lookup_form(word, self.signals), word[-1]
            if (tail.is_stop or not self.signals.senses(tail.lower_, "n")) and self.signals.senses(lookup, "n"):
                return word, "wordnet_mwe", lookup
            if prefix_bound(word[0]) and self.signals.senses(head_lemma(tail, self.signals), "n"):
                before = [t for t in toks if t.i < word[0].i]  # "the debian meta-packages": debian on its own
                if before:
                    self._rest.append(before)
                return word, "spacy_noun_chunk", lookup  # one word, as "subcommand" is: "co-author", "meta-packages"
            self._rest.extend([t] for t in word if t.i > toks[-1].i and not glued_hyphen(t))
        while toks and (toks[-1].pos_ in _TRIM_POS or not self._valid_word(toks[-1]) or prefix_bound(toks[-1])):
            toks.pop()
        toks = [t for t in toks if not t.is_space]  # a line break inside "convolutional\nlayers"
        if len(toks) > 1 and toks[0].i > 0 and glued_hyphen(toks[0].doc[toks[0].i - 1]):
            self._rest.append(toks[:1])  # the chunk starts inside a compound modifier: "[third-]party package"
            toks = toks[1:]
        if not toks or toks[-1].pos_ not in {"NOUN", "PROPN"}:
            return "no_noun_head"
        # Symbols, numbers, a possessive, a hyphen or blanked markup ("the *alias* argument") inside: the clean
        # words after the last one still name the thing ("the inductor's inductance" → inductance); the clean
        # runs before it are judged on their own when they end in a noun (inductor; alias).
        # The word after a hyphen is the end of a compound modifier ("third-party package", "master-level
        # programs"): it is judged alone like the word before it, never as the phrase's first word ("party package").
        runs: list[list[Any]] = [[]]
        after_hyphen = False
        for t in toks:
            fixed = (
                particle_bound(t)
                or prefix_bound(t)
                or (t is not toks[-1] and package_name(hyphen_word(t), self.signals))
            )
            if fixed or not (self._valid_word(t) and t.pos_ in _MODIFIER_POS):
                after_hyphen = glued_hyphen(t)
                runs.append([])
                continue
            if after_hyphen and t is not toks[-1]:
                runs[-1:] = [[t], []]
                after_hyphen = False
                continue
            after_hyphen = False
            if runs[-1] and _m.markup_between(self._src, runs[-1][-1], t):
                runs.append([])
            runs[-1].append(t)
        if len(runs) > 1:
            self._rest.extend(r for r in runs[:-1] if r)
            toks = self._trim_lead(runs[-1], valid=False)
            if not toks:
                return "not_a_term"
        return self._judge(toks, rest=True)

    def _judge(self, toks: list[Any], rest: bool = False) -> tuple[list[Any], str, str] | str:
        """:meth:`_subject` for clean tokens; ``rest``: the words beside a multi-word lemma go to ``_rest``."""
        self._last_dropped = None
        if not rest:  # a piece of a chunk: trimmed like a chunk, and it must end in a common noun
            toks = self._trim_lead(toks)
            # a word set off by markup ("*alias*") is tagged among blanks: WordNet says if it is a noun
            last = toks[-1] if toks and self._valid_word(toks[-1]) else None
            if (
                last is None
                or last.pos_ != "NOUN"
                and not (_m.marked_up(self._src, last) and self.signals.senses(last.text, "n"))
            ):
                return "no_noun_head"
        # Longest WordNet multi-word lemma inside the chunk, ending anywhere.
        for n in range(min(len(toks), self.settings.max_words), 1, -1):
            for i in range(len(toks) - n, -1, -1):
                sub = toks[i : i + n]
                for phrase in dict.fromkeys((lookup_form(sub, self.signals), surface_form(sub))):
                    if self.signals.mwe(phrase) and self.signals.senses(phrase, "n"):
                        if rest:  # "lady slipper orchid" → lady; "hash function output" → output
                            self._rest.extend(r for r in (toks[:i], toks[i + n :]) if r)
                        return sub, "wordnet_mwe", phrase
        while len(toks) > 1 and self._everyday_modifier(toks[0]):
            toks.pop(0)
        if len(toks) > self.settings.max_words:
            return "too_long"
        lookup = lookup_form(toks, self.signals, self._plain)
        if len(toks) == 1:
            t = toks[0]
            shouted = self.signals.shouted(t.text)
            if _ACRONYM.match(t.text) and t.text.isupper() and not shouted:
                return toks, "spacy_noun_chunk", t.text
            if PLURAL_ACRONYM.match(t.text):  # "GPUs": the acronym's entry
                return toks, "spacy_noun_chunk", t.text[:-1]
            if (
                t.pos_ != "NOUN"
                and t.i not in self._plain
                and not shouted
                and not (t.text.islower() and self.signals.common_word(t.text))
            ):
                return "proper_noun"  # a lower-case word WordNet knows is a noun whatever the tagger says
            if t.is_stop or len(t.text) < 3:
                if t.is_stop and t.pos_ == "NOUN" and free_noun(t) and self.signals.senses(t.lemma_.lower(), "n"):
                    # a stop word heading a noun phrase ("the move" in a chess protocol) may be a keyword
                    self._last_dropped = (toks, "spacy_noun_chunk", head_lemma(t, self.signals))
                return "stop_word"
            lemma = shouted or head_lemma(t, self.signals, self._plain)
            n_senses = self.signals.senses(lemma, "n")
            if not n_senses:
                # A lower-case noun WordNet lacks is most often a technical term ("plaintext", "multigrid"):
                # it becomes a custom entry (seed 003); short ones are mostly fragments and typos, unless WordNet
                # knows the verb and the phrase makes it a noun ("your merge": WordNet has no noun "merge").
                if t.text.islower() and (len(t.text) >= 6 or self.signals.senses(lemma, "v")):
                    if verb_read_as_noun(t, lemma, self.signals):  # "easy to configure"
                        return "no_noun_head"
                    return toks, "spacy_noun_chunk", lemma
                return "unknown_word"
            self._last_dropped = (toks, "spacy_noun_chunk", lemma)
            if n_senses >= self.settings.everyday_noun_senses or self.signals.generic(lemma):
                return "everyday_polysemy" if n_senses >= self.settings.everyday_noun_senses else "generic_noun"
            if self.signals.structural(lemma):
                return "structural_term"
            return toks, "spacy_noun_chunk", lemma
        head = toks[-1].lemma_.lower()
        if toks[-1].pos_ == "NOUN" and self.signals.structural(head) and len(toks) == 2:
            # "next section", "final chapter"; a compound ("response headers") may yet be a keyword's
            compound = toks[0].pos_ in ("NOUN", "PROPN")
            self._last_dropped = (
                (toks, "spacy_noun_chunk", lookup) if compound else (toks[1:], "spacy_noun_chunk", head)
            )
            return "structural_term"
        return toks, "spacy_noun_chunk", lookup

    def _apply_min_occurrences(self, mentions: list[Mention]) -> list[Mention]:
        mins = self.settings.min_occurrences
        counts = Counter((m.index_type, m.label.casefold()) for m in mentions)
        return [m for m in mentions if counts[(m.index_type, m.label.casefold())] >= mins.get(m.index_type, 1)]


def exclusion_shares(excluded: Counter, kept: int) -> tuple[int, dict[str, float]]:
    """(noun chunks seen, {rule: share of them it dropped}) — per document, for the metadata (issue 16)."""
    seen = kept + sum(excluded.values())
    return seen, {rule: round(n / seen, 4) for rule, n in sorted(excluded.items())} if seen else {}
