"""Benchmark section ``solver``: the perfect-information solver on random 7- and
8-seat Buck 'Em deals (five cards each, random trump, leader and seat).

For each seat count it prints the median, 99th percentile and maximum time of one
solve on the C core (wall clock, and CPU time, which a busy machine disturbs
less), the 99th percentile and largest node counts (machine-independent), and
the Python core's times on a prefix of the same deals (its node counts are
identical by construction).
The targets (issue 16) are p99 <= 100 ms and max <= 5 s over 2,000 deals each.
Then Ctrl-C latency: how long a long solver evaluation takes to stop after an
interrupt, on each core.
"""

from __future__ import annotations

import _thread
import argparse
import random
import signal
import statistics
import threading
import time

from .._core import Core, available, using

__all__ = ["deals", "run"]


def deals(players: int, n: int, seed: int) -> list[tuple[int, list[int], int, int]]:
    """``n`` random Buck 'Em deals: (trump, hands, leader, seat); 5 cards for each of ``players``."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        deck = list(range(52))
        rng.shuffle(deck)
        hands = [sum(1 << c for c in deck[5 * i : 5 * i + 5]) for i in range(players)]
        out.append((rng.randrange(4), hands, rng.randrange(players), rng.randrange(players)))
    return out


def _times(
    core: Core, rows: list[tuple[int, list[int], int, int]]
) -> tuple[list[float], list[float], list[int]]:
    """Wall-clock seconds, CPU seconds and nodes of each solve."""
    core.solve(1, 0, [3, 12], 0, 1)  # warm up: the first solve in a thread allocates its table
    wall, cpu, nodes = [], [], []
    for trump, hands, leader, seat in rows:
        t0, c0 = time.perf_counter(), time.process_time()
        _, n = core.solve_counted(1, trump, hands, leader, seat)
        wall.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
        nodes.append(n)
    return wall, cpu, nodes


def _pct(xs: list[float], q: float) -> float:
    ys = sorted(xs)
    return ys[min(len(ys) - 1, int(q * len(ys)))]


def _interrupt_latency(core: Core) -> float:
    """Seconds between an interrupt and the KeyboardInterrupt out of a long solver evaluation."""
    known = [0b11111 << 26] + [0] * 7
    pool = ((1 << 52) - 1) & ~known[0]
    sent = [0.0]

    def fire() -> None:
        time.sleep(0.3)
        sent[0] = time.perf_counter()
        _thread.interrupt_main()

    # a process started as a background job has SIGINT ignored, and then interrupt_main does
    # nothing: Ctrl-C's usual handler is installed for the measurement
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    threading.Thread(target=fire, daemon=True).start()
    try:
        core.mc_eval(1, 3, known, [5] * 8, pool, 0, 0, 1, 10**7, 1)
    except KeyboardInterrupt:
        return time.perf_counter() - sent[0]
    finally:
        signal.signal(signal.SIGINT, previous)
    return float("nan")  # pragma: no cover - ten million solves do not finish in 0.3 s


def run(args: argparse.Namespace) -> None:
    """Print solve-time percentiles per seat count and core, then the Ctrl-C latency."""
    n = max(20, int(2000 * args.scale))
    n_py = max(5, int(20 * args.scale))
    cores = available()
    print(f"{n} random deals per seat count (Python core: the first {n_py}); Buck 'Em, 5 cards each")
    print(
        f"{'deals':<16}{'core':>7}{'median ms':>11}{'p99 ms':>9}{'max ms':>9}"
        f"{'CPU p99/max ms':>16}{'nodes p99 / max':>22}"
    )
    for players in (7, 8):
        rows = deals(players, n, 1000 + players)
        for name in cores:
            with using(name) as core:
                part = rows if name == "c" else rows[:n_py]
                wall, cpu, nodes = _times(core, part)
            print(
                f"{f'{players} seats x {len(part)}':<16}{name:>7}{statistics.median(wall) * 1e3:>11.3f}"
                f"{_pct(wall, 0.99) * 1e3:>9.1f}{max(wall) * 1e3:>9.1f}"
                f"{f'{_pct(cpu, 0.99) * 1e3:.1f} / {max(cpu) * 1e3:.0f}':>16}"
                f"{f'{int(_pct([float(x) for x in nodes], 0.99)):,} / {max(nodes):,}':>22}"
            )
    for name in cores:
        with using(name) as core:
            latency = _interrupt_latency(core)
        print(f"Ctrl-C to KeyboardInterrupt, solver evaluation ({name} core): {latency * 1e3:.1f} ms")
