"""Benchmark section ``sessions``: the per-hand cost of a long session stays flat.

A Buck 'Em game at eight seats in which every seat folds every hand never
ends, so it can run for as many hands as wanted.  The section plays up to
10^5 hands (scaled by ``--scale``) and prints the cost per hand of a window of
hands at several points of the session: the figures must not grow with the
number of hands already played.  The same is measured for one long ``play``
request to the conformance adapter's request handler.
"""

from __future__ import annotations

import argparse
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


def session_costs(hands: int, window: int) -> list[tuple[int, float]]:
    """``(hands played before the window, microseconds per hand in it)`` at points up to ``hands``."""
    game = BuckEmGame(8, seed=2)
    while game.to_act is not None:  # the first hand is dealt by the constructor
        game.apply(f"{game.to_act} fold")
    points = sorted({p for p in (0, hands // 10, hands // 4, hands // 2, hands - window) if p >= 0})
    out: list[tuple[int, float]] = []
    played = 1
    for p in points:
        while played < p:
            _fold_all(game)
            played += 1
        t0 = time.perf_counter()
        for _ in range(window):
            _fold_all(game)
        out.append((played, (time.perf_counter() - t0) / window * 1e6))
        played += window
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
        t0 = time.perf_counter()
        answer = handle(req)
        elapsed = time.perf_counter() - t0
        if not answer.get("ok") or len(answer["result"]["hands"]) != n:
            raise RuntimeError(f"the adapter did not play {n} hands: {str(answer)[:200]}")
        out.append((n, elapsed / n * 1e6))
    return out


def run(args: argparse.Namespace) -> None:
    """Print the per-hand cost along a long session and for long adapter requests, per core."""
    hands = max(2_000, int(100_000 * args.scale))
    window = max(200, hands // 50)
    sizes = sorted({max(100, int(n * args.scale)) for n in (1_000, 4_000, 16_000)})
    core = available()[0]  # the cost measured is the game's own bookkeeping, the same on either core
    with using(core):
        costs = session_costs(hands, window)
        print(f"[{core}] Buck 'Em, 8 seats, every seat folds: {hands} hands, {window}-hand windows")
        for played, us in costs:
            print(f"  after {played:>7} hands: {us:8.1f} us/hand")
        flat = costs[-1][1] / costs[0][1]
        print(f"  last window / first window: {flat:.2f} (flat is about 1)")
        print(f"[{core}] adapter: one 'play' request of N all-fold Buck 'Em hands")
        for n, us in adapter_costs(sizes):
            print(f"  N={n:>6}: {us:8.1f} us/hand")
