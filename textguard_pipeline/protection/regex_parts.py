"""Compile large regular expressions composed of repeated parts, parsing each part once.

The citation patterns repeat a few long parts: the 748-character upper-case class ≈ 100 times in the
longest pattern, the stop-word alternations, every author form in every bracket form. ``re`` parses a
pattern's whole text in Python, so a language's patterns took ≈ 0.6–0.8 s of CPU to compile, most of
it parsing the same parts again. Here a pattern is written with one private-use character standing for
each part (:meth:`Parts.part`); the short composed text and each part are parsed once, the parts' trees
take their markers' places, and ``re``'s own code generator makes the program. That program is the
one ``re.compile`` makes from the expanded text, opcode for opcode (tested for every vocabulary); when
``re``'s internals are not the ones this was written against, or a part sits where a marker cannot
stand for it, the expanded text is compiled as usual.

A part must be a complete expression (a class, a group, an alternation used inside a group); never put a
marker inside ``[...]`` or let a quantifier follow a part of more than one item without a group.
"""

from __future__ import annotations

import re

try:  # CPython's own regex parser and code generator (re/_parser.py, re/_compiler.py, 3.11+)
    import _sre
    from re import _compiler, _parser
    from re._constants import (
        ASSERT,
        ASSERT_NOT,
        ATOMIC_GROUP,
        BRANCH,
        GROUPREF_EXISTS,
        IN,
        LITERAL,
        MAX_REPEAT,
        MIN_REPEAT,
        NEGATE,
        POSSESSIVE_REPEAT,
        SUBPATTERN,
    )

    _INTERNALS = True
except ImportError:  # pragma: no cover - another interpreter: plain re.compile
    _INTERNALS = False

_FIRST_MARKER = 0xF0000  # Supplementary Private Use Area-A: never in a vocabulary or a class here
_REPEATS = ()
if _INTERNALS:
    _REPEATS = (MAX_REPEAT, MIN_REPEAT, POSSESSIVE_REPEAT)


_TOKENS = re.compile(r"(\(\?=[\U000F0000-\U000FFFFD]\)|[\U000F0000-\U000FFFFD])")


class _Unspliceable(Exception):
    """A marker stands where its part's tree would not equal the expanded text's parse."""


