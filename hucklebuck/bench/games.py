"""Benchmark section ``games``: the per-action game API of each game, and OpenSpiel's
``euchre`` measured the same way when ``pyspiel`` imports (the ``bench`` extra).

For each game: construction (a new game from a seed: its first hand is dealt on
first use, as OpenSpiel's ``new_initial_state`` deals by later chance actions),
construction plus that deal (``new + deal``: the game's ``phase`` read once),
``copy()`` of a mid-hand state, one typed action (``legal_actions()`` + ``apply()``), one integer action
(``legal_action_ids()`` + ``apply_id()``), ``observation(seat)``,
``observation_tensor(seat)``, whole random hands per second (a new game per
hand, random legal actions until the hand is over) through both APIs, and the
bytes one copied mid-hand state holds (``tracemalloc``).  With OpenSpiel the
same is measured for ``euchre`` (``new_initial_state``, ``clone``,
``legal_actions`` + ``apply_action``, ``information_state_tensor``; chance
outcomes drawn at random) and the Deer Park / euchre ratios are printed.  A
short tournament of the heuristic bots (whole 4-player Deer Park Euchre games
through ``observation()`` and ``apply()``) measures what a bot pays per game.

Figures are per call (µs) or per second, the best of ``10 x --repeat`` short runs;
``--scale`` shrinks the workloads.  The targets against OpenSpiel (whole random hands per
second through integer actions at least OpenSpiel's, through typed actions at least 0.8 of
it) are measured apart, in interleaved slices (:func:`interleaved_ratios`): round after
round, a slice of OpenSpiel hands, a slice through integer actions and a slice through typed
actions, each timed in CPU seconds, the order turned each round; the figure is the median
of the per-round ratios.  A best-of figure of each side taken at different moments flatters
whichever side caught the quiet moment (this host's speed drifts by up to 2x within a minute).
The active core is measured; run with ``HUCKLEBUCK_BACKEND=python`` for the Python core.
"""

from __future__ import annotations

import argparse
import importlib
import random
import statistics
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

from .. import backend
from ..games import BuckEmGame, DeerParkGame, HucklebuckGame
from ..games.base import Phase
from ..games.engine import TrickGame
from . import targets

__all__ = ["bench_game", "bench_openspiel", "bench_tournament", "interleaved_ratios", "run"]

_GAMES: list[tuple[str, Callable[[int], TrickGame[Any, Any]]]] = [
    ("deerpark 4p", lambda seed: DeerParkGame(4, seed=seed)),
    ("hucklebuck 4p", lambda seed: HucklebuckGame(4, seed=seed)),
    ("buckem 5p", lambda seed: BuckEmGame(5, seed=seed)),
]
_DONE = (Phase.HAND_OVER, Phase.GAME_OVER)


