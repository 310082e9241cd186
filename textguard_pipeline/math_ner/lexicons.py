"""Lexicons of the rule-based extractor: number words (EN + PL), phrases, symbols, and number-word parsing."""

from __future__ import annotations

import re
from dataclasses import dataclass

_EN_UNITS = {
    "zero": 0,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
}
_EN_TEENS = {
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
}
_EN_TENS = {
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "sixty": 60,
    "seventy": 70,
    "eighty": 80,
    "ninety": 90,
}
_EN_SCALES = {"thousand": 1000, "million": 1_000_000}


def _forms(table: dict[str, int]) -> dict[str, int]:
    out: dict[str, int] = {}
    for forms, v in table.items():
        for f in forms.split("/"):
            out[f] = v
    return out


# Polish numerals with their common case forms (nominative / genitive / dative / instrumental).
_PL_UNITS = _forms(
    {
        "zero/zera/zeru/zerem": 0,
        "jeden/jedna/jedno/jednego/jednej/jednemu/jednym/jedną": 1,
        "dwa/dwie/dwóch/dwu/dwoma/dwom/dwiema": 2,
        "trzy/trzech/trzem/trzema": 3,
        "cztery/czterech/czterem/czterema": 4,
        "pięć/pięciu/pięcioma": 5,
        "sześć/sześciu/sześcioma": 6,
        "siedem/siedmiu/siedmioma": 7,
        "osiem/ośmiu/ośmioma": 8,
        "dziewięć/dziewięciu/dziewięcioma": 9,
    }
)
_PL_TEENS = _forms(
    {
        "dziesięć/dziesięciu/dziesięcioma": 10,
        "jedenaście/jedenastu": 11,
        "dwanaście/dwunastu": 12,
        "trzynaście/trzynastu": 13,
        "czternaście/czternastu": 14,
        "piętnaście/piętnastu": 15,
        "szesnaście/szesnastu": 16,
        "siedemnaście/siedemnastu": 17,
        "osiemnaście/osiemnastu": 18,
        "dziewiętnaście/dziewiętnastu": 19,
    }
)
_PL_TENS = _forms(
    {
        "dwadzieścia/dwudziestu": 20,
        "trzydzieści/trzydziestu": 30,
        "czterdzieści/czterdziestu": 40,
        "pięćdziesiąt/pięćdziesięciu": 50,
        "sześćdziesiąt/sześćdziesięciu": 60,
        "siedemdziesiąt/siedemdziesięciu": 70,
        "osiemdziesiąt/osiemdziesięciu": 80,
        "dziewięćdziesiąt/dziewięćdziesięciu": 90,
    }
)
_PL_HUNDREDS = _forms(
    {
        "sto/stu": 100,
        "dwieście/dwustu": 200,
        "trzysta/trzystu": 300,
        "czterysta/czterystu": 400,
        "pięćset/pięciuset": 500,
        "sześćset/sześciuset": 600,
        "siedemset/siedmiuset": 700,
        "osiemset/ośmiuset": 800,
        "dziewięćset/dziewięciuset": 900,
    }
)
_PL_SCALES = _forms(
    {"tysiąc/tysiące/tysięcy/tysiąca/tysiącem": 1000, "milion/miliony/milionów/miliona/milionem": 1_000_000}
)

_UNITS = {**_EN_UNITS, **_PL_UNITS}
_TEENS = {**_EN_TEENS, **_PL_TEENS}
_TENS = {**_EN_TENS, **_PL_TENS}
_SCALES = {**_EN_SCALES, **_PL_SCALES}
_NUMBER_WORDS = set(_UNITS) | set(_TEENS) | set(_TENS) | set(_PL_HUNDREDS) | set(_SCALES) | {"hundred"}

