"""The text half of the answer audit: what a model may not change besides the placeholders.

Each rule compares the answer (placeholders canonical, after the safe repairs) with the protected text
it was given and returns findings; :func:`text_findings` runs them all (called by ``engine.accept``, the
one audit). A finding is a failed attempt. Rules:

* **length**: visible length (placeholders counted as their originals) outside the task's band
  (``too short`` / ``too long``), with a few characters of slack for headings and short lines;
* **structure**: the line skeleton a format depends on (Markdown heading marks, list markers, table
  pipes, blank lines between paragraphs; LaTeX ``\\begin``/``\\end``, ``%`` comments, ``\\\\`` row ends, brace
  balance; reST directive lines, title underlines and roles);
* **exposed strings**: every number, URL, e-mail address, LaTeX reference command with its argument,
  Markdown link target and inline code span of the source comes back unchanged (extra ones are allowed;
  under ``translate:X`` a number may change its decimal and thousands separators);
* **residue** of any shape left in the open (``⟨TERM-001⟩``, a lone ``⟨``, ``⟨NAME_001⟩``, homoglyphs);
* **swaps**: two placeholders that exchanged places while the words next to each stayed;
* **language**: the answer is in the source's language (paraphrase, simplify) or the target language
  (``translate:X``); short chunks are exempt (``SOURCE_LETTERS``, ``ANSWER_LETTERS``).
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from dataclasses import dataclass
from typing import Mapping

from ..ingest.languages import default_detector, detection_text
from ..lib.placeholder_audit import loose_residue, short
from ..lib.placeholders import PLACEHOLDER_RE
from .language_names import language_code

#: Default visible-length bands (answer / source) per task; a custom instruction has none unless configured.
BANDS = {"paraphrase": (0.5, 2.0), "simplify": (0.5, 2.0), "translate": (0.33, 3.0)}
#: Characters of slack on each side of the band (a heading "Intro." may become "Introduction.").
SLACK_LOW, SLACK_HIGH = 3, 16
#: The answer's detected language must be this sure before it is called wrong.
LANGUAGE_CONFIDENCE = 0.9
#: Letters a source (an answer) needs before the language rule applies: py3langid is right on 99.6 % of
#: 60-character prefixes (docs/languages.md); a one-line answer in another language is still caught.
SOURCE_LETTERS, ANSWER_LETTERS = 60, 40
#: Characters of words the language is detected on (the detector is flat from 150 on, docs/languages.md).
SAMPLE_CHARS = 200


@dataclass(frozen=True)
class AnswerRules:
    """What the text audit enforces for one task (see :meth:`for_task`)."""

    band: tuple[float, float] | None = (0.5, 2.0)
    language: str | None = "source"  # "source", an ISO 639-1 code, or None (no rule)
    translate: bool = False  # numbers may take the target language's separators

    @classmethod
    def for_task(cls, task: str, band: str = "", language: str = "") -> "AnswerRules":
        """Defaults by task, overridden by ``band`` (``"0.5-2.0"`` | ``"off"``) and ``language``
        (``"source"`` | a code or English name | ``"off"``); ``""`` keeps the task's default."""
        t = task.strip().lower()
        kind = "translate" if t.startswith("translate:") else t if t in BANDS else "custom"
        default_lang = {"translate": language_code(task.split(":", 1)[-1]), "custom": None}.get(kind, "source")
        return cls(
            band=_band(band) if band else BANDS.get(kind),
            language=_language(language) if language else default_lang,
            translate=kind == "translate",
        )


def _band(value: str) -> tuple[float, float] | None:
    if value.strip().lower() in ("off", "none"):
        return None
    lo, _, hi = value.replace(",", "-").partition("-")
    try:
        band = (float(lo), float(hi))
    except ValueError:
        raise ValueError(f"length band must look like '0.5-2.0' or 'off', got {value!r}") from None
    if not 0 <= band[0] < band[1]:
        raise ValueError(f"length band must have 0 ≤ low < high, got {value!r}")
    return band


def _language(value: str) -> str | None:
    v = value.strip()
    if v.lower() in ("off", "none", "any"):
        return None
    if v.lower() == "source":
        return "source"
    code = language_code(v)
    if code is None:
        raise ValueError(f"unknown language {value!r}: use 'source', 'off', an ISO 639-1 code or an English name")
    return code


