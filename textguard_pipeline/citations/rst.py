"""reStructuredText footnote and citation references: ``[1]_``, ``[#]_``, ``[#note]_``, ``[CIT2002]_``.

The bracket group is the marker (``[#note]``, the trailing ``_`` stays outside); the definitions
(``.. [1] text``) are not markers. Ids follow docutils: a numbered footnote keeps its number, auto-numbered
footnotes (``.. [#]``, ``.. [#note]``) take the smallest free numbers in definition order, and an anonymous
``[#]_`` reference takes the anonymous footnotes in order. Citations (``.. [CIT2002]``) have no number in
reST: they are numbered after the last footnote, in definition order. A reference whose label has no
definition gets a fresh number past all of them (so validation flags it as having no entry). Stdlib only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_LABEL = r"\d+|#(?:[A-Za-z0-9][\w.+:-]*)?|[A-Za-z_][\w.+:-]*"
DEFINITION = re.compile(rf"^[ \t]*\.\.[ \t]+\[(?P<label>{_LABEL})\](?=[ \t]|$)", re.M)
REFERENCE = re.compile(rf"(?<![\w\[\]])\[(?P<label>{_LABEL})\]_(?![\w])")
_DEFINITION_BEFORE = re.compile(r"^[ \t]*\.\.[ \t]+\Z", re.M)


def is_definition(text: str, gs: int) -> bool:
    """Is the bracket group at ``gs`` the label of a ``.. [x]`` definition?"""
    return _DEFINITION_BEFORE.search(text, max(0, text.rfind("\n", 0, gs) + 1), gs) is not None


@dataclass
class RstNumbering:
    """The numbers of one document's footnotes and citations (``cursor``: anonymous references consumed)."""

    labels: dict[str, int] = field(default_factory=dict)
    anonymous: list[int] = field(default_factory=list)
    defined: frozenset[int] = frozenset()
    span: tuple[int, int] | None = None  # from the first definition to the end of the last one's line
    cursor: int = 0

    def id_for(self, label: str) -> int:
        if label == "#":
            self.cursor += 1
            if self.cursor <= len(self.anonymous):
                return self.anonymous[self.cursor - 1]
            return self._fresh(f"#{self.cursor}")
        if label.isdigit():
            return int(label)
        return self.labels.get(label) or self._fresh(label)

    def _fresh(self, key: str) -> int:
        self.labels[key] = max([0, *self.labels.values(), *self.anonymous, *self.defined]) + 1
        return self.labels[key]


def numbering(text: str) -> RstNumbering:
    """The footnote and citation numbers of ``text`` (empty when it defines none)."""
    defs = list(DEFINITION.finditer(text))
    if not defs:
        return RstNumbering()
    manual = {int(m.group("label")) for m in defs if m.group("label").isdigit()}
    used = set(manual)
    labels: dict[str, int] = {}
    anonymous: list[int] = []
    nxt = 1
    for m in defs:
        label = m.group("label")
        if not label.startswith("#"):
            continue
        while nxt in used:
            nxt += 1
        used.add(nxt)
        if label == "#":
            anonymous.append(nxt)
        else:
            labels.setdefault(label, nxt)
    top = max(used, default=0)
    for m in defs:
        label = m.group("label")
        if not label.startswith("#") and not label.isdigit() and label not in labels:
            top += 1
            labels[label] = top
    last = defs[-1]
    end = text.find("\n", last.end())
    return RstNumbering(
        labels, anonymous, frozenset(used | set(labels.values())), (defs[0].start(), end if end >= 0 else len(text))
    )
