"""Which windows the hybrid extractor sends to the model, and why (issue 44).

A window with a rule frame stays with the rules. Otherwise it goes to the model when its numbers look
like quantities in a relation the rules could not read:

* ``property`` — a property word (the rules know the concept, not the statement);
* ``math_terms`` — a quantity next to an operation, relation or concept the rules found;
* ``quantity_relation`` — two quantities (digits or number words, EN/PL/FR, any inflection the lexicon
  reads) joined by a verb or a preposition: "Seven and five together make twelve", "Four groups of six
  apples give twenty-four", "Gdy do ośmiu dołożymy dwa, otrzymamy dziesięć";
* ``cue`` / ``question`` — one quantity with a word-problem cue ("how many", "ile", "each") or a question.

Numbers that are not quantities never count: years, versions and named identifiers (``Python 3.11``,
``RFC 8446``, ``section 4``), dates and times, references (``[3]``), values glued to code (``x=3``), technical
measurements (``4 GB``, ``10 ms``, ``50%``), table rows and list numbering. The rest is ``skipped`` with its
reason (``no_numbers``, ``not_quantities``, ``no_relation``, ``lone_number``).
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from ..lib.numbers import find_ranges

_CUE_RE = re.compile(
    r"(?<!\w)(?:how many|how much|how far|how long|altogether|in all|in total|total|left|"
    r"more than|fewer|each|per|twice|half|ile|ilu|razem|łącznie|zostało|zostanie|więcej|mniej|"
    r"każd\w*|po ile|combien|chaque)(?!\w)",
    re.I,
)
# joining words that make two quantities a relation (a few words apart)
_STRONG = re.compile(
    r"(?<!\w)(?:make|makes|made|give|gives|gave|given|get|gets|got|equal|equals|leave|leaves|remain\w*|"
    r"add|adds|added|put|puts|take|takes|took|buy|buys|bought|sell|sells|sold|eat|eats|ate|eaten|"
    r"share|shares|shared|split|splits|divide|divides|divided|pick|picks|picked|lose|loses|lost|"
    r"spend|spends|spent|pay|pays|paid|costs?|more|fewer|less|together|altogether|times|each|per|away|"
    r"into|among|"
    r"(?:group|row|bag|box|pack|pile|set|team|stack|basket|plate|packet|carton|crate|jar|tray|bunch|batch)"
    r"(?:e?s)?\s+of|"
    # Polish: verbs by stem (every person and tense the stem covers), "po" (distributive), "razem"
    r"dołoż\w*|dokład\w*|doda\w*|dodaj\w*|otrzyma\w*|dostan\w*|dosta\w*|daj\w*|dał\w*|dadzą|da|dają|daje|"
    r"razem|łącznie|zabierz\w*|zabra\w*|zabier\w*|odejm\w*|odją\w*|odjęci\w*|podziel\w*|rozdziel\w*|"
    r"kupi\w*|kupuj\w*|zjad\w*|zjedz\w*|zje|zosta\w*|wię\w*|mniej|każd\w*|razy|po|grup\w*\s+po|"
    r"sprzeda\w*|wyd\w*|zapłaci\w*|"
    # French
    r"font|fait|donnent|donne|ensemble|ajout\w*|reste\w*|groupes?\s+de|chacun\w*"
    r")(?!\w)",
    re.I,
)
# only when right between two quantities ("three and four is seven"): too common further apart
_WEAK = re.compile(r"(?<!\w)(?:is|are|was|were|has|have|had|jest|są|to|ma|mają|miał\w*|est|sont)(?!\w)", re.I)
_QUESTION = re.compile(r"\?|(?<!\w)(?:how|what|ile|ilu|jak|combien)(?!\w)", re.I)
_SENTENCE_END = re.compile(r"[.!?](?:\s|$)|\n\s*\n")
_YEAR = re.compile(r"1[0-9]{3}|2[01][0-9]{2}")
_MONTH = re.compile(
    r"(?i:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec|january|february|march|april|june|july|august|"
    r"september|october|november|december|stycz\w*|lut\w*|mar[cz]\w*|kwie\w*|maj\w*|czerw\w*|lip\w*|sierp\w*|"
    r"wrze\w*|paździer\w*|listopad\w*|grud\w*|janvier|février|mars|avril|mai|juin|juillet|août|septembre|"
    r"octobre|novembre|décembre)"
)
_ID_WORD = re.compile(
    r"(?i:version|ver|v|release|rel|python|rfc|section|sec|chapter|ch|page|p|pp|line|table|figure|fig|step|item|"
    r"port|issue|pr|id|no|nr|number|level|phase|part|appendix|option|code|error|status|bug|ticket|commit|build|"
    r"revision|rev|api|http|tls|ipv|sha|utf|iso|ieee|unicode|rule|article|art|paragraph|equation|eq|list|"
    r"wersja|wersji|rozdział\w*|strona|stronie|punkt\w*|tabela|tabeli|rysunek|krok|poziom\w*|numer\w*)"
)
_UNIT_AFTER = re.compile(
    r"\s?(?:%|‰|[kKMGTP]i?B\b|[kKMG]?b(?:ps|it/s)\b|bytes?\b|bits?\b|[mµun]s\b|s\b|[kMG]?Hz\b|px\b|pt\b|em\b|"
    r"dpi\b|fps\b|rpm\b|°|x\b|×|threads?\b|cores?\b|CPUs?\b|GPUs?\b|MB/s|ms\b|KB\b|wątk\w*|rdzen\w*)"
)
_WORD = re.compile(r"[^\W\d_]+")
_ASSIGNED = re.compile(r"(?<![\w.])[A-Za-z_][\w.-]+[`'\"]?\s*(?:=|:)\s*[`'\"]?\Z")  # "retries = 3", "port: 80"
_LINK = re.compile(r"(?i:is|was|of|to|at|on|set|equals|jest|wynosi)")
_MULTI_DOT = re.compile(r"(?<![\w.])\d+\.\d+\.\d+")
_CHANGELOG_VERB = re.compile(r"[ \t]*(?:[-*+•][ \t]+)?\Z")  # "* Added …": a changelog's verb, not an operation
_NEAR = 24  # an operation, relation or concept this close to a quantity reads as math


def quantities(text: str, a: int, b: int, numbers: list[Any]) -> tuple[list[Any], Counter]:
    """The NUMBER entities of window [a, b) that read as quantities, and why the others do not."""
    out: list[Any] = []
    why: Counter = Counter()
    for e in numbers:
        reason = _not_quantity(text, e)
        if reason is None:
            out.append(e)
        else:
            why[reason] += 1
    return out, why


def _not_quantity(text: str, e: Any) -> str | None:
    s, t, raw = e.start, e.end, text[e.start : e.end]
    before, after = text[max(0, s - 1) : s], text[t : t + 1]
    if before == "[" or after == "]":
        return "reference"
    if before in "=:_#@$/\\§<" and before or after in "_=/" and after or _ASSIGNED.search(text, max(0, s - 40), s):
        return "identifier"
    if (before in "-–." and text[max(0, s - 2) : s - 1].isdigit()) or (
        after in "-–/:." and text[t + 1 : t + 2].isdigit()
    ):
        return "date"
    if raw.isdigit() and _YEAR.fullmatch(raw):
        return "year"
    if after == "-" and text[t + 1 : t + 2].isalpha():
        return "measurement"  # a compound adjective: "32-bit", "64-bit"
    if before == "-" and (s < 2 or text[s - 2] in " \t\"'=(\n"):
        return "identifier"  # a command-line option: "-15", "-C15" is glued already
    line_start = text.rfind("\n", 0, s) + 1
    line_end = text.find("\n", t)
    line = text[line_start : line_end if line_end >= 0 else len(text)]
    if "." in raw and _MULTI_DOT.search(line):
        return "version_or_identifier"  # "from 1.2.4 to 1.3": a line of version numbers
    if "|" in line or "&" in line or "\t" in line:
        return "table"
    if (
        re.match(r"[ \t]*(?:[-*+][ \t]+)?\(?\d{1,3}[.)]", text[line_start:])
        and text[line_start:s].strip(" \t-*+(") == ""
    ):
        return "list_numbering"
    words = line.split()
    digits = sum(1 for w in words if any(c.isdigit() for c in w))
    if digits >= 3 and digits * 2 >= len(words):
        return "table"
    prev = list(_WORD.finditer(text, max(line_start, s - 30), s))
    if prev and text[prev[-1].end() : s].strip(" \t") in ("", ".", ":"):
        w = prev[-1].group(0)
        if _ID_WORD.fullmatch(w) or (w[0].isupper() and not _sentence_initial(text, prev[-1].start())):
            return "version_or_identifier"
        if len(prev) > 1 and _LINK.fullmatch(w) and _ID_WORD.fullmatch(prev[-2].group(0)):
            return "version_or_identifier"  # "the port is 8443", "wersja to 3"
        if _MONTH.fullmatch(w):
            return "date"
    nxt = _WORD.match(text, t + 1) if text[t : t + 1] == " " else None
    if nxt and _MONTH.fullmatch(nxt.group(0)):
        return "date"
    if raw[0].isdigit() and _UNIT_AFTER.match(text, t):
        return "measurement"
    return None


def _sentence_initial(text: str, p: int) -> bool:
    q = p
    while q > 0 and text[q - 1] in " \t\"'“„(":
        q -= 1
    return q == 0 or text[q - 1] in ".!?:\n"


def related(text: str, qs: list[Any], language_ranges: list[tuple[int, int]]) -> bool:
    """Are two consecutive quantities of one sentence joined by a verb or a preposition?"""
    for x, y in zip(qs, qs[1:]):
        gap = text[x.end : y.start]
        if _SENTENCE_END.search(gap) or any(s <= x.start and y.end <= e for s, e in language_ranges):
            continue
        n_words = len(_WORD.findall(gap))
        if n_words <= 6 and _STRONG.search(gap):
            return True
        if n_words <= 2 and _WEAK.search(gap):
            return True
        lo = max(0, x.start - 30)
        lo += max((m.end() for m in _SENTENCE_END.finditer(text, lo, x.start)), default=lo) - lo
        first = _WORD.search(text, lo, x.start)
        if n_words <= 6 and first and _sentence_initial(text, first.start()) and _STRONG.fullmatch(first.group(0)):
            return True  # an imperative first: "Add 5 and 8", "Dołożymy dwa do ośmiu"
    return False


def decide(text: str, window: tuple[int, int], rules: Any) -> tuple[str, str]:
    """(route, reason) of one window of a unit the rules have read: ``rules`` | ``llm`` | ``skipped``."""
    a, b = window
    if any(f.start is not None and f.end is not None and f.start < b and a < f.end for f in rules.frames):
        return "rules", "rule_frame"
    inside = [e for e in rules.entities if a <= e.start < b]
    types = Counter(e.type for e in inside)
    if types["PROPERTY"]:
        return "llm", "property"
    numbers = [e for e in inside if e.type == "NUMBER"]
    if not numbers:
        return "skipped", "no_numbers"
    qs, _ = quantities(text, a, b, numbers)
    if not qs:
        return "skipped", "not_quantities"
    terms = [
        e
        for e in inside
        if e.type in ("OPERATION", "RELATION", "CONCEPT")
        and not (e.text[:1].isupper() and _CHANGELOG_VERB.match(text, text.rfind("\n", 0, e.start) + 1, e.start))
        and text[e.start - 1 : e.start] != "-"  # "multi-digit"
    ]
    if any(t.start - _NEAR <= q.end and q.start <= t.end + _NEAR for t in terms for q in qs):
        return "llm", "math_terms"
    ranges = [(r.start, r.end) for r in find_ranges(text[a:b])]
    if len(qs) >= 2 and related(text, qs, [(a + s, a + e) for s, e in ranges]):
        return "llm", "quantity_relation"
    around = _sentences_of(text, a, b, qs)
    if any(_CUE_RE.search(text, s, e) for s, e in around):
        return "llm", "cue"
    if any(_QUESTION.search(text, s, e) for s, e in around):
        return "llm", "question"
    return "skipped", "no_relation" if len(qs) >= 2 else "lone_number"


def _sentences_of(text: str, a: int, b: int, qs: list[Any]) -> list[tuple[int, int]]:
    """The sentence of each quantity and the one after it, the question of a word problem (within the window)."""
    out = []
    for q in qs:
        s = max([a] + [m.end() for m in _SENTENCE_END.finditer(text, a, q.start)])
        m = _SENTENCE_END.search(text, q.end, b)
        m = _SENTENCE_END.search(text, m.end(), b) if m else None
        out.append((s, m.end() if m else b))
    return out
