"""Hints for a person at a table: one small, replaceable function.

:func:`hint_for` rates every legal move of ``seat`` with the Monte Carlo
player's analysis (:meth:`~hucklebuck.players.MonteCarloPlayer.analyse`: the
expected change of the seat's game score over sampled deals of the hidden
cards; in Deer Park Euchre minus the hands still needed to reach a goal) and
answers with the body of the protocol's ``hint`` message.
"""

from __future__ import annotations

from typing import Any

from ..games.engine import TrickGame
from ..packs import GameKind
from ..players import MonteCarloPlayer
from .views import legal_moves

__all__ = ["HINT_SAMPLES", "hint_for"]

HINT_SAMPLES = 200
"""Sampled deals per hint."""

_UNITS = {
    GameKind.HUCKLEBUCK: "{:+.2f} points expected",
    GameKind.BUCKEM: "{:+.2f} chips expected",
    GameKind.DEERPARK: "{:+.2f} (minus the hands still needed to reach a goal; higher is better)",
}


def hint_for(game: TrickGame[Any, Any], seat: int, *, samples: int = HINT_SAMPLES) -> dict[str, Any]:
    """The ``hint`` message body for ``seat`` (to act): each move with its value, the best one, why."""
    observation = game.observation(seat)
    player = MonteCarloPlayer(samples=samples, seed=len(observation.history) * 7919 + game.hand_number)
    rated = player.analyse(observation)
    moves = {m["id"]: m for m in legal_moves(game, [a for a, _ in rated])}
    words = _UNITS[game.kind]
    out = []
    for action, value in rated:
        move = moves[game.action_id(action)]
        out.append(
            {
                "id": move["id"],
                "text": move["text"],
                "value": round(value, 3),
                "value_text": words.format(value),
            }
        )
    best = out[0]
    why = (
        f"Over {samples} sampled deals of the cards you cannot see, {best['text']} gives the best expected "
        f"result ({best['value_text']})."
    )
    return {"type": "hint", "moves": out, "best": best["id"], "why": why, "samples": samples}
