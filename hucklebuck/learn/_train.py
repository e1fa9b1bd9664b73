"""Training: proximal policy optimisation (PPO) on the batched lane, NumPy only.

Every table of a :class:`~hucklebuck.vector.VectorGame` plays whole games
(``hands=None``, ``reward="progress"``: each hand pays its progress toward a
goal, and a game's rewards sum to its result), every seat played by the one
network (self-play).  With ``opponent="heuristic"`` (or any player kind) a
second batch of game objects seats the learner against that player, and the
updates alternate between the two batches.  Every update prints a progress
line (CPU seconds, hands, hands per CPU-second, games) and checkpoints are
written at the CPU times asked for.
"""

from __future__ import annotations

import json
import os
import resource
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

import numpy as np

from ..packs import GameKind
from ..vector import VectorGame
from ._net import Adam, Network, masked_softmax
from ._rollout import Batch, Collector
from ._tables import OpponentTables

__all__ = ["TrainConfig", "cpu_seconds", "ppo_update", "train"]


def cpu_seconds() -> float:
    """CPU time of this process so far (user + system, all threads)."""
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


@dataclass
class TrainConfig:
    """What :func:`train` does: the game, the batch, the network and PPO's settings."""

    game: str = "deerpark"
    players: int = 4
    envs: int = 256
    steps: int = 32
    hidden: tuple[int, int] = (256, 128)
    lr: float = 5e-4
    epochs: int = 3
    minibatch: int = 2048
    clip: float = 0.2
    entropy: float = 0.01
    value: float = 0.5
    gamma: float = 1.0
    lam: float = 0.95
    seed: int = 1
    opponent: str = "self"
    opponent_envs: int = 128
    cpu_budget: float = 600.0
    updates: int | None = None
    """Stop after this many updates even if CPU time is left (None: only the budget counts)."""
    checkpoints: Sequence[float] = field(default_factory=lambda: (60.0, 150.0, 300.0, 600.0))
    out: str = "learn-run"
    resume: str | None = None


def ppo_update(
    net: Network, opt: Adam, batch: Batch, cfg: TrainConfig, rng: np.random.Generator
) -> dict[str, float]:
    """PPO's clipped objective, a value loss and an entropy bonus, over ``cfg.epochs`` passes."""
    n = len(batch.actions)
    stats = {"kl": 0.0, "entropy": 0.0, "value_loss": 0.0, "clipped": 0.0}
    if n < 2:
        return stats
    count = 0
    for _ in range(cfg.epochs):
        order = rng.permutation(n)
        for lo in range(0, n, cfg.minibatch):
            j = order[lo : lo + cfg.minibatch]
            m = len(j)
            if m < 16:
                continue
            logits, values, cache = net.forward(batch.tensors[j])
            probs = masked_softmax(logits, batch.masks[j])
            acts = batch.actions[j]
            p_a = np.maximum(probs[np.arange(m), acts], 1e-30)
            logp = np.log(p_a)
            ratio = np.exp(logp - batch.logp[j])
            adv = batch.advantages[j]
            adv = (adv - adv.mean()) / (adv.std() + 1e-6)
            clipped = ((ratio > 1 + cfg.clip) & (adv > 0)) | ((ratio < 1 - cfg.clip) & (adv < 0))
            # d(-ratio * adv)/d logits = -adv * ratio * (onehot - p), where the clip does not bind
            coef = np.where(clipped, 0.0, -adv * ratio).astype(np.float32)
            d_logits = -probs * coef[:, None]
            d_logits[np.arange(m), acts] += coef
            logq = np.log(np.where(probs > 0, probs, 1.0))
            ent = -(probs * logq).sum(axis=1)
            d_logits += cfg.entropy * probs * (logq + ent[:, None])  # minus the entropy's gradient
            d_values = cfg.value * (values - batch.returns[j])
            grads = net.backward(cache, d_logits / m, d_values / m)
            opt.step(grads)
            stats["kl"] += float((batch.logp[j] - logp).mean())
            stats["entropy"] += float(ent.mean())
            stats["value_loss"] += float(((values - batch.returns[j]) ** 2).mean())
            stats["clipped"] += float(clipped.mean())
            count += 1
    return {k: v / max(count, 1) for k, v in stats.items()}


