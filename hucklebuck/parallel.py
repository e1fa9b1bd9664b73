"""Seeded chunks of work, run inline, on threads, or on any :class:`concurrent.futures.Executor`.

The bulk functions of :mod:`hucklebuck.evaluate` (and the tournament) split
their work into *chunks*: a chunk is a number of units (hands, samples, games)
and its own 64-bit seed.  The list of chunks -- the *plan* -- depends only on
the total, the seed and the chunking arguments, never on where the chunks run,
and the chunk results are merged exactly (integer counts are summed, never
averages of averages).  So a given seed and chunking give the same answer

- inline (no executor, ``workers=1``),
- on ``workers=N`` threads of this process,
- on a :class:`~concurrent.futures.ThreadPoolExecutor` or
  :class:`~concurrent.futures.ProcessPoolExecutor` you pass as ``executor=``,
- on a Dask cluster through ``dask.distributed.Client(...).get_executor()``.

How the plan is made (:func:`plan`):

- ``chunk_size=C``: ``ceil(total / C)`` chunks of ``C`` units, the last one
  holding the rest;
- no ``chunk_size``: ``workers`` chunks of near-equal size (the first
  ``total % workers`` one unit larger) -- this is what ``workers=N`` always
  meant, so earlier results are unchanged;
- a plan holds at most :data:`MAX_CHUNKS` chunks (a larger one is refused with
  an :class:`~hucklebuck.errors.OptionsError` before anything is built: raise
  ``chunk_size``);
- a plan of one chunk uses ``seed`` itself; otherwise chunk ``i`` uses the
  ``i``-th output of :class:`~hucklebuck.evaluate.SplitMix64` seeded with ``seed``.

Where the chunks run (:func:`run_chunks`): on ``executor`` if one is given
(``workers`` then only shapes the plan), else on ``workers`` threads, else
inline.  A chunk that raises stops the run: a library error (a
:class:`~hucklebuck.errors.HucklebuckError`, for example a
:class:`~hucklebuck.errors.CoreInputError`) is re-raised with its type kept and
the chunk named at the front of its message; anything else (a worker that
died, an unpicklable task, a bug) becomes a
:class:`~hucklebuck.errors.ChunkError` naming the chunk, with the original as
its ``__cause__``.  So does a chunk whose future is cancelled (an executor
shut down with ``cancel_futures=True``, a closed Dask client): the run never
waits for a result that cannot come.  The chunks not yet started are
cancelled and no partial result is returned.  :func:`merge_counts` given the
plan checks each chunk's result (its width, and the units it accounts for)
before merging, so a misbehaving executor's wrong-shaped result is a
:class:`~hucklebuck.errors.ChunkError`, never a wrong answer.

>>> [(c.index, c.size) for c in plan(10, seed=1, chunk_size=4)]
[(0, 4), (1, 4), (2, 2)]
>>> [c.size for c in plan(10, seed=1, workers=3)]
[4, 3, 3]
>>> plan(5, seed=42)[0].seed
42
"""

from __future__ import annotations

import concurrent.futures as cf
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final, NoReturn, TypeVar

from ._core import Core, get_core
from ._core._py_eval import SplitMix64
from ._validate import shown
from .errors import BackendError, ChunkError, HucklebuckError, OptionsError

__all__ = [
    "MAX_CHUNKS",
    "Chunk",
    "Interrupted",
    "Progress",
    "check_executor",
    "core_named",
    "merge_counts",
    "plan",
    "run_chunks",
]

class Interrupted(KeyboardInterrupt):
    """Ctrl-C during :func:`run_chunks`: a :class:`KeyboardInterrupt` that keeps the results of the
    chunks that had finished (``completed``: ``(chunk index, result)`` pairs in plan order)."""

    def __init__(self, completed: list[tuple[int, Any]]) -> None:
        """Stopped with ``completed`` chunks done."""
        super().__init__(f"stopped after {len(completed)} finished chunks")
        self.completed = completed


MAX_CHUNKS: Final = 100_000
"""The most chunks a plan may hold (about 10 MB of bookkeeping)."""
#: How often (seconds) a run on an executor looks for chunks whose futures were cancelled.
POLL: Final = 0.05

R = TypeVar("R")

Progress = Callable[[int, int], object]
"""A progress callback: called as ``progress(done, total)`` in the calling
thread after each chunk finishes, with the units (hands, samples, games) done so far."""


@dataclass(frozen=True)
class Chunk:
    """One seeded piece of a run."""

    index: int
    """Position in the plan (0-based)."""
    size: int
    """Units of work (hands, samples, games) in this chunk."""
    seed: int
    """The chunk's own 64-bit seed."""