# Lexicon phrases: (regex, type, canonical, confidence). Matched case-insensitively on
# word boundaries; the longest match wins, so "less than or equal to" beats "less than".
_PL_ADJ = r"(?:y|a|e|ą|ego|ej|ym|ych|emu|i)"  # adjective endings: mniejsz-y/-a/-e/-ą ...
_LEXICON: list[tuple[str, str, str, float]] = [
    # --- OPERATION (en)
    (r"plus|add|adds|added|adding|addition|additions|sum up", "OPERATION", "add", 0.95),
    (
        r"minus|subtract|subtracts|subtracted|subtracting|subtraction|subtractions"
        r"|take away|takes away|taken away|taking away|took away",
        "OPERATION",
        "sub",
        0.95,
    ),
    (
        r"times|multiply|multiplies|multiplying|multiplication|multiplications|multiplied(?: by)?",
        "OPERATION",
        "mul",
        0.95,
    ),
    (
        r"divide|divides|dividing|division|divisions|divided(?: by)?|shared equally(?: between| among)?",
        "OPERATION",
        "div",
        0.95,
    ),
    # --- OPERATION (pl)
    (
        r"dodać|dodaj|dodajemy|dodajesz|dodaje|dodając|dodany|dodana|dodane|dodawać|dodawanie|dodawania|dodawaniu"
        r"|dodawaniem|dodawań",
        "OPERATION",
        "add",
        0.95,
    ),
    (
        r"odjąć|odejmij|odejmujemy|odejmujesz|odejmuje|odejmując|odjęty|odjęte|odejmowanie|odejmowania"
        r"|odejmowaniu|odejmowaniem|odjęciu",
        "OPERATION",
        "sub",
        0.95,
    ),
    (
        r"razy|pomnożyć(?: przez)?|pomnóż(?: przez)?|pomnożone(?: przez)?|pomnożony(?: przez)?|pomnożona(?: przez)?"
        r"|mnożymy(?: przez)?|mnożyć(?: przez)?|mnożenie|mnożenia|mnożeniu|mnożeniem",
        "OPERATION",
        "mul",
        0.95,
    ),
    (
        r"podzielić(?: przez)?|podziel(?: przez)?|podzielone(?: przez)?|podzielony(?: przez)?|podzielona(?: przez)?"
        r"|dzielimy(?: przez)?|dzielić(?: przez)?|dzielone(?: przez)?|dzielenie|dzielenia|dzieleniu|dzieleniem",
        "OPERATION",
        "div",
        0.95,
    ),
    # --- RELATION (en)
    (r"equals|equal to|equal|is the same as|the same as", "RELATION", "eq", 0.95),
    (
        r"(?:is |are )?not equal to|(?:is |are )?not the same as|does not equal|doesn't equal"
        r"|is different from|different from|unequal to",
        "RELATION",
        "neq",
        0.95,
    ),
    (r"less than|smaller than|fewer than|lower than", "RELATION", "lt", 0.95),
    (r"greater than|more than|bigger than|larger than|higher than", "RELATION", "gt", 0.9),
    (
        r"less than or equal to|smaller than or equal to|at most|no more than|not greater than|not more than",
        "RELATION",
        "lte",
        0.95,
    ),
    (
        r"greater than or equal to|bigger than or equal to|larger than or equal to|at least|no less than"
        r"|not less than|not smaller than",
        "RELATION",
        "gte",
        0.95,
    ),
    # --- RELATION (pl)
    (r"równa się|równają się|równe|równy|równa|równą|wynosi|wynoszą|jest tyle samo co", "RELATION", "eq", 0.95),
    (r"nie jest równ" + _PL_ADJ + r"|nie równa się|różn" + _PL_ADJ + r" od", "RELATION", "neq", 0.95),
    (r"mniejsz" + _PL_ADJ + r" (?:niż|od)", "RELATION", "lt", 0.95),
    (r"większ" + _PL_ADJ + r" (?:niż|od)", "RELATION", "gt", 0.95),
    (
        r"mniejsz"
        + _PL_ADJ
        + r" (?:lub|albo|bądź) równ"
        + _PL_ADJ
        + r"(?: od)?|nie większ"
        + _PL_ADJ
        + r" (?:niż|od)|co najwyżej",
        "RELATION",
        "lte",
        0.95,
    ),
    (
        r"większ"
        + _PL_ADJ
        + r" (?:lub|albo|bądź) równ"
        + _PL_ADJ
        + r"(?: od)?|nie mniejsz"
        + _PL_ADJ
        + r" (?:niż|od)|co najmniej|przynajmniej",
        "RELATION",
        "gte",
        0.95,
    ),
    # --- PROPERTY
    (
        r"commutative|commutativity|commutes|przemienn" + _PL_ADJ + r"|przemienność|przemienności",
        "PROPERTY",
        "commutative",
        0.95,
    ),
    (r"associative|associativity|łączn" + _PL_ADJ + r"|łączność|łączności", "PROPERTY", "associative", 0.95),
    (
        r"distributive|distributivity|distributes|rozdzielne|rozdzieln" + _PL_ADJ + r"|rozdzielność|rozdzielności",
        "PROPERTY",
        "distributive",
        0.95,
    ),
    # bare "identity" is too common outside maths ("PSK identity"): only with element/property or an operation
    (
        r"identity element|identity property|identity(?= (?:for|of) (?:addition|multiplication))|element neutralny"
        r"|elementem neutralnym|elementu neutralnego|neutral element|neutral for|neutraln" + _PL_ADJ,
        "PROPERTY",
        "identity",
        0.9,
    ),
    # --- CONCEPT
    (r"fractions?|ułam(?:ek|ka|ki|ków|kiem|kami|kach|kowi)", "CONCEPT", "fraction", 0.9),
    (r"digits?|cyfr(?:a|y|ę|ą|ze|om|ami|ach)?", "CONCEPT", "digit", 0.9),
    (r"place values?|wartość pozycyjn" + _PL_ADJ + r"|wartości pozycyjnej", "CONCEPT", "place_value", 0.9),
    (r"remainders?|reszt(?:a|y|ę|ą|cie)", "CONCEPT", "remainder", 0.9),
    (r"sums?|sum(?:a|y|ę|ą|ie)", "CONCEPT", "sum", 0.9),
    (r"differences?|różnic(?:a|y|ę|ą)", "CONCEPT", "difference", 0.9),
    (r"products?|iloczyn(?:u|em|y|ów)?", "CONCEPT", "product", 0.9),
    (r"quotients?|iloraz(?:u|em|y|ów)?", "CONCEPT", "quotient", 0.9),
    (r"addends?|składni(?:k|ka|ki|ków|kiem|kami)", "CONCEPT", "addend", 0.9),
    (r"minuends?|odjemn(?:a|ej|ą)", "CONCEPT", "minuend", 0.9),
    (r"subtrahends?|odjemni(?:k|ka|kiem)", "CONCEPT", "subtrahend", 0.9),
    (r"factors?|czynni(?:k|ka|ki|ków|kiem)", "CONCEPT", "factor", 0.9),
    (r"dividends?|dzieln(?:a|ej|ą)", "CONCEPT", "dividend", 0.9),
    (r"divisors?|dzielni(?:k|ka|ki|kiem)", "CONCEPT", "divisor", 0.9),
    (r"numerators?|liczni(?:k|ka|kiem)", "CONCEPT", "numerator", 0.9),
    (r"denominators?|mianowni(?:k|ka|kiem)", "CONCEPT", "denominator", 0.9),
    (r"equations?|równani(?:e|a|u|em)", "CONCEPT", "equation", 0.9),
    (r"even numbers?|liczb(?:a|y|ę|ą) parzyst" + _PL_ADJ, "CONCEPT", "even_number", 0.9),
    (r"odd numbers?|liczb(?:a|y|ę|ą) nieparzyst" + _PL_ADJ, "CONCEPT", "odd_number", 0.9),
    (r"multiples|multiple(?= of)|wielokrotnoś(?:ć|ci|cią)", "CONCEPT", "multiple", 0.9),
    (r"number lines?|o[śs] liczbow(?:a|ej|ą)", "CONCEPT", "number_line", 0.9),
]
_LEXICON_RES = [(re.compile(r"(?<![\w\\])(?:" + p + r")(?!\w)", re.I), t, c, conf) for p, t, c, conf in _LEXICON]
# Every lexicon phrase at once: where one of _LEXICON_RES matches at p, this matches at p too, so its
# first match is at or before every phrase's first, and a text it does not match holds none (most
# chunks: one scan instead of 45, each of which re runs position by position under re.I).
_LEXICON_ANY_RE = re.compile(r"(?<![\w\\])(?:" + "|".join(f"(?:{p})" for p, *_ in _LEXICON) + r")(?!\w)", re.I)

