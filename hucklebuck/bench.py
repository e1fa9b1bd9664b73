"""Benchmarks: both cores measured in one run, with C/Python ratios.

Run ``python -m hucklebuck.bench``.  Figures are per item and depend on the
machine, which is printed first.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import time
from array import array
from collections.abc import Callable
from functools import partial

from ._core import Core, available, using
from ._core._api import MAX_TRICK, NO_LEAD

__all__ = ["main"]


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


def main(argv: list[str] | None = None) -> int:
    """Print the benchmark table."""
    parser = argparse.ArgumentParser(prog="python -m hucklebuck.bench", description=__doc__)
    parser.add_argument("--items", type=int, default=200_000, help="items per batch")
    parser.add_argument("--repeat", type=int, default=5, help="best of this many runs")
    args = parser.parse_args(argv)
    print(
        f"machine: {platform.machine()} {platform.processor() or ''} cpus={os.cpu_count()} "
        f"python={platform.python_version()} ({platform.python_implementation()})"
    )
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
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
