"""The C lane of :class:`~hucklebuck.vector.VectorGame` (placeholder until the C
state machine covers a game: nothing is covered yet)."""

from __future__ import annotations

from typing import Any

from ..packs import GameKind

__all__ = ["covers"]


def covers(kind: GameKind, players: int, options: Any) -> bool:
    """Whether the C state machine steps this game, player count and options."""
    return False


CLane: Any = None