class Parts:
    """The parts of a family of patterns and the compiler that parses each part once."""

    def __init__(self) -> None:
        self._texts: list[str] = []  # marker index -> text (which may hold earlier markers)
        self._index: dict[str, str] = {}  # text -> the token standing for it
        self._expanded: dict[str, str] = {}
        self._trees: dict[int, list] = {}  # marker code point -> the part's spliced items
        self._wrapped: set[str] = set()

    def part(self, text: str) -> str:
        """The token that stands for ``text`` in the patterns composed with these parts.

        A class stands as its marker: ``re`` merges equal classes and single-class branches as it
        does equal markers. Any other part stands as ``(?=marker)``, an item ``re`` never merges with
        another nor factors out of a branch, just as it never does the part's own groups and repeats
        (a part that starts with a plain item at the start of a branch is refused).
        """
        token = self._index.get(text)
        if token is None:
            marker = chr(_FIRST_MARKER + len(self._texts))
            self._texts.append(text)
            items = self._items(ord(marker)) if _INTERNALS else []
            if len(items) == 1 and items[0][0] in (IN, LITERAL):
                token = marker
            else:
                token = f"(?={marker})"
                self._wrapped.add(marker)
            self._index[text] = token
        return token

    def expand(self, text: str) -> str:
        """``text`` with every token replaced by its part's own text (the pattern ``re`` sees)."""
        out = self._expanded.get(text)
        if out is None:
            out = "".join(self._expand_piece(piece) for piece in _TOKENS.split(text))
            self._expanded[text] = out
        return out

    def _expand_piece(self, piece: str) -> str:
        marker = self._token_marker(piece)
        return piece if marker is None else self.expand(self._texts[ord(marker) - _FIRST_MARKER])

    def _token_marker(self, piece: str) -> str | None:
        if len(piece) == 1 and self._is_marker(piece) and piece not in self._wrapped:
            return piece
        if len(piece) == 5 and piece.startswith("(?=") and piece[3] in self._wrapped:
            return piece[3]
        return None

    def compile(self, text: str) -> re.Pattern:
        """``re.compile`` of the expanded ``text``, each part parsed once."""
        expanded = self.expand(text)
        if not _INTERNALS:  # pragma: no cover
            return re.compile(expanded)
        try:
            return self._compile(text, expanded)
        except (_Unspliceable, re.error):  # a misplaced part: re says what is wrong with the text itself
            return re.compile(expanded)

    def _is_marker(self, c: str) -> bool:
        return _FIRST_MARKER <= ord(c) < _FIRST_MARKER + len(self._texts)

    def _items(self, code: int) -> list:
        items = self._trees.get(code)
        if items is None:
            text = self._texts[code - _FIRST_MARKER]
            self._check_quantifiers(text)
            tree = _parser.parse(text)
            if tree.state.groups != 1 or tree.state.flags & ~re.UNICODE:
                raise _Unspliceable("a part with a group or a global flag")
            self._splice(tree.data)
            items = self._trees[code] = list(tree.data)
        return items

    def program(self, text: str) -> tuple[list[int], object]:
        """The code ``re`` would run for the expanded ``text``, and its parse tree (state: groups, flags)."""
        self._check_quantifiers(text)
        tree = _parser.parse(text)
        self._splice(tree.data)
        tree.width = None
        tree.state.str = self.expand(text)
        return _compiler._code(tree, tree.state.flags), tree

    def _compile(self, text: str, expanded: str) -> re.Pattern:
        code, tree = self.program(text)
        groupindex = tree.state.groupdict
        indexgroup = [None] * tree.state.groups
        for name, i in groupindex.items():
            indexgroup[i] = name
        return _sre.compile(expanded, tree.state.flags, code, tree.state.groups - 1, groupindex, tuple(indexgroup))

    def _splice(self, data: list) -> None:
        """Put each marker's part in its place, in ``data`` and every subpattern below it."""
        i = 0
        while i < len(data):
            op, av = data[i]
            marker = self._item_marker(op, av)
            if marker is not None:
                items = self._items(marker)
                data[i : i + 1] = items
                i += len(items)
                continue
            if op is IN and any(o is LITERAL and self._is_marker(chr(a)) for o, a in av):
                data[i] = (IN, _parser._uniq([x for o, a in av for x in self._set_items(o, a)]))
            elif op is BRANCH:
                for sub in av[1]:
                    self._check_branch_start(sub.data)
                    self._sub(sub)
            elif op is SUBPATTERN:
                self._sub(av[-1])
            elif op in _REPEATS:
                self._sub(av[2])
            elif op in (ASSERT, ASSERT_NOT):
                self._sub(av[1])
            elif op is ATOMIC_GROUP:
                self._sub(av)
            elif op is GROUPREF_EXISTS:
                self._sub(av[1])
                if av[2] is not None:
                    self._sub(av[2])
            i += 1

    def _item_marker(self, op, av) -> int | None:
        """The marker a parsed item stands for: a class part's literal or another part's lookahead."""
        if op is LITERAL and self._is_marker(chr(av)) and chr(av) not in self._wrapped:
            return av
        if op is ASSERT and av[0] == 1 and len(av[1].data) == 1:
            inner_op, inner = av[1].data[0]
            if inner_op is LITERAL and chr(inner) in self._wrapped:
                return inner
        return None

    def _check_branch_start(self, data: list) -> None:
        """re factors the items branches start with out of them when equal; it compares groups and repeats
        by identity, so only a part that starts with a plain item (a character, a class) could differ."""
        marker = self._item_marker(*data[0]) if data else None
        if marker is not None and chr(marker) in self._wrapped:
            first_op, first = self._items(marker)[0]
            if not _holds_subpattern(first):
                raise _Unspliceable("a branch starting with a part that starts with a plain item")

    def _check_quantifiers(self, text: str) -> None:
        """``(?:part)*`` repeats the part; a bare ``part*`` would repeat only its last item: refuse it."""
        for m in _TOKENS.finditer(text):
            marker = self._token_marker(m.group())
            if marker is not None and text[m.end() : m.end() + 1] in ("*", "+", "?", "{"):
                part = self._texts[ord(marker) - _FIRST_MARKER]
                if len(self._items(ord(marker))) != 1 and not _one_group(part):
                    raise _Unspliceable("a quantifier right after a part of several items")

    def _sub(self, sub) -> None:
        self._splice(sub.data)
        sub.width = None  # measured with one-character markers while parsing

    def _set_items(self, op, av) -> list:
        """A set member: a marker made a branch of single characters a set; its part must be one too."""
        if op is not LITERAL or not self._is_marker(chr(av)):
            return [(op, av)]
        items = self._items(av)
        if len(items) == 1 and items[0][0] is LITERAL:
            return items
        if len(items) == 1 and items[0][0] is IN and items[0][1][0][0] is not NEGATE:
            return list(items[0][1])
        raise _Unspliceable("a part in a set that is not a character or a class")


def _one_group(text: str) -> bool:
    """Whether ``text`` is one parenthesised group, so that a quantifier after it repeats all of it."""
    if not text.startswith("("):
        return False
    depth, i, in_class = 0, 0, False
    while i < len(text):
        c = text[i]
        if c == "\\":
            i += 2
            continue
        if in_class:
            in_class = c != "]"
        elif c == "[":
            in_class = True
            if text[i + 1 : i + 2] == "^":
                i += 1
            if text[i + 1 : i + 2] == "]":  # a "]" first in a class is a member
                i += 1
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i == len(text) - 1
        i += 1
    return False


def _holds_subpattern(av) -> bool:
    if isinstance(av, _parser.SubPattern):
        return True
    return isinstance(av, (tuple, list)) and any(_holds_subpattern(x) for x in av)
