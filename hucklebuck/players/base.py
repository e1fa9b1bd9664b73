"""The :class:`Player` protocol, the random player, and the checks every player
makes on what it is given."""

from __future__ import annotations

import random
from typing import Any, Protocol, TypeVar

from .._validate import shown
from ..actions import Action
from ..errors import IllegalAction, OptionsError
from ..games.buckem import BuckEmObservation
from ..games.deerpark import DeerParkObservation
from ..games.hucklebuck import HucklebuckObservation
from ..packs import GameKind

__all__ = ["Player", "RandomPlayer", "check_observation", "check_seed"]

_KINDS: dict[type, GameKind] = {
    HucklebuckObservation: GameKind.HUCKLEBUCK,
    DeerParkObservation: GameKind.DEERPARK,
    BuckEmObservation: GameKind.BUCKEM,
}


class _Observation(Protocol):
    @property
    def legal_actions(self) -> tuple[Action, ...]: ...


ObsT = TypeVar("ObsT", contravariant=True)


class Player(Protocol[ObsT]):
    """Anything that picks a legal action from an observation of type ``ObsT``."""

    def choose(self, observation: ObsT) -> Action:
        """Return one of ``observation.legal_actions``."""
        ...


def check_observation(observation: object, game: GameKind | None = None) -> GameKind:
    """The game of ``observation``, after checking that a player can decide on it.

    It must be an observation from ``game.observation(seat)`` of one of the
    three games (of ``game`` when given), of the seat whose turn it is.
    Anything else raises a library error: :class:`~hucklebuck.errors.OptionsError`
    for something that is not such an observation,
    :class:`~hucklebuck.errors.IllegalAction` when the seat has no legal action.
    """
    kind = _KINDS.get(type(observation))
    if kind is None:
        for cls, k in _KINDS.items():  # subclasses too
            if isinstance(observation, cls):
                kind = k
                break
    if kind is None:
        raise OptionsError(
            "a player decides on an observation of a Hucklebuck, Buck 'Em or Deer Park Euchre game "
            f"(from game.observation(seat)), not {shown(observation)}"
        )
    if game is not None and kind is not game:
        raise OptionsError(f"this player plays {game.title}; it was given an observation of {kind.title}")
    obs: Any = observation
    if obs.seat is None:
        raise IllegalAction("an onlooker's view has no moves: give the observation of the seat to act")
    if not obs.legal_actions:
        raise IllegalAction(f"seat {obs.seat} has no legal action now (it is not its turn)")
    return kind


def check_seed(seed: object) -> int | None:
    """``seed`` if it is ``None`` or an integer, else :class:`~hucklebuck.errors.OptionsError`."""
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise OptionsError(f"seed must be an integer or None, not {shown(seed)}")
    return seed


class RandomPlayer:
    """Chooses uniformly among the legal actions, from its own random source."""

    def __init__(self, rng: random.Random | None = None, *, seed: int | None = None) -> None:
        """Use ``rng``, or a new :class:`random.Random` seeded with ``seed`` (an integer or ``None``)."""
        if rng is not None and not isinstance(rng, random.Random):
            raise OptionsError(f"rng must be a random.Random, not {shown(rng)}")
        self.rng = rng if rng is not None else random.Random(check_seed(seed))

    def choose(self, observation: _Observation) -> Action:
        """A uniformly random legal action (see :func:`check_observation` for what it refuses)."""
        check_observation(observation)
        return self.rng.choice(observation.legal_actions)