def _best_of(repeat: int, n: int, fn: Callable[[], object]) -> float:
    """Best time per item (seconds) of ``fn`` doing ``n`` items, over ``10 * repeat``
    short runs (many short runs see through a busy machine better than a few long ones)."""
    best = float("inf")
    for _ in range(10 * repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best / n


def _random_hand_typed(game: TrickGame[Any, Any], rng: random.Random) -> int:
    steps = 0
    while game.phase not in _DONE:
        game.apply(rng.choice(game.legal_actions()))
        steps += 1
    return steps


def _random_hand_ids(game: TrickGame[Any, Any], rng: random.Random) -> int:
    steps = 0
    while game.phase not in _DONE:
        game.apply_id(rng.choice(game.legal_action_ids()))
        steps += 1
    return steps


def _mid_hand(make: Callable[[int], TrickGame[Any, Any]], seed: int, before_end: int) -> TrickGame[Any, Any]:
    """A state ``before_end`` actions before the end of a random hand (same seed, replayed)."""
    probe = make(seed)
    steps = _random_hand_typed(probe, random.Random(seed))
    game = make(seed)
    rng = random.Random(seed)
    for _ in range(max(0, steps - before_end)):
        game.apply(rng.choice(game.legal_actions()))
    return game


def _bytes_per_copy(make_copy: Callable[[], object], n: int = 200) -> float:
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        keep = [make_copy() for _ in range(n)]
        after = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    del keep
    return (after - before) / n


def bench_game(make: Callable[[int], TrickGame[Any, Any]], scale: float, repeat: int) -> dict[str, float]:
    """The figures of one game (µs per call, hands per second, bytes per copy)."""
    out: dict[str, float] = {}
    n = max(20, int(200 * scale))
    out["new game µs"] = _best_of(repeat, n, lambda: [make(i) for i in range(n)]) * 1e6
    out["new + deal µs"] = _best_of(repeat, n, lambda: [make(i).phase for i in range(n)]) * 1e6
    mids = [_mid_hand(make, seed, 10) for seed in range(20)]
    out["copy µs"] = _best_of(repeat, n, lambda: [mids[i % 20].copy() for i in range(n)]) * 1e6
    out["bytes/copy"] = _bytes_per_copy(mids[0].copy)
    seat = [g.to_act if g.to_act is not None else 0 for g in mids]
    out["observation µs"] = (
        _best_of(repeat, n, lambda: [mids[i % 20].observation(seat[i % 20]) for i in range(n)]) * 1e6
    )
    if hasattr(mids[0], "observation_tensor"):
        out["tensor µs"] = (
            _best_of(repeat, n, lambda: [mids[i % 20].observation_tensor(seat[i % 20]) for i in range(n)])
            * 1e6
        )
    hands = max(10, int(40 * scale))

    def typed() -> None:
        rng = random.Random(1)
        for i in range(hands):
            _random_hand_typed(make(i), rng)

    def ids() -> None:
        rng = random.Random(1)
        for i in range(hands):
            _random_hand_ids(make(i), rng)

    out["hands/s typed"] = 1 / _best_of(repeat, hands, typed)
    steps = sum(_random_hand_typed(make(i), random.Random(i)) for i in range(min(hands, 50)))
    per_hand_new = out["new + deal µs"] / 1e6
    per_step = (1 / out["hands/s typed"] - per_hand_new) / (steps / min(hands, 50))
    out["typed action µs"] = per_step * 1e6
    if hasattr(mids[0], "apply_id"):
        out["hands/s ids"] = 1 / _best_of(repeat, hands, ids)
        per_step = (1 / out["hands/s ids"] - per_hand_new) / (steps / min(hands, 50))
        out["id action µs"] = per_step * 1e6
    return out


def bench_openspiel(scale: float, repeat: int) -> dict[str, float] | None:
    """The same figures for OpenSpiel's ``euchre``, or None without ``pyspiel``."""
    try:
        pyspiel = importlib.import_module("pyspiel")
    except ImportError:
        return None
    game = pyspiel.load_game("euchre")

    def play_out(state: Any, rng: random.Random, limit: int | None = None) -> int:
        steps = 0
        while not state.is_terminal() and (limit is None or steps < limit):
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
        return steps

    out: dict[str, float] = {}
    n = max(20, int(200 * scale))
    out["new game µs"] = _best_of(repeat, n, lambda: [game.new_initial_state() for _ in range(n)]) * 1e6

    def dealt() -> None:
        rng = random.Random(0)
        for _ in range(n):
            state = game.new_initial_state()
            while state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])

    out["new + deal µs"] = _best_of(repeat, n, dealt) * 1e6
    mids = []
    for seed in range(20):
        total = play_out(game.new_initial_state(), random.Random(seed))
        s = game.new_initial_state()
        play_out(s, random.Random(seed), total - 10)
        mids.append(s)
    out["copy µs"] = _best_of(repeat, n, lambda: [mids[i % 20].clone() for i in range(n)]) * 1e6
    seat = [max(0, s.current_player()) for s in mids]
    out["tensor µs"] = (
        _best_of(repeat, n, lambda: [mids[i % 20].information_state_tensor(seat[i % 20]) for i in range(n)])
        * 1e6
    )
    hands = max(10, int(40 * scale))

    def hands_run() -> None:
        rng = random.Random(1)
        for _ in range(hands):
            play_out(game.new_initial_state(), rng)

    out["hands/s typed"] = out["hands/s ids"] = 1 / _best_of(repeat, hands, hands_run)
    steps = sum(play_out(game.new_initial_state(), random.Random(i)) for i in range(50)) / 50
    out["id action µs"] = out["typed action µs"] = (
        (1 / out["hands/s ids"] - out["new game µs"] / 1e6) / steps * 1e6
    )
    return out


