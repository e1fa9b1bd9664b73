"""Benchmark section ``core``: trick resolution, legal plays and evaluation, both cores
measured in one run, with C/Python ratios."""

from __future__ import annotations

import argparse
import random
import time
from array import array
from collections.abc import Callable
from functools import partial

from .._core import Core, available, using
from .._core._api import MAX_TRICK, NO_LEAD

__all__ = ["run"]


def _best_of(repeat: int, fn: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def _random_tricks(n: int, rng: random.Random) -> tuple[bytes, bytes, bytes]:
    trumps = bytearray()
    lens = bytearray()
    cards = bytearray()
    deck = list(range(52))
    for _ in range(n):
        k = rng.randint(3, 7)
        trick = rng.sample(deck, k)
        trumps.append(rng.randrange(4))
        lens.append(k)
        cards += bytes(trick) + bytes(MAX_TRICK - k)
    return bytes(trumps), bytes(lens), bytes(cards)


def _random_positions(n: int, rng: random.Random) -> tuple[bytes, bytes, array[int]]:
    trumps = bytearray()
    leads = bytearray()
    hands = array("Q")
    deck = list(range(52))
    for _ in range(n):
        cs = rng.sample(deck, 6)
        trumps.append(rng.randrange(4))
        leads.append(cs[0] if rng.random() < 0.8 else NO_LEAD)
        hands.append(sum(1 << c for c in cs[1:]))
    return bytes(trumps), bytes(leads), hands


def bench_tricks(n: int, repeat: int) -> dict[str, dict[str, float]]:
    """Batched trick resolution and legal plays: ns per item for each core and game."""
    rng = random.Random(2026)
    tricks = _random_tricks(n, rng)
    positions = _random_positions(n, rng)
    results: dict[str, dict[str, float]] = {}
    for name in available():
        with using(name) as core:
            row: dict[str, float] = {}
            for game in (0, 2):
                row[f"trick_winners g{game}"] = (
                    _best_of(repeat, partial(core.trick_winners, game, *tricks)) / n * 1e9
                )
                row[f"legal_masks g{game}"] = (
                    _best_of(repeat, partial(core.legal_masks, game, *positions)) / n * 1e9
                )
            row["trick_winner scalar"] = _scalar(core, tricks, min(n, 20000), repeat)
            results[name] = row
    return results


def _scalar(core: Core, tricks: tuple[bytes, bytes, bytes], n: int, repeat: int) -> float:
    trumps, lens, cards = tricks
    rows = [(trumps[i], cards[i * 8 : i * 8 + lens[i]]) for i in range(n)]
    fn = core.trick_winner

    def run() -> None:
        for t, cs in rows:
            fn(0, t, cs)

    return _best_of(repeat, run) / n * 1e9


def bench_evaluation(scale: float) -> list[tuple[str, str, str, str]]:
    """Simulation, threads and Monte Carlo figures: rows of (what, C, Python, ratio)."""
    from .._core._py import PythonCore
    from ..evaluate import simulate_hucklebuck

    rows: list[tuple[str, str, str, str]] = []
    py = PythonCore()
    have_c = "c" in available()
    n_c, n_py = int(400_000 * scale), int(4_000 * scale)
    t_py = _best_of(1, lambda: py.sim_hucklebuck(5, 1, n_py)) / n_py
    if have_c:
        with using("c") as c:
            t_c = _best_of(3, lambda: c.sim_hucklebuck(5, 1, n_c)) / n_c
            t_c2 = _best_of(3, lambda: simulate_hucklebuck(5, 2 * n_c, seed=1, workers=2)) / (2 * n_c)
        rows.append(
            (
                "simulate 5-player Hucklebuck, hands/s (1 thread)",
                f"{1 / t_c:,.0f}",
                f"{1 / t_py:,.0f}",
                f"{t_py / t_c:.0f}x",
            )
        )
        rows.append(
            (
                "  same, 2 threads (workers=2), hands/s",
                f"{1 / t_c2:,.0f}",
                "",
                f"{t_c / t_c2:.2f}x vs 1 thread",
            )
        )
    else:
        rows.append(("simulate 5-player Hucklebuck, hands/s", "-", f"{1 / t_py:,.0f}", ""))
    sims: list[tuple[str, Callable[[Core, int], object], int]] = [
        ("simulate 4-player Deer Park Euchre, hands/s", lambda k, n: k.sim_deerpark(4, 1, n), 400_000),
        (
            "simulate 6-player Buck 'Em (pot limit 50), hands/s",
            lambda k, n: k.sim_buckem(6, 1, n, 1, 50),
            400_000,
        ),
    ]
    for label, run, n_sim in sims:
        n_c2, n_p2 = int(n_sim * scale), int(n_sim / 100 * scale)
        tp2 = _best_of(1, partial(run, py, n_p2)) / n_p2
        if have_c:
            with using("c") as c:
                tc2 = _best_of(3, partial(run, c, n_c2)) / n_c2
            rows.append((label, f"{1 / tc2:,.0f}", f"{1 / tp2:,.0f}", f"{tp2 / tc2:.0f}x"))
    # Solve times per deal: the "solver" section (hucklebuck/bench/solver.py).
    known = [0b11111 << 26, 0, 0, 0, 0]
    pool = ((1 << 52) - 1) & ~known[0]
    sizes = [5] * 5
    n_py_mc = int(2000 * scale) or 200
    t_mpy = _best_of(1, lambda: py.mc_eval(0, 3, known, sizes, pool, 0, 0, 1, n_py_mc, 0)) / n_py_mc
    if have_c:
        with using("c") as c:
            t_mc = _best_of(3, lambda: c.mc_eval(0, 3, known, sizes, pool, 0, 0, 1, 10_000, 0))
        rows.append(
            (
                "Monte Carlo, 10,000 playout samples (5 players), ms",
                f"{t_mc * 1e3:.1f}",
                f"{t_mpy * 1e4 * 1e3:,.0f}",
                f"{t_mpy * 1e4 / t_mc:.0f}x",
            )
        )
    return rows


def run(args: argparse.Namespace) -> None:
    """Print the core table: per-item trick and legal-play costs, then evaluation."""
    print(f"items per batch: {args.items}, best of {args.repeat}; g0 = Hucklebuck, g2 = Deer Park")
    results = bench_tricks(args.items, args.repeat)
    keys = list(next(iter(results.values())))
    print(
        f"{'operation':<24}"
        + "".join(f"{n + ' ns/item':>18}" for n in results)
        + ("  C/Python speed-up" if "c" in results else "")
    )
    for key in keys:
        line = f"{key:<24}" + "".join(f"{results[n][key]:>18.1f}" for n in results)
        if "c" in results:
            ratio = results["python"][key] / results["c"][key]
            line += f"  {ratio:>10.1f}x"
            rate = 1e9 / results["c"][key]
            line += f"  (C {rate / 1e6:.1f} M/s, Python {1e9 / results['python'][key] / 1e6:.2f} M/s)"
        print(line)
    if "c" not in results:
        print("the C core is not available here: only the Python core was measured")
    print()
    print(f"{'evaluation':<58}{'C':>20}{'Python':>22}  ratio")
    for what, c_val, p_val, speedup in bench_evaluation(args.scale):
        print(f"{what:<58}{c_val:>20}{p_val:>22}  {speedup}")
