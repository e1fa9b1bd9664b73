"""Self-play on the batched lane: a linear softmax policy for 4-player Deer Park
Euchre trained with policy gradient (REINFORCE), NumPy only, then seated against
:class:`~hucklebuck.players.RandomPlayer` in the library's duplicate tournament.

Run it as ``python docs/examples/vector_selfplay.py`` (the tests run it smaller).

* Training: ``num_envs`` tables of :class:`hucklebuck.vector.VectorGame` (one hand
  per episode, ``reward="hand"``: each seat's fall in score, so a trick taken is
  +1 and a missed contract -5).  All four seats play the same policy; every
  decision is credited with its seat's reward for the hand, less the batch mean.
* The policy: ``logits = features @ W`` over the 110 action ids, illegal ids
  masked, features the seat's observation tensor (scaled) and a bias.
* Evaluation: :func:`hucklebuck.tournament.run_tournament` with the policy as a
  custom kind (greedy: its most likely legal id), two seats against two random
  players, over whole games with every rotation of the seats.  The policy sees
  in the tournament what it saw in training: :func:`~hucklebuck.games.tensors.tensor_of`
  gives the observation tensor of the typed observation a player receives.
"""

from __future__ import annotations

import argparse
import os
import time
from typing import Any

# One BLAS thread: the products here are small, and BLAS threads spinning for work
# only take cores from the batched lane (on a busy machine they slow it tenfold).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np

from hucklebuck.games import DeerParkObservation
from hucklebuck.games.ids import action_id
from hucklebuck.games.tensors import layout, tensor_of
from hucklebuck.learn import sample_ids
from hucklebuck.packs import GameKind
from hucklebuck.tournament import TournamentResult, run_tournament
from hucklebuck.vector import VectorGame

PLAYERS = 4
KIND = GameKind.DEERPARK
LAYOUT = layout(KIND, PLAYERS)


def feature_scale() -> np.ndarray:
    """Per tensor entry, a factor bringing it near 0..1 (scores are raw points)."""
    scale = np.ones(LAYOUT.size, dtype=np.float32)
    for name, divide in (("standings", 50.0), ("tricks_won", 5.0)):
        at, size = LAYOUT.blocks[name]
        scale[at : at + size] = 1.0 / divide
    return scale


SCALE = feature_scale()


def features(tensors: np.ndarray) -> np.ndarray:
    """Scaled tensors with a bias column: shape ``[batch, T + 1]``."""
    return np.concatenate([tensors * SCALE, np.ones((len(tensors), 1), dtype=np.float32)], axis=1)


