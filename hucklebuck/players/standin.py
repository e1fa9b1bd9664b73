"""A stand-in: a computer player that plays for a person who is away.

A table server hands an absent person's seat to a computer player until they
come back (the *takeover* player: ``heuristic`` unless the server is told
otherwise).  That player plays for someone who did not choose its risks, so
:class:`StandIn` holds it to one rule, whatever its kind: **it never takes a
risk whose best outcome cannot help the person it plays for.**

In the three games the one such move is a Hucklebuck moon that cannot win the
game: from zero or below a made moon only brings the score back to 0 (5 from
exactly 0 with ``moon_at_zero=score_normally``), while a missed one costs 15,
often the game.  A moon from above 0 (or from exactly 0 with
``moon_at_zero=win``) wins the game when it is made, so the stand-in's player
may bid it when it judges it worth the risk.  Every other move of the three
games leaves the person nearer winning at its best (a made bid scores its
points, a trick taken counts), so the stand-in plays them as its kind does.

>>> from hucklebuck.games import HucklebuckGame
>>> game = HucklebuckGame(4, dealer=0, scores=[0, -5, 0, 0], seed=1)
>>> obs = game.observation(game.to_act)
>>> [str(a) for a in hopeless_moves(obs)]
['1 bid 5']
>>> stand_in = make_stand_in("random", "hucklebuck", seed=3)
>>> all(stand_in.choose(obs) in safe_moves(obs) for _ in range(50))
True
"""

from __future__ import annotations

import dataclasses
from typing import Any

from ..actions import Action, Bid
from ..games.hucklebuck import HucklebuckObservation, MoonAtZero
from ..packs import GameKind
from . import make_player
from .base import check_observation

__all__ = ["StandIn", "hopeless_moves", "make_stand_in", "moon_can_win", "safe_moves"]


def moon_can_win(observation: HucklebuckObservation) -> bool:
    """Whether the seat's moon would win the game if it took all five tricks: from a score above
    0, or from exactly 0 under ``moon_at_zero=win`` (from zero or below it only resets to 0)."""
    score = observation.scores[observation.seat]
    return score > 0 or (score == 0 and observation.options.moon_at_zero is MoonAtZero.WIN)


def hopeless_moves(observation: Any) -> tuple[Action, ...]:
    """The legal moves whose best outcome cannot help the seat: in Hucklebuck a moon bid that
    cannot win the game (see the module docstring); none in the other games."""
    game = check_observation(observation)
    if game is not GameKind.HUCKLEBUCK or moon_can_win(observation):
        return ()
    return tuple(a for a in observation.legal_actions if isinstance(a, Bid) and a.amount == 5)


def safe_moves(observation: Any) -> tuple[Action, ...]:
    """The legal moves a stand-in may make: all of them but :func:`hopeless_moves` (never empty:
    a moon is never a seat's only legal move)."""
    hopeless = hopeless_moves(observation)
    legal: tuple[Action, ...] = observation.legal_actions
    return tuple(a for a in legal if a not in hopeless) if hopeless else legal


class StandIn:
    """Plays for an absent person: ``player``'s choice among :func:`safe_moves`.

    The player is shown the observation with the hopeless moves taken out of its legal
    actions, so it picks its own best of the rest (a Monte Carlo player's next-ranked move,
    the heuristic's own rule, a random player's draw among them); a move of another kind
    that still comes back hopeless is replaced by the first safe one.
    """

    def __init__(self, player: Any) -> None:
        """Stand in with ``player`` (anything with ``choose(observation) -> Action``)."""
        self.player = player

    def choose(self, observation: Any) -> Action:
        """The player's move, never one of :func:`hopeless_moves`."""
        safe = safe_moves(observation)
        shown = observation
        if len(safe) < len(observation.legal_actions):
            shown = dataclasses.replace(observation, legal_actions=safe)
        action: Action = self.player.choose(shown)
        return action if action in safe else safe[0]


def make_stand_in(kind: str, game: GameKind | str, *, seed: int | None = None) -> StandIn:
    """A :class:`StandIn` playing with a new player of ``kind`` (see
    :func:`~hucklebuck.players.make_player`, which checks ``kind``, ``game`` and ``seed``)."""
    return StandIn(make_player(kind, game, seed=seed))
