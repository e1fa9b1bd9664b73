"""Benchmark section ``players``: how long the computer players take per decision.

:class:`~hucklebuck.players.MonteCarloPlayer` (default settings) plays whole
games against the heuristic (two of each kind at four players, mc in two
seats of three in Deer Park at three, three of each at six for Buck 'Em) and
every decision it searches (two legal actions or more; a forced move costs
nothing) is timed: median, 90th and 99th
percentile and worst, per game, on the C core and on the Python core (fewer
decisions there).  The heuristic's own median is printed for comparison.
``--scale`` sets the number of decisions (300 per game on the C core at 1.0).
The same on the C core with ``method="solver"`` (100 decisions per game at 1.0).
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from .._core import available, using
from ..games import BuckEmGame, DeerParkGame, HucklebuckGame
from ..games.base import Phase
from ..players import MonteCarloPlayer, make_player

__all__ = ["decision_times", "run"]

_GAMES: list[tuple[str, Any, int]] = [
    ("hucklebuck", HucklebuckGame, 4),
    ("deerpark", DeerParkGame, 4),
    ("deerpark", DeerParkGame, 3),
    ("buckem", BuckEmGame, 6),
]


def decision_times(
    name: str, cls: Any, players: int, decisions: int, method: str = "playout"
) -> tuple[list[float], list[float]]:
    """Seconds per searched MC decision (``method``) and per heuristic decision, over whole games."""
    mc_times: list[float] = []
    h_times: list[float] = []
    seed = 0
    while len(mc_times) < decisions:
        seed += 1
        game = cls(players, seed=seed)
        bots = [
            MonteCarloPlayer(seed=seed * 10 + s, method=method)
            if s % 2 == 0
            else make_player("heuristic", name)
            for s in range(players)
        ]
        while game.phase is not Phase.GAME_OVER and len(mc_times) < decisions:
            if game.phase is Phase.HAND_OVER:
                if game.hand_number >= 30:
                    break
                game.next_hand()
                continue
            seat = game.to_act
            obs = game.observation(seat)
            t0 = time.perf_counter()
            action = bots[seat].choose(obs)
            dt = time.perf_counter() - t0
            if len(obs.legal_actions) > 1:
                (mc_times if s_is_mc(bots[seat]) else h_times).append(dt)
            game.apply(action)
    return mc_times, h_times


def s_is_mc(bot: object) -> bool:
    """Whether ``bot`` is the Monte Carlo player."""
    return isinstance(bot, MonteCarloPlayer)


def _q(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))] * 1000.0


def run(args: argparse.Namespace) -> None:
    """Print decision-time figures of the Monte Carlo player on each core."""
    print("MonteCarloPlayer (default settings) vs the heuristic: ms per searched decision")
    print(f"{'core':<7}{'game':<14}{'decisions':>10}{'median':>9}{'p90':>9}{'p99':>9}{'max':>9}{'heur.':>9}")
    for core in available():
        n = max(10, int((300 if core == "c" else 40) * args.scale))
        with using(core):
            for name, cls, players in _GAMES:
                mc, heur = decision_times(name, cls, players, n)
                print(
                    f"{core:<7}{f'{name} {players}':<14}{len(mc):>10}{_q(mc, 0.5):>9.2f}{_q(mc, 0.9):>9.2f}"
                    f"{_q(mc, 0.99):>9.2f}{max(mc) * 1000:>9.2f}{_q(heur, 0.5):>9.3f}"
                )
    if "c" not in available():
        return
    print('MonteCarloPlayer(method="solver") vs the heuristic, C core only (the Python core is far slower)')
    n = max(10, int(100 * args.scale))
    with using("c"):
        for name, cls, players in _GAMES:
            mc, heur = decision_times(name, cls, players, n, method="solver")
            print(
                f"{'c':<7}{f'{name} {players}':<14}{len(mc):>10}{_q(mc, 0.5):>9.2f}{_q(mc, 0.9):>9.2f}"
                f"{_q(mc, 0.99):>9.2f}{max(mc) * 1000:>9.2f}{_q(heur, 0.5):>9.3f}"
            )
