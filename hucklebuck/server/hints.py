"""Hints for a person at a table: the same advice the terminal's ``hint`` gives.

:func:`hint_for` asks :func:`hucklebuck.players.hints.hint` (the Monte Carlo
player's ranking: each move's chance of winning the game, or expected chips in
Buck 'Em, over sampled deals of the hidden cards) and answers with the body of
the protocol's ``hint`` message.
"""

from __future__ import annotations

from typing import Any

from ..games.engine import TrickGame
from ..players.hints import DEFAULT_HINT_SAMPLES, hint
from .views import legal_moves

__all__ = ["HINT_SAMPLES", "hint_for"]

HINT_SAMPLES = DEFAULT_HINT_SAMPLES
"""Sampled deals per hint: the terminal's own number, so both give the same advice."""


def hint_for(game: TrickGame[Any, Any], seat: int, *, samples: int = HINT_SAMPLES) -> dict[str, Any]:
    """The ``hint`` message body for ``seat`` (to act): each move with its value, the best one, why."""
    observation = game.observation(seat)
    advice = hint(observation, samples=samples, seed=len(observation.history) * 7919 + game.hand_number)
    moves = {m["id"]: m for m in legal_moves(game, [m.action for m in advice.moves])}
    out = []
    for rated in advice.moves:
        move = moves[game.action_id(rated.action)]
        out.append(
            {
                "id": move["id"],
                "text": move["text"],
                "value": round(rated.value, 3),
                "value_text": advice.figure(rated),
            }
        )
    why = advice.reason  # the page says the sample size once, beside the list (from "samples")
    return {"type": "hint", "moves": out, "best": out[0]["id"], "why": why, "samples": advice.samples}