# -- length ---------------------------------------------------------------------------------------


def visible_length(text: str, mapping: Mapping[str, str]) -> int:
    """Length with every known placeholder counted as its original."""
    n = len(text)
    for m in PLACEHOLDER_RE.finditer(text):
        orig = mapping.get(m.group(0))
        if orig is not None:
            n += len(orig) - len(m.group(0))
    return n


#: Function words of the corpus languages: an answer made of these alone ("and") has lost the source's words.
FUNCTION_WORDS = frozenset(
    "a an and are as at be but by for from has have in is it its of on or so that the then this to was were "
    "with und oder der die das ein eine ist in im mit von zu et ou le la les un une des de du est en dans "
    "y o el los las es por para con i oraz lub w z na do się że jest".split()
)
_WORD = re.compile(r"[^\W\d_]+")


def _only_function_words(answer: str, piece: str) -> bool:
    words = _WORD.findall(PLACEHOLDER_RE.sub(" ", answer).lower())
    src = _WORD.findall(PLACEHOLDER_RE.sub(" ", piece).lower())
    return bool(words) and all(w in FUNCTION_WORDS for w in words) and any(w not in FUNCTION_WORDS for w in src)


def length_findings(answer: str, piece: str, mapping: Mapping[str, str], band: tuple[float, float]) -> list[str]:
    a, s = visible_length(answer, mapping), visible_length(piece, mapping)
    if a < 40 and _only_function_words(answer, piece):
        return [f"too short: only function words left ({answer.strip()[:30]!r})"]
    lo, hi = band
    if a < lo * s - SLACK_LOW:
        return [f"too short: {a} visible characters for {s} (band {lo:g}–{hi:g})"]
    if a > hi * s + SLACK_HIGH:
        return [f"too long: {a} visible characters for {s} (band {lo:g}–{hi:g})"]
    return []


# -- structure ------------------------------------------------------------------------------------

_LINE = re.compile(
    r"(?:(?P<heading>#{1,6})[ \t]|[ \t]*(?P<item>[-*+]|\d{1,2}[.)])[ \t]+\S|(?P<row>[ \t]*\|.*\|.*)$"
    r"|[ \t]*\.\.[ \t]+(?P<directive>[\w:+-]+)::|(?P<underline>([=\-~^\"'`#*+<>:._])\6{2,})[ \t]*$)"
)
_STARTS = frozenset("#-*+|.=~^\"'`:<>_0123456789")  # what a structural line can start with
_BEGIN_END = re.compile(r"\\(begin|end)\{([^{}\n]{1,40})\}")
_ROLE = re.compile(r"(?<![\w`]):([\w.+-]+(?::[\w.+-]+)?):(?=`)")
_ROW_END = re.compile(r"(?<!\\)\\\\(?!\\)")
_COMMENT = re.compile(r"(?<![\\\d%])(?<!\d[ \u00a0\u202f])%")  # not \%, not "95%" or "95 %"
_BRACES = re.compile(r"(?<!\\)[{}]")


def skeleton(text: str) -> tuple[list[tuple[str, str]], Counter[str], int]:
    """(line skeleton in order, inline marks counted, brace balance) of a text (a list marker counts only
    after a blank line or another list item)."""
    text = text.strip()
    lines: list[tuple[str, str]] = []
    prev_blank, prev_item = True, False
    for line in text.split("\n"):
        head = line.lstrip(" \t")[:1]
        if not head:
            if not prev_blank:
                lines.append(("paragraph break", ""))
            prev_blank, prev_item = True, False
            continue
        m = _LINE.match(line) if head in _STARTS else None
        kind = m.lastgroup if m else None
        if kind == "item" and not (prev_blank or prev_item):
            kind = None  # a hard-wrapped sentence may put "12. " at the start of a line: not a list
        if kind == "row":
            lines.append(("table row", str(line.count("|"))))
        elif kind:
            value = m.group(kind)  # type: ignore[union-attr]
            lines.append(("list item" if kind == "item" else kind, value[:1] if kind == "underline" else value))
        prev_blank, prev_item = False, kind == "item"
    if "\\begin" in text or "\\end" in text:
        lines += [(f"\\{m.group(1)}", m.group(2)) for m in _BEGIN_END.finditer(text)]
    marks = Counter(f":{m.group(1)}: role" for m in _ROLE.finditer(text)) if ":`" in text else Counter()
    if "\\\\" in text:
        marks["\\\\ row end"] = len(_ROW_END.findall(text))
    if "%" in text:
        marks["% comment"] = len(_COMMENT.findall(text))
    balance = (text.count("{") - text.count("}")) if "{" in text or "}" in text else 0
    if "\\{" in text or "\\}" in text:
        balance = sum(1 if b == "{" else -1 for b in _BRACES.findall(text))
    return lines, +marks, balance


