"""Benchmark section ``vector``: the batched lane (:class:`hucklebuck.vector.VectorGame`)
side by side with OpenSpiel's ``euchre`` at 4 players (when ``pyspiel`` imports).

Random whole hands per second: every environment plays uniformly random legal
ids (``sample_legal``, drawn in C on the C lane) until its hand is over and is
dealt again (auto-reset, ``hands=1``); hands/s counts finished hands.  Measured
with ids and masks only, and with the acting seat's observation tensor produced
at every step (into one reused buffer); with ``num_envs`` 1, 64, 1,024 and
16,384 (and 1,024 against 16,384 timed alternately: a bigger batch must not
cost more per hand); two threads against one; the C lane against its Python twin (the game
objects); and the bytes one environment holds (the C state, or the game objects
measured with ``tracemalloc``, plus its rows of the output buffers).  OpenSpiel
plays the same random hands through pyspiel (chance outcomes drawn at random,
``legal_actions`` + ``apply_action``; with ``information_state_tensor`` of the
player to act at every step).  Then the cost of ``clone()`` of this library's
OpenSpiel states against one engine copy of their game, and how well each reward
mode's summed reward picks the winner of whole random games.

Each figure is the best of up to three timed runs of a fixed number of steps
(``--scale`` shrinks them), in hands per second of wall-clock time and per
CPU-second of this process: on a machine shared with other work the second is
the fairer comparison of one thread with another library, and the ratios are
printed both ways.  Only the steps are timed: the hands are counted before and
after each run.  Two threads are timed against one, and 16,384 tables against
1,024, in five rounds that time each in turn (so both see the same load), and
each ratio is of the two best runs; the threads figure needs a
free second core, so the line prints how much CPU time the process actually
got, how much of the time each thread spent working on the batch, and how the
environments were shared out (they go to whichever thread is free).
"""

from __future__ import annotations

import argparse
import importlib
import random
import statistics
import threading
import time
import tracemalloc
import warnings
from collections.abc import Callable
from typing import Any

from .. import backend, using
from ..vector import RewardWarning, VectorGame
from . import mark, targets
from ._vector_rewards import print_rewards as _print_rewards
from ._vector_rewards import reward_agreement

# The timed batches play one hand per episode (a timing, not a learner): no RewardWarning.
warnings.filterwarnings("ignore", category=RewardWarning)

__all__ = [
    "hands_per_second",
    "openspiel_clone_micros",
    "openspiel_hands_per_second",
    "reward_agreement",
    "run",
    "sizes_against",
    "threads_against_one",
]

_SIZES = (1, 64, 1024, 16384)
_THREAD_SIZES = (1024, 4096, 16384)
_SMALL, _BIG = 1024, 16384
"""One thread: hands/s with _BIG tables must be at least 0.9 times those with _SMALL
(a bigger batch must not cost more per hand)."""
_GAMES = (("deerpark", 4), ("hucklebuck", 4), ("buckem", 5))
_ROUNDS = 5
"""Rounds of the comparisons of two batches timed in turn (two threads against one, a big batch
against a small one): each ratio is of the two best runs.  Five, whatever ``--repeat`` says: on a
shared machine a slow spell can last seconds, and three rounds were too few to meet a quiet one."""


Timed = tuple[int, float, float]
"""A timed run: the items it did, and the wall-clock and CPU seconds they took."""


def _timed(fn: Callable[[], int]) -> Callable[[], Timed]:
    """``fn`` (which returns its item count) timed as a whole."""

    def run() -> Timed:
        t0, c0 = time.perf_counter(), time.process_time()
        items = fn()
        return items, time.perf_counter() - t0, time.process_time() - c0

    return run


def _best(repeat: int, fn: Callable[[], Timed]) -> tuple[float, float]:
    """The best rates over ``repeat`` timed runs of ``fn``: items per second of wall-clock
    time, and items per CPU-second of this process (the fairer figure for one thread on a
    machine shared with other work)."""
    wall = cpu = 0.0
    for _ in range(repeat):
        items, secs, cpu_secs = fn()
        if secs > 0:
            wall = max(wall, items / secs)
        if cpu_secs > 0:
            cpu = max(cpu, items / cpu_secs)
    return wall, cpu