def masked_softmax(logits: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Row-wise softmax over the legal ids (rows with no legal id come out all 0)."""
    z = np.where(mask > 0, logits, -np.inf)
    top = z.max(axis=1, keepdims=True)
    top[~np.isfinite(top)] = 0.0
    e = np.where(mask > 0, np.exp(z - top), 0.0)
    total = e.sum(axis=1, keepdims=True)
    return np.divide(e, total, out=np.zeros_like(e), where=total > 0)


def potential(scores: np.ndarray) -> np.ndarray:
    """How near a seat is to a goal (0 or 50 points): minus its distance to the
    nearer one, in units of a set hand (5 points)."""
    return -np.clip(np.minimum(scores, 50.0 - scores), 0.0, None) / 5.0


def train(
    steps: int, num_envs: int, lr: float = 0.1, seed: int = 1, window: int = 40, log: bool = False
) -> np.ndarray:
    """The trained weights ``W`` (``[T + 1, 110]``) after ``steps`` batched steps.

    Every table plays whole games (``hands=None``).  A decision is credited with
    what its hand did for its seat: the change in :func:`potential` of the seat's
    score, plus 2 for winning the game with that hand.  Scores come from seat 0's
    tensor (its standings are every seat's score), which the batch keeps showing
    at a finished game's end until the next step deals the next game.
    """
    vg = VectorGame(KIND, PLAYERS, num_envs, seed=seed, hands=None, reward="hand")
    rng = np.random.default_rng(seed)
    weights = np.zeros((LAYOUT.size + 1, vg.num_distinct_actions), dtype=np.float32)
    tensor = np.zeros((num_envs, vg.tensor_size), dtype=np.float32)
    view0 = np.zeros_like(tensor)
    stand = LAYOUT.at["standings"]
    mask, seat_of = np.asarray(vg.legal_mask), np.asarray(vg.current_player)
    rewards, terminated = np.asarray(vg.rewards), np.asarray(vg.terminated)
    rows = np.arange(num_envs)
    before = np.full((num_envs, PLAYERS), 20.0, dtype=np.float32)
    hand_no = np.zeros(num_envs, dtype=np.int64)  # hands each table has started
    results = np.full(((steps // 5 + 2) * num_envs, PLAYERS), np.nan, dtype=np.float32)
    xs: list[np.ndarray] = []
    dirs: list[np.ndarray] = []
    uids: list[np.ndarray] = []
    seats: list[np.ndarray] = []
    for k in range(steps):
        was_over = terminated > 0
        vg.observation_tensor(out=tensor)
        x = features(tensor)
        p = masked_softmax(x @ weights, mask)
        pick = sample_ids(p, rng)  # never an id of probability 0 (a float32 row sums to about 1)
        acting = ~was_over
        grad_dir = -p[acting]
        grad_dir[np.arange(acting.sum()), pick[acting]] += 1.0
        xs.append(x[acting])
        dirs.append(grad_dir)
        uids.append(hand_no[acting] * num_envs + rows[acting])
        seats.append(seat_of[acting].astype(np.int64))
        pick[was_over] = 0  # a finished game ignores its id: the step deals the next one
        vg.step(pick.astype(np.int32))
        vg.observation_tensor(out=view0, seat=0)
        after = view0[:, stand : stand + PLAYERS]
        ended = ~was_over & (rewards != 0).any(axis=1)  # every hand changes every score
        if ended.any():
            e = rows[ended]
            bonus = rewards[e] - (before[e] - after[e])  # 1.0 for each winner of the game
            results[hand_no[e] * num_envs + e] = potential(after[e]) - potential(before[e]) + 2.0 * bonus
            hand_no[e] += 1
        before[was_over] = 20.0
        hand_no[was_over] += 1
        before[ended] = after[ended]
        if (k + 1) % window == 0 or k == steps - 1:
            x_all, d_all = np.concatenate(xs), np.concatenate(dirs)
            u_all, s_all = np.concatenate(uids), np.concatenate(seats)
            r = results[u_all, s_all]
            done = ~np.isnan(r)
            if done.sum() > 1:
                adv = r[done] - r[done].mean()
                adv /= adv.std() + 1e-6
                weights += lr * (x_all[done].T @ (adv[:, None] * d_all[done])) / done.sum()
            keep = ~done  # decisions of hands still being played wait for their result
            xs, dirs, uids, seats = [x_all[keep]], [d_all[keep]], [u_all[keep]], [s_all[keep]]
            if log and (k + 1) % (10 * window) == 0:
                print(f"step {k + 1:6d}: {int(hand_no.sum()):,} hands, mean credit {r[done].mean():+.3f}")
    vg.close()
    return weights


def tensor_from_observation(obs: DeerParkObservation) -> np.ndarray:
    """The seat's observation tensor from its typed observation (what a
    :class:`~hucklebuck.players.Player` receives): the library's
    :func:`~hucklebuck.games.tensors.tensor_of`, the tensor the lane gave in training."""
    return np.frombuffer(tensor_of(obs), dtype=np.float32)


class LinearPolicyPlayer:
    """The trained policy as a tournament player: its most likely legal action."""

    def __init__(self, weights: np.ndarray) -> None:
        self.weights = weights

    def choose(self, observation: DeerParkObservation) -> Any:
        legal = observation.legal_actions
        x = features(tensor_from_observation(observation)[None, :])[0]
        logits = x @ self.weights
        hand = observation.hand.mask
        return max(legal, key=lambda a: logits[action_id(KIND, a, hand)])


def evaluate(weights: np.ndarray, games: int, seed: int = 7) -> TournamentResult:
    """Two seats of the policy against two random players, whole games, every rotation."""
    return run_tournament(
        "deerpark",
        players=PLAYERS,
        bots=("linear", "random"),
        games=games,
        seed=seed,
        custom={"linear": lambda _seed: LinearPolicyPlayer(weights)},
    )


def main(argv: list[str] | None = None) -> TournamentResult:
    """Train, print the time it took, then the tournament table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=3000)
    parser.add_argument("--envs", type=int, default=256)
    parser.add_argument("--games", type=int, default=200)
    args = parser.parse_args(argv)
    t0 = time.perf_counter()
    weights = train(args.steps, args.envs, log=True)
    print(f"trained for {args.steps:,} steps of {args.envs} tables in {time.perf_counter() - t0:.1f} s")
    result = evaluate(weights, args.games)
    print(result.table())
    return result


if __name__ == "__main__":
    main()
