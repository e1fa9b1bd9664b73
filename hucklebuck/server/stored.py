"""A table's last stored form, kept beside it so that a change needs no copy of the game.

Before each change the server used to copy the whole game (its histories one level deep), in
case the batch holding the change could not be stored and the table had to be put back.  That
copy was one of the larger costs of a change, and it is almost never used.  The table keeps
instead what the store holds of it: the game as at its last whole-table row (a copy, made at
those rarer changes) and the moves stored since (:class:`Stored`), updated after each commit.
When the table is at that state, an undo point just notes it (:class:`StoredPoint`); putting
the table back rebuilds the game from the stored form, as a restart would (:func:`rebuild`).
Only then is the cost paid.

A table with changes not yet stored (a batch of a shared database still being written) gets a
copy, as before: the note is used only when the stored form is the table's state.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from ..games.engine import TrickGame
from .store import DEAL, StoredTable

__all__ = ["Stored", "StoredPoint", "note_commit", "rebuild", "replay_moves"]


class StoredPoint(NamedTuple):
    """An undo point's game when the table's state is its stored form: that form as it is then
    (the game at the last whole row, the list of moves, which only grows, and how many of them
    count, ``upto``); no copy of the game is made."""

    game: TrickGame[Any, Any]
    moves: list[str]
    upto: int

    def stored(self, seq: int) -> Stored:
        """The stored form this point stands for, at ``seq``."""
        return Stored(self.game, self.moves[: self.upto], seq)


class Stored:
    """What the store holds of one table: the game as its last whole row holds it (a copy no one
    changes), the moves (protocol text, or :data:`~hucklebuck.server.store.DEAL`) stored since,
    and the ``seq`` they bring it to."""

    __slots__ = ("game", "moves", "seq")

    def __init__(self, game: TrickGame[Any, Any], moves: Sequence[str], seq: int) -> None:
        """The stored form at ``seq`` (``game`` is kept as it is: pass a copy)."""
        self.game = game
        self.moves = list(moves)
        self.seq = seq

    def point(self) -> StoredPoint:
        """An undo point's game for a table at this stored form."""
        return StoredPoint(self.game, self.moves, len(self.moves))


def replay_moves(game: TrickGame[Any, Any], moves: Sequence[str]) -> None:
    """Apply stored moves (protocol text, or :data:`~hucklebuck.server.store.DEAL`) to ``game``."""
    for text in moves:
        if text == DEAL:
            game.next_hand()
        else:
            game.apply(text)


def rebuild(stored: Stored) -> TrickGame[Any, Any]:
    """A new game as ``stored`` holds it: the kept game copied, and the stored moves replayed."""
    game = stored.game.copy()
    replay_moves(game, stored.moves)
    return game


def note_commit(batch: Sequence[tuple[Any, int, str | None, Any]], rows: Sequence[StoredTable]) -> None:
    """A batch was stored: bring each of its tables' :class:`Stored` up to date.  ``batch``
    holds (table, seq after the change, the move or ``None``, ...) in the order of the changes;
    ``rows`` the whole tables written, whose game is copied if the table is still at that row
    (else, and for moves that do not follow on from the stored form, which the server never
    does, the table keeps none and is copied again at its next change)."""
    whole = {row.id: row for row in rows}
    written: dict[str, Any] = {}
    for table, seq, move, _failed in batch:
        if table.id in whole:
            written[table.id] = table
            continue
        kept: Stored | None = table.stored
        if kept is None or move is None:
            continue
        if kept.seq == seq - 1:
            kept.moves.append(move)
            kept.seq = seq
        else:
            table.stored = None
    for table_id, table in written.items():
        same = table.seq == whole[table_id].seq
        table.stored = Stored(table.game.copy(), (), table.seq) if same else None