def episodes_ended(vg: VectorGame[Any]) -> int:
    """The episodes ``vg`` has ended since its seeded reset: those already replaced by the next
    one (the environments' episode numbers), and those that ended at the last step."""
    return sum(vg.episodes) + vg.terminated.tobytes().count(1) + vg.truncated.tobytes().count(1)


def play_random(vg: VectorGame[Any], steps: int, k: int, out: memoryview[float] | None = None) -> Timed:
    """``steps`` steps of random play on ``vg`` (``sample_legal(k)``, ``k + 1``, ...; the
    observation tensors into ``out`` after each when given): the hands they finished, and the
    wall-clock and CPU seconds the steps took.

    Only the loop is timed, and it is what a training loop calls: the hands are counted from the
    episodes ended before and after it (one call each), not by reading the flags after every step
    (at 1,024 tables that reading took about 4 % of a two-thread step).  A hand ends its episode
    one way or the other."""
    start = episodes_ended(vg)
    t0, c0 = time.perf_counter(), time.process_time()
    for _ in range(steps):
        vg.step(vg.sample_legal(k))
        k += 1
        if out is not None:
            vg.observation_tensor(out)
    secs, cpu_secs = time.perf_counter() - t0, time.process_time() - c0
    return episodes_ended(vg) - start, secs, cpu_secs


def hands_per_second(
    vg: VectorGame[Any], steps: int, repeat: int, tensors: bool = False
) -> tuple[float, float]:
    """Finished hands per second (wall clock, CPU) of random play on ``vg`` over ``steps`` steps."""
    out = memoryview(bytearray(4 * vg.num_envs * vg.tensor_size)).cast("f") if tensors else None
    counter = [0]

    def once() -> Timed:
        run = play_random(vg, steps, counter[0], out)
        counter[0] += steps
        return run

    once()  # warm up (and deal past the first, shorter episodes)
    return _best(repeat, once)


Rate = tuple[float, float]
"""Hands per second of wall-clock time, and per CPU-second of this process."""


class Threads:
    """Two threads against one on one batch size, from alternating timed runs."""

    def __init__(
        self, one: Rate, two: Rate, cpu: list[float], busy: list[float], share: list[float], halves: Rate
    ) -> None:
        self.one, self.two = one, two
        self.halves = halves
        """Two one-thread batches of half the size, stepped at once on two threads that never wait for
        each other: what the machine itself gives two threads at that moment (see :attr:`ceiling`)."""
        self.cpu = cpu
        """CPU-seconds the process got per wall-second during the one-thread and the two-thread runs."""
        self.busy = busy
        """Per thread (the calling one first): the fraction of those runs' time it worked on the batch."""
        self.share = share
        """Per thread: its fraction of the environments handled."""
        self.rounds: list[float] = []
        """Each round's two threads' hands/s over the machine's own two independent threads'
        (:attr:`halves`) in the same round, lowest first."""
        self.of_ceiling = 0.0
        """The median of :attr:`rounds`: how much of the two-core ceiling the pool reached."""

    @property
    def ratio(self) -> float:
        """Two threads' hands per second over one thread's (wall clock)."""
        return self.two[0] / self.one[0] if self.one[0] > 0 else 0.0

    @property
    def ceiling(self) -> float:
        """The machine's own two threads / one: two independent half batches over one whole batch
        (no pool, no hand-off: only the cores, their caches and whoever else shares the host)."""
        return self.halves[0] / self.one[0] if self.one[0] > 0 else 0.0


Play = Callable[[int], Timed]
"""A contender of :func:`_alternate`: ``count`` steps of random play, timed."""


def _player(vg: VectorGame[Any]) -> Play:
    """``vg``'s random play from where it was left (its own sequence of sampling seeds)."""
    done = [0]

    def play(count: int) -> Timed:
        run = play_random(vg, count, done[0])
        done[0] += count
        return run

    return play


