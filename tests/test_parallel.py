"""Seeded chunks (hucklebuck.parallel): the same seed and chunking give the same
result inline, on threads, on a process pool and on any Executor; merges are
exact sums; failures name the chunk and return nothing partial."""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import astuple
from typing import Any

import pytest
from hb_helpers import busy_for, default_sigint, interrupt

from hucklebuck import Suit, parse_cards
from hucklebuck.errors import ChunkError, CoreInputError, OptionsError
from hucklebuck.evaluate import (
    evaluate_hand,
    simulate_buckem,
    simulate_deerpark,
    simulate_hucklebuck,
)
from hucklebuck.parallel import Chunk, merge_counts, plan, run_chunks


class InlineExecutor(Executor):
    """A minimal third-party Executor: runs each call at submit time."""

    def __init__(self) -> None:
        self.calls = 0

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        self.calls += 1
        fut: Future[Any] = Future()
        try:
            fut.set_result(fn(*args, **kwargs))
        except Exception as exc:
            fut.set_exception(exc)
        return fut


class FailingExecutor(ThreadPoolExecutor):
    """A thread pool whose worker raises for one chunk."""

    def __init__(self, bad_index: int) -> None:
        super().__init__(max_workers=2)
        self.bad_index = bad_index

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        chunk = args[0]

        def work() -> Any:
            if chunk.index == self.bad_index:
                raise RuntimeError("worker lost its connection")
            return fn(*args, **kwargs)

        return super().submit(work)


@pytest.fixture(scope="module")
def process_pool() -> Iterator[ProcessPoolExecutor]:
    with ProcessPoolExecutor(max_workers=2, mp_context=multiprocessing.get_context("spawn")) as pool:
        yield pool


# ------------------------------------------------------------------ the plan
def test_plan_sizes_and_seeds() -> None:
    chunks = plan(10, seed=7, chunk_size=4)
    assert [c.size for c in chunks] == [4, 4, 2]
    assert [c.index for c in chunks] == [0, 1, 2]
    assert len({c.seed for c in chunks}) == 3
    assert plan(10, seed=7, chunk_size=4) == chunks  # a pure function of its inputs
    assert plan(10, seed=8, chunk_size=4) != chunks
    assert [c.size for c in plan(10, seed=7, workers=3)] == [4, 3, 3]
    assert plan(10, seed=7, chunk_size=10) == [Chunk(0, 10, 7)]
    assert plan(0, seed=7, chunk_size=3) == [Chunk(0, 0, 7)]
    # workers=N without chunk_size is the same plan as N near-equal chunks
    assert [c.seed for c in plan(9, seed=7, workers=3)] == [c.seed for c in plan(9, seed=7, chunk_size=3)]


