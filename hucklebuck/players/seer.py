"""The seer: a measuring stick that sees every card.

:class:`SeerPlayer` is not a fair player.  It *watches* the game it sits in
and reads every hand from it, then chooses as the Monte Carlo search would
if the deal were known: each legal action is valued on the true deal (only
the undealt cards left to chance, see
:func:`hucklebuck.players.accuracy.true_values`) and the best is played.

It exists to answer one question: how much is knowing the other seats' cards
worth to this search?  Inference can at best recover what the seer has, so
a tournament of the seer against ``mc-blind`` (the same search, every deal
counted alike) is the ceiling of what inference could show:

.. code-block:: console

   $ hucklebuck tournament deerpark --players 4 --bots seer,mc-blind --games 400

Only the tournament seats it (kinds ``seer`` and ``seer-solver``, see
:data:`SEER_KINDS`): it is no player kind of :func:`~hucklebuck.players.make_player`,
so no table, terminal game or server ever gets one.
"""

from __future__ import annotations

import random
from typing import Any

from ..actions import Action
from ..errors import OptionsError
from .base import check_observation, check_seed

__all__ = ["SEER_KINDS", "SeerPlayer", "make_seer"]

SEER_KINDS: tuple[str, ...] = ("seer", "seer-solver")
"""The tournament's seer kinds: the rest of each hand played by the core's playout policy
(``seer``, as the default player's search plays it), or solved with open cards
(``seer-solver``, as ``mc-solver``'s)."""


class SeerPlayer:
    """Chooses the best action on the true deal of the game it watches (see the module)."""

    def __init__(self, *, samples: int = 96, method: str = "playout", seed: int | None = None) -> None:
        """``samples`` deals of the undealt cards for each action, ``method`` ``"playout"`` or
        ``"solver"`` (how the rest of the hand is played); a bad one raises :class:`OptionsError`."""
        if isinstance(samples, bool) or not isinstance(samples, int) or not 1 <= samples <= 100_000:
            raise OptionsError(f"samples must be an integer from 1 to 100000, not {samples!r}")
        if method not in ("playout", "solver"):
            raise OptionsError(f"unknown method {method!r} (use one of: playout, solver)")
        self.samples = samples
        self.method = method
        self.rng = random.Random(check_seed(seed))
        self.game: Any = None

    def watch(self, game: Any) -> None:
        """Sit in ``game``: the seer reads every hand from it from now on."""
        self.game = game

    def choose(self, observation: Any) -> Action:
        """The legal action with the best value on the true deal."""
        check_observation(observation)
        legal = list(observation.legal_actions)
        if len(legal) == 1:
            only: Action = legal[0]
            return only
        game = self.game
        if game is None:
            raise OptionsError("a seer chooses only in a game it watches: call watch(game) first")
        if game.to_act != observation.seat or game.hand(observation.seat) != observation.hand:
            raise OptionsError("this observation is not of the game the seer watches, or not of its turn now")
        from .accuracy import true_values

        values = true_values(observation, game, legal, self.rng.getrandbits(62), self.samples, self.method)
        best = max(range(len(legal)), key=lambda i: (values[i], -i))
        chosen: Action = legal[best]
        return chosen


def make_seer(kind: str, *, seed: int | None = None) -> SeerPlayer:
    """A new seer of ``kind`` (one of :data:`SEER_KINDS`); another kind raises :class:`OptionsError`."""
    if kind == "seer":
        return SeerPlayer(seed=seed)
    if kind == "seer-solver":
        return SeerPlayer(method="solver", seed=seed)
    raise OptionsError(f"unknown seer kind {kind!r} (use one of: {', '.join(SEER_KINDS)})")
