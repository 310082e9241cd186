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


def _safe(value):
    return visible(value) if isinstance(value, str) else value


def install_safe_log_records() -> None:
    """Every log record this process makes, Dagster's own ERROR lines included, with its message, arguments and
    traceback text made :func:`visible` (a file name holding ``\\x1b[2J`` must not clear the terminal).

    Done in the record factory because Dagster's console logger is a fresh ``Logger`` per run, outside the
    logging tree, so no filter on a named logger or the root reaches it; colours are added later, by the
    formatter, and stay. Idempotent."""
    # lazy: only when the safe log records are installed
    import logging
    import traceback

    previous = logging.getLogRecordFactory()
    if getattr(previous, "textguard_safe", False):
        return

    def factory(*args, **kwargs):
        record = previous(*args, **kwargs)
        record.msg = _safe(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(_safe(a) for a in record.args)
        elif isinstance(record.args, dict):
            record.args = {k: _safe(v) for k, v in record.args.items()}
        if record.exc_info and record.exc_info[0] is not None and not record.exc_text:
            record.exc_text = visible("".join(traceback.format_exception(*record.exc_info)).rstrip("\n"))
        return record

    factory.textguard_safe = True  # type: ignore[attr-defined]
    logging.setLogRecordFactory(factory)