_source_skeleton = functools.lru_cache(maxsize=256)(skeleton)


def structure_findings(answer: str, piece: str) -> list[str]:
    la, ma, ba = skeleton(answer)
    ls, ms, bs = _source_skeleton(piece)
    out = []
    if la != ls:
        out.append(f"structure changed: {_describe(ls)} became {_describe(la)}")
    for mark in sorted(set(ma) | set(ms)):
        if ma[mark] != ms[mark]:
            out.append(f"structure changed: {mark} {ms[mark]}× became {ma[mark]}×")
    if ba != bs:
        out.append(f"structure changed: brace balance {bs:+d} became {ba:+d}")
    return out


def _describe(lines: list[tuple[str, str]]) -> str:
    shown = ", ".join(f"{k} {v}".strip() for k, v in lines[:6]) + (" …" if len(lines) > 6 else "")
    return f"[{shown}]"


# -- numbers and machine-readable strings in the open ---------------------------------------------

_URL = re.compile(r"https?://\S+|www\.\S+")
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_TEX = re.compile(
    r"\\(?:[a-zA-Z]*ref|cite[a-zA-Z]*|label|url|href|input|include|includegraphics|bibliography)\*?"
    r"(?:\[[^\]\n]{0,200}\])*\{[^{}\n]{0,300}\}|\\[A-Za-z@]+"
)
_CODE = re.compile(r"(?:\{[\w:.+-]+\})?`[^`\n]+`")  # inline code, with a MyST role {pypi}`x` in front
_TARGET = re.compile(r"\]\(([^()\s]+(?:\s+\"[^\"\n]*\")?)\)|^[ \t]*\[[^\]\n]+\]:[ \t]*(\S+)", re.M)
_NUMBER = re.compile(r"\d+(?:[.,\u00a0\u202f]\d+)*")
_SEPARATORS = re.compile(r"[.,\u00a0\u202f]")
#: (pattern, a character it cannot match without): most prose has no URL, no command, no code span
_WHOLE = ((_URL, ("://", "www.")), (_EMAIL, ("@",)), (_TEX, ("\\",)), (_CODE, ("`",)))


def exposed(text: str, translate: bool = False) -> Counter[str]:
    """Machine-readable strings in the open (placeholders removed first); a number inside a URL, an e-mail
    address, a command or a code span is compared as part of it."""
    t = PLACEHOLDER_RE.sub(" ", text) if "⟨" in text else text
    out: Counter[str] = Counter()
    for rx, signs in _WHOLE:
        if any(sign in t for sign in signs):
            found = [m.group(0) for m in rx.finditer(t)]
            if found:
                out.update(f.rstrip(".,;:)") if rx is not _TEX and rx is not _CODE else f for f in found)
                t = rx.sub(" ", t)
    if "](" in t or "]:" in t:
        out.update(f"]({m.group(1) or m.group(2)})" for m in _TARGET.finditer(t))
    out.update("#" + (_SEPARATORS.sub("", n) if translate else n) for n in _NUMBER.findall(t))
    return out


# The source side of each rule is a pure function of the piece, which every attempt at it shares.
_source_exposed = functools.lru_cache(maxsize=256)(exposed)


def exposed_findings(answer: str, piece: str, translate: bool) -> list[str]:
    have, want = exposed(answer, translate), _source_exposed(piece, translate)
    lost = [(k, n - have[k]) for k, n in want.items() if have[k] < n]
    if not lost:
        return []
    shown = ", ".join(f"{short(k.removeprefix('#'))!r}" + (f" ({n}×)" if n > 1 else "") for k, n in lost[:6])
    return [f"changed or lost in the open: {shown}"]