@pytest.mark.parametrize("bad", [0, -1, 1.5, True, "4"])
def test_chunk_size_must_be_positive_integer(bad: object) -> None:
    with pytest.raises(OptionsError, match="chunk_size"):
        plan(10, seed=0, chunk_size=bad)  # type: ignore[arg-type]
    with pytest.raises(OptionsError, match="chunk_size"):
        simulate_hucklebuck(4, 10, chunk_size=bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", [object(), "threads", 4, ThreadPoolExecutor])
def test_non_executor_is_rejected(bad: object) -> None:
    with pytest.raises(OptionsError, match=r"concurrent\.futures\.Executor"):
        simulate_deerpark(4, 10, executor=bad)  # type: ignore[arg-type]
    with pytest.raises(OptionsError, match=r"concurrent\.futures\.Executor"):
        evaluate_hand(
            "hucklebuck", Suit.SPADES, parse_cards("AS KS QS 2H 3D"), players=4, samples=10, executor=bad
        )  # type: ignore[arg-type]


def test_merge_is_exact_sum_of_chunk_runs() -> None:
    whole = simulate_hucklebuck(4, 2_500, seed=11, chunk_size=1_000)
    parts = [simulate_hucklebuck(4, c.size, seed=c.seed) for c in plan(2_500, seed=11, chunk_size=1_000)]
    assert whole.hands == sum(p.hands for p in parts) == 2_500
    for field in ("all_pass", "lone_bidder", "played", "stayers", "restocks", "stayer_zero"):
        assert getattr(whole, field) == sum(getattr(p, field) for p in parts), field
    for b in range(2, 6):
        assert whole.made[b] == sum(p.made[b] for p in parts)
        assert whole.set[b] == sum(p.set[b] for p in parts)
    assert merge_counts([[1, 2, 3], [4, 5, 6], [0, 0, 1]]) == [5, 7, 10]


def test_workers_keep_their_meaning() -> None:
    # workers=N alone: N chunks on N threads, the same as those N chunks anywhere else
    threads = simulate_deerpark(4, 1_201, seed=5, workers=3)
    inline = simulate_deerpark(4, 1_201, seed=5, workers=3, executor=InlineExecutor())
    assert threads == inline
    assert threads != simulate_deerpark(4, 1_201, seed=5)  # one chunk: a different sample
    # workers=N with chunk_size: the chunk plan decides the result, the threads only run it
    a = simulate_buckem(5, 1_000, seed=9, chunk_size=300)
    b = simulate_buckem(5, 1_000, seed=9, chunk_size=300, workers=4)
    assert a == b


# -------------------------------------------------------- same result anywhere
def _runs(fn: Callable[..., Any], pool: Executor) -> list[Any]:
    ex = InlineExecutor()
    out = [fn(), fn(workers=2), fn(executor=ex), fn(executor=pool)]
    assert ex.calls > 1
    with ThreadPoolExecutor(max_workers=3) as threads:
        out.append(fn(executor=threads))
    return out


def test_simulations_identical_on_every_executor(process_pool: ProcessPoolExecutor) -> None:
    sims: list[Callable[..., Any]] = [
        lambda **kw: simulate_hucklebuck(5, 1_500, seed=3, chunk_size=400, **kw),
        lambda **kw: simulate_deerpark(3, 1_500, seed=3, chunk_size=400, **kw),
        lambda **kw: simulate_buckem(6, 1_500, seed=3, chunk_size=400, pot_limit=64, **kw),
    ]
    for sim in sims:
        runs = _runs(sim, process_pool)
        assert all(r == runs[0] for r in runs), [astuple(r) for r in runs]
        assert runs[0].hands == 1_500


def test_evaluate_hand_identical_on_every_executor(process_pool: ProcessPoolExecutor) -> None:
    hand = parse_cards("AS KS 9S 2H 3D")

    def ev(**kw: Any) -> Any:
        return evaluate_hand(
            "hucklebuck", Suit.SPADES, hand, players=4, samples=1_200, seed=21, chunk_size=300, **kw
        )

    runs = _runs(ev, process_pool)
    assert all(r == runs[0] for r in runs)
    assert sum(runs[0].counts) == runs[0].samples == 1_200


def test_progress_reports_every_chunk() -> None:
    seen: list[tuple[int, int]] = []
    simulate_hucklebuck(4, 1_000, seed=1, chunk_size=300, progress=lambda d, t: seen.append((d, t)))
    assert seen == [(300, 1_000), (600, 1_000), (900, 1_000), (1_000, 1_000)]
    seen.clear()
    with ThreadPoolExecutor(max_workers=2) as pool:
        evaluate_hand(
            "deerpark",
            Suit.HEARTS,
            parse_cards("JH JD AH KS 9C"),
            players=4,
            samples=500,
            chunk_size=100,
            executor=pool,
            progress=lambda d, t: seen.append((d, t)),
        )
    assert [t for _, t in seen] == [500] * 5
    assert [d for d, _ in seen] == [100, 200, 300, 400, 500]  # units done so far, in any chunk order
    with pytest.raises(OptionsError, match="progress"):
        simulate_hucklebuck(4, 10, progress=3)  # type: ignore[arg-type]


# ------------------------------------------------------------------- failures
def test_worker_failure_names_the_chunk_and_returns_nothing() -> None:
    result: list[object] = []
    with FailingExecutor(bad_index=2) as pool, pytest.raises(ChunkError, match=r"chunk 2 \(size 500") as info:
        result.append(simulate_hucklebuck(4, 2_200, seed=1, chunk_size=500, executor=pool))
    assert result == []
    assert info.value.index == 2 and info.value.size == 500
    assert info.value.seed == plan(2_200, seed=1, chunk_size=500)[2].seed
    assert isinstance(info.value.__cause__, RuntimeError)


def test_inline_failure_names_the_chunk() -> None:
    def task(c: Chunk) -> int:
        if c.index == 1:
            raise ZeroDivisionError("boom")
        return c.size

    with pytest.raises(ChunkError, match=r"chunk 1 .*ZeroDivisionError: boom"):
        run_chunks(task, plan(10, seed=0, chunk_size=4))


def test_unpicklable_task_on_process_pool_is_a_chunk_error(process_pool: ProcessPoolExecutor) -> None:
    with pytest.raises(ChunkError, match="chunk 0"):
        run_chunks(lambda c: c.size, plan(10, seed=0, chunk_size=5), executor=process_pool)


def test_library_error_in_a_chunk_keeps_its_type(process_pool: ProcessPoolExecutor) -> None:
    # eight players, no pot limit: the simulated pot overflows in the core
    for ex in (None, process_pool):
        with pytest.raises(CoreInputError, match=r"chunk 0 .*pot grew"):
            simulate_buckem(8, 10_000, seed=16, chunk_size=10_000, executor=ex)


def test_ctrl_c_with_workers_stops_at_once(core_name: str) -> None:
    # Each chunk is far too long to finish (minutes on either core): after Ctrl-C the
    # command must end with status 130 without waiting for the chunks in progress.
    import os
    import subprocess
    import sys
    import time
    from pathlib import Path

    env = {
        **os.environ,
        "HUCKLEBUCK_BACKEND": core_name,
        "PYTHONPATH": str(Path(__file__).resolve().parents[1]),
    }
    args = ["simulate", "hucklebuck", "--players", "4", "--hands", "400000000", "--chunk", "100000000"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "hucklebuck", *args, "--workers", "2"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        preexec_fn=default_sigint,
    )
    try:
        # the import and the start of both chunks: their threads (on a busy machine the import alone
        # can take seconds, and a Ctrl-C during it is Python's own, not the command's)
        deadline = time.monotonic() + 120
        tasks = Path(f"/proc/{proc.pid}/task")
        while time.monotonic() < deadline and proc.poll() is None:
            if not tasks.exists():  # no /proc: give it the time it takes on a quiet machine
                time.sleep(2.0)
                break
            if len(list(tasks.iterdir())) >= 3:  # the main thread and both chunks' threads
                busy_for(proc, 0.2)  # and well under way (CPU spent: a busy machine only waits longer)
                break
            time.sleep(0.05)
        assert proc.poll() is None, "the simulation ended before it could be interrupted"
        _out, _err, cpu_after = interrupt(proc)
    finally:  # never leave the simulation running
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130
    assert cpu_after < 3.0  # CPU seconds after the signal: the chunks stopped (they run for minutes)
