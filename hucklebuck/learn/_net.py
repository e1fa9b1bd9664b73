"""The policy network: a small multilayer perceptron over the observation tensor, NumPy only.

``features(tensor)`` scales the raw tensor (scores and counts to about 0..1);
two ReLU layers feed a policy head (one logit per action id, illegal ids masked
out) and a value head (the seat's expected summed reward from here).  Gradients
are written out by hand (no framework), and :class:`Adam` updates the weights.
A network saves to and loads from one ``.npz`` file (no pickle) with its
settings in a JSON string.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from ..games.tensors import layout
from ..packs import GameKind

__all__ = ["Adam", "Network", "feature_scale", "masked_softmax", "sample_ids"]

FORMAT = "hucklebuck-policy/1"
"""The checkpoint format written in every saved network."""

# Raw tensor entries that are not 0/1 flags, and what brings them near 0..1.
_DIVIDE = {
    "standings": 50.0,
    "tricks_won": 5.0,
    "stock_size": 20.0,
    "draw_count": 5.0,
    "pot": 50.0,
    "pot_units": 10.0,
}


def feature_scale(kind: GameKind, players: int) -> np.ndarray:
    """Per tensor entry, the factor the network multiplies it by (1 for flags)."""
    lay = layout(kind, players)
    scale = np.ones(lay.size, dtype=np.float32)
    for name, divide in _DIVIDE.items():
        if name in lay.blocks:
            at, size = lay.blocks[name]
            scale[at : at + size] = 1.0 / divide
    return scale


def masked_softmax(logits: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Row-wise softmax over the legal ids (``mask`` > 0); rows with no legal id come out all 0."""
    z = np.where(mask > 0, logits, -np.inf)
    top = z.max(axis=1, keepdims=True)
    top[~np.isfinite(top)] = 0.0
    e = np.exp(z - top)
    total = e.sum(axis=1, keepdims=True)
    out: np.ndarray = np.divide(e, total, out=np.zeros_like(e), where=total > 0)
    return out


