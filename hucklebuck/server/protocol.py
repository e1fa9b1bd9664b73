"""The messages of the table protocol: reading what a client sends, and the
error codes the server answers with.

A client message is a JSON object with a ``type``; :func:`parse_client_message`
turns its text into a :class:`ClientMessage` or raises :class:`ProtocolError`
with the code and plain words the client gets back.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Final

__all__ = [
    "ERROR_CODES",
    "SUBPROTOCOL",
    "TOKEN_PREFIX",
    "ClientMessage",
    "ProtocolError",
    "byte_size",
    "error_message",
    "load_json",
    "parse_client_message",
    "seat_subprotocols",
    "token_from_subprotocols",
]

ERROR_CODES: Final = (
    "bad_message",
    "stale",
    "not_your_turn",
    "illegal",
    "too_large",
    "rate_limited",
    "unknown_table",
    "bad_token",
    "spectator",
    "game_over",
    "not_over",
    "busy",
)
"""Every ``code`` an ``error`` message may carry (see the server documentation)."""

SUBPROTOCOL: Final = "hucklebuck"
"""The WebSocket subprotocol of the table protocol: a client offers it (with its seat token, if
any, as ``hucklebuck.token.TOKEN`` beside it) and the server answers with it."""
TOKEN_PREFIX: Final = "hucklebuck.token."
"""How a seat token is offered: one more subprotocol, ``hucklebuck.token.`` then the token.

The token travels in the ``Sec-WebSocket-Protocol`` request header, never in the address: an
address is what access logs (a proxy's ``option httplog``, uvicorn's access log) record, the
headers of a request are not, and the server never sends the token back."""


def seat_subprotocols(token: str | None) -> list[str]:
    """The subprotocols a client offers to open a seat with ``token`` (``None``: to watch)."""
    return [SUBPROTOCOL] if token is None else [SUBPROTOCOL, TOKEN_PREFIX + token]


def token_from_subprotocols(offered: list[str]) -> str | None:
    """The seat token among the subprotocols a client offered, or ``None`` (a spectator)."""
    for name in offered:
        if name.startswith(TOKEN_PREFIX):
            return name[len(TOKEN_PREFIX) :]
    return None


_TYPES: Final = ("act", "hint", "rematch")
_MAX_ACTION_TEXT: Final = 80


class ProtocolError(Exception):
    """A refused client message: ``code`` (one of :data:`ERROR_CODES`) and plain words."""

    def __init__(self, code: str, message: str) -> None:
        """Refuse with ``code`` and ``message``."""
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class ClientMessage:
    """A well-formed client message."""

    type: str
    """``act``, ``hint`` or ``rematch``."""
    seq: int | None
    """The ``seq`` of the last state the client received (required for ``act`` and ``hint``)."""
    action: int | str | None = None
    """For ``act``: the action's id, or its text as a person or the protocol writes it."""


def byte_size(text: str | bytes, limit: int) -> int:
    """The size of ``text`` in bytes as sent (UTF-8), counted only as far as a comparison with
    ``limit`` needs."""
    if isinstance(text, bytes) or len(text) > limit or len(text) * 4 <= limit:
        return len(text)  # a str of more characters than the limit has at least as many bytes
    return len(text.encode("utf-8", "surrogatepass"))


def load_json(text: str | bytes) -> Any:
    """``json.loads``, with nesting too deep to read refused like any other text that is not JSON.

    Raises :class:`ValueError` (the caller says "not JSON" in its own words).
    """
    try:
        return json.loads(text)
    except RecursionError:
        raise ValueError("the JSON is nested too deeply") from None


def parse_client_message(text: str | bytes, max_size: int) -> ClientMessage:
    """Read one client message; raises :class:`ProtocolError` naming what is wrong."""
    if byte_size(text, max_size) > max_size:
        raise ProtocolError("too_large", f"messages are limited to {max_size} bytes")
    try:
        data = load_json(text)
    except (ValueError, UnicodeDecodeError):
        raise ProtocolError("bad_message", "that message is not JSON") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_message", 'a message must be a JSON object with a "type"')
    kind = data.get("type")
    if kind not in _TYPES:
        raise ProtocolError("bad_message", "the message type must be one of: act, hint, rematch")
    seq = data.get("seq")
    if kind == "rematch":
        return ClientMessage("rematch", seq if _is_int(seq) else None)
    if not _is_int(seq):
        raise ProtocolError("bad_message", f'a {kind} message needs "seq": the number of the last state seen')
    if kind == "hint":
        return ClientMessage("hint", seq)
    action = data.get("action")
    if _is_int(action):
        return ClientMessage("act", seq, action)
    if isinstance(action, str) and action.strip() and len(action) <= _MAX_ACTION_TEXT:
        return ClientMessage("act", seq, action.strip())
    raise ProtocolError("bad_message", 'an act message needs "action": a move\'s id or its text')


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def error_message(code: str, message: str, seq: int) -> dict[str, Any]:
    """The ``error`` message sent to one client."""
    return {"type": "error", "code": code, "message": message, "seq": seq}
