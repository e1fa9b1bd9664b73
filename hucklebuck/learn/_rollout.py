"""Collecting decisions from batched tables, and crediting each with what followed it.

A :class:`Collector` drives one batch (a :class:`~hucklebuck.vector.VectorGame`
or :class:`~hucklebuck.learn._tables.OpponentTables`) with the network's
policy for ``steps`` steps.  Every decision is kept with the seat that made
it; the rewards any later step pays that seat go to its latest decision, and
its next decision (or the game's end) closes it.  A decision still open when
the batch stops is carried into the next batch of decisions, so nothing a seat
is paid is lost between two updates.  :meth:`Collector.collect` returns the
closed decisions with their advantages (generalised advantage estimation over
each seat's own sequence of decisions) and value targets.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ._net import Network, masked_softmax, sample_ids

__all__ = ["Batch", "Collector"]


@dataclass
class Batch:
    """Closed decisions: tensors, masks, ids, old log-probabilities, advantages and value targets."""

    tensors: np.ndarray
    masks: np.ndarray
    actions: np.ndarray
    logp: np.ndarray
    advantages: np.ndarray
    returns: np.ndarray


class Collector:
    """Plays one batch of tables with a network and turns what happened into a :class:`Batch`."""

    def __init__(self, env: Any, players: int, seed: int = 0, gamma: float = 1.0, lam: float = 0.95) -> None:
        self.env, self.players, self.gamma, self.lam = env, players, gamma, lam
        self.rng = np.random.default_rng(seed)
        self.n = env.num_envs
        self.size = env.tensor_size
        self.actions = env.num_distinct_actions
        self.mask = np.asarray(env.legal_mask)
        self.cp = np.asarray(env.current_player)
        self.rewards = np.asarray(env.rewards)
        self.term = np.asarray(env.terminated)
        self.trunc = np.asarray(env.truncated)
        self.tensor = np.zeros((self.n, self.size), np.float32)
        self.pending = np.full((self.n, players), -1, np.int64)  # each seat's open decision, by row
        self.carry: dict[str, np.ndarray] | None = None
        self.games = 0
        self._hands = 0
        self.decisions = 0
        self.won = 0.0  # summed reward of finished games (for the progress line)

    @property
    def hands(self) -> int:
        """Hands scored at the tables so far (the tables' own count when they keep one)."""
        counted: int | None = getattr(self.env, "hands_played", None)
        return self._hands if counted is None else counted

    def _sample(self, probs: np.ndarray) -> np.ndarray:
        return sample_ids(probs, self.rng)

    def collect(self, net: Network, steps: int) -> Batch:
        """Play ``steps`` steps of every table; the decisions closed so far."""
        n, players = self.n, self.players
        cap = steps * n + n * players
        obs = np.zeros((cap, self.size), np.float32)
        masks = np.zeros((cap, self.actions), np.int8)
        acts = np.zeros(cap, np.int64)
        logp = np.zeros(cap, np.float32)
        vals = np.zeros(cap, np.float32)
        rew = np.zeros(cap, np.float32)
        done = np.zeros(cap, bool)
        nxt = np.full(cap, -1, np.int64)
        rows = 0
        if self.carry is not None:  # the decisions left open by the previous call come first
            c = len(self.carry["acts"])
            obs[:c], masks[:c], acts[:c] = self.carry["obs"], self.carry["masks"], self.carry["acts"]
            logp[:c], vals[:c], rew[:c] = self.carry["logp"], self.carry["vals"], self.carry["rew"]
            rows = c
        carried = rows
        starts = []
        env_rows = np.arange(n)
        for _ in range(steps):
            cp = self.cp.astype(np.int64)
            acting = cp >= 0
            self.env.observation_tensor(out=self.tensor)
            logits, values, _ = net.forward(self.tensor)
            probs = masked_softmax(logits, self.mask)
            pick = self._sample(probs)
            idx = env_rows[acting]
            k = len(idx)
            here = np.arange(rows, rows + k)
            starts.append(rows)
            obs[here] = self.tensor[idx]
            masks[here] = self.mask[idx]
            acts[here] = pick[idx]
            logp[here] = np.log(np.maximum(probs[idx, pick[idx]], 1e-30))
            vals[here] = values[idx]
            seats = cp[idx]
            prev = self.pending[idx, seats]
            linked = prev >= 0
            nxt[prev[linked]] = here[linked]
            self.pending[idx, seats] = here
            rows += k
            self.decisions += k
            pick[~acting] = 0  # a finished game ignores its id: the step deals the next one
            self.env.step(pick.astype(np.int32))
            paid = self.rewards
            self._hands += int((paid != 0).any(axis=1).sum())  # a scored hand moves some score
            open_ = self.pending >= 0
            if open_.any():
                np.add.at(rew, self.pending[open_], paid[open_])
            ended = (self.term > 0) | (self.trunc > 0)
            if ended.any():
                e = env_rows[ended]
                closing = self.pending[e]
                done[closing[closing >= 0]] = True
                self.pending[e] = -1
                self.games += len(e)
        # the decisions still open are carried into the next call, renumbered from 0
        open_rows = self.pending[self.pending >= 0]
        order = np.sort(open_rows)
        self.carry = {
            "obs": obs[order].copy(),
            "masks": masks[order].copy(),
            "acts": acts[order].copy(),
            "logp": logp[order].copy(),
            "vals": vals[order].copy(),
            "rew": rew[order].copy(),
        }
        renumber = np.full(rows, -1, np.int64)
        renumber[order] = np.arange(len(order))
        self.pending[self.pending >= 0] = renumber[self.pending[self.pending >= 0]]
        # advantages, latest decisions first (a decision's next one always lies later)
        closed = np.zeros(rows, bool)
        closed[:rows] = done[:rows] | (nxt[:rows] >= 0)
        adv = np.zeros(rows, np.float32)
        next_val = np.where(nxt[:rows] >= 0, vals[np.maximum(nxt[:rows], 0)], 0.0)
        delta = rew[:rows] + self.gamma * next_val * (~done[:rows]) - vals[:rows]
        bounds = [*starts, rows]
        blocks = [(bounds[j], bounds[j + 1]) for j in range(len(starts))]
        if carried:
            blocks.insert(0, (0, carried))
        for lo, hi in reversed(blocks):
            j = np.arange(lo, hi)
            later = nxt[j]
            carry_on = (later >= 0) & closed[np.maximum(later, 0)]
            adv[j] = delta[j] + self.gamma * self.lam * np.where(carry_on, adv[np.maximum(later, 0)], 0.0)
        keep = np.flatnonzero(closed)
        return Batch(obs[keep], masks[keep], acts[keep], logp[keep], adv[keep], adv[keep] + vals[keep])
