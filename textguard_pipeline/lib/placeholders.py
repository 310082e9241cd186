"""Placeholder tokens ``⟨NS_NNN⟩`` shared by the parser and the term protector.

Namespaces: ``MATH`` (inline math, parser), ``CODE`` (inline Markdown code
spans, parser), ``LIT`` (source text that already looks like a placeholder,
parser), ``TERM`` (protected terms, term protector). Restoration is a single
left-to-right pass: an original put back is never scanned again, so source
text such as a literal ``⟨TERM_001⟩`` round-trips exactly once it is itself
behind a placeholder.
"""

from __future__ import annotations

import re
from typing import Mapping

OPEN, CLOSE = "\u27e8", "\u27e9"  # ⟨ ⟩

#: Anything shaped like a placeholder, in any namespace.
PLACEHOLDER_RE = re.compile(r"⟨([A-Z][A-Z0-9]*)_(\d+)⟩")


def make_placeholder(namespace: str, n: int) -> str:
    """``⟨NS_NNN⟩`` with at least three digits."""
    return f"{OPEN}{namespace}_{n:03d}{CLOSE}"


def find_placeholders(text: str) -> list[str]:
    """Every placeholder-shaped token in ``text``, in order (with repeats)."""
    return [m.group(0) for m in PLACEHOLDER_RE.finditer(text)]


class UnknownPlaceholderError(KeyError):
    """A placeholder-shaped token has no entry in the mapping."""

    def __init__(self, placeholders: list[str]):
        self.placeholders = placeholders
        super().__init__(f"unknown placeholder(s): {', '.join(placeholders)}")


def restore_placeholders(text: str, mapping: Mapping[str, str], *, strict: bool = True) -> str:
    """Replace every placeholder of ``mapping`` in one pass.

    With ``strict``, a placeholder-shaped token missing from ``mapping``
    raises :class:`UnknownPlaceholderError`; otherwise it is left as is.
    """
    if not mapping and not strict:
        return text
    unknown: list[str] = []

    def sub(m: re.Match[str]) -> str:
        tok = m.group(0)
        try:
            return mapping[tok]
        except KeyError:
            unknown.append(tok)
            return tok

    out = PLACEHOLDER_RE.sub(sub, text)
    if strict and unknown:
        raise UnknownPlaceholderError(sorted(set(unknown)))
    return out