def _concat(batches: list[Batch]) -> Batch:
    return Batch(*(np.concatenate([getattr(b, f) for b in batches]) for f in Batch.__dataclass_fields__))


def train(
    cfg: TrainConfig,
    log: TextIO | None = None,
    on_checkpoint: Callable[[str, dict[str, Any]], None] | None = None,
) -> Network:
    """Train for ``cfg.cpu_budget`` CPU seconds; returns the network (checkpoints go to ``cfg.out``)."""
    log = log if log is not None else sys.stdout
    kind = GameKind.coerce(cfg.game)
    os.makedirs(cfg.out, exist_ok=True)
    lane = VectorGame(kind, cfg.players, cfg.envs, seed=cfg.seed, hands=None, reward="progress")
    if cfg.resume:
        net = Network.load(cfg.resume)
    else:
        net = Network.new(kind, cfg.players, lane.num_distinct_actions, cfg.hidden, seed=cfg.seed)
    opt = Adam(net, lr=cfg.lr)
    rng = np.random.default_rng(cfg.seed)
    collectors = [Collector(lane, cfg.players, seed=cfg.seed)]
    if cfg.opponent != "self":
        tables = OpponentTables(kind, cfg.players, cfg.opponent_envs, cfg.opponent, seed=cfg.seed + 1)
        collectors.append(Collector(tables, cfg.players, seed=cfg.seed + 2))
    start_cpu, start_wall = cpu_seconds(), time.perf_counter()
    marks = sorted(float(c) for c in cfg.checkpoints if c <= cfg.cpu_budget)
    update = 0
    print(
        f"training {kind.value} {cfg.players}p: {cfg.envs} self-play tables"
        + (f" + {cfg.opponent_envs} against {cfg.opponent}" if cfg.opponent != "self" else "")
        + f", network {net.meta['tensor']}-{cfg.hidden[0]}-{cfg.hidden[1]}-{net.meta['actions']},"
        f" {cfg.cpu_budget:.0f} CPU-s",
        file=log,
        flush=True,
    )
    games = hands = decisions = 0
    try:
        while True:
            batches = [col.collect(net, cfg.steps) for col in collectors]
            stats = ppo_update(net, opt, _concat(batches), cfg, rng)
            update += 1
            used = cpu_seconds() - start_cpu
            decisions = sum(c.decisions for c in collectors)
            games = sum(c.games for c in collectors)
            hands = sum(c.hands for c in collectors)
            print(
                f"update {update:5d}  {used:7.1f} CPU-s  {hands:>10,} hands"
                f"  {hands / max(used, 1e-9):7,.0f} hands/CPU-s"
                f"  {games:>8,} games  {decisions:>11,} decisions  entropy {stats['entropy']:.3f}"
                f"  value loss {stats['value_loss']:.4f}  kl {stats['kl']:+.4f}",
                file=log,
                flush=True,
            )
            while marks and used >= marks[0]:
                mark = marks.pop(0)
                path = os.path.join(cfg.out, f"cpu{int(mark):05d}.npz")
                info = {
                    "cpu_seconds": round(used, 1),
                    "wall_seconds": round(time.perf_counter() - start_wall, 1),
                    "hands": hands,
                    "games": games,
                    "decisions": decisions,
                    "updates": update,
                    "load_average": os.getloadavg()[0],
                    "config": {k: v for k, v in cfg.__dict__.items() if k not in ("checkpoints",)},
                }
                net.save(path, training=info)
                print(f"checkpoint {path} at {used:.1f} CPU-s", file=log, flush=True)
                if on_checkpoint is not None:
                    on_checkpoint(path, info)
            if used >= cfg.cpu_budget or (cfg.updates is not None and update >= cfg.updates):
                break
    except KeyboardInterrupt:  # Ctrl-C: stop here, and keep what was learnt in final.npz
        print(f"stopped at {cpu_seconds() - start_cpu:.1f} CPU-s", file=log, flush=True)
    final = os.path.join(cfg.out, "final.npz")
    done = {"cpu_seconds": round(cpu_seconds() - start_cpu, 1), "hands": hands, "games": games}
    net.save(final, training={**done, "decisions": decisions, "updates": update})
    with open(os.path.join(cfg.out, "config.json"), "w", encoding="utf-8") as fh:
        json.dump({k: v for k, v in cfg.__dict__.items()}, fh, indent=1, default=list)
    lane.close()
    return net
