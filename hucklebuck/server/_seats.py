"""A table's seats and clients: who sits where, the connection interface, a refusal, the
seat interface a computer seat gets (used by :mod:`hucklebuck.server.tables`, which makes
them available under its own name too)."""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from .moves import MoveReader
from .protocol import ClientMessage

if TYPE_CHECKING:
    from .tables import ServerTable

__all__ = ["Connection", "Seat", "TableRefused", "token_digest"]


class Connection(Protocol):
    """A client of a table (a WebSocket, or a test's stand-in)."""

    seat: int | None
    """The seat it holds, or ``None`` for a spectator."""

    def send_text(self, text: str) -> None:
        """Queue one message (JSON text) without waiting."""
        ...

    def close(self, code: int, reason: str) -> None:
        """Close the connection (after what is queued) with a WebSocket close code."""
        ...


class TableRefused(Exception):
    """A request the server turns down (too many tables, unknown table...): ``code`` and plain words."""

    def __init__(self, code: str, message: str) -> None:
        """Refuse with ``code`` and ``message``."""
        super().__init__(message)
        self.code = code
        self.message = message


def token_digest(token: str) -> str:
    """What the store keeps of a seat token (the token itself is never stored or logged)."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


@dataclass
class Seat:
    """One seat: who sits there and, while the server runs, whether they are here."""

    kind: str
    name: str
    player: str | None
    digest: str | None
    away: bool = False
    """A person's seat the computer plays while they are gone."""
    connections: int = 0
    returning: bool = False
    """The person is back but the computer is finishing the move it began."""
    grace_until: float | None = None
    """While nobody is connected to a person's seat: when (``time.monotonic()``) the computer takes it."""
    opened: bool = False
    """Someone has opened this person's seat link (until then the seat waits longer: "not here yet")."""

    def stored(self) -> dict[str, Any]:
        """The seat as stored."""
        return {
            "kind": self.kind,
            "name": self.name,
            "player": self.player,
            "digest": self.digest,
            "away": self.away,
            "opened": self.opened,
        }

    def public(self) -> dict[str, Any]:
        """The seat's fields every view shows."""
        return {
            "name": self.name,
            "kind": self.kind,
            "player": self.player,
            "connected": self.kind == "computer" or self.connections > 0,
            "away": self.away,
            "opened": self.kind == "computer" or self.opened,
            "grace_left": None
            if self.grace_until is None
            else max(0, round(self.grace_until - time.monotonic())),
        }


class _AgentClient:
    """The seat interface a computer seat gets: its observation, and the act message."""

    def __init__(self, table: ServerTable, seat: int) -> None:
        self.table = table
        self.seat = seat

    def observation(self) -> tuple[int, Any]:
        """The table's ``seq`` and the seat's observation.  The legal moves it lists become the
        table's reader's for this state (when none is kept yet), so the move that comes back is
        checked against the same list rather than one made again: a reader is kept for one state
        and one game only (see :attr:`ServerTable.reader`), so a stale move is refused as ever."""
        table, seat = self.table, self.seat
        seq, game = table.seq, table.game
        observation = game.observation(seat)
        kept = table._reader
        if (kept is None or kept[0] != seq or kept[1] is not game) and game.to_act == seat:
            table._reader = (seq, game, MoveReader(game, observation.legal_actions))
        return seq, observation

    def send(self, message: ClientMessage) -> None:
        self.table.agent_message(self.seat, message)

    def notice(self, text: str) -> None:
        self.table.notice(f"{self.table.seats[self.seat].name}: {text}")
