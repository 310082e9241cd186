"""The blind French/Polish set (issue 17, second round): rows and scoring.

Rows: the real paragraphs of ``data/blind_texts.jsonl`` with their labels from ``blind_labels.REAL``,
and the written paragraphs of ``blind_labels.WRITTEN``. Every row is tune or held-out by the parity
of the SHA-1 of its text (``split``). The scoring rules are the ones stated in ``blind_labels``:

* an expected form is **protected** when every letter and digit of it lies inside protected spans
  (a citation protected in two pieces still counts; one left half-open does not);
* a protected span is an **ordinary phrase hidden** when it overlaps no expected form, no allowed
  name and is not made only of identifier-shaped words;
* restoration must give the text back byte for byte.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from .blind_labels import REAL, WRITTEN
from .language_chunks import prose

TEXTS = Path(__file__).parent / "data" / "blind_texts.jsonl"

#: a word an LLM must keep verbatim anyway: a digit, a path/option/markup character, or a capital
#: after its first letter (LDAP, CamelCase, iPXE)
_IDENTIFIER = re.compile(r"[\d/_:.()\[\]{}=*@\\<>`#|+]|^.+[A-Z]|^[a-z]+[A-Z]|^-")


def identifier(word: str) -> bool:
    return bool(_IDENTIFIER.search(word))


def _split(text: str) -> str:
    return "heldout" if int(hashlib.sha1(text.encode("utf-8")).hexdigest(), 16) % 2 else "tune"


def rows(split: str | None = None, language: str | None = None) -> list[dict]:
    out = []
    for r in map(json.loads, TEXTS.open(encoding="utf-8")):
        label = REAL[r["id"]]
        out.append({**r, "expected": [], "allowed": label["allowed"], "ordinary": label["ordinary"]})
    for w in WRITTEN:
        sha = hashlib.sha1(w["text"].encode("utf-8")).hexdigest()
        out.append({**w, "id": sha[:10], "kind": "written", "source": "written", "split": _split(w["text"])})
    return [
        r for r in out if (split is None or r["split"] == split) and (language is None or r["language"] == language)
    ]


def _find_all(text: str, needle: str) -> list[tuple[int, int]]:
    return [(m.start(), m.end()) for m in re.finditer(rf"(?<!\w){re.escape(needle)}(?!\w)", text)]


@dataclass
class BlindScore:
    expected: int = 0
    protected: int = 0  # expected forms whose letters and digits are all inside protected spans
    exact: int = 0  # ... protected by exactly one span with the same ends (parentheses and spaces aside)
    hidden: list = field(default_factory=list)  # (row id, phrase): ordinary phrases hidden
    ordinary_hit: list = field(default_factory=list)  # (row id, phrase): listed ordinary phrases touched
    missed: list = field(default_factory=list)
    allowed: int = 0
    restored: int = 0
    rows: int = 0

    @property
    def recall(self) -> float:
        return self.protected / max(1, self.expected)

    def __str__(self) -> str:
        return (
            f"{self.rows} paragraphs: local forms protected {self.protected}/{self.expected} ({self.recall:.1%}, "
            f"span-exact {self.exact}), ordinary phrases hidden {len(self.hidden)}, listed ordinary phrases "
            f"touched {len(self.ordinary_hit)}, allowed names protected {self.allowed}, "
            f"restored byte-exact {self.restored}/{self.rows}"
        )


_TRIM = " \t()[]«»,;.\u00a0\u202f\u2009"


def score(protector, rows_: list[dict]) -> BlindScore:
    s = BlindScore()
    chunks = [prose(r["text"], r["language"], i) for i, r in enumerate(rows_)]
    for r, pc in zip(rows_, protector.protect_many(chunks)):
        text = r["text"]
        s.rows += 1
        s.restored += protector.restore(pc.protected_text, pc) == text
        spans = sorted((t.chunk_start, t.chunk_end) for t in pc.terms)
        inside = [False] * len(text)
        for a, b in spans:
            inside[a:b] = [True] * (b - a)
        want = [occ for e in r["expected"] for occ in _find_all(text, e)[:1]]
        assert len(want) == len(r["expected"]), (r["id"], r["expected"])
        for a, b in want:
            s.expected += 1
            if all(inside[i] for i in range(a, b) if text[i].isalnum()):
                s.protected += 1
                s.exact += any(text[x:y].strip(_TRIM) == text[a:b].strip(_TRIM) for x, y in spans)
            else:
                s.missed.append((r["id"], text[a:b]))
        allowed = [occ for name in r["allowed"] for occ in _find_all(text, name)]
        ordinary = [(name, occ) for name in r["ordinary"] for occ in _find_all(text, name)]
        for a, b in spans:
            overlaps = lambda occ: occ[0] < b and a < occ[1]  # noqa: E731
            if any(map(overlaps, want)):
                continue
            if any(map(overlaps, allowed)) or all(identifier(w) for w in text[a:b].split()):
                s.allowed += 1
            else:
                s.hidden.append((r["id"], text[a:b]))
        s.ordinary_hit += [
            (r["id"], name) for name, occ in ordinary if any(a < occ[1] and occ[0] < b for a, b in spans)
        ]
    return s