def _positive(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise OptionsError(f"{name} must be a positive integer, not {shown(value)}")
    return value


def plan(total: int, *, seed: int, chunk_size: int | None = None, workers: int = 1) -> list[Chunk]:
    """The chunks ``total`` units of work are split into (see the module docs).

    A total of 0 gives one empty chunk.
    """
    if isinstance(total, bool) or not isinstance(total, int) or total < 0:
        raise OptionsError(f"the amount of work must be a non-negative integer, not {shown(total)}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise OptionsError(f"seed must be an integer, not {shown(seed)}")
    _positive("workers", workers)
    if chunk_size is not None:
        _positive("chunk_size", chunk_size)
        count = -(-total // chunk_size)
        if count > MAX_CHUNKS:
            raise OptionsError(
                f"chunk_size {chunk_size} would split {total} units into {count} chunks; "
                f"a run holds at most {MAX_CHUNKS} (use a larger chunk_size)"
            )
    if chunk_size is None:
        base, extra = divmod(total, workers)
        sizes = [base + (1 if i < extra else 0) for i in range(workers)]
    else:
        full, rest = divmod(total, chunk_size)
        sizes = [chunk_size] * full + ([rest] if rest else [])
    if not sizes:
        sizes = [0]
    if len(sizes) == 1:
        seeds = [seed]
    else:
        rng = SplitMix64(seed)
        seeds = [rng.next_u64() for _ in sizes]
    return [Chunk(i, n, sd) for i, (n, sd) in enumerate(zip(sizes, seeds, strict=True))]


def check_executor(executor: object) -> cf.Executor | None:
    """``executor`` if it is ``None`` or a :class:`concurrent.futures.Executor`, else an
    :class:`~hucklebuck.errors.OptionsError`."""
    if executor is None or isinstance(executor, cf.Executor):
        return executor
    raise OptionsError(
        "executor must be a concurrent.futures.Executor (a ThreadPoolExecutor, a ProcessPoolExecutor, "
        f"dask.distributed.Client.get_executor(), ...), not {type(executor).__name__}"
    )


def core_named(name: str) -> Core:
    """The core called ``name`` (``"c"`` or ``"python"``) in this process, without
    switching the active core (safe on worker threads and in worker processes)."""
    from . import _core

    if name == "python":
        return _core._PYTHON
    core = _core._load_c() if name == "c" else None
    if core is None:
        raise BackendError(f"the {name!r} core is not available in this process")
    return core


def active_core_name() -> str:
    """The name of the caller's active core, to hand to chunk tasks."""
    return get_core().name


def _reraise(chunk: Chunk, exc: Exception) -> NoReturn:
    err = _fail(chunk, exc)
    if err is exc:
        raise exc
    raise err from exc


def _fail(chunk: Chunk, exc: Exception) -> Exception:
    """The error to raise for a failed chunk: a library error keeps its type (so
    ``except CoreInputError`` works the same inline and on a cluster) with the
    chunk named at the front of its message; anything else becomes a ChunkError."""
    where = f"chunk {chunk.index} (size {chunk.size}, seed {chunk.seed})"
    if isinstance(exc, HucklebuckError) and not isinstance(exc, ChunkError) and exc.args:
        exc.args = (f"{where}: {exc.args[0]}", *exc.args[1:])
        return exc
    return ChunkError(f"{where} failed: {type(exc).__name__}: {exc}", chunk.index, chunk.size, chunk.seed)


def run_chunks(
    task: Callable[[Chunk], R],
    chunks: Sequence[Chunk],
    *,
    executor: object = None,
    workers: int = 1,
    progress: Progress | None = None,
) -> list[R]:
    """``[task(c) for c in chunks]``, run on ``executor``, on ``workers`` threads, or inline.

    ``task`` must be picklable (a module-level function or a
    :func:`functools.partial` of one) for process pools and clusters.  Results
    come back in plan order whatever order the chunks finish in.  An exception
    raised by ``progress`` itself propagates unchanged (the run stops).
    """
    if not callable(task):
        raise OptionsError(f"task must be a callable task(chunk), not {shown(task)}")
    if isinstance(chunks, (str, bytes)) or not isinstance(chunks, Sequence):
        raise OptionsError(f"chunks must be a list of Chunk (see plan()), not {shown(chunks)}")
    for c in chunks:
        if not isinstance(c, Chunk):
            raise OptionsError(f"chunks must be a list of Chunk (see plan()), not one holding {shown(c)}")
    pool = check_executor(executor)
    _positive("workers", workers)
    if progress is not None and not callable(progress):
        raise OptionsError(f"progress must be a callable progress(done, total), not {progress!r}")
    total = sum(c.size for c in chunks)
    if pool is None and (workers == 1 or len(chunks) == 1):
        out: list[R] = []
        done = 0
        for c in chunks:
            try:
                out.append(task(c))
            except KeyboardInterrupt:
                raise Interrupted([(chunks[i].index, r) for i, r in enumerate(out)]) from None
            except Exception as exc:
                _reraise(c, exc)
            done += c.size
            if progress is not None:
                progress(done, total)
        return out
    if pool is None:
        prefix = f"hucklebuck-chunks-{id(chunks)}"
        own = cf.ThreadPoolExecutor(max_workers=min(workers, len(chunks)), thread_name_prefix=prefix)
        try:
            result = _on_pool(own, task, chunks, total, progress)
        except BaseException:
            # Ctrl-C or a failed chunk: do not wait for the chunks still running; the
            # long C calls they are in stop at their next look at the cancel flag.
            own.shutdown(wait=False, cancel_futures=True)
            _stop_threads(prefix)
            raise
        own.shutdown(wait=True)
        return result
    return _on_pool(pool, task, chunks, total, progress)


def _stop_threads(prefix: str) -> None:
    from . import _core

    if _core._c_core is not None:
        from ._core._c import cancel_threads

        cancel_threads(prefix)


def _on_pool(
    pool: cf.Executor,
    task: Callable[[Chunk], R],
    chunks: Sequence[Chunk],
    total: int,
    progress: Progress | None,
) -> list[R]:
    futures: dict[cf.Future[R], Chunk] = {}
    results: dict[int, R] = {}
    try:
        for c in chunks:
            try:
                futures[pool.submit(task, c)] = c
            except Exception as exc:
                _reraise(c, exc)
        done = 0
        pending = set(futures)
        while pending:
            finished, pending = cf.wait(pending, timeout=POLL, return_when=cf.FIRST_COMPLETED)
            for fut in sorted(finished, key=lambda f: futures[f].index):
                c = futures[fut]
                try:
                    results[c.index] = fut.result()
                except cf.CancelledError as exc:
                    _cancelled(c, exc)
                except Exception as exc:
                    _reraise(c, exc)
                done += c.size
                if progress is not None:
                    progress(done, total)
            # A future cancelled without being notified (an executor shut down with
            # cancel_futures=True) never completes: as_completed would wait forever.
            lost = [futures[f] for f in pending if f.cancelled()]
            if lost:
                _cancelled(min(lost, key=lambda c: c.index), None)
        return [results[c.index] for c in chunks]
    except KeyboardInterrupt:
        for fut in futures:
            fut.cancel()
        raise Interrupted(sorted(results.items())) from None
    except BaseException:
        for fut in futures:
            fut.cancel()
        raise


def _cancelled(chunk: Chunk, exc: BaseException | None) -> NoReturn:
    raise ChunkError(
        f"chunk {chunk.index} (size {chunk.size}, seed {chunk.seed}) was cancelled before it ran "
        "(was the executor shut down?)",
        chunk.index,
        chunk.size,
        chunk.seed,
    ) from exc


def merge_counts(
    parts: Sequence[Sequence[int]],
    chunks: Sequence[Chunk] | None = None,
    *,
    width: int | None = None,
    units: Callable[[Sequence[int]], int] | None = None,
) -> list[int]:
    """Element-wise sums of equal-length integer count lists (an exact merge).

    Given the plan (``chunks``), each chunk's result is checked first: one result
    per chunk, a list of ``width`` non-negative integers, and ``units(result)``
    (the units of work it accounts for, e.g. the sum of a trick histogram) equal
    to the chunk's size.  A result that fails is a :class:`~hucklebuck.errors.ChunkError`
    naming the chunk.

    >>> merge_counts([[1, 2], [3, 4]])
    [4, 6]
    """
    if isinstance(parts, (str, bytes)) or not isinstance(parts, Sequence):
        raise ChunkError(f"chunk results must be a list of count lists, not {shown(parts)}", -1, 0, 0)
    if chunks is not None:
        _check_parts(parts, chunks, width, units)
    for part in parts:
        if not isinstance(part, (list, tuple)) or not all(_is_count(x) for x in part):
            raise ChunkError(f"a chunk result is {shown(part)}, not a list of integer counts", -1, 0, 0)
    if not parts:
        return []
    width = len(parts[0])
    if any(len(p) != width for p in parts):
        raise ChunkError("chunk results of different lengths cannot be merged", -1, 0, 0)
    return [sum(p[i] for p in parts) for i in range(width)]


def _is_count(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _check_parts(
    parts: Sequence[Sequence[int]],
    chunks: Sequence[Chunk],
    width: int | None,
    units: Callable[[Sequence[int]], int] | None,
) -> None:
    if len(parts) != len(chunks):
        raise ChunkError(f"{len(parts)} chunk results came back for {len(chunks)} chunks", -1, 0, 0)
    for c, part in zip(chunks, parts, strict=True):
        where = f"chunk {c.index} (size {c.size}, seed {c.seed})"
        if not isinstance(part, (list, tuple)) or any(
            isinstance(x, bool) or not isinstance(x, int) or x < 0 for x in part
        ):
            raise ChunkError(f"{where} returned {shown(part)}, not a list of counts", c.index, c.size, c.seed)
        if width is not None and len(part) != width:
            raise ChunkError(f"{where} returned {len(part)} counts, not {width}", c.index, c.size, c.seed)
        if units is not None and units(part) != c.size:
            raise ChunkError(
                f"{where} returned counts for {units(part)} units of work, not {c.size}",
                c.index,
                c.size,
                c.seed,
            )
