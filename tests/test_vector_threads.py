"""VectorGame's native threads: the same buffers for any thread count, the
illegal-id rule across threads, and a clean shutdown (both cores; on the Python
core the batch has no threads and the same results)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from thorough_kit import THOROUGH

from hucklebuck import backend
from hucklebuck.errors import ActionParseError, IllegalAction
from hucklebuck.vector import VectorGame, _clane

# episodes of K hands warn (RewardWarning) that they do not teach winning; these tests cut them on purpose
pytestmark = pytest.mark.filterwarnings("ignore::hucklebuck.vector.RewardWarning")


def _buffers(vg: VectorGame) -> tuple[bytes, ...]:
    return (
        vg.legal_mask.tobytes(),
        vg.current_player.tobytes(),
        vg.rewards.tobytes(),
        vg.terminated.tobytes(),
    )


@pytest.mark.parametrize(
    "game,players,n",
    [
        ("deerpark", 4, 300),
        ("hucklebuck", 5, 211),
        ("deerpark", 7, 64),
        ("buckem", 6, 150),
        ("deerpark", 4, 1300),  # parts of several chunks (256 tables at least each)
    ],
)
def test_one_two_and_three_threads_give_identical_buffers(game: str, players: int, n: int) -> None:
    def make(n: int) -> list[VectorGame]:
        return [VectorGame(game, players, n, seed=7, hands=2, reward="hand", threads=t) for t in (1, 2, 3)]

    batches = make(n)
    if batches[0].lane == "python":  # no threads on the Python lane: the same results, on a small batch
        n = min(n, 24)
        batches = make(n)
    out = [memoryview(bytearray(4 * n * vg.tensor_size)).cast("f") for vg in batches]
    for k in range(120):
        ids = [vg.sample_legal(k) for vg in batches]
        assert ids[0].tobytes() == ids[1].tobytes() == ids[2].tobytes()
        for vg, acts in zip(batches, ids, strict=True):
            vg.step(acts)
        first = _buffers(batches[0])
        assert _buffers(batches[1]) == first and _buffers(batches[2]) == first
        if k % 15 == 0:
            for vg, buf in zip(batches, out, strict=True):
                vg.observation_tensor(buf, seat=k % players if k % 30 else None)
            assert out[0].tobytes() == out[1].tobytes() == out[2].tobytes()
        if k == 70:
            for vg in batches:
                vg.reset()  # every table's next episode, in each thread's share
    assert batches[0].episodes == batches[2].episodes
    assert batches[0].game(n - 1).to_dict() == batches[2].game(n - 1).to_dict()


def test_deals_shuffled_ahead_match_one_thread_across_reseeds() -> None:
    """A pool's threads shuffle their tables' next deals ahead while they wait (batches of up to
    2,048 tables): a reseed, or a reset to the seed of before, makes every shuffle done ahead stale,
    and a deal that took one would differ from the one-thread batch's at once."""
    n, players = 600, 4
    batches = [VectorGame("deerpark", players, n, seed=7, hands=1, threads=t) for t in (1, 2)]
    for k, seed in enumerate((None, 123, 7, 123, None)):
        if seed is not None or k:
            for vg in batches:
                vg.reset(seed)
        assert _buffers(batches[1]) == _buffers(batches[0])
        for j in range(60):
            ids = batches[0].sample_legal(100 * k + j)
            for vg in batches:
                vg.step(ids)
            assert _buffers(batches[1]) == _buffers(batches[0]), (seed, j)
        assert batches[1].episodes == batches[0].episodes
    for vg in batches:
        vg.close()


