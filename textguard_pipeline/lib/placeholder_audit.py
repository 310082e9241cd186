"""Audit a model's answer against the placeholders it was given (seed 000 E8, counted).

What a model does to ``⟨TERM_001⟩`` and what this module says about it:

* **Counts**, not presence: a placeholder that occurs fewer times than in the protected text is
  *lost* (a repeated term kept once is a loss); more copies are *extra* (accepted, recorded).
* **Variants** that map to exactly one issued placeholder are *repaired* (each recorded):
  inner spaces ``⟨ TERM_001 ⟩``, ASCII/square brackets ``<TERM_001>`` ``[TERM_001]``, CJK brackets
  ``〈TERM_001〉``, case ``⟨term_001⟩``, unpadded ``⟨TERM_1⟩``, bare ``TERM_001``, Markdown-escaped
  ``\\⟨TERM\\_001\\⟩``, full-width digits, zero-width characters inside, doubled brackets ``⟨⟨TERM_001⟩⟩``.
* Nothing is guessed: an over-padded ``⟨TERM_0012⟩`` (``⟨TERM_012⟩``? ``⟨TERM_001⟩2``?), a variant whose text (or whose target) also occurs as plain text in the source
  is *ambiguous*; a token the chunk never issued is *invented*. Both are named, never repaired.

Dagster-free; used by the round trip (``roundtrip/``) and by the protection library's restore path.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass, field
from typing import Iterable

from .placeholders import CLOSE, OPEN, PLACEHOLDER_RE

#: Namespaces always recognised in variants (plus any namespace of an issued placeholder).
NAMESPACES = ("TERM", "MATH", "CODE", "LIT")
_ZW = "\u200b\u200c\u200d\u2060\ufeff"
_OPENS = "⟨<\\[〈《‹«＜［【"
_CLOSES = "⟩>\\]〉》›»＞］】"
_ASCII_LIKE = {
    "<": "ascii_brackets",
    ">": "ascii_brackets",
    "＜": "ascii_brackets",
    "＞": "ascii_brackets",
    "[": "square_brackets",
    "]": "square_brackets",
    "［": "square_brackets",
    "］": "square_brackets",
    "【": "square_brackets",
    "】": "square_brackets",
}


def short(token: str, width: int = 40) -> str:
    """A token as named in a problem (``TERM_`` and 4,301 digits would swamp the row)."""
    return token if len(token) <= width else f"{token[: width - 12]}…({len(token)} chars)"


# -- residue of any shape: what is left of a placeholder after the exact tokens are gone -----------
# Cyrillic and Greek capitals that look like Latin ones (⟨ТERM_001⟩ with a Cyrillic Т).
_HOMOGLYPHS = str.maketrans("АВЕКМНОРСТУХІΑΒΕΖΗΙΚΜΝΟΡΤΥΧ", "ABEKMHOPCTYXIABEZHIKMNOPTYX")
_BRACKETS = "⟨⟩\u2329\u232a"  # the placeholder brackets and their deprecated twins 〈 〉
_LOOSE = re.compile(
    f"[{_BRACKETS}](?:[^{_BRACKETS}\\s]{{1,40}}[{_BRACKETS}])?"
    r"|[TMCL](?<![A-Za-z0-9][TMCL])(?:(?<=T)ERM|(?<=M)ATH|(?<=C)ODE|(?<=L)IT)(?:[-_ \u00a0]?\d+)?(?![A-Za-z0-9])"
    r"|[A-Z](?<![A-Za-z0-9][A-Z])[A-Z0-9]*_\d+(?![A-Za-z0-9])"
)
_FOREIGN = re.compile("[\u0370-\u04ff]")


def loose_residue(text: str) -> Counter[str]:
    """Placeholder-like leftovers of any shape (homoglyphs folded): namespace words with or without
    digits (``TERM-001``, ``TERM 001``, ``TERM``, ``NAME_001``) and lone placeholder brackets. Count them in
    the text with its exact tokens removed, against the same count of the source."""
    if _FOREIGN.search(text):
        text = text.translate(_HOMOGLYPHS)
    return Counter(_LOOSE.findall(text))


def _ns_pattern(ns: str) -> str:
    return f"[{_ZW}]*".join(re.escape(ch) for ch in ns)


@functools.lru_cache(maxsize=64)
def _variant_re(namespaces: frozenset[str]) -> re.Pattern[str]:
    zw, ws = f"[{_ZW}]*", f"[ \\t\u00a0{_ZW}]*"
    ns = "|".join(_ns_pattern(n) for n in sorted(namespaces, key=len, reverse=True))
    core = f"(?P<ns{{i}}>{ns}){zw}\\\\?[_＿]{zw}(?P<num{{i}}>\\d(?:{zw}\\d)*)"
    opn = f"(?:\\\\?[{_OPENS}]{zw}){{1,2}}"
    cls = f"(?:{zw}\\\\?[{_CLOSES}]){{1,2}}"
    bracketed = f"{opn}{ws}{core.format(i=1)}(?:{ws}{cls})?"
    bare = f"(?<![^\\W_]){core.format(i=2)}(?:{cls})?(?![^\\W_])"
    return re.compile(f"{bracketed}|{bare}", re.IGNORECASE)


def _namespaces(issued: Iterable[str]) -> frozenset[str]:
    out = set(NAMESPACES)
    for p in issued:
        m = PLACEHOLDER_RE.fullmatch(p)
        if m:
            out.add(m.group(1))
    return frozenset(out)


def count_placeholders(text: str, issued: Iterable[str] | None = None) -> Counter[str]:
    """Occurrences of each exact placeholder in ``text`` (only those in ``issued`` when given)."""
    keep = None if issued is None else set(issued)
    return Counter(t for t in (m.group(0) for m in PLACEHOLDER_RE.finditer(text)) if keep is None or t in keep)


def missing_occurrences(expected_text: str, text: str, issued: Iterable[str] | None = None) -> list[str]:
    """Placeholders (in order of first appearance in ``expected_text``) that occur fewer times in
    ``text`` than in ``expected_text`` (E8, counted: a repeated term kept once is a loss)."""
    want = count_placeholders(expected_text, issued)
    have = count_placeholders(text, want)
    return [p for p in want if have[p] < want[p]]


@dataclass(frozen=True)
class Token:
    """A placeholder-like token found in a text."""

    start: int
    end: int
    found: str
    canonical: str  # ⟨NS_NNN⟩ it stands for
    kinds: tuple[str, ...]  # () for an exact placeholder


def _shape(m: re.Match[str], i: int) -> tuple[int, int, str, str]:
    """Trim an unpaired doubled bracket (``⟨TERM_001⟩>``: the ``>`` is text) and canonicalise."""
    s, e, found = m.start(), m.end(), m.group(0)
    body = found.replace("\\", "")
    n_open = len(body) - len(body.lstrip(_OPENS + _ZW + " \t\u00a0"))
    opens = sum(1 for ch in body[:n_open] if ch in _OPENS)
    tail = body.rstrip(_CLOSES + _ZW + " \t\u00a0")
    closes = sum(1 for ch in body[len(tail) :] if ch in _CLOSES)
    if closes > max(opens, 1):
        cut = found.rstrip(_ZW)
        cut = cut[:-1].rstrip("\\") if cut and cut[-1] in _CLOSES else cut
        e = s + len(cut)
        found = cut
    ns = "".join(ch for ch in m.group(f"ns{i}") if ch not in _ZW).upper()
    digits = "".join(str(unicodedata.decimal(ch, 0)) for ch in m.group(f"num{i}") if ch not in _ZW)
    # not int(): a token with thousands of digits is a finding to report, never a ValueError
    return s, e, found, f"{OPEN}{ns}_{digits.lstrip('0').rjust(3, '0')}{CLOSE}"


def _kinds(found: str, canonical: str) -> tuple[str, ...]:
    if found == canonical:
        return ()
    kinds: set[str] = set()
    plain = found.replace("\\", "")
    if any(ch in _ZW for ch in found):
        kinds.add("zero_width")
    if "\\" in found:
        kinds.add("markdown_escaped")
    brackets = [ch for ch in plain if ch in _OPENS or ch in _CLOSES]
    if not brackets:
        kinds.add("bare")
    elif not (plain.lstrip(_ZW).startswith(OPEN) and plain.rstrip(_ZW).endswith(CLOSE)):
        for ch in brackets:
            if ch not in (OPEN, CLOSE):
                kinds.add(_ASCII_LIKE.get(ch, "cjk_brackets"))
        if sum(ch in _CLOSES for ch in brackets) == 0:
            kinds.add("unclosed")
    if sum(ch in _OPENS for ch in brackets) > 1 or sum(ch in _CLOSES for ch in brackets) > 1:
        kinds.add("doubled_brackets")
    if any(ch in " \t\u00a0" for ch in plain):
        kinds.add("inner_spaces")
    letters = "".join(ch for ch in plain if ch.isalpha())
    if letters != letters.upper():
        kinds.add("case")
    digits = "".join(ch for ch in plain if ch.isdigit())
    if any(not ("0" <= d <= "9") for d in digits):
        kinds.add("fullwidth_digits")
    canon_digits = canonical[canonical.index("_") + 1 : -1]
    if len(digits) != len(canon_digits):
        kinds.add("unpadded" if len(digits) < len(canon_digits) else "overpadded")
    return tuple(sorted(kinds)) or ("other",)


_UNDERSCORE = re.compile(r"[_＿][\d\u200b-\u200d\u2060\ufeff\uff10-\uff19]*")
_REACH = 48  # a token's brackets, spaces and namespace around its underscore fit in this many characters


def _windows(text: str) -> list[tuple[int, int]]:
    """Stretches of ``text`` around each underscore (every token has one): the variant pattern is slow on
    long prose, and restored text or prose without tokens has few or no underscores."""
    out: list[tuple[int, int]] = []
    for m in _UNDERSCORE.finditer(text):
        lo, hi = max(0, m.start() - _REACH), min(len(text), m.end() + _REACH)
        if out and lo <= out[-1][1]:
            out[-1] = (out[-1][0], hi)
        else:
            out.append((lo, hi))
    return out


def find_tokens(text: str, issued: Iterable[str] = ()) -> list[Token]:
    """Every placeholder-like token of ``text`` (exact or a variant), left to right."""
    issued = tuple(issued)
    out: list[Token] = []
    rx = _variant_re(_namespaces(issued))
    for lo, hi in _windows(text):
        for m in rx.finditer(text, lo, hi):
            if out and m.start() < out[-1].end:  # already found from the previous stretch
                continue
            i = 1 if m.group("ns1") is not None else 2
            s, e, found, canon = _shape(m, i)
            out.append(Token(s, e, found, canon, _kinds(found, canon)))
    return out


@functools.lru_cache(maxsize=256)
def _source_tokens(text: str, issued: tuple[str, ...]) -> tuple[Token, ...]:
    """find_tokens of a source or protected text: every attempt at a chunk audits against the same one."""
    return tuple(find_tokens(text, issued))


@dataclass
class Audit:
    """What a model answer did to the placeholders, and the answer with the safe repairs applied."""

    text: str
    repairs: list[dict[str, str]] = field(default_factory=list)  # {found, placeholder, kind}
    lost: list[str] = field(default_factory=list)  # placeholder (expected n, found m)
    extra: dict[str, int] = field(default_factory=dict)  # placeholder → copies beyond the expected count
    invented: list[str] = field(default_factory=list)  # tokens the chunk never issued
    unrepaired: list[str] = field(default_factory=list)  # variants that could not be repaired safely
    expected: dict[str, int] = field(default_factory=dict)
    found: dict[str, int] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        """Every issued placeholder present often enough and nothing placeholder-like left to guess."""
        return not (self.lost or self.invented or self.unrepaired)

    def problems(self) -> list[str]:
        out = [f"lost {p}: expected {self.expected[p]}, found {self.found.get(p, 0)}" for p in self.lost]
        out += [f"invented {short(t)}" for t in self.invented]
        out += [f"unrepaired {short(t)}" for t in self.unrepaired]
        out += [f"extra copies of {p}: {n} (accepted, the term is not lost)" for p, n in self.extra.items()]
        return out


def audit(output: str, protected_text: str, issued: Iterable[str], *, repair: bool = True) -> Audit:
    """Compare ``output`` with ``protected_text`` over the ``issued`` placeholders; repair safe variants.

    A variant is repaired only when its canonical form is issued and neither the variant's text nor any
    variant of the same placeholder occurs as plain text in ``protected_text`` (then it could be source
    text, and is reported as unrepaired instead).
    """
    issued = tuple(dict.fromkeys(issued))
    issued_set = set(issued)
    literals: Counter[str] = Counter()
    literal_targets: set[str] = set()
    for t in _source_tokens(protected_text, issued):
        if t.found not in issued_set:
            literals[t.found] += 1
            literal_targets.add(t.canonical)
    res = Audit(text=output)
    parts: list[str] = []
    pos = 0
    for t in find_tokens(output, issued):
        if t.found in issued_set:
            continue
        if literals[t.found] > 0:  # the same text is in the source: plain text, kept as is
            literals[t.found] -= 1
            continue
        if t.canonical not in issued_set or not t.kinds:
            res.invented.append(t.found)
        elif t.canonical in literal_targets or not repair or {"overpadded", "unclosed"} & set(t.kinds):
            res.unrepaired.append(t.found)
        else:
            res.repairs.append({"found": t.found, "placeholder": t.canonical, "kind": "+".join(t.kinds)})
            parts.append(output[pos : t.start])
            parts.append(t.canonical)
            pos = t.end
    if parts:
        parts.append(output[pos:])
        res.text = "".join(parts)
    want = count_placeholders(protected_text, issued_set)
    have = count_placeholders(res.text, issued_set)
    res.expected, res.found = dict(want), dict(have)
    res.lost = [p for p in want if have[p] < want[p]]
    res.extra = {p: have[p] - want[p] for p in want if have[p] > want[p]}
    return res


def stray_tokens(text: str, protected_text: str, issued: Iterable[str]) -> list[str]:
    """Placeholder-like tokens of ``text`` that are neither an issued placeholder nor source text
    (a stray ``<TERM_000>`` next to a correct ``⟨TERM_000⟩``, an invented ``⟨TERM_042⟩``)."""
    a = audit(text, protected_text, issued, repair=False)
    return a.invented + a.unrepaired


def residue(restored: str, source: str) -> list[str]:
    """Placeholder-like tokens of a restored text beyond those the source itself contains (variants the
    audit knows, then leftovers of any other shape in the rest of the text, see :func:`loose_residue`)."""
    toks, src_toks = find_tokens(restored), list(_source_tokens(source, ()))
    have, src = Counter(t.found for t in toks), Counter(t.found for t in src_toks)
    out = [short(tok) for tok, n in have.items() if n > src[tok]]
    loose, loose_src = loose_residue(_without(restored, toks)), _source_loose(source)
    return out + [short(tok) for tok, n in loose.items() if n > loose_src[tok]]


@functools.lru_cache(maxsize=256)
def _source_loose(source: str) -> Counter[str]:
    return loose_residue(_without(source, list(_source_tokens(source, ()))))


def _without(text: str, tokens: list[Token]) -> str:
    parts, pos = [], 0
    for t in tokens:
        parts.append(text[pos : t.start])
        pos = t.end
    return "".join(parts) + text[pos:] if tokens else text


def originals_kept(restored: str, protected_text: str, mapping: dict[str, str]) -> list[str]:
    """Originals that occur fewer times in ``restored`` than the protected text requires.

    Required count of an original = its placeholder's count, plus its occurrences inside every other
    original (``Smith`` inside ``Smith (2024)``), so a dropped inner term is not hidden by an outer one.
    """
    counts = count_placeholders(protected_text, mapping)
    out = []
    for orig in dict.fromkeys(mapping[p] for p in counts):
        required = sum(n * (1 if mapping[p] == orig else mapping[p].count(orig)) for p, n in counts.items())
        if orig and restored.count(orig) < required:
            out.append(orig)
    return out
