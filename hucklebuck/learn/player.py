"""A trained network as a :class:`~hucklebuck.players.Player`: :class:`LearnedPlayer`.

The player turns the observation it is given into the observation tensor with
:func:`hucklebuck.games.tensors.tensor_of` (the very tensor the network was
trained on in the batched lane), and plays the legal action the network
likes most (or samples one, ``greedy=False``).
"""

from __future__ import annotations

import os
import zipfile
from typing import Any

import numpy as np

from ..actions import Action
from ..errors import OptionsError
from ..games.ids import action_id
from ..games.tensors import tensor_of
from ..packs import GameKind
from ..players.base import check_observation
from ._net import Network, masked_softmax

__all__ = ["LearnedPlayer", "load_network", "shipped_weights"]


def shipped_weights(game: GameKind) -> str | None:
    """The path of the trained weights shipped for ``game`` (4 players), or None if none ship."""
    path = os.path.join(os.path.dirname(__file__), "weights", f"{game.value}-4.npz")
    return path if os.path.exists(path) else None


def load_network(path: str | os.PathLike[str]) -> Network:
    """The network saved at ``path`` (a checkpoint of ``python -m hucklebuck.learn train``).

    A missing or unreadable file raises :class:`~hucklebuck.errors.OptionsError`
    naming it."""
    try:
        return Network.load(os.fspath(path))
    except (OSError, ValueError, KeyError, zipfile.BadZipFile, EOFError) as exc:
        raise OptionsError(f"cannot load a learned player from {os.fspath(path)!r}: {exc}") from None


class LearnedPlayer:
    """Plays a trained network: its most likely legal action (``greedy``), or one drawn
    from the network's probabilities with its own random source seeded by ``seed``."""

    def __init__(
        self, network: Network | str | os.PathLike[str], *, greedy: bool = True, seed: int | None = None
    ):
        self.network = network if isinstance(network, Network) else load_network(network)
        self.kind = self.network.kind
        self.players = self.network.players
        self.greedy = greedy
        self._rng = np.random.default_rng(seed)

    def tensor(self, observation: Any) -> np.ndarray:
        """What the network is given: the observation tensor of ``observation``
        (:func:`~hucklebuck.games.tensors.tensor_of`), as the batched lane gives it."""
        return np.frombuffer(tensor_of(observation), dtype=np.float32)

    def choose(self, observation: Any) -> Action:
        """One of ``observation.legal_actions``, chosen by the network."""
        check_observation(observation, self.kind)
        if len(observation.tricks_won) != self.players:
            raise OptionsError(
                f"this network was trained for {self.players} players; "
                f"the table has {len(observation.tricks_won)}"
            )
        legal: tuple[Action, ...] = observation.legal_actions
        hand = observation.hand.mask
        ids = [action_id(self.kind, a, hand) for a in legal]
        logits, _, _ = self.network.forward(self.tensor(observation)[None, :])
        row = logits[0, ids]
        if self.greedy:
            return legal[int(np.argmax(row))]
        mask = np.ones((1, len(ids)), np.int8)
        probs = masked_softmax(row[None, :], mask)[0]
        return legal[int(self._rng.choice(len(ids), p=probs / probs.sum()))]
