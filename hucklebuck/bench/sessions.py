"""Benchmark section ``sessions``: the per-hand cost of a long session stays flat.

A Buck 'Em game at eight seats in which every seat folds every hand never
ends, so it can run for as many hands as wanted.  The section plays up to
10^5 hands (scaled by ``--scale``) and prints the cost per hand of each
stretch of the session: the figures must not grow with the number of hands
already played.  The same is measured for one long ``play``
request to the conformance adapter's request handler.  Times are CPU time of
this process, so other load on the machine disturbs them less.
"""

from __future__ import annotations

import argparse
import itertools
import time
from typing import Any

from .._core import available, using
from ..games import BuckEmGame

__all__ = ["run", "session_costs"]


def _fold_all(game: BuckEmGame) -> None:
    """Deal the next hand and let every seat fold."""
    game.next_hand()
    while game.to_act is not None:
        game.apply(f"{game.to_act} fold")


def session_costs(hands: int) -> list[tuple[int, int, float]]:
    """``(first hand, last hand, CPU microseconds per hand)`` for consecutive stretches of a session.

    Whole stretches are timed, so the garbage collector's full passes (rarer as
    the session grows, each longer) are counted at their amortised cost.
    """
    game = BuckEmGame(8, seed=2)
    while game.to_act is not None:  # the first hand is dealt by the constructor
        game.apply(f"{game.to_act} fold")
    marks = sorted({1, *(max(2, int(hands * f)) for f in (0.1, 0.25, 0.5, 0.75, 1.0))})
    out: list[tuple[int, int, float]] = []
    for lo, hi in itertools.pairwise(marks):
        t0 = time.process_time()
        for _ in range(hi - lo):
            _fold_all(game)
        out.append((lo + 1, hi, (time.process_time() - t0) / (hi - lo) * 1e6))
    return out


def _play_request(hands: int) -> dict[str, Any]:
    game = BuckEmGame(8, seed=5)
    while game.to_act is not None:
        game.apply(f"{game.to_act} fold")
    for _ in range(hands - 1):
        _fold_all(game)
    saved = game.to_dict()
    return {
        "id": 1,
        "op": "play",
        "game": "buckem",
        "players": 8,
        "start": saved["start"],
        "hands": [{"deal": h["deal"], "actions": h["actions"]} for h in saved["hands"]],
    }


def adapter_costs(sizes: list[int]) -> list[tuple[int, float]]:
    """``(hands in one play request, microseconds per hand to answer it)``."""
    from ..conformance.protocol import handle

    out: list[tuple[int, float]] = []
    for n in sizes:
        req = _play_request(n)
        t0 = time.process_time()
        answer = handle(req)
        elapsed = time.process_time() - t0
        if not answer.get("ok") or len(answer["result"]["hands"]) != n:
            raise RuntimeError(f"the adapter did not play {n} hands: {str(answer)[:200]}")
        out.append((n, elapsed / n * 1e6))
    return out


def run(args: argparse.Namespace) -> None:
    """Print the per-hand cost along a long session and for long adapter requests."""
    hands = max(2_000, int(100_000 * args.scale))
    sizes = sorted({max(100, int(n * args.scale)) for n in (1_000, 4_000, 16_000)})
    core = available()[0]  # the cost measured is the game's own bookkeeping, the same on either core
    with using(core):
        costs = session_costs(hands)
        print(f"[{core}] Buck 'Em, 8 seats, every seat folds, {hands} hands in one game")
        for lo, hi, us in costs:
            print(f"  hands {lo:>7} - {hi:>7}: {us:8.1f} CPU us/hand")
        print(f"  last stretch / first stretch: {costs[-1][2] / costs[0][2]:.2f} (flat is about 1)")
        print(f"[{core}] adapter: one 'play' request of N all-fold Buck 'Em hands")
        for n, us in adapter_costs(sizes):
            print(f"  N={n:>6}: {us:8.1f} CPU us/hand")
