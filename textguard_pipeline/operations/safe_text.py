"""Text from file names and documents made safe for a terminal, a Markdown file and XML 1.0.

Dagster-free. A file name may hold any byte but ``/`` and NUL: ANSI escape sequences
(``\\x1b[2J``), other C0/C1 controls, and (for names that are not UTF-8) lone surrogates
from Python's ``surrogateescape``. Printed raw they drive the terminal; in XML they make the
document invalid; written as UTF-8 they raise. :func:`visible` spells each of them as a
Python escape (``\\x1b``, ``\\x85``, ``\\udce9`` → ``\\xe9``) so the name stays recognisable.
"""

from __future__ import annotations

import re

# C0 controls except tab and newline, DEL, C1 controls, surrogates, and the two XML non-characters.
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")


def _escape(match: re.Match[str]) -> str:
    ch = match.group()
    code = ord(ch)
    if 0xDC80 <= code <= 0xDCFF:  # a byte that was not UTF-8 (surrogateescape)
        return f"\\x{code - 0xDC00:02x}"
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def visible(text: str) -> str:
    """``text`` with every control character (but tab and newline) and surrogate written as an escape."""
    return _UNSAFE.sub(_escape, text)


def one_line(text: str) -> str:
    """:func:`visible`, with newlines and tabs escaped too (for names and XML attributes)."""
    return visible(text).replace("\n", "\\n").replace("\t", "\\t")