# -- residue, swaps, language ---------------------------------------------------------------------


_source_loose = functools.lru_cache(maxsize=256)(loose_residue)


def residue_findings(answer: str, piece: str, issued: set[str]) -> list[str]:
    def strip(t: str) -> str:
        return PLACEHOLDER_RE.sub(lambda m: " " if m.group(0) in issued else m.group(0), t)

    have, src = loose_residue(strip(answer)), _source_loose(strip(piece))
    left = [tok for tok, n in have.items() if n > src[tok]]
    return [f"placeholder residue: {', '.join(short(t) for t in left[:5])}"] if left else []


_NEIGHBOUR = re.compile(r"\w+|[^\w\s]")


def _contexts(text: str) -> dict[str, tuple[str, str]]:
    """(word before, word after) of each placeholder that occurs once."""
    counts = Counter(m.group(0) for m in PLACEHOLDER_RE.finditer(text))
    out = {}
    for m in PLACEHOLDER_RE.finditer(text):
        if counts[m.group(0)] == 1:
            before = _NEIGHBOUR.findall(text[max(0, m.start() - 40) : m.start()])
            after = _NEIGHBOUR.findall(text[m.end() : m.end() + 40])
            out[m.group(0)] = (before[-1] if before else "", after[0] if after else "")
    return out


def swap_findings(answer: str, piece: str) -> list[str]:
    if answer.count("⟨") < 2:
        return []
    src, ans = _contexts(piece), _contexts(answer)
    by_ctx: dict[tuple[str, str], list[str]] = {}
    for p, c in src.items():
        by_ctx.setdefault(c, []).append(p)
    out = []
    for a, ca in ans.items():
        if ca == src.get(a) or len(by_ctx.get(ca, ())) != 1:
            continue
        (b,) = by_ctx[ca]
        if a < b and b in ans and ans[b] == src.get(a) and src[a] != src[b]:
            out.append(f"suspected swap: {a} and {b} exchanged places (the words next to them stayed)")
    return out


@functools.lru_cache(maxsize=512)
def _detect(words: str) -> tuple[str | None, float]:
    d = default_detector().detect(words[:SAMPLE_CHARS], cleaned=True)
    return d.language, d.confidence or 0.0


_source_words = functools.lru_cache(maxsize=256)(detection_text)


@functools.lru_cache(maxsize=256)
def _source_wordset(piece: str) -> frozenset[str]:
    return frozenset(_WORD.findall(piece.lower()))


def language_findings(answer: str, piece: str, expected: str) -> list[str]:
    if expected == "source":
        said, heard = _source_wordset(piece), _WORD.findall(answer.lower())
        if sum(w in said for w in heard) >= 0.6 * len(heard):
            return []  # most of the answer's words are the source's: the same language, no detector needed
    wa, ws = detection_text(answer), _source_words(piece)
    # letters ≈ characters less spaces (detection_text keeps words only)
    if len(ws) - ws.count(" ") < SOURCE_LETTERS or len(wa) - wa.count(" ") < ANSWER_LETTERS:
        return []  # short chunks are exempt: the detector is unreliable on them
    if expected == "source":
        expected, conf = _detect(ws)
        if expected is None or conf < LANGUAGE_CONFIDENCE:
            return []
    found, conf = _detect(wa)
    if found is None or found == expected or conf < LANGUAGE_CONFIDENCE:
        return []
    return [f"wrong language: expected {expected}, found {found} ({conf:.2f})"]


def text_findings(answer: str, piece: str, mapping: Mapping[str, str], rules: AnswerRules) -> list[str]:
    """Every text rule's findings for an answer whose placeholders already passed the count."""
    out = residue_findings(answer, piece, set(mapping))
    if rules.band is not None:
        out += length_findings(answer, piece, mapping, rules.band)
    out += structure_findings(answer, piece)
    out += exposed_findings(answer, piece, rules.translate)
    out += swap_findings(answer, piece)
    if rules.language is not None:
        out += language_findings(answer, piece, rules.language)
    return out
