"""The :class:`Player` protocol and the random player."""

from __future__ import annotations

import random
from typing import Protocol, TypeVar

from ..actions import Action

__all__ = ["Player", "RandomPlayer"]


class _Observation(Protocol):
    @property
    def legal_actions(self) -> tuple[Action, ...]: ...


ObsT = TypeVar("ObsT", contravariant=True)


class Player(Protocol[ObsT]):
    """Anything that picks a legal action from an observation of type ``ObsT``."""

    def choose(self, observation: ObsT) -> Action:
        """Return one of ``observation.legal_actions``."""
        ...


class RandomPlayer:
    """Chooses uniformly among the legal actions, from its own random source."""

    def __init__(self, rng: random.Random | None = None, *, seed: int | None = None) -> None:
        """Use ``rng``, or a new :class:`random.Random` seeded with ``seed``."""
        self.rng = rng if rng is not None else random.Random(seed)

    def choose(self, observation: _Observation) -> Action:
        """A uniformly random legal action."""
        legal = observation.legal_actions
        if not legal:
            raise ValueError("this seat has no legal action now")
        return self.rng.choice(legal)