class _Together:
    """Random play of two batches at once, each on a thread of its own (the lane's calls let the
    interpreter's lock go): called with a step count, the hands of both, the wall-clock seconds
    from the first of the two loops' start to the last one's end, and the CPU seconds.

    The second thread is started once, with the pair, and both loops start together (each waits
    for the other at a barrier) and are timed from there: a thread started for each run took a
    median 0.2 to 0.6 ms to start running here (up to 11 ms under load) while the first batch
    already ran alone, and timing the pair from before that start charged the two independent
    threads with it, which the pool's threads, started once with their batch, never pay.
    :meth:`close` ends the thread."""

    def __init__(self, a: VectorGame[Any], b: VectorGame[Any]) -> None:
        self._pa, self._pb = _player(a), _player(b)
        self._count = 0
        self._start, self._end = threading.Barrier(2), threading.Barrier(2)
        self._theirs: tuple[Timed, float, float] = ((0, 0.0, 0.0), 0.0, 0.0)
        self._error: BaseException | None = None
        self._other = threading.Thread(target=self._second, name="hucklebuck-bench-half", daemon=True)
        self._other.start()

    def _second(self) -> None:
        while True:
            self._start.wait()
            if self._count == 0:
                return
            self._error = None
            try:
                t0 = time.perf_counter()
                run = self._pb(self._count)
                self._theirs = (run, t0, time.perf_counter())
            except BaseException as exc:  # raised again in the calling thread
                self._error = exc
            finally:
                self._end.wait()

    def __call__(self, count: int) -> Timed:
        self._count = max(1, count)
        c0 = time.process_time()
        self._start.wait()
        try:
            t0 = time.perf_counter()
            mine = self._pa(self._count)
            t1 = time.perf_counter()
        finally:  # (both threads pass each barrier, whatever either one raised)
            self._end.wait()
        if self._error is not None:
            raise self._error
        theirs, u0, u1 = self._theirs
        return mine[0] + theirs[0], max(t1, u1) - min(t0, u0), time.process_time() - c0

    def close(self) -> None:
        """End the second thread (after the last run)."""
        self._count = 0
        self._start.wait()
        self._other.join()