# Operators and relations written as symbols (LaTeX commands included).
_SYMBOLS: dict[str, tuple[str, str]] = {
    "+": ("OPERATION", "add"),
    "−": ("OPERATION", "sub"),
    "×": ("OPERATION", "mul"),
    "÷": ("OPERATION", "div"),
    "⋅": ("OPERATION", "mul"),
    "·": ("OPERATION", "mul"),
    "*": ("OPERATION", "mul"),
    "-": ("OPERATION", "sub"),
    "–": ("OPERATION", "sub"),
    "/": ("OPERATION", "div"),
    ":": ("OPERATION", "div"),
    "\\times": ("OPERATION", "mul"),
    "\\cdot": ("OPERATION", "mul"),
    "\\div": ("OPERATION", "div"),
    "=": ("RELATION", "eq"),
    "==": ("RELATION", "eq"),
    "<": ("RELATION", "lt"),
    ">": ("RELATION", "gt"),
    "≤": ("RELATION", "lte"),
    "⩽": ("RELATION", "lte"),
    "<=": ("RELATION", "lte"),
    "≥": ("RELATION", "gte"),
    "⩾": ("RELATION", "gte"),
    ">=": ("RELATION", "gte"),
    "≠": ("RELATION", "neq"),
    "!=": ("RELATION", "neq"),
    "\\le": ("RELATION", "lte"),
    "\\leq": ("RELATION", "lte"),
    "\\ge": ("RELATION", "gte"),
    "\\geq": ("RELATION", "gte"),
    "\\neq": ("RELATION", "neq"),
    "\\ne": ("RELATION", "neq"),
    "\\lt": ("RELATION", "lt"),
    "\\gt": ("RELATION", "gt"),
}
_SYMBOL_RE = re.compile(
    r"\\(?:times|cdot|div|leq|le|geq|ge|neq|ne|lt|gt)(?![A-Za-z])|<=|>=|!=|==|[+−×÷⋅·*\-–/:=<>≤⩽≥⩾≠]"
)
# Symbols that are also ordinary punctuation (hyphen, slash, colon, asterisk, x): only
# operators between two operands, and unspaced ones only inside an equation.
_AMBIGUOUS = {"-", "–", "/", ":", "*"}
_LIST_NUM_RE = re.compile(r"^[ \t]*(\d{1,3})(?=[.)][ \t])", re.M)
_WORD_RE = re.compile(r"[^\W\d_]+")
_LETTER_RE = re.compile(r"(?<![^\W_])[A-Za-z](?![^\W_])")
# Words that are an operator/relation only with a right operand: "3 times 4" but "3 times a week",
# "równe 7" but "dwie równe części".
_NEEDS_RIGHT_OPERAND = {"times", "razy", "equal", "równa", "równy", "równe", "równą", "wynosi", "wynoszą"}
# Copulas that mean "equals" only between a computation and a number: "3 plus 4 is 7".
_WEAK_EQ = {
    "is",
    "are",
    "makes",
    "make",
    "gives",
    "give",
    "leaves",
    "leave",
    "jest",
    "daje",
    "dają",
    "to",
    "będzie",
    "was",
    "zostaje",
    "zostanie",
    "zostają",
}
_UNIT_BEFORE_RE = re.compile(r"[ \t]+[^\W\d_]{1,12}(?:/[^\W\d_]{1,12})?$")
_UNIT_GAP_RE = re.compile(r"[ \t]+[^\W\d_]{1,12}(?:/[^\W\d_]{1,12})?[ \t]*")
_WORD_LETTERS = {"a", "i", "o", "u", "w", "z"}
_COPULA_AFTER_RE = re.compile(r"\s+(?:is|are|jest|są)\s+", re.I)
_LET_BEFORE_RE = re.compile(r"(?<!\w)(?:let|niech)\s+$", re.I)
_RESULT_CONCEPTS = {"sum": "add", "difference": "sub", "product": "mul", "quotient": "div"}
_NEGATION_RE = re.compile(r"(?<!\w)(?:not|isn't|aren't|never|nie)(?!\w)|n't", re.I)
_ZERO_RE = re.compile(r"(?<!\w)(?:zero|zera|zeru|zerem|0)(?![\w.,]\d?)", re.I)
_GAP_OK_RE = re.compile(r"[ \t\n$(){}\\]*")  # what may sit between the tokens of a formula


