"""Part of benchmark section ``vector``: the C lane against the engine alone.

The lane's random Deer Park hands per CPU-second (4 players, 1,024 tables, one thread, ids and
masks: ``step(sample_legal(k))``) over the bare C simulation's
(:func:`~hucklebuck.evaluate.simulate_deerpark`: one core call, no Python between the steps),
the two timed in turn within each round; the figure is the median of the rounds' ratios, and its
target at least 0.8 (what the lane adds around the engine: the Python calls, the checks of the
ids and states, the masks and rewards written out).
"""

from __future__ import annotations

import statistics
import time
from typing import Any

from ..vector import VectorGame
from . import targets
from .vector import _player

__all__ = ["LANE_ROUNDS", "lane_against_engine", "lane_batch", "print_lane_against_engine"]

TARGET = 0.8
"""The lane's hands per CPU-second at least this fraction of the bare simulation's."""

LANE_ROUNDS = 9
"""Rounds of the lane against the bare C simulation (the figure is the median of the rounds' ratios)."""


def lane_batch() -> VectorGame[Any]:
    """The batch the lane is timed on: Deer Park, 4 players, 1,024 tables, one thread, an episode
    per hand (``hands=1``, so that its episodes ended count hands, as the simulation's figure does;
    whole games, the lane's default, would count games against hands)."""
    return VectorGame("deerpark", 4, 1024, seed=1024, threads=1, hands=1)


def lane_against_engine(scale: float, rounds: int = LANE_ROUNDS) -> list[float]:
    """Per round, the C lane's random Deer Park hands per CPU-second (4 players, 1,024 tables, one
    thread, ids and masks: ``step(sample_legal(k))``) over the bare C simulation's
    (:func:`~hucklebuck.evaluate.simulate_deerpark`: one core call, no Python between the steps),
    the two timed in turn within each round."""
    from ..evaluate import simulate_deerpark

    vg = lane_batch()
    steps = max(20, int(200 * scale))
    sim_hands = max(2_000, int(20_000 * scale))
    play = _player(vg)
    play(steps)  # warm up (past the first, shorter episodes)
    simulate_deerpark(4, sim_hands // 10)
    ratios = []
    for r in range(rounds):
        hands, _secs, cpu = play(steps)
        c0 = time.process_time()
        simulate_deerpark(4, sim_hands, seed=r)
        sim_cpu = time.process_time() - c0
        if cpu > 0 and sim_cpu > 0:
            ratios.append((hands / cpu) / (sim_hands / sim_cpu))
    vg.close()
    return ratios


def print_lane_against_engine(scale: float) -> None:
    """Measure (:func:`lane_against_engine`) and print the figure against its target."""
    got = sorted(lane_against_engine(scale))
    if not got:
        return
    label = "deerpark 4p 1,024 tables ids+masks / bare C simulation, one thread (per CPU-second)"
    print(
        f"\nthe lane against the engine alone (simulate_deerpark: one core call), timed in turn:\n"
        f"  {targets.check('vector', label, statistics.median(got), TARGET)}\n"
        f"  (median of {len(got)} rounds' ratios; {got[0]:.2f} to {got[-1]:.2f})"
    )