def _alternate(
    plays: list[Play], steps: list[int], rounds: int, per_round: list[list[Rate]] | None = None
) -> tuple[list[Rate], list[Timed]]:
    """Each contender's best rate over ``rounds`` rounds, each of which times every contender once in
    turn (so that all of them meet the same moments of a shared machine, and each needs one quiet
    moment, not a quiet whole run); and each one's total (steps, wall-clock and CPU seconds) of all its runs.

    Each is warmed up once in full (past the first, shorter episodes), then for a tenth of
    its steps before each timed run (its state back in the caches after the others ran)."""
    runs: list[list[Rate]] = [[] for _ in plays]
    total = [(0, 0.0, 0.0) for _ in plays]

    def play(k: int, count: int) -> Timed:
        hands, secs, cpu_secs = plays[k](count)
        total[k] = (total[k][0] + count, total[k][1] + secs, total[k][2] + cpu_secs)
        return hands, secs, cpu_secs

    for k in range(len(plays)):
        play(k, steps[k])
    for _ in range(rounds):
        for k in range(len(plays)):
            play(k, max(1, steps[k] // 10))
            hands, secs, cpu_secs = play(k, steps[k])
            runs[k].append((hands / secs if secs > 0 else 0.0, hands / cpu_secs if cpu_secs > 0 else 0.0))
    if per_round is not None:  # each contender's rate in each round (for ratios taken round by round)
        per_round.extend(runs)
    return [(max(r[0] for r in rs), max(r[1] for r in rs)) for rs in runs], total


def threads_against_one(game: str, players: int, n: int, steps: int, rounds: int) -> Threads:
    """Random hands per second of one batch size on one thread and on two, timed
    alternately (the best of ``rounds`` rounds each), with the two-thread runs' CPU
    time and each thread's busy time."""
    vgs = [VectorGame(game, players, n, seed=n, threads=t, hands=1) for t in (1, 2)]
    halves = [VectorGame(game, players, n // 2, seed=n + k, threads=1, hands=1) for k in (1, 2)]
    before = vgs[1].thread_times()
    together = _Together(*halves)
    plays: list[Play] = [_player(vgs[0]), _player(vgs[1]), together]
    runs: list[list[Rate]] = []
    try:
        best, total = _alternate(plays, [steps, steps, steps], rounds, runs)
    finally:
        together.close()
    after = vgs[1].thread_times()
    for vg in vgs + halves:
        vg.close()
    wall = total[1][1]
    busy = [(a[0] - b[0]) / wall if wall > 0 else 0.0 for a, b in zip(after, before, strict=True)]
    items = [a[1] - b[1] for a, b in zip(after, before, strict=True)]
    share = [k / sum(items) if sum(items) else 0.0 for k in items]
    got = [t[2] / t[1] if t[1] > 0 else 0.0 for t in total]
    pair = Threads(best[0], best[1], got[:2], busy, share, best[2])
    # two threads on one batch against the machine's own two independent threads, round by round
    pair.rounds = sorted(t[0] / h[0] if h[0] > 0 else 0.0 for t, h in zip(runs[1], runs[2], strict=True))
    pair.of_ceiling = statistics.median(pair.rounds)
    return pair


def sizes_against(game: str, players: int, sizes: tuple[int, ...], scale: float, rounds: int) -> list[Rate]:
    """One thread's random hands per second at each batch size, timed alternately
    (the best of ``rounds`` rounds each), so that every size sees the same load."""
    vgs = [VectorGame(game, players, n, seed=n, hands=1) for n in sizes]
    best, _ = _alternate([_player(vg) for vg in vgs], [_timed_steps(n, scale) for n in sizes], rounds)
    for vg in vgs:
        vg.close()
    return best


def openspiel_hands_per_second(hands: int, repeat: int, tensors: bool) -> tuple[float, float] | None:
    """OpenSpiel euchre's random hands per second, wall clock and CPU (None without ``pyspiel``)."""
    try:
        pyspiel = importlib.import_module("pyspiel")
    except ImportError:
        return None
    game = pyspiel.load_game("euchre")
    rng = random.Random(1)

    def once() -> int:
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
        return hands

    return _best(repeat, _timed(once))


def openspiel_clone_micros(repeat: int, clones: int = 2000) -> list[tuple[str, float, float]] | None:
    """Per game (4 players; Buck 'Em 5), mid-hand: microseconds per ``clone()`` of our
    OpenSpiel state and per engine ``copy()`` of its game, best of ``repeat`` runs
    (None without ``pyspiel``)."""
    try:
        pyspiel = importlib.import_module("pyspiel")
        importlib.import_module("hucklebuck.openspiel")  # registers the games
    except ImportError:
        return None
    out: list[tuple[str, float, float]] = []
    for name in (
        "python_deerpark(players=4,hands=2)",
        "python_hucklebuck(players=4,hands=2)",
        "python_buckem(players=5,hands=2)",
    ):
        state = pyspiel.load_game(name).new_initial_state()
        rng = random.Random(1)
        while state.move_number() < 60 and not state.is_terminal():  # the second hand, under way
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        engine = state._game

        def clone_all(state: Any = state) -> int:
            for _ in range(clones):
                state.clone()
            return clones

        def copy_all(engine: Any = engine) -> int:
            for _ in range(clones):
                engine.copy()
            return clones

        per_clone = 1e6 / _best(repeat, _timed(clone_all))[0]
        per_copy = 1e6 / _best(repeat, _timed(copy_all))[0]
        out.append((name.split("(")[0], per_clone, per_copy))
    return out


def bytes_per_env(game: str, players: int, n: int = 64) -> float:
    """Bytes one environment holds on the active core's lane (state and output rows)."""
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        vg = VectorGame(game, players, n, seed=1, hands=1)
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


def _timed_steps(n: int, scale: float) -> int:
    """Steps per timed run of the comparisons of two runs (two threads against one, a big batch
    against a small one): about three million environment-steps at
    ``scale`` 1 (some 0.3 s on one thread, whatever the batch size), so that one time slice lost to
    another process (a few ms) moves the ratio by a few percent, not by a third as in 10 ms runs."""
    return max(3 * _steps(n, "c", scale), int(3_000_000 * scale) // n)


def _ratio(label: str, ours: list[Rate], theirs: Rate, target: str) -> str:
    """Our best rate (over batch sizes) against theirs, by wall clock and per CPU-second."""
    wall = max(r[0] for r in ours) / theirs[0]
    cpu = max(r[1] for r in ours) / theirs[1]
    return f"  {label:34}{wall:8.1f}x wall, {cpu:8.1f}x per CPU-second  {mark(wall, target)}"


def run(args: argparse.Namespace) -> None:
    """Print the batched lane's table and its ratios to OpenSpiel and to the Python twin."""
    scale, repeat = float(args.scale), max(1, min(3, int(args.repeat)))
    print(f"core: {backend()}")
    rows: list[tuple[str, str, int, int, Rate]] = []
    c_lane: dict[tuple[str, int, int, bool], Rate] = {}  # (game, num_envs, threads, tensors)
    py_lane: dict[tuple[str, int, bool], Rate] = {}  # the Python twin: (game, num_envs, tensors)
    threads: dict[tuple[str, int], Threads] = {}  # (game, num_envs): two threads against one
    sizes: dict[str, list[Rate]] = {}  # game: one thread at _SMALL and _BIG tables, timed alternately
    for game, players in _GAMES:
        for n in _SIZES:
            vg = VectorGame(game, players, n, seed=n, hands=1)
            lane = vg.lane
            if lane == "python" and n > 64:
                vg.close()
                continue  # the twin steps game objects one by one: large batches take minutes
            for tensors in (False, True):
                rate = hands_per_second(vg, _steps(n, lane, scale), repeat, tensors)
                rows.append((f"{game} {players}p{' +tensor' if tensors else ''}", lane, n, 1, rate))
                if lane == "c":
                    c_lane[(game, n, 1, tensors)] = rate
                else:
                    py_lane[(game, n, tensors)] = rate
            vg.close()
        if (game, 1024, 1, False) in c_lane:  # the games the C lane steps: threads and the twin
            sizes[game] = sizes_against(game, players, (_SMALL, _BIG), scale, _ROUNDS)
            for n in _THREAD_SIZES:
                steps = _timed_steps(n, scale)
                pair = threads[(game, n)] = threads_against_one(game, players, n, steps, _ROUNDS)
                rows.append((f"{game} {players}p (vs 1 thread)", "c", n, 1, pair.one))
                rows.append((f"{game} {players}p (vs 1 thread)", "c", n, 2, pair.two))
            with using("python"):  # the Python twin of the same game
                for n in (1, 64):
                    vg = VectorGame(game, players, n, seed=n, hands=1)
                    for tensors in (False, True):
                        rate = hands_per_second(vg, _steps(n, "python", scale), repeat, tensors)
                        py_lane[(game, n, tensors)] = rate
                        rows.append(
                            (f"{game} {players}p{' +tensor' if tensors else ''} (twin)", "python", n, 1, rate)
                        )
    print(f"{'game':30}{'lane':>8}{'num_envs':>10}{'threads':>9}{'hands/s':>14}{'hands/CPU-s':>14}")
    for name, lane, n, count, (wall, cpu) in rows:
        print(f"{name:30}{lane:>8}{n:>10,}{count:>9}{wall:>14,.0f}{cpu:>14,.0f}")
    print(
        "(the Python lane is measured with 1 and 64 tables: it steps one game object at a time, so its\n"
        " hands/s stay flat for larger batches, which only take longer to time)"
    )
    print("\nbytes per environment (state and its rows of the output buffers, no tensor):")
    for game, players in _GAMES:
        print(f"  {game} {players}p ({backend()} core): {bytes_per_env(game, players):,.0f}")
    if backend() == "c":  # whole games on the game objects would take minutes
        _print_rewards(max(100, int(1000 * scale)))
    else:
        print("\n(the reward modes against winning: on the C core)")
    hands = max(20, int(200 * scale))
    spiel = openspiel_hands_per_second(hands, repeat, False)
    spiel_t = openspiel_hands_per_second(hands, repeat, True)
    if spiel is None or spiel_t is None:
        print("(OpenSpiel not installed: pip install 'hucklebuck[bench]' to compare)")
    else:
        print(
            f"\nOpenSpiel euchre 4p: {spiel[0]:,.0f} hands/s ({spiel[1]:,.0f} per CPU-second); with "
            f"information_state_tensor every step: {spiel_t[0]:,.0f} ({spiel_t[1]:,.0f} per CPU-second)"
        )
    clones = openspiel_clone_micros(repeat, max(200, int(2000 * scale)))
    if clones is not None:
        print("\nOpenSpiel state clone() (mid-hand) against one engine copy of its game:")
        for name, per_clone, per_copy in clones:
            print(
                f"  {name:20}{per_clone:8.1f} us a clone,{per_copy:6.1f} us an engine copy "
                f"({per_clone / per_copy:.1f} copies)"
            )
    if ("deerpark", 1024, 1, False) not in c_lane:
        print("(the C lane is not active: run on the C core for its figures and ratios)")
        return
    for game, players in _GAMES:
        if (game, 1024, 1, False) in c_lane:
            _print_ratios(game, players, c_lane, py_lane, threads, sizes.get(game), spiel, spiel_t)
    from .vector_engine import print_lane_against_engine

    print_lane_against_engine(scale)


def _print_ratios(
    game: str,
    players: int,
    c_lane: dict[tuple[str, int, int, bool], Rate],
    py_lane: dict[tuple[str, int, bool], Rate],
    threads: dict[tuple[str, int], Threads],
    sizes: list[Rate] | None,
    spiel: Rate | None,
    spiel_t: Rate | None,
) -> None:
    """One game's ratios: to OpenSpiel (Deer Park only: euchre is its twin), to the Python twin, threads."""
    best = [v for (g, n, t, x), v in c_lane.items() if g == game and t == 1 and not x]
    best_t = [v for (g, n, t, x), v in c_lane.items() if g == game and t == 1 and x]
    print(f"\n{game} {players}p, C lane at its best batch size, one thread (targets in brackets):")
    if game == "deerpark" and spiel is not None and spiel_t is not None:
        print(_ratio("hands/s ids+masks / OpenSpiel", best, spiel, ">= 10"))
        print(_ratio("hands/s with tensors / OpenSpiel", best_t, spiel_t, ">= 10"))
    py = py_lane.get((game, 64, False))
    if py:
        print(_ratio("C lane / Python twin (64 tables)", best, py, ">= 50"))
    if sizes is not None:
        (small, small_cpu), (big, big_cpu) = sizes
        wall = big / small if small > 0 else 0.0
        cpu = big_cpu / small_cpu if small_cpu > 0 else 0.0
        label = f"{game} {players}p one thread, {_BIG:,} / {_SMALL:,} tables (per CPU-second)"
        print(
            f"  {_BIG:,} tables / {_SMALL:,}, one thread   {wall:8.2f}x wall, {cpu:8.2f}x per CPU-second"
            f" ({big:,.0f} / {small:,.0f} hands/s, timed alternately)\n"
            f"    {targets.check('vector', label, cpu, 0.9)}"
        )
    pairs = {n: threads[(game, n)] for n in _THREAD_SIZES if (game, n) in threads}
    top = max(pairs, key=lambda n: pairs[n].ratio, default=None)
    for n, pair in pairs.items():
        busy = " and ".join(f"{b:.2f}" for b in pair.busy)
        share = " / ".join(f"{s:.0%}" for s in pair.share)
        per_cpu = pair.two[1] / pair.one[1] if pair.one[1] else 0.0
        label = f"{game} {players}p two threads / one, {n:,} tables"
        if game == "deerpark":  # the issue's figure, guarded; the other games' are shown only
            verdict = targets.check("vector", label, pair.ratio, 1.8, ceiling=pair.ceiling)
            of = f"{game} {players}p two threads / the machine's two-core ceiling, {n:,} tables"
            verdict += "\n      " + targets.check("vector", of, pair.of_ceiling, 0.95)
            low, high = (pair.rounds[0], pair.rounds[-1]) if pair.rounds else (0.0, 0.0)
            verdict += f" (median of {len(pair.rounds)} rounds' ratios; {low:.2f} to {high:.2f})"
        else:  # (two threads on a 2-core machine swing by 0.4 from run to run in these games)
            verdict = f"{label}: {pair.ratio:.2f} {mark(pair.ratio, '>= 1.8')} (shown, not guarded)"
        tag = "  (best)" if n == top else ""
        print(
            f"  two threads / one, {n:>6,} tables     {pair.ratio:8.2f}x wall{tag}\n"
            f"      {verdict}\n"
            f"      the machine's own ceiling then: {pair.ceiling:.2f} (two batches of {n // 2:,} on two"
            f" threads that never wait\n      for each other); the pool reached"
            f" {pair.ratio / pair.ceiling if pair.ceiling else 0.0:.0%} of it\n"
            f"      the process got {pair.cpu[1]:.2f} CPU-seconds per second with two threads"
            f" ({pair.cpu[0]:.2f} with one);\n      each thread worked {busy} of the time and handled"
            f" {share} of the environments;\n      hands per CPU-second two threads / one {per_cpu:.2f}"
        )
    if pairs:
        print(
            "      (on a machine shared with other work a process with two threads can get twice the CPU\n"
            "      of one with one thread: the wall ratio then overstates, and hands per CPU-second show\n"
            "      what the sharing itself costs)"
        )
