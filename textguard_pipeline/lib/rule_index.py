"""spaCy's rule components, indexed: same attributes on every token, a fraction of the time (issue 50).

``attribute_ruler``: its one-token patterns are looked up by word and tag.

The stock component runs a ``Matcher`` over all its patterns (179 in en_core_web_sm) at every token: on prose
that is ≈ 13 % of the full pipeline, more than the tagger and the parser together. Nearly all of those patterns
are one token with equality tests on ``LOWER`` / ``TAG`` / ``DEP`` / ``IS_SPACE``; here they are indexed by the
token's lower form and tag, so a token is tested only against the few that can match it. Patterns of several
tokens, or with any other test, stay in a small ``Matcher`` of their own. The matches are applied exactly as the
stock component applies them (sorted by pattern order, later rules win), so every token's attributes are the
same: ``textguard_pipeline_tests/lib/test_rule_index.py`` compares them token by token.

``lemmatizer`` (rule mode): spaCy asks ``form in index`` of a *list* of every known lemma of the part of speech
(57,528 nouns in en_core_web_sm) for each candidate form of each word it has not seen in this process — ≈ 7 % of
the full pipeline on fresh prose. The lists become :class:`_MemberList` (still lists, with set membership).
"""

from __future__ import annotations

import logging
import re
from typing import Any

log = logging.getLogger(__name__)

#: the token attributes a one-token pattern may test here, in the order :meth:`IndexedAttributeRuler.match` reads them
_ATTRS = ("LOWER", "TAG", "DEP", "IS_SPACE")
#: distinct (lower form, tag, dependency, is-space) answers kept per process
_KNOWN_MAX = 500_000


def _test(attr: str, value: Any):
    """A predicate on one attribute's value for one key of a one-token pattern, or None when the Matcher's
    semantics for it are not one of the few reproduced here."""
    if attr not in _ATTRS:
        return None
    if attr == "IS_SPACE":
        return (lambda v: v == value) if isinstance(value, bool) else None
    if isinstance(value, str):
        return lambda v: v == value
    if isinstance(value, dict) and len(value) == 1:
        ((op, arg),) = value.items()
        if op in ("IN", "NOT_IN") and isinstance(arg, list) and all(isinstance(a, str) for a in arg):
            members = frozenset(arg)  # a missing value reads "", as the Matcher's hash 0 is ""'s
            return (lambda v: v in members) if op == "IN" else (lambda v: v not in members)
        if op == "REGEX" and isinstance(arg, str):
            rx = re.compile(arg)
            return lambda v: rx.search(v) is not None
    return None