def sample_ids(probs: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One id per row drawn from ``probs`` (``[B, A]``, zero at illegal ids, as
    :func:`masked_softmax` gives): never an id of probability 0.

    A float32 row sums to a little under or over 1, so a uniform draw is scaled to the row's
    own total (in float64) and an id is the first whose running total passes it; a draw the
    rounding still carries past the end takes the row's last id of nonzero probability.  A row
    of zeros (no legal id) gives 0.
    """
    totals = probs.cumsum(axis=1, dtype=np.float64)
    u = rng.random((len(probs), 1)) * totals[:, -1:]
    pick = (totals <= u).sum(axis=1)
    last = probs.shape[1] - 1 - np.argmax(probs[:, ::-1] > 0, axis=1)
    out: np.ndarray = np.where((probs > 0).any(axis=1), np.minimum(pick, last), 0)
    return out


class Network:
    """Two hidden ReLU layers, a masked policy head and a value head.

    ``params`` maps names to float32 arrays: ``w1 [T, h1]``, ``b1``, ``w2 [h1, h2]``,
    ``b2``, ``wp [h2, A]``, ``bp``, ``wv [h2, 1]``, ``bv``.
    """

    def __init__(self, meta: dict[str, Any], params: dict[str, np.ndarray]) -> None:
        self.meta = meta
        self.params = params
        self.kind = GameKind.coerce(meta["game"])
        self.players = int(meta["players"])
        self.scale = feature_scale(self.kind, self.players)

    @classmethod
    def new(
        cls, kind: GameKind, players: int, actions: int, hidden: tuple[int, int] = (256, 128), seed: int = 0
    ) -> Network:
        """A freshly initialised network (He-scaled trunk, near-uniform policy, zero value)."""
        rng = np.random.default_rng(seed)
        size = layout(kind, players).size
        h1, h2 = hidden

        def he(n_in: int, n_out: int, gain: float) -> np.ndarray:
            w: np.ndarray = (rng.standard_normal((n_in, n_out)) * gain * np.sqrt(2.0 / n_in)).astype(
                np.float32
            )
            return w

        params = {
            "w1": he(size, h1, 1.0),
            "b1": np.zeros(h1, np.float32),
            "w2": he(h1, h2, 1.0),
            "b2": np.zeros(h2, np.float32),
            "wp": he(h2, actions, 0.01),
            "bp": np.zeros(actions, np.float32),
            "wv": he(h2, 1, 0.1),
            "bv": np.zeros(1, np.float32),
        }
        meta = {
            "format": FORMAT,
            "game": kind.value,
            "players": players,
            "actions": actions,
            "tensor": size,
            "hidden": [h1, h2],
        }
        return cls(meta, params)

    # ------------------------------------------------------------- forward
    def forward(self, tensors: np.ndarray) -> tuple[np.ndarray, np.ndarray, tuple[np.ndarray, ...]]:
        """Logits ``[B, A]``, values ``[B]`` and what :meth:`backward` needs, for raw tensors ``[B, T]``."""
        p = self.params
        x = tensors * self.scale
        z1 = x @ p["w1"] + p["b1"]
        a1 = np.maximum(z1, 0.0)
        z2 = a1 @ p["w2"] + p["b2"]
        a2 = np.maximum(z2, 0.0)
        logits = a2 @ p["wp"] + p["bp"]
        values = (a2 @ p["wv"])[:, 0] + p["bv"][0]
        return logits, values, (x, a1, a2)

    def policy(self, tensors: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """Action probabilities ``[B, A]`` over the legal ids."""
        logits, _, _ = self.forward(tensors)
        probs: np.ndarray = masked_softmax(logits, mask)
        return probs

    def backward(
        self, cache: tuple[np.ndarray, ...], d_logits: np.ndarray, d_values: np.ndarray
    ) -> dict[str, np.ndarray]:
        """Gradients of a loss with respect to every parameter, given its gradients at the outputs."""
        p = self.params
        x, a1, a2 = cache
        grads: dict[str, np.ndarray] = {}
        grads["wp"] = a2.T @ d_logits
        grads["bp"] = d_logits.sum(axis=0)
        dv = d_values[:, None].astype(np.float32)
        grads["wv"] = a2.T @ dv
        grads["bv"] = dv.sum(axis=0)
        d_a2 = d_logits @ p["wp"].T + dv @ p["wv"].T
        d_z2 = d_a2 * (a2 > 0)
        grads["w2"] = a1.T @ d_z2
        grads["b2"] = d_z2.sum(axis=0)
        d_a1 = d_z2 @ p["w2"].T
        d_z1 = d_a1 * (a1 > 0)
        grads["w1"] = x.T @ d_z1
        grads["b1"] = d_z1.sum(axis=0)
        return grads

    # --------------------------------------------------------------- files
    def save(self, path: str, **extra: Any) -> None:
        """Write the network to ``path`` (``.npz``; ``extra`` goes into its settings)."""
        meta = dict(self.meta, **extra)
        with open(path, "wb") as fh:
            arrays: dict[str, Any] = dict(self.params, meta=np.array(json.dumps(meta)))
            np.savez(fh, **arrays)

    @classmethod
    def load(cls, path: str) -> Network:
        """A network saved by :meth:`save`."""
        with np.load(path, allow_pickle=False) as data:
            meta = json.loads(str(data["meta"]))
            params = {k: np.asarray(data[k], dtype=np.float32) for k in data.files if k != "meta"}
        return cls(meta, params)


class Adam:
    """Adam with gradient-norm clipping, over a :class:`Network`'s parameters."""

    def __init__(self, net: Network, lr: float = 3e-4, clip: float = 0.5) -> None:
        self.net, self.lr, self.clip = net, lr, clip
        self.m = {k: np.zeros_like(v) for k, v in net.params.items()}
        self.v = {k: np.zeros_like(v) for k, v in net.params.items()}
        self.t = 0

    def step(self, grads: dict[str, np.ndarray]) -> float:
        """Apply one update; returns the gradient norm before clipping."""
        norm = float(np.sqrt(sum(float((g * g).sum()) for g in grads.values())))
        factor = min(1.0, self.clip / (norm + 1e-8))
        self.t += 1
        b1, b2 = 0.9, 0.999
        corr = np.sqrt(1 - b2**self.t) / (1 - b1**self.t)
        for k, g in grads.items():
            g = g * factor
            self.m[k] = b1 * self.m[k] + (1 - b1) * g
            self.v[k] = b2 * self.v[k] + (1 - b2) * (g * g)
            self.net.params[k] -= (self.lr * corr * self.m[k] / (np.sqrt(self.v[k]) + 1e-8)).astype(
                np.float32
            )
        return norm