def interleaved_ratios(scale: float, repeat: int) -> dict[str, list[float]] | None:
    """Per-round ratios of whole random 4-player Deer Park hands per CPU second (integer and typed
    actions) to OpenSpiel euchre's, the three measured in turn within each round (see the module
    docstring); None without ``pyspiel``."""
    try:
        pyspiel = importlib.import_module("pyspiel")
    except ImportError:
        return None
    spiel = pyspiel.load_game("euchre")
    hands = max(5, int(60 * scale))
    seeds = iter(range(1 << 62))

    def theirs(rng: random.Random) -> None:
        for _ in range(hands):
            state = spiel.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                else:
                    state.apply_action(rng.choice(state.legal_actions()))

    def ids(rng: random.Random) -> None:
        for _ in range(hands):
            _random_hand_ids(DeerParkGame(4, seed=next(seeds)), rng)

    def typed(rng: random.Random) -> None:
        for _ in range(hands):
            _random_hand_typed(DeerParkGame(4, seed=next(seeds)), rng)

    sides = {"theirs": theirs, "ids": ids, "typed": typed}
    rng = random.Random(1)
    for fn in sides.values():  # warm up
        fn(rng)
    ratios: dict[str, list[float]] = {"ids": [], "typed": []}
    for r in range(max(9, 6 * repeat)):
        names = list(sides)
        names = names[r % 3 :] + names[: r % 3]  # each side first, second and third in turn
        took = {}
        for name in names:
            t0 = time.process_time()
            sides[name](rng)
            took[name] = max(time.process_time() - t0, 1e-9)
        for name in ratios:
            ratios[name].append(took["theirs"] / took[name])
    return ratios


def bench_tournament(games: int) -> float:
    """Seconds for ``games`` whole 4-player Deer Park Euchre games between heuristic bots."""
    from ..players import DeerParkHeuristic

    t0 = time.perf_counter()
    for i in range(games):
        game = DeerParkGame(4, seed=i)
        bots = [DeerParkHeuristic() for _ in range(4)]
        hands = 0
        while not game.is_over and hands < 200:
            if game.phase is Phase.HAND_OVER:
                game.next_hand()
                hands += 1
                continue
            seat = game.to_act
            assert seat is not None
            game.apply(bots[seat].choose(game.observation(seat)))
    return time.perf_counter() - t0


_ROWS = [
    "new game µs",
    "new + deal µs",
    "copy µs",
    "bytes/copy",
    "typed action µs",
    "id action µs",
    "observation µs",
    "tensor µs",
    "hands/s typed",
    "hands/s ids",
]


def run(args: argparse.Namespace) -> None:
    """Print the table (the active core), then OpenSpiel's euchre and the ratios."""
    scale = float(args.scale)
    repeat = int(args.repeat)
    print(f"core: {backend()}")
    results = {name: bench_game(make, scale, repeat) for name, make in _GAMES}
    spiel = bench_openspiel(scale, repeat)
    names = list(results) + (["OpenSpiel euchre"] if spiel is not None else [])
    if spiel is not None:
        results["OpenSpiel euchre"] = spiel
    print(f"{'':18}" + "".join(f"{n:>18}" for n in names))
    for row in _ROWS:
        cells = []
        for n in names:
            v = results[n].get(row)
            cells.append(f"{'-' if v is None else f'{v:,.1f}':>18}")
        print(f"{row:18}" + "".join(cells))
    if spiel is None:
        print("(OpenSpiel not installed: pip install 'hucklebuck[bench]' to compare)")
    else:
        dp = results["deerpark 4p"]
        print("\nDeer Park 4p vs OpenSpiel euchre, measured in this run:")
        ratios = interleaved_ratios(scale, repeat)
        assert ratios is not None
        for key, label, target in [
            ("ids", "hands/s ids / OpenSpiel", 1.0),
            ("typed", "hands/s typed / OpenSpiel", 0.8),
        ]:
            got = sorted(ratios[key])
            spread = f"(median of {len(got)} interleaved rounds, CPU time; {got[0]:.2f} to {got[-1]:.2f})"
            print("  " + targets.check("games", label, statistics.median(got), target) + " " + spread)
        for label, ours, theirs, target, higher in [
            ("copy / clone", dp["copy µs"], spiel["copy µs"], 5, False),
            ("new game / new state", dp["new game µs"], spiel["new game µs"], 10, False),
        ]:
            print("  " + targets.check("games", label, ours / theirs, target, higher=higher))
        print(f"  {'new + deal / new + deal':28} {dp['new + deal µs'] / spiel['new + deal µs']:8.2f}")
        print(
            "  (new game: our first hand is dealt on first use, OpenSpiel's by chance actions after"
            " new_initial_state; new + deal: both dealt)"
        )
        print("  (OpenSpiel's C++ memory is invisible to tracemalloc: no bytes/copy for it)")
    games = max(2, int(20 * scale))
    secs = bench_tournament(games)
    print(
        f"\ntournament: {games} whole 4-player Deer Park games, heuristic bots: {secs:.2f} s "
        f"({secs / games * 1e3:.1f} ms per game)"
    )
