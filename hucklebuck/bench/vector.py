"""Benchmark section ``vector``: the batched lane (:class:`hucklebuck.vector.VectorGame`)
side by side with OpenSpiel's ``euchre`` at 4 players (when ``pyspiel`` imports).

Random whole hands per second: every environment plays uniformly random legal
ids (``sample_legal``, drawn in C on the C lane) until its hand is over and is
dealt again (auto-reset, ``hands=1``); hands/s counts finished hands.  Measured
with ids and masks only, and with the acting seat's observation tensor produced
at every step (into one reused buffer); with ``num_envs`` 1, 64, 1,024 and
16,384; two threads against one; the C lane against its Python twin (the game
objects); and the bytes one environment holds (the C state, or the game objects
measured with ``tracemalloc``, plus its rows of the output buffers).  OpenSpiel
plays the same random hands through pyspiel (chance outcomes drawn at random,
``legal_actions`` + ``apply_action``; with ``information_state_tensor`` of the
player to act at every step).

Each figure is the best of ``--repeat`` timed runs of a fixed number of steps
(``--scale`` shrinks them).  On a machine shared with other work the threads
figure in particular is a lower bound: a second thread only helps when a second
core is free.
"""

from __future__ import annotations

import argparse
import importlib
import random
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

from .. import backend, using
from ..vector import VectorGame

__all__ = ["hands_per_second", "openspiel_hands_per_second", "run"]

_SIZES = (1, 64, 1024, 16384)
_GAMES = (("deerpark", 4), ("hucklebuck", 4), ("buckem", 5))


def _best(repeat: int, fn: Callable[[], tuple[int, float]]) -> float:
    """The best rate (items per second) over ``repeat`` runs of ``fn`` (items, seconds)."""
    best = 0.0
    for _ in range(repeat):
        items, secs = fn()
        if secs > 0:
            best = max(best, items / secs)
    return best


def hands_per_second(vg: VectorGame, steps: int, repeat: int, tensors: bool = False) -> float:
    """Finished hands per second of random play on ``vg`` over ``steps`` steps."""
    out = memoryview(bytearray(4 * vg.num_envs * vg.tensor_size)).cast("f") if tensors else None
    term = vg.terminated
    counter = [0]

    def once() -> tuple[int, float]:
        hands = 0
        k = counter[0]
        t0 = time.perf_counter()
        for _ in range(steps):
            vg.step(vg.sample_legal(k))
            k += 1
            if out is not None:
                vg.observation_tensor(out)
            hands += term.tobytes().count(1)
        secs = time.perf_counter() - t0
        counter[0] = k
        return hands, secs

    once()  # warm up (and deal past the first, shorter episodes)
    return _best(repeat, once)


def openspiel_hands_per_second(hands: int, repeat: int, tensors: bool) -> float | None:
    """OpenSpiel euchre's random hands per second (None without ``pyspiel``)."""
    try:
        pyspiel = importlib.import_module("pyspiel")
    except ImportError:
        return None
    game = pyspiel.load_game("euchre")
    rng = random.Random(1)

    def once() -> tuple[int, float]:
        t0 = time.perf_counter()
        for _ in range(hands):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                else:
                    if tensors:
                        state.information_state_tensor(state.current_player())
                    state.apply_action(rng.choice(state.legal_actions()))
        return hands, time.perf_counter() - t0

    return _best(repeat, once)


def bytes_per_env(game: str, players: int, n: int = 64) -> float:
    """Bytes one environment holds on the active core's lane (state and output rows)."""
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        vg = VectorGame(game, players, n, seed=1)
        after = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    size = (after - before) / n
    if vg.lane == "c":  # cffi's allocations are invisible to tracemalloc
        from .._hbc import lib

        vec_lib: Any = lib  # the batched lane is not in the binding's typed stub
        size += int(vec_lib.hb_vec_env_size())
    vg.close()
    return size


def _steps(n: int, lane: str, scale: float) -> int:
    """Steps per timed run: enough for several hands in every environment, fewer when each is slow."""
    if lane == "c":
        base = 400 if n <= 64 else 120 if n <= 1024 else 30
    else:
        base = 200 if n == 1 else 30
    return max(10, int(base * scale))


