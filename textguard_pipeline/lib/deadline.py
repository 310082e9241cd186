"""A deadline that bounds every socket operation of a request, whatever the server does.

httpx's timeouts bound each read: a server that sends its headers or its body one byte at a time, each byte
within the timeout, holds a request for as long as it likes. Here every connect, read and write of the
thread's current request is given at most the time left until the request's deadline (:func:`scope`), and
fails with a timeout once it has passed; so a request ends by its deadline while it waits for the
connection, the headers or the body.

The clamp sits in the network layer httpcore gives each connection (:class:`DeadlineBackend`), installed into
an ``httpx.Client``'s connection pools by :func:`install` — the one place that touches httpx/httpcore
internals (``transport._pool._network_backend``); it returns False, installing nothing, when they change,
and the deadline tests then fail.
"""

from __future__ import annotations

import threading
import time
from contextlib import contextmanager
from typing import Any, Iterable, Iterator

import httpcore
import httpx

_local = threading.local()


@contextmanager
def scope(deadline: float | None) -> Iterator[None]:
    """Bound the socket operations of this thread by ``deadline`` (``time.monotonic()``; None: no bound)."""
    before = getattr(_local, "deadline", None)
    _local.deadline = deadline
    try:
        yield
    finally:
        _local.deadline = before


def _clamp(timeout: float | None, error: type[Exception]) -> float | None:
    deadline = getattr(_local, "deadline", None)
    if deadline is None:
        return timeout
    left = deadline - time.monotonic()
    if left <= 0:
        raise error("the request's deadline has passed")
    return left if timeout is None else min(timeout, left)


class _Stream(httpcore.NetworkStream):
    def __init__(self, inner: httpcore.NetworkStream):
        self._inner = inner

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return self._inner.read(max_bytes, _clamp(timeout, httpcore.ReadTimeout))

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self._inner.write(buffer, _clamp(timeout, httpcore.WriteTimeout))

    def close(self) -> None:
        self._inner.close()

    def start_tls(self, ssl_context: Any, server_hostname: str | None = None, timeout: float | None = None) -> Any:
        return _Stream(self._inner.start_tls(ssl_context, server_hostname, _clamp(timeout, httpcore.ConnectTimeout)))

    def get_extra_info(self, info: str) -> Any:
        return self._inner.get_extra_info(info)


class DeadlineBackend(httpcore.NetworkBackend):
    """httpcore's network layer with every operation clamped to the current request's deadline."""

    def __init__(self, inner: httpcore.NetworkBackend):
        self._inner = inner

    def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.NetworkStream:
        timeout = _clamp(timeout, httpcore.ConnectTimeout)
        return _Stream(self._inner.connect_tcp(host, port, timeout, local_address, socket_options))

    def connect_unix_socket(
        self, path: str, timeout: float | None = None, socket_options: Iterable[Any] | None = None
    ) -> httpcore.NetworkStream:
        timeout = _clamp(timeout, httpcore.ConnectTimeout)
        return _Stream(self._inner.connect_unix_socket(path, timeout, socket_options))

    def sleep(self, seconds: float) -> None:
        self._inner.sleep(seconds)


def install(client: httpx.Client) -> bool:
    """Put :class:`DeadlineBackend` under every connection pool of ``client`` (its transport and the proxy
    mounts); False when a pool does not look as expected (nothing is then bounded beyond httpx's timeouts)."""
    transports = [client._transport, *client._mounts.values()]  # noqa: SLF001
    pools = [getattr(t, "_pool", None) for t in transports if t is not None]
    if not pools or not all(isinstance(p, httpcore.ConnectionPool) and hasattr(p, "_network_backend") for p in pools):
        return False
    for pool in pools:
        if not isinstance(pool._network_backend, DeadlineBackend):  # noqa: SLF001
            pool._network_backend = DeadlineBackend(pool._network_backend)  # noqa: SLF001
    return True
