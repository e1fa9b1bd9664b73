"""Which requests the server answers at all: the ``Host`` it is reached by, and
where a state-changing request comes from.

:class:`RequestGuard` is an ASGI middleware in front of the whole application:

* **Host.**  Every request (HTTP and WebSocket) must name the server by one of
  its own names: an IP address, ``localhost``, a name given with
  ``--hostname``, or the host of an origin given with ``--origin``.  A page of
  another site that points its own name at this server (DNS rebinding) sends
  its own name, and is refused; so comparing ``Origin`` with ``Host`` below
  compares with a name the server knows.
* **Where it comes from.**  A request that changes something (any method but
  ``GET``, ``HEAD`` and ``OPTIONS``) is refused when the browser says it comes
  from another site (``Sec-Fetch-Site``) or names another origin (``Origin``),
  unless that origin was given with ``--origin``.
* **JSON only.**  Its body must be declared JSON (``Content-Type:
  application/json``): a page of another site can send a "simple" request
  (``text/plain``, a form) without asking the server first, but not that.

The WebSocket ``Origin`` is checked by the table WebSocket itself
(:func:`origin_allowed`), after this guard has checked the ``Host``.

:class:`PageHeaders` puts :data:`PAGE_HEADERS` on every HTTP answer (pages, files,
the API, refusals): no other site may frame the pages (so nobody can be led to click
*Create the table* inside someone else's page), the pages load nothing from elsewhere,
a link followed out of a page says nothing of where it came from, and a file is only
ever read as the type it is sent as.
"""

from __future__ import annotations

import ipaddress
import json
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any
from urllib.parse import urlsplit

__all__ = [
    "PAGE_HEADERS",
    "SAFE_METHODS",
    "PageHeaders",
    "RequestGuard",
    "allowed_hosts",
    "host_name",
    "origin_allowed",
]

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
"""Methods that change nothing, so any page may send them."""

PAGE_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", b"default-src 'self'; frame-ancestors 'none'"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-content-type-options", b"nosniff"),
)
"""The headers every HTTP answer carries (see the module docstring)."""

_Scope = MutableMapping[str, Any]
_Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
_Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]


def host_name(value: str) -> str:
    """The name part of a ``Host`` header or an origin's host (no port, lower case, no brackets)."""
    value = value.strip().lower()
    if value.startswith("["):  # [::1]:8000
        return value[1 : value.find("]")] if "]" in value else value
    if value.count(":") == 1:
        value = value.split(":", 1)[0]
    return value.rstrip(".")


def _is_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def allowed_hosts(hostnames: Iterable[str], origins: Iterable[str]) -> frozenset[str]:
    """The names (besides IP addresses) a request's ``Host`` may carry."""
    names = {"localhost"}
    names.update(host_name(h) for h in hostnames if h.strip())
    for origin in origins:
        host = urlsplit(origin).hostname
        if host:
            names.add(host.lower())
    return frozenset(names)


def host_allowed(host: str, names: frozenset[str]) -> bool:
    """Whether a ``Host`` header names this server."""
    name = host_name(host)
    return bool(name) and (name in names or _is_address(name))


def origin_allowed(origin: str, host: str, scheme: str, origins: Iterable[str]) -> bool:
    """Whether a page of ``origin`` may change things on (or open a table WebSocket of) the server
    reached as ``host``: the server's own origin, or one given with ``--origin``."""
    if origin in origins:
        return True
    own = "https" if scheme in ("https", "wss") else "http"
    return origin in (f"{own}://{host}", f"http://{host}", f"https://{host}")


class RequestGuard:
    """The ASGI middleware described in the module docstring."""

    def __init__(
        self, app: Callable[[_Scope, _Receive, _Send], Awaitable[None]], *, hostnames: Iterable[str],
        origins: Iterable[str],
    ) -> None:  # fmt: skip
        """Guard ``app``; ``hostnames`` and ``origins`` as ``--hostname`` and ``--origin`` give them."""
        self.app = app
        self.origins = tuple(origins)
        self.names = allowed_hosts(hostnames, self.origins)

    async def __call__(self, scope: _Scope, receive: _Receive, send: _Send) -> None:
        """Answer a refused request here; pass every other one on."""
        kind = scope.get("type")
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = _headers(scope)
        refusal = self.refusal(kind, scope.get("method", "GET"), scope.get("scheme", "http"), headers)
        if refusal is None:
            await self.app(scope, receive, send)
        elif kind == "websocket":
            await send({"type": "websocket.close", "code": 1008, "reason": refusal[2][:120]})
        else:
            await _send_error(send, *refusal)

    def refusal(
        self, kind: str, method: str, scheme: str, headers: dict[str, str]
    ) -> tuple[int, str, str] | None:
        """``(status, code, message)`` for a request to refuse, else ``None``."""
        host = headers.get("host", "")
        if not host_allowed(host, self.names):
            shown = host_name(host)[:60] or "no name"
            return (
                421,
                "wrong_host",
                f"this server does not answer to the name {shown} "
                "(its operator can allow it with --hostname)",
            )
        if kind != "http" or method in SAFE_METHODS:
            return None
        origin = headers.get("origin")
        site = headers.get("sec-fetch-site")
        listed = origin is not None and origin in self.origins
        if site is not None and site not in ("same-origin", "none") and not listed:
            return 403, "forbidden", "a page of another site may not change anything on this server"
        if origin is not None and not origin_allowed(origin, host, scheme, self.origins):
            return 403, "forbidden", "a page of another site may not change anything on this server"
        media = headers.get("content-type", "").split(";", 1)[0].strip().lower()
        if media != "application/json":
            return 415, "not_json", "the request body must be JSON, sent as Content-Type: application/json"
        return None


class PageHeaders:
    """The ASGI middleware that adds :data:`PAGE_HEADERS` to every HTTP answer (replacing any
    of the same name the answer set itself)."""

    def __init__(self, app: Callable[[_Scope, _Receive, _Send], Awaitable[None]]) -> None:
        """Add the headers to ``app``'s answers."""
        self.app = app

    async def __call__(self, scope: _Scope, receive: _Receive, send: _Send) -> None:
        """Pass the request on; add the headers as the answer starts."""
        if scope.get("type") != "http":
            await self.app(scope, receive, send)
            return
        names = {name for name, _value in PAGE_HEADERS}

        async def send_with_headers(message: MutableMapping[str, Any]) -> None:
            if message.get("type") == "http.response.start":
                kept = [(k, v) for k, v in message.get("headers", ()) if bytes(k).lower() not in names]
                message["headers"] = kept + list(PAGE_HEADERS)
            await send(message)

        await self.app(scope, receive, send_with_headers)


def _headers(scope: _Scope) -> dict[str, str]:
    out: dict[str, str] = {}
    for raw_name, raw_value in scope.get("headers", ()):
        name = raw_name.decode("latin-1").lower()
        value = raw_value.decode("latin-1")
        if out.setdefault(name, value) != value:
            out[name] = "\x00"  # repeated with another value: neither is trusted (never a valid one)
    return out


async def _send_error(send: _Send, status: int, code: str, message: str) -> None:
    body = json.dumps({"error": {"code": code, "message": message}}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": body})
