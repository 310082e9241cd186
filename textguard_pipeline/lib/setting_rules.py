"""What a setting's value may be: pure checks of raw text, used by the ``settings`` package (the one reader of the
environment). Each raises ``SettingsError`` naming the variable, so a mistyped value stops the start-up and
never reaches a run (a nan cap would be no cap: nan compares false with every bound)."""

from __future__ import annotations

import math
import os
import re
from typing import Callable, Mapping


class SettingsError(ValueError):
    """An environment variable holds a value its setting cannot take."""


#: Every reader of a setting (``reader(env)`` in the settings package), run by :func:`check_settings` at start-up.
_READERS: list[Callable[..., object]] = []


def checked(reader):
    """Register a settings reader for the start-up check (a new reader: decorate it)."""
    _READERS.append(reader)
    return reader


def check_settings(env: Mapping[str, str] | None = None) -> None:
    """Read every setting once, before any work: one ``SettingsError`` naming every bad variable."""
    problems: list[str] = []
    for reader in _READERS:
        try:
            reader(env)
        except SettingsError as exc:
            if str(exc) not in problems:
                problems.append(str(exc))
    if problems:
        raise SettingsError("; ".join(problems))


_TRUE = frozenset({"1", "true", "yes", "on"})
_FALSE = frozenset({"0", "false", "no", "off"})


def parse_bool(name: str, raw: str) -> bool:
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise SettingsError(f"{name}={value!r} is not a boolean (use one of 1/0, true/false, yes/no, on/off)")


def existing_path(name: str, value: str) -> str:
    """A path that must exist when a variable sets it (a mistyped path would silently mean "nothing")."""
    if value and not os.path.exists(value):
        raise SettingsError(f"{name}={value!r} names no such file or folder")
    return value


def parse_number(name: str, raw: str, kind: type, minimum=None, maximum=None):
    """``raw`` as an int or float: finite, within [minimum, maximum]."""
    try:
        value = kind(raw)
    except ValueError:
        raise SettingsError(f"{name}={raw!r} is not {'an integer' if kind is int else 'a number'}") from None
    if not math.isfinite(value):
        raise SettingsError(f"{name}={raw!r} must be a finite number")
    if minimum is not None and value < minimum:
        raise SettingsError(f"{name}={raw!r} must be at least {minimum}")
    if maximum is not None and value > maximum:
        raise SettingsError(f"{name}={raw!r} must be at most {maximum}")
    return value


def choice(name: str, value: str, choices: tuple[str, ...]) -> str:
    if value not in choices:
        raise SettingsError(f"{name}={value!r} is not one of {', '.join(choices)}")
    return value


_CRON_ALIASES = ("@yearly", "@annually", "@monthly", "@weekly", "@daily", "@midnight", "@hourly")
_CRON_PART = re.compile(r"^(\*|\?|[0-9A-Za-z]+(-[0-9A-Za-z]+)?)(/[0-9]+)?[LW#0-9]*$")


def cron_expression(name: str, value: str) -> str:
    """Five cron fields or an @alias (the schedule checks it again with Dagster's rule where it is built)."""
    fields = value.split()
    ok = value.lower() in _CRON_ALIASES or (
        len(fields) == 5 and all(_CRON_PART.match(part) for f in fields for part in f.split(","))
    )
    if not ok:
        raise SettingsError(f"{name}={value!r} is not a cron expression of five fields (minute hour day month weekday)")
    return value


def time_zone(name: str, value: str) -> str:
    """An IANA time zone name (``UTC``, ``Europe/Paris``)."""
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError  # lazy: only a time-zone setting needs it

    try:
        ZoneInfo(value)
    except (ZoneInfoNotFoundError, ValueError):
        raise SettingsError(f"{name}={value!r} is not a time zone name such as 'UTC' or 'Europe/Paris'") from None
    return value


#: a wn lexicon specifier: ``id`` or ``id:version`` (``oewn:2024``, ``omw-en:1.4``, ``*``)
_LEXICON_SPEC = re.compile(r"^(\*|[A-Za-z0-9][\w.+-]*)(:[\w.+*-]+)?$")


def lexicon_spec(name: str, value: str) -> str:
    if value and not _LEXICON_SPEC.match(value):
        raise SettingsError(f"{name}={value!r} is not a wn lexicon specifier such as 'oewn:2024'")
    return value


_BAND = re.compile(r"^\s*(?:off|none|(\d*\.?\d+)\s*[-,]\s*(\d*\.?\d+))\s*$", re.I)


def length_band(name: str, value: str) -> str:
    """``low-high`` (low < high) or ``off``; blank: the task's default."""
    m = _BAND.match(value) if value.strip() else None
    if value.strip() and (m is None or (m.group(1) and float(m.group(1)) >= float(m.group(2)))):
        raise SettingsError(f"{name} must look like '0.5-2.0' (low < high) or 'off', got {value!r}")
    return value.strip()
