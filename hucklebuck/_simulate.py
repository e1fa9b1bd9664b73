"""Bulk simulation of each game with a fixed policy: the bodies of
:func:`hucklebuck.evaluate.simulate_hucklebuck`, :func:`~hucklebuck.evaluate.simulate_deerpark`
and :func:`~hucklebuck.evaluate.simulate_buckem` (import them from there).

The work is split into seeded chunks (:mod:`hucklebuck.parallel`), each one call
into the core.  The result types stay in :mod:`hucklebuck.evaluate`, where they
are documented and pickled from.
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import Executor
from functools import partial
from typing import TYPE_CHECKING

from . import _validate as v
from ._core import get_core
from ._mc import check_workers
from .packs import GameKind
from .parallel import Chunk, Progress, core_named, merge_counts, plan, run_chunks

if TYPE_CHECKING:
    from .evaluate import BuckEmSimStats, DeerParkSimStats, HucklebuckSimStats


# Chunk tasks: module-level (picklable for process pools and clusters); each
# resolves its core by name in the process it runs in.
def _hucklebuck_chunk(core_name: str, players: int, chunk: Chunk) -> list[int]:
    return core_named(core_name).sim_hucklebuck(players, chunk.seed, chunk.size)


def _deerpark_chunk(core_name: str, players: int, chunk: Chunk) -> list[int]:
    return core_named(core_name).sim_deerpark(players, chunk.seed, chunk.size)


def _buckem_chunk(core_name: str, players: int, ante: int, pot_limit: int, chunk: Chunk) -> list[int]:
    return core_named(core_name).sim_buckem(players, chunk.seed, chunk.size, ante, pot_limit)


def _first(counts: Sequence[int]) -> int:
    """The hands a Deer Park or Buck 'Em chunk's counts account for (their first slot)."""
    return counts[0]


@v.checked(players=v.players_of(GameKind.HUCKLEBUCK), hands=v.COUNT, seed=v.SEED, workers=v.WORKERS)
def simulate_hucklebuck(
    players: int,
    hands: int,
    *,
    seed: int = 0,
    workers: int = 1,
    executor: Executor | None = None,
    chunk_size: int | None = None,
    progress: Progress | None = None,
) -> HucklebuckSimStats:
    """Simulate ``hands`` Hucklebuck hands with the fixed policy: one core call per chunk
    (chunking and ``executor``: :mod:`hucklebuck.parallel`)."""
    from .evaluate import HucklebuckSimStats  # evaluate imports this module

    check_workers(workers)
    chunks = plan(hands, seed=seed, chunk_size=chunk_size, workers=workers)
    task = partial(_hucklebuck_chunk, get_core().name, players)
    parts = run_chunks(task, chunks, executor=executor, workers=workers, progress=progress)
    s = merge_counts(parts, chunks, width=14, units=lambda p: p[0] + p[1] + p[2])
    made = {b: s[6 + 2 * (b - 2)] for b in range(2, 6)}
    sets = {b: s[7 + 2 * (b - 2)] for b in range(2, 6)}
    return HucklebuckSimStats(hands, s[0], s[1], s[2], s[3], s[4], s[5], made, sets)


@v.checked(players=v.players_of(GameKind.DEERPARK), hands=v.COUNT, seed=v.SEED, workers=v.WORKERS)
def simulate_deerpark(
    players: int,
    hands: int,
    *,
    seed: int = 0,
    workers: int = 1,
    executor: Executor | None = None,
    chunk_size: int | None = None,
    progress: Progress | None = None,
) -> DeerParkSimStats:
    """Simulate ``hands`` Deer Park Euchre hands with the fixed policy: one core call per chunk
    (chunking and ``executor``: :mod:`hucklebuck.parallel`)."""
    from .evaluate import DeerParkSimStats  # evaluate imports this module

    check_workers(workers)
    chunks = plan(hands, seed=seed, chunk_size=chunk_size, workers=workers)
    task = partial(_deerpark_chunk, get_core().name, players)
    parts = run_chunks(task, chunks, executor=executor, workers=workers, progress=progress)
    return DeerParkSimStats(*merge_counts(parts, chunks, width=10, units=_first))


@v.checked(
    players=v.players_of(GameKind.BUCKEM),
    hands=v.COUNT,
    seed=v.SEED,
    ante=v.ANTE,
    pot_limit=v.POT_LIMIT,
    workers=v.WORKERS,
)
def simulate_buckem(
    players: int,
    hands: int,
    *,
    seed: int = 0,
    ante: int = 1,
    pot_limit: int | None = None,
    workers: int = 1,
    executor: Executor | None = None,
    chunk_size: int | None = None,
    progress: Progress | None = None,
) -> BuckEmSimStats:
    """Simulate Buck 'Em sessions of ``hands`` rounds in all: one session per chunk (the pot
    carries within a chunk; ``final_pot`` sums the chunks' final pots; chunking and
    ``executor``: :mod:`hucklebuck.parallel`)."""
    from .evaluate import BuckEmSimStats  # evaluate imports this module

    check_workers(workers)
    chunks = plan(hands, seed=seed, chunk_size=chunk_size, workers=workers)
    task = partial(_buckem_chunk, get_core().name, players, ante, pot_limit or 0)
    parts = run_chunks(task, chunks, executor=executor, workers=workers, progress=progress)
    return BuckEmSimStats(*merge_counts(parts, chunks, width=14, units=_first))