@pytest.mark.parametrize("threads", [2, 3])
def test_an_illegal_id_anywhere_changes_no_environment(threads: int) -> None:
    n = 257
    vg = VectorGame("hucklebuck", 4, n, seed=5, threads=threads, hands=1)
    for k in range(9):
        vg.step(vg.sample_legal(k))
    for bad_env in (0, n // 2, n - 1):
        before = (*_buffers(vg), vg.observation_tensor().tobytes(), repr(vg.game(bad_env).to_dict()))
        actions = vg.sample_legal(50)
        if vg.terminated[bad_env]:
            continue  # a finished table ignores its id
        row = vg.legal_mask.tolist()[bad_env]
        bad_id = next(k for k, v in enumerate(row) if not v)
        actions[bad_env] = bad_id
        if bad_env + 1 < n:  # a later bad id too: the lowest environment is named, as on one thread
            actions[n - 1] = vg.num_distinct_actions
        with pytest.raises(IllegalAction, match=rf"environment {bad_env}: action id {bad_id}\b"):
            vg.step(actions)
        assert (*_buffers(vg), vg.observation_tensor().tobytes(), repr(vg.game(bad_env).to_dict())) == before
        actions[bad_env] = -3
        with pytest.raises(ActionParseError, match=rf"environment {bad_env}\b"):
            vg.step(actions)
        assert _buffers(vg) == before[:4]
    vg.step(vg.sample_legal(51))


def test_thread_times_count_every_environment_of_every_pass() -> None:
    n = 500
    vg = VectorGame("deerpark", 4, n, seed=2, threads=2, hands=1)  # the seeded reset: one pass
    out = memoryview(bytearray(4 * n * vg.tensor_size)).cast("f")
    for k in range(10):
        vg.step(vg.sample_legal(k))  # a pass to sample, two to step (check every id, then apply)
        vg.observation_tensor(out)  # one
    times = vg.thread_times()
    if vg.lane == "python":
        assert times == ()
        return
    assert len(times) == 2
    assert sum(items for _, items in times) == n * (1 + 10 * 4)
    assert all(secs >= 0.0 for secs, _ in times)
    assert len(VectorGame("deerpark", 4, 3, threads=3, hands=1).thread_times()) == 3
    vg.close()  # the workers are joined; the batch goes on in the calling thread
    vg.step(vg.sample_legal(11))
    assert len(vg.thread_times()) == 1


def test_two_python_threads_sampling_one_batch_get_its_ids() -> None:
    vg = VectorGame("deerpark", 5, 200, seed=4, threads=2, hands=1)
    vg.step(vg.sample_legal(1))
    want = {k: vg.sample_legal(k).tobytes() for k in range(40)}
    got: list[bool] = []

    def draw() -> None:  # calls from several threads take turns in the pool
        got.extend(vg.sample_legal(k).tobytes() == want[k] for k in range(40))

    others = [threading.Thread(target=draw) for _ in range(2)]
    for t in others:
        t.start()
    draw()
    for t in others:
        t.join()
    assert got == [True] * 120


_CHILD = textwrap.dedent(
    """
    import os, sys
    from hucklebuck import using
    from hucklebuck.vector import VectorGame
    with using(sys.argv[1]):
        keep = VectorGame("deerpark", 4, 300, seed=1, threads=3, hands=1)  # never closed: joined at exit
        for k in range(5):
            keep.step(keep.sample_legal(k))
        gone = VectorGame("hucklebuck", 4, 100, seed=1, threads=2, hands=1)
        gone.step(gone.sample_legal(1))
        del gone  # collected: its threads are joined now
        if hasattr(os, "fork"):  # a forked child has no workers: its calls run in its one thread
            pid = os.fork()
            if pid == 0:
                for k in range(5, 10):
                    keep.step(keep.sample_legal(k))
                os._exit(0 if keep.game(3).to_dict() else 1)
            _, status = os.waitpid(pid, 0)
            assert status == 0, status
        keep.step(keep.sample_legal(5))
    print("done")
    """
)


def test_threads_stop_at_exit_and_in_a_forked_child(core_name: str) -> None:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    run = subprocess.run(
        [sys.executable, "-c", _CHILD, core_name], capture_output=True, text=True, timeout=120, env=env
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "done"


def _consistent(vg: VectorGame, tables: range) -> None:
    """The batch's buffers are those of its environments (a torn copy's are not)."""
    masks, cps, term = vg.legal_mask.tolist(), vg.current_player.tolist(), vg.terminated.tolist()
    for i in tables:
        if term[i]:
            assert cps[i] == -1 and not any(masks[i]), i
            continue
        g = vg.game(i)
        assert cps[i] == g.to_act, i
        assert [k for k, v in enumerate(masks[i]) if v] == g.legal_action_ids(), i


@pytest.mark.parametrize("game,players", [("deerpark", 4), ("hucklebuck", 5)])
def test_threads_hammering_one_batch_take_turns_close_and_copy_included(game: str, players: int) -> None:
    """Two Python threads step one batch with the ids they sampled, one copies it, one
    reads it, and one closes it midway: no crash, no torn copy, and a stale id (the
    other thread stepped in between) is refused whole, as the docs promise."""
    n = 400 if backend() == "c" else 100  # game objects: fewer, for the same time
    vg = VectorGame(game, players, n, seed=9, threads=3, hands=None)
    deadline = time.monotonic() + (3.0 if THOROUGH else 1.0)  # (a second of hammering in quick runs)
    errors: list[BaseException] = []
    applied = [0, 0]
    copies: list[VectorGame] = []
    stepped = threading.Event()

    def guard(fn: Callable[[], None]) -> Callable[[], None]:
        def run() -> None:
            try:
                fn()
            except BaseException as exc:  # pragma: no cover - reported by the assertion below
                errors.append(exc)

        return run

    def stepper(me: int) -> None:
        k = 1000 * me
        while (time.monotonic() < deadline or applied[me] < 5) and applied[me] < 300:
            ids = vg.sample_legal(k)
            k += 1
            try:
                vg.step(ids)
            except (IllegalAction, ActionParseError):
                continue  # the other stepper went first: the whole step is refused
            applied[me] += 1
            stepped.set()

    def copier() -> None:
        while (time.monotonic() < deadline or len(copies) < 2) and len(copies) < 25:
            twin = vg.copy()
            _consistent(twin, range(0, n, 37))
            twin.step(twin.sample_legal(len(copies)))  # a copy is a whole batch of its own
            copies.append(twin)

    def reader() -> None:
        while time.monotonic() < deadline:
            assert len(vg.episodes) == n
            vg.game(len(vg.thread_times()) * 13 % n).to_dict()

    def closer() -> None:
        assert stepped.wait(120), "no step was ever taken"  # midway: after a step (only a hang waits long)
        vg.close()
        vg.close()

    jobs = (lambda: stepper(0), lambda: stepper(1), copier, reader, closer)
    workers = [threading.Thread(target=guard(f)) for f in jobs]
    for t in workers:
        t.start()
    for t in workers:
        t.join()
    assert errors == []
    assert sum(applied) > 0 and copies
    assert len(vg.thread_times()) == (1 if vg.lane == "c" else 0)  # closed: the calling thread alone
    _consistent(vg, range(n))
    vg.step(vg.sample_legal(5))  # and it goes on stepping


def _huge_pages_offered() -> bool:
    """Whether this Linux backs memory that asks for it with huge pages (THP not off)."""
    try:
        with open("/sys/kernel/mm/transparent_hugepage/enabled", encoding="ascii") as f:
            return "[never]" not in f.read()
    except OSError:
        return False


@pytest.mark.single_core  # (the C lane's memory: once, on the C core where there is one)
def test_a_batch_of_huge_pages_steps_as_a_small_one_and_is_backed_by_them() -> None:
    """A batch of 2 MiB or more lives in its own mapping aligned to a huge page (asked to be
    backed by huge pages); its tables play exactly as the same tables of a small batch."""
    big, small = (VectorGame("hucklebuck", 4, n, seed=11, hands=3, threads=2) for n in (1200, 40))
    if big.lane != "c":
        pytest.skip("no C core here: the Python lane keeps game objects, not one block of memory")
    lane: Any = big._lane
    assert lane.env_bytes >= 1 << 21
    assert int(_clane._ffi.cast("uintptr_t", lane.envs)) % (1 << 21) == 0
    for k in range(200):
        acts = big.sample_legal(k)
        assert acts[:40].tobytes() == small.sample_legal(k).tobytes()
        big.step(acts)
        small.step(acts[:40])
        assert big.legal_mask.tobytes()[: 40 * big.num_distinct_actions] == small.legal_mask.tobytes()
        assert big.rewards.tobytes()[: 40 * 4 * big.players] == small.rewards.tobytes()
    twin = big.copy()  # a copy gets a mapping of its own, with the same tables
    assert twin.game(1199).to_dict() == big.game(1199).to_dict()
    if sys.platform.startswith("linux") and _huge_pages_offered():
        with open("/proc/self/smaps", encoding="ascii") as f:
            huge = sum(int(line.split()[1]) for line in f if line.startswith("AnonHugePages:"))
        assert huge >= 2048, "the batch asked for huge pages and this kernel offers them, but none were used"
