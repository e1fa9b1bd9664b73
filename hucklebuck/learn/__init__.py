"""A learner for the batched lane, NumPy only: a small network trained by PPO, and the player it makes.

``python -m hucklebuck.learn train`` trains a policy on
:class:`~hucklebuck.vector.VectorGame` (whole games, all seats played by the
network) and writes checkpoints; ``python -m hucklebuck.learn evaluate``
seats a checkpoint in the library's duplicate tournament.  A checkpoint loads
as a :class:`~hucklebuck.players.Player` with ``make_player("learned", game,
path=...)``.  This package needs NumPy (the ``learn`` extra,
``pip install 'hucklebuck[learn]'``, brings it); ``import hucklebuck`` does
not import it.
"""

from __future__ import annotations

from ._net import Network, masked_softmax, sample_ids
from ._train import TrainConfig, train
from .player import LearnedPlayer, load_network, shipped_weights

__all__ = [
    "LearnedPlayer",
    "Network",
    "TrainConfig",
    "load_network",
    "masked_softmax",
    "sample_ids",
    "shipped_weights",
    "train",
]