@dataclass
class _Cand:
    start: int
    end: int
    type: str
    canonical: str
    confidence: float
    value: float | int | str | None = None
    weak: bool = False


def _parse_group(words: list[str], i: int) -> tuple[int, int]:
    """Value and end index of a number below 1000 starting at words[i] (end == i: none)."""
    n, j, value = len(words), i, 0
    if j < n and words[j] in _PL_HUNDREDS:
        value, j = _PL_HUNDREDS[words[j]], j + 1
    elif j + 1 < n and words[j] in _UNITS and words[j + 1] == "hundred" and _UNITS[words[j]] > 0:
        value, j = _UNITS[words[j]] * 100, j + 2
        if (
            j + 1 < n
            and words[j] == "and"
            and (words[j + 1] in _UNITS or words[j + 1] in _TEENS or words[j + 1] in _TENS)
        ):
            j += 1
    if j < n and words[j] in _TENS:
        value, j = value + _TENS[words[j]], j + 1
        if j < n and words[j] in _UNITS and _UNITS[words[j]] > 0:
            value, j = value + _UNITS[words[j]], j + 1
    elif j < n and words[j] in _TEENS:
        value, j = value + _TEENS[words[j]], j + 1
    elif j < n and words[j] in _UNITS and (_UNITS[words[j]] > 0 or j == i):
        value, j = value + _UNITS[words[j]], j + 1
    return value, j


def parse_number_words(words: list[str]) -> tuple[int, int]:
    """Value of the longest number-word prefix of ``words`` (lowercase) and its length (0: none).

    "twenty one" → 21, "one hundred and five" → 105, "dwa tysiące dwadzieścia" → 2020,
    "sto" → 100; "one two" → 1 (a list, not a compound).
    """
    total, i, last_scale = 0, 0, None
    while i < len(words):
        g, j = _parse_group(words, i)
        if j < len(words) and words[j] in _SCALES and (last_scale is None or _SCALES[words[j]] < last_scale):
            if j == i:
                if words[j] not in _PL_SCALES:  # "tysiąc" alone is 1000; "thousand" needs a count
                    break
                g = 1
            total += g * _SCALES[words[j]]
            last_scale = _SCALES[words[j]]
            i = j + 1
            continue
        if j == i:
            break
        total += g
        i = j
        break
    if total == 0 and i == 0:
        return 0, 0
    return total, i