def run(args: argparse.Namespace) -> None:
    """Print the batched lane's table and its ratios to OpenSpiel and to the Python twin."""
    scale, repeat = float(args.scale), max(1, min(3, int(args.repeat)))
    print(f"core: {backend()}")
    rows: list[tuple[str, str, int, int, float]] = []
    c_lane: dict[tuple[str, int, int, bool], float] = {}
    py_lane: dict[tuple[str, int, bool], float] = {}
    busy: dict[int, float] = {}  # CPU seconds the process got per second with two threads
    for game, players in _GAMES:
        for n in _SIZES:
            vg = VectorGame(game, players, n, seed=n)
            lane = vg.lane
            if lane == "python" and n > 64:
                vg.close()
                continue  # the twin steps game objects one by one: large batches take minutes
            steps = _steps(n, lane, scale)
            for tensors in (False, True):
                rate = hands_per_second(vg, steps, repeat, tensors)
                rows.append((f"{game} {players}p{' +tensor' if tensors else ''}", lane, n, 1, rate))
                if lane == "c":
                    c_lane[(game, n, 1, tensors)] = rate
                else:
                    py_lane[(game, n, tensors)] = rate
            vg.close()
        if game == "deerpark" and backend() == "c":
            for n in (1024, 16384):
                vg = VectorGame(game, players, n, seed=n, threads=2)
                if vg.lane == "c":
                    wall, cpu = time.perf_counter(), time.process_time()
                    c_lane[(game, n, 2, False)] = rate = hands_per_second(vg, _steps(n, "c", scale), repeat)
                    busy[n] = (time.process_time() - cpu) / (time.perf_counter() - wall)
                    rows.append((f"{game} {players}p", "c", n, 2, rate))
                vg.close()
        if game == "deerpark" and backend() == "c":
            with using("python"):  # the Python twin of the same game
                for n in (1, 64):
                    vg = VectorGame(game, players, n, seed=n)
                    for tensors in (False, True):
                        rate = hands_per_second(vg, _steps(n, "python", scale), repeat, tensors)
                        py_lane[(game, n, tensors)] = rate
                        label = f"{game} {players}p{' +tensor' if tensors else ''} (twin)"
                        rows.append((label, "python", n, 1, rate))
    print(f"{'game':30}{'lane':>8}{'num_envs':>10}{'threads':>9}{'hands/s':>14}")
    for name, lane, n, threads, rate in rows:
        print(f"{name:30}{lane:>8}{n:>10,}{threads:>9}{rate:>14,.0f}")
    print(
        "(the Python lane is measured with 1 and 64 tables: it steps one game object at a time, so its\n"
        " hands/s stay flat for larger batches, which only take longer to time)"
    )
    print("\nbytes per environment (state and its rows of the output buffers, no tensor):")
    for game, players in _GAMES:
        print(f"  {game} {players}p ({backend()} core): {bytes_per_env(game, players):,.0f}")
    hands = max(20, int(200 * scale))
    spiel = openspiel_hands_per_second(hands, repeat, False)
    spiel_t = openspiel_hands_per_second(hands, repeat, True)
    if spiel is None or spiel_t is None:
        print("(OpenSpiel not installed: pip install 'hucklebuck[bench]' to compare)")
    else:
        print(
            f"\nOpenSpiel euchre 4p: {spiel:,.0f} hands/s; with information_state_tensor every step: "
            f"{spiel_t:,.0f} hands/s"
        )
    if ("deerpark", 1024, 1, False) not in c_lane:
        print("(the C lane is not active: run on the C core for its figures and ratios)")
        return
    best = max(v for (g, n, t, x), v in c_lane.items() if g == "deerpark" and t == 1 and not x)
    best_t = max(v for (g, n, t, x), v in c_lane.items() if g == "deerpark" and t == 1 and x)
    print("\nDeer Park 4p, C lane (targets in brackets):")
    if spiel is not None and spiel_t is not None:
        print(f"  hands/s ids+masks / OpenSpiel       {best / spiel:8.1f}x  [>= 10]")
        print(f"  hands/s with tensors / OpenSpiel    {best_t / spiel_t:8.1f}x  [>= 10]")
    for n in (1024, 16384):
        two = c_lane.get(("deerpark", n, 2, False))
        if two is not None:
            ratio = two / c_lane[("deerpark", n, 1, False)]
            print(
                f"  two threads / one, {n:>6,} envs       {ratio:8.2f}x  [>= 1.8]"
                f"  (the process got {busy.get(n, 0.0):.2f} CPU-seconds per second)"
            )
    for n in (1, 64):
        py = py_lane.get(("deerpark", n, False))
        if py:
            print(f"  C lane / Python twin, {n:>3} envs       {c_lane[('deerpark', n, 1, False)] / py:8.1f}x")
    py = py_lane.get(("deerpark", 64, False))
    if py:
        print(f"  C lane (best batch) / Python twin    {best / py:8.1f}x  [>= 50]")
    print("  (the machine's other load slows threads first: see the module docs)")