def _required(value: Any) -> list[str] | None:
    """The values a pattern key admits (its string, or an ``IN`` list), or None when it admits others too."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict) and list(value) == ["IN"]:
        return list(value["IN"])
    return None


class IndexedAttributeRuler:
    """``match`` and ``set_annotations`` for a stock ``AttributeRuler``, same results. A one-token pattern's
    answer depends only on the token's (lower form, tag, dependency, is-space): it is worked out once per distinct
    combination and then looked up."""

    def __init__(self, ruler: Any):
        from spacy.matcher import Matcher  # heavy: spaCy; loaded by now (the ruler came from it)

        self.ruler = ruler
        self.stock_set = ruler.set_annotations  # raises the stock error for a rule whose index is off its span
        #: (attr_id, ((attribute position in _ATTRS, predicate), …)) per one-token pattern, by lower form / tag
        self.index: tuple[dict[str, list], dict[str, list]] = ({}, {})
        self.always: list[tuple[int, tuple]] = []
        self.rest = Matcher(ruler.vocab)
        #: the first-token tests of the patterns left to ``rest``: it runs only in windows where one may start
        self.starts: list[tuple] = []
        self.rest_always = False  # a first token this cannot test, or a pattern of no fixed length
        self.rest_len = 0  # the longest pattern left to ``rest``: a match starting at i ends by i + rest_len
        self.known: dict[tuple, tuple[tuple[int, ...], bool]] = {}
        for attr_id, entry in enumerate(ruler.patterns):
            for pattern in entry["patterns"]:
                tests = None
                if len(pattern) == 1 and isinstance(pattern[0], dict) and pattern[0]:
                    tests = [(a, _test(a, v)) for a, v in pattern[0].items()]
                if not tests or any(t is None for _, t in tests):
                    self.rest.add(str(attr_id), [pattern])
                    self.rest_len = max(self.rest_len, len(pattern))
                    first = pattern[0] if pattern and isinstance(pattern[0], dict) else {}
                    start = [(a, _test(a, v)) for a, v in first.items()]
                    variable = any(not isinstance(t, dict) or "OP" in t for t in pattern)
                    if variable or not start or any(t is None for _, t in start):
                        self.rest_always = True
                    else:
                        self.starts.append(tuple((_ATTRS.index(a), t) for a, t in start))
                    continue
                item = (attr_id, tuple((_ATTRS.index(a), t) for a, t in tests))
                # filed under the values it requires of the lower form, else of the tag, else tried on every token
                for at in (0, 1):
                    if (keys := _required(pattern[0].get(_ATTRS[at]))) is not None:
                        for k in keys:
                            self.index[at].setdefault(k, []).append(item)
                        break
                else:
                    self.always.append(item)

    def _answer(self, key: tuple) -> tuple[tuple[int, ...], bool]:
        strings = self.ruler.vocab.strings
        values = (strings[key[0]], strings[key[1]], strings[key[2]], bool(key[3]))
        maybe = (*self.index[0].get(values[0], ()), *self.index[1].get(values[1], ()), *self.always)
        ids = tuple(sorted({a for a, tests in maybe if all(t(values[at]) for at, t in tests)}))
        starts = any(all(t(values[at]) for at, t in tests) for tests in self.starts)
        if len(self.known) >= _KNOWN_MAX:  # a long run over many vocabularies: start again rather than grow
            self.known.clear()
        self.known[key] = (ids, starts)
        return ids, starts

    def match(self, doc) -> list[tuple[int, int, int]]:
        """``(attr_id, start, end)`` of every match, in the order the stock ruler applies them."""
        found: list[tuple[int, int, int]] = []
        starts: list[int] = []  # where a pattern of ``rest`` may start
        if len(doc):
            rows = doc.to_array(list(_ATTRS)).tolist()
            known = self.known
            for i, row in enumerate(rows):
                key = tuple(row)
                answer = known.get(key)
                if answer is None:
                    answer = self._answer(key)
                found.extend((a, i, i + 1) for a in answer[0])
                if answer[1]:
                    starts.append(i)
        strings = self.ruler.vocab.strings
        if self.rest_always:
            found.extend((int(strings[key]), s, e) for key, s, e in self.rest(doc, allow_missing=True))
        else:  # each possible start in a window of the longest pattern's length (Matcher: offsets in the window)
            for i in starts:
                window = doc[i : i + self.rest_len]
                found.extend((int(strings[key]), i + s, i + e) for key, s, e in self.rest(window, allow_missing=True))
        return sorted(set(found))

    def set_annotations(self, doc, matches: list[tuple[int, int, int]]) -> None:
        """The stock ``set_annotations`` without a ``Span`` per match."""
        from spacy.tokens._retokenize import set_token_attrs  # heavy: spaCy, the setter the stock ruler uses

        ruler = self.ruler
        for attr_id, start, end in matches:
            index = ruler.indices[attr_id]
            at = index if index >= 0 else end - start + index
            if not 0 <= at < end - start:  # the stock ruler's own error for an index outside the span
                self.stock_set(doc, [(attr_id, ruler.vocab.strings.add(str(attr_id)), start, end)])
                continue
            set_token_attrs(doc[start + at], ruler.attrs[attr_id])


def index_attribute_ruler(nlp) -> bool:
    """Make ``nlp``'s ``attribute_ruler`` (if any) match through :class:`IndexedAttributeRuler`. False, and the
    stock component left alone, when it is not the shape this was written against."""
    if "attribute_ruler" not in nlp.pipe_names:
        return False
    ruler = nlp.get_pipe("attribute_ruler")
    if not all(hasattr(ruler, a) for a in ("patterns", "attrs", "indices", "vocab", "set_annotations")):
        log.warning("spaCy's attribute_ruler has changed shape: it runs unindexed")
        return False
    fast = IndexedAttributeRuler(ruler)
    # The stock __call__ (and so ``pipe``, and the pipeline's error handler) stays; it calls these two by name.
    ruler.match = fast.match
    ruler.set_annotations = fast.set_annotations
    return True


class _MemberList(list):
    """A list whose ``in`` is a set lookup (the lemmatizer's tables only ever ask ``in``)."""

    def __init__(self, items):
        super().__init__(items)
        self._members = frozenset(self)

    def __contains__(self, item) -> bool:
        return item in self._members


def index_lemma_tables(nlp) -> bool:
    """Make the rule lemmatizer's ``lemma_index`` lists answer ``in`` from a set. False when there is none."""
    if "lemmatizer" not in nlp.pipe_names:
        return False
    lookups = getattr(nlp.get_pipe("lemmatizer"), "lookups", None)
    if lookups is None or not lookups.has_table("lemma_index"):
        return False
    table = lookups.get_table("lemma_index")
    for key, forms in list(table.items()):
        if isinstance(forms, list) and not isinstance(forms, _MemberList):
            table[key] = _MemberList(forms)
    return True


def index_rules(nlp) -> None:
    """Both of the above, where the pipeline has the components."""
    index_attribute_ruler(nlp)
    index_lemma_tables(nlp)
