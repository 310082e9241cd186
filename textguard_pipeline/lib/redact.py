"""The one redaction rule: credentials never reach a message, a report, a log, metadata or a cache entry.

* user-info in a URL (``https://user:password@host`` → ``https://user:***@host``; a lone token as user name,
  ``https://TOKEN@host``, → ``https://***@host``), in any text, wherever the URL sits in it;
* credential-looking query parameters (``?api_key=…``, ``key``, ``token``, ``access_token``, ``password``,
  ``secret``, ``sig``) → ``***``;
* ``Bearer <token>`` / ``Basic <token>`` → ``Bearer ***``;
* every secret this process was told about (:func:`register_secret`: the LLM API key, a URL's password),
  wherever it appears, e.g. echoed in an endpoint's error body.

Apply :func:`redact` to any text that leaves the process; :func:`redact_url` to a URL kept as a value.
"""

from __future__ import annotations

import re
import threading
from urllib.parse import unquote

MASK = "***"

# scheme://userinfo@ — userinfo stops at the first '/', whitespace or quote; '@' ends it
_USERINFO = re.compile(r"(?P<scheme>\b[a-zA-Z][a-zA-Z0-9+.\-]*://)(?P<info>[^/\s@'\"<>]+)@")
_QUERY = re.compile(
    r"(?P<name>[?&](?:api[_-]?key|key|token|access[_-]?token|password|passwd|secret|sig|signature)=)[^&#\s'\"<>]+",
    re.I,
)
_AUTH = re.compile(r"\b(?P<scheme>Bearer|Basic)\s+[A-Za-z0-9._~+/=\-]{4,}", re.I)

_lock = threading.Lock()
_secrets: set[str] = set()


def register_secret(value: str | None) -> None:
    """Mask ``value`` wherever it appears from now on in this process (ignored when shorter than 4 characters:
    masking "a" everywhere would garble every message)."""
    if value and len(value) >= 4:
        with _lock:
            _secrets.add(value)
            decoded = unquote(value)
            if decoded != value and len(decoded) >= 4:
                _secrets.add(decoded)


def register_url(url: str | None) -> None:
    """Register the password (or lone token) of ``url``'s user-info as a secret."""
    m = _USERINFO.search(url or "")
    if m:
        user, _, password = m.group("info").partition(":")
        register_secret(password or user)


def _mask_info(m: re.Match[str]) -> str:
    user, sep, _ = m.group("info").partition(":")
    return f"{m.group('scheme')}{user}:{MASK}@" if sep else f"{m.group('scheme')}{MASK}@"


def redact(text: str) -> str:
    """``text`` with every credential masked (see the module docstring)."""
    if not text:
        return text
    text = _USERINFO.sub(_mask_info, text)
    text = _QUERY.sub(lambda m: m.group("name") + MASK, text)
    text = _AUTH.sub(lambda m: f"{m.group('scheme')} {MASK}", text)
    with _lock:
        secrets = sorted(_secrets, key=len, reverse=True)
    for secret in secrets:
        if secret in text:
            text = text.replace(secret, MASK)
    return text


def redact_url(url: str) -> str:
    """A URL fit to show or store: user-info and credential parameters masked."""
    return redact(url)


def has_userinfo(url: str) -> bool:
    """Whether ``url`` carries a user name or password."""
    return bool(_USERINFO.search(url or ""))
