"""The ``ner`` profile's entities of each text, remembered per process so meanings need not run ``ner`` again.

Protection runs spaCy's ``ner`` alone (``load_spacy(profile="ner")``) and :func:`remember` stores every piece's
entities (all labels, before protection's filters). Meanings parses the same text with the parser and runs
``ner`` last: :func:`parse_with_memo` parses without ``ner`` and, for a text the memo holds, sets the stored
entities instead — but only when none of them contains a sentence start of the parse after its first token.

Why that is exact: both profiles run the same greedy (beam width 1) ``ner`` on a tok2vec that reads the text
alone; the parser's sentence starts only forbid actions (an entity never runs across one), so when the
unconstrained run's entities cross none, the constrained run took the same actions and found the same entities
(checked on every prose string of the dev corpus: ``docs/measurements/throughput.md``). Otherwise, or on a miss,
the pipeline's own ``ner`` runs on the parsed ``Doc``. Meanings never stores: its entities are the constrained ones.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from itertools import islice
from typing import Any, Iterable, Iterator

from .nlp import model_label

#: one text's entities: (start_char, end_char, label_)
Entities = tuple[tuple[int, int, str], ...]

#: total characters of the texts whose entities are held (the texts themselves are not: a 16-byte digest and the
#: entities each); far more than the documents one process has in flight between its protection and meanings steps
MAX_CHARS = 20_000_000


class NerMemo:
    """Bounded LRU of ``(model, text digest) → entities``; the bound is the remembered texts' total length."""

    def __init__(self, max_chars: int = MAX_CHARS):
        self.max_chars = max_chars
        self.chars = 0
        self._items: OrderedDict[tuple[str, bytes], tuple[int, Entities]] = OrderedDict()
        self._lock = threading.Lock()
        #: texts meanings' parse took the entities of from here, and texts it ran its own ``ner`` on (measurements)
        self.served = self.ran = 0

    def __len__(self) -> int:
        return len(self._items)

    def put(self, model: str, text: str, ents: Entities) -> None:
        if len(text) > self.max_chars:
            return
        key = (model, _digest(text))
        with self._lock:
            old = self._items.pop(key, None)
            if old is not None:
                self.chars -= old[0]
            self._items[key] = (len(text), ents)
            self.chars += len(text)
            while self.chars > self.max_chars:
                _, (n, _) = self._items.popitem(last=False)
                self.chars -= n

    def get(self, model: str, text: str) -> Entities | None:
        key = (model, _digest(text))
        with self._lock:
            hit = self._items.get(key)
            if hit is None:
                return None
            self._items.move_to_end(key)
            return hit[1]

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self.chars = 0


def _digest(text: str) -> bytes:
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()


#: the process's memo
MEMO = NerMemo()


def model_key(nlp: Any) -> str:
    """Which model a pipeline is, whatever its profile: its package label and the directory it was loaded from."""
    return f"{model_label(nlp)}@{getattr(nlp, '_path', None)}"


_SENTENCE_SETTERS = frozenset({"parser", "senter", "sentencizer"})


def _ner_only(nlp: Any) -> bool:
    """No component of ``nlp`` sets sentence starts: its ``ner`` runs unconstrained, as the memo's entries are."""
    names = set(getattr(nlp, "pipe_names", ()))  # anything else that parses (a test's recorder) is not remembered
    return "ner" in names and not _SENTENCE_SETTERS & names


def entities_of(doc: Any) -> Entities:
    return tuple((e.start_char, e.end_char, e.label_) for e in doc.ents)


def remember(nlp: Any, doc: Any, memo: NerMemo = MEMO) -> None:
    """Store the entities of ``doc``, parsed by ``nlp`` — only when ``nlp`` is a ``ner``-only pipeline."""
    if _ner_only(nlp):
        memo.put(model_key(nlp), doc.text, entities_of(doc))


def recall(nlp: Any, text: str, memo: NerMemo = MEMO) -> Entities | None:
    """The entities a ``ner``-only ``nlp`` finds in ``text``, when remembered (None for any other pipeline)."""
    return memo.get(model_key(nlp), text) if _ner_only(nlp) else None


def parse_with_memo(nlp: Any, texts: Iterable[str], batch_size: int, memo: NerMemo = MEMO) -> Iterator[Any]:
    """``nlp.pipe(texts, batch_size=batch_size)``, in order and lazily, with ``ner``'s entities taken from the memo
    where they are provably the same; the misses of each batch go through ``ner`` together."""
    if not {"ner", "parser"} <= set(getattr(nlp, "pipe_names", ())):
        yield from nlp.pipe(texts, batch_size=batch_size)  # no sentence starts to check against: as before
        return
    key = model_key(nlp)
    docs = nlp.pipe(texts, batch_size=batch_size, disable=["ner"])
    ner = nlp.get_pipe("ner")
    while batch := list(islice(docs, batch_size)):
        misses = [i for i, d in enumerate(batch) if not _set_remembered(d, memo.get(key, d.text))]
        memo.served, memo.ran = memo.served + len(batch) - len(misses), memo.ran + len(misses)
        if misses:
            for i, doc in zip(misses, ner.pipe([batch[i] for i in misses], batch_size=batch_size)):
                batch[i] = doc
        yield from batch


def _set_remembered(doc: Any, ents: Entities | None) -> bool:
    """Set ``ents`` on the parsed ``doc`` when none crosses one of its sentence starts; False when it cannot."""
    if ents is None:
        return False
    spans = []
    for start, end, label in ents:
        span = doc.char_span(start, end, label=label)
        if span is None or any(t.is_sent_start for t in span[1:]):
            return False
        spans.append(span)
    doc.set_ents(spans, default="outside")
    return True
