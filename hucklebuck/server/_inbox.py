"""A table connection's incoming messages: each is checked and handled in the order it came.

The table's WebSocket handler takes a person's messages one by one from its connection.  Where
``hucklebuck serve``'s own WebSocket protocol offers it (the scope extension
:data:`~hucklebuck.server.netlimits.RECEIVE_NOW`), a message that arrives while none waits is
handled at once, in the turn of the event loop that read it, instead of waking the handler's
task: :meth:`Inbox.take_now`.  Either way a message meets the same checks, in the same order (the
connection's rate, the message's size and form, then the table), and gets the same answers.  A
message that ends the connection (too many messages, or one too large) is handed back to the
handler's task, which sends the refusal and closes: :meth:`Inbox.handle`.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

from .protocol import ProtocolError, error_message, parse_client_message

__all__ = ["Bucket", "Inbox"]


class Bucket:
    """A token bucket: ``rate`` messages a second on average, ``burst`` at once."""

    def __init__(self, rate: float, burst: int) -> None:
        """A full bucket."""
        self.rate, self.burst = rate, burst
        self.tokens = float(burst)
        self.last = time.monotonic()

    @property
    def full(self) -> bool:
        """Whether the bucket has refilled (it may be forgotten)."""
        return self.tokens + (time.monotonic() - self.last) * self.rate >= self.burst

    def take(self) -> bool:
        """Take a token if there is one: whether there was."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


_End = tuple[str, str, int, str]
"""How a connection ends: the error's code and words for the client, the close code and reason."""

_TOO_MANY: _End = ("rate_limited", "too many messages; goodbye", 1008, "too many messages")


class Inbox:
    """One connection's incoming messages to its table.

    ``conn`` is the table's connection (its ``send_text``, ``finish``, ``close_or_cut`` and
    ``writer`` task), ``table`` the table it joined (looked up again in ``tables`` at each
    message, since a table handed over comes back as a new object), ``bucket`` the connection's
    rate, ``max_message`` the largest message in bytes, ``say`` the operator's report.
    """

    def __init__(
        self,
        conn: Any,
        table: Any,
        tables: dict[str, Any],
        bucket: Bucket,
        max_message: int,
        say: Callable[[str], None],
    ) -> None:
        """An open inbox for ``conn`` at ``table``."""
        self.conn, self.table, self.tables = conn, table, tables
        self.bucket, self.max_message, self.say = bucket, max_message, say
        self.open = True
        """Messages may still be handled at once (not once the connection ends)."""
        self._held: _End | Exception | None = None
        """What :meth:`take_now` found about the message it handed back, for :meth:`handle`."""

    def take_now(self, data: str | bytes) -> bool:
        """Handle ``data``, a message that arrived while none waits, at once.  ``False``: it was
        not handled and goes to :meth:`handle` in the handler's task, next (it ends the
        connection, or handling it raised, or the connection is ending)."""
        if not self.open or self.conn.writer.done():
            return False
        try:
            end = self._step(data)
        except Exception as exc:  # raised in the handler's task, as if it had been handled there
            self._held, self.open = exc, False
            return False
        if end is not None:
            self._held, self.open = end, False
            return False
        return True

    async def handle(self, data: str | bytes) -> bool:
        """Handle ``data`` in the handler's task; ``True``: the connection was ended (refused and
        closed) and the handler stops."""
        held, self._held = self._held, None
        if held is None:
            end = self._step(data)
        elif isinstance(held, Exception):
            raise held
        else:
            end = held
        if end is None:
            return False
        self.open = False
        code, words, close_code, reason = end
        conn = self.conn
        conn.send_text(json.dumps(error_message(code, words, self.table.seq)))
        await conn.finish()
        await conn.close_or_cut(close_code, reason)
        return True

    def _step(self, data: str | bytes) -> _End | None:
        """Check and handle one message; how the connection ends, if it must (nothing sent yet)."""
        if not self.bucket.take():
            return _TOO_MANY
        try:
            parsed = parse_client_message(data, self.max_message)
        except ProtocolError as exc:
            if exc.code == "too_large":
                return (exc.code, exc.message, 1009, "message too large")
            self.conn.send_text(json.dumps(error_message(exc.code, exc.message, self.table.seq)))
            return None
        table = self.table = self.tables.get(self.table.id, self.table)
        try:
            table.client_message(self.conn, parsed)
        except Exception as exc:  # a message must never end the handler: refuse it, keep going
            self.say(f"a message to table {table.id} could not be handled: {type(exc).__name__} {exc}")
            words = "that message cannot be read as a move"
            self.conn.send_text(json.dumps(error_message("illegal", words, table.seq)))
        return None
