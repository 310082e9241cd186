"""Exact numbers for arithmetic examples: no float overflow, no int-string limit.

Operands are compared as ``Fraction``s, so a 309-digit operand (beyond a float) or a 5,000-digit one
(beyond Python's 4,300-digit int-string limit) is checked like any other. The tolerance is that of
``math.isclose(rel_tol=1e-9, abs_tol=1e-9)``, computed exactly. Values too long for an ``int`` in JSON
are kept as strings of digits (frame operands and results accept ``int | float | str``).
"""

from __future__ import annotations

import math
from decimal import Decimal, InvalidOperation, localcontext
from fractions import Fraction

#: Longest digit string held as an int: Python refuses str(int) beyond 4,300 digits (and json.dumps with it).
INT_MAX_DIGITS = 4000
_INT_MAX_BITS = int(INT_MAX_DIGITS * 3.3219)  # log2(10): a bound on the digits without converting
_TOL = Fraction(1, 10**9)

Number = int | float | str


def parse_digits(s: str) -> Number:
    """The value of a plain digit string: an int, or the digits themselves when too long."""
    if len(s) <= INT_MAX_DIGITS:
        return int(s)
    return s.lstrip("0") or "0"


def parse_decimal(s: str) -> Number:
    """The value of ``123.45``: a float, or the string when it is beyond a float's range."""
    v = float(s)
    return v if math.isfinite(v) else s


def exact(v: object) -> Fraction | None:
    """``v`` as an exact fraction (int, float, numeric string or Fraction); None when not a finite number."""
    if isinstance(v, bool):
        return None
    if isinstance(v, (int, Fraction)):
        return Fraction(v)
    if isinstance(v, float):
        return Fraction(repr(v)) if math.isfinite(v) else None
    if isinstance(v, str):
        try:
            d = Decimal(v.strip())  # no int-string limit, unlike Fraction(str) or int(str)
        except InvalidOperation:
            return None
        return Fraction(d) if d.is_finite() else None
    return None


def apply_op(op: str, operands: list[object]) -> Fraction | None:
    """``operands`` combined left to right with ``op`` (add/sub/mul/div); None on a division by zero
    or a non-numeric operand."""
    values = [exact(v) for v in operands]
    if not values or any(v is None for v in values):
        return None
    acc = values[0]
    for v in values[1:]:
        if op == "add":
            acc += v
        elif op == "sub":
            acc -= v
        elif op == "mul":
            acc *= v
        else:
            if v == 0:
                return None
            acc /= v
    return acc


def same(a: object, b: object) -> bool:
    """``a`` and ``b`` are equal within math.isclose(rel_tol=1e-9, abs_tol=1e-9), computed exactly."""
    x, y = exact(a), exact(b)
    if x is None or y is None:
        return False
    return abs(x - y) <= max(_TOL * max(abs(x), abs(y)), _TOL)


def json_number(x: Fraction) -> Number:
    """A computed value for a frame: an int when whole, else a float rounded to 10 places; a string of
    digits when the value is beyond an int's string limit or a float's range."""
    if x.denominator == 1:
        n = x.numerator
        return n if n.bit_length() <= _INT_MAX_BITS else str(Decimal(n))
    if abs(x) < Fraction(10) ** 300:
        return round(float(x), 10)
    with localcontext() as ctx:
        ctx.prec = 60
        return str(Decimal(x.numerator) / Decimal(x.denominator))
