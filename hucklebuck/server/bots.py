"""Computer seats: clients of a table like any other.

A computer seat reads its observation through the seat interface
(:class:`SeatClient`), thinks in a bounded thread pool (never on the event
loop, so one table's thinking never holds up another's messages), waits the
configured pause so people can follow the play, and then sends an ordinary
``act`` message carrying the ``seq`` it decided on.  The table checks that
message exactly as it checks a person's.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Protocol

from ..actions import Action
from ..packs import GameKind
from ..players import make_player
from .protocol import ClientMessage

__all__ = ["ComputerSeats", "SeatClient", "choose_move"]


class SeatClient(Protocol):
    """What a computer seat may use of its table: its own observation and the act message."""

    def observation(self) -> tuple[int, Any]:
        """The current ``seq`` and this seat's observation."""
        ...

    def send(self, message: ClientMessage) -> None:
        """Send a client message for this seat (checked like a person's)."""
        ...


def choose_move(player_kind: str, game: GameKind, seed: int, observation: Any) -> Action:
    """One decision of a fresh computer player seeded for this position (runs in the pool)."""
    player = make_player(player_kind, game, seed=seed)
    action: Action = player.choose(observation)
    return action


_CHUNK = 16
"""Decisions per pool job: enough to save hand-offs, few enough to keep the threads all busy."""


def _choose_all(jobs: list[tuple[str, GameKind, int, Any]]) -> list[Action | BaseException]:
    out: list[Action | BaseException] = []
    for kind, game, seed, observation in jobs:
        try:
            out.append(choose_move(kind, game, seed, observation))
        except Exception as exc:  # one bad decision does not sink the others
            out.append(exc)
    return out


def _settle(job: asyncio.Future[list[Action | BaseException]], part: list[Any]) -> None:
    exc = None if job.cancelled() else job.exception()
    for i, (_args, future) in enumerate(part):
        if future.done():
            continue
        if job.cancelled():
            future.cancel()
        elif exc is not None:
            future.set_exception(exc)
        else:
            result = job.result()[i]
            if isinstance(result, BaseException):
                future.set_exception(result)
            else:
                future.set_result(result)


class ComputerSeats:
    """The thinking pool shared by every table of a server."""

    def __init__(self, threads: int, pause: float) -> None:
        """A pool of ``threads`` threads; each move is sent ``pause`` seconds or more after its turn began."""
        self._pool = ThreadPoolExecutor(max_workers=max(1, threads), thread_name_prefix="hucklebuck-bot")
        self.pause = pause
        self._tasks: set[asyncio.Task[None]] = set()
        self._queue: list[tuple[tuple[str, GameKind, int, Any], asyncio.Future[Action]]] = []
        self._closed = False

    def decide(
        self,
        client: SeatClient,
        player_kind: str,
        game: GameKind,
        seed_text: str,
        done: Callable[[], None] | None = None,
    ) -> None:
        """Start one decision for ``client``'s seat (the caller is on the event loop)."""
        task = asyncio.get_running_loop().create_task(
            self._decide(client, player_kind, game, seed_text, done)
        )
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _decide(
        self,
        client: SeatClient,
        player_kind: str,
        game: GameKind,
        seed_text: str,
        done: Callable[[], None] | None,
    ) -> None:
        loop = asyncio.get_running_loop()
        start = loop.time()
        seq, observation = client.observation()
        seed = random.Random(seed_text).getrandbits(63)
        try:
            future: asyncio.Future[Action] = loop.create_future()
            if not self._queue:
                loop.call_soon(self._submit)
            self._queue.append(((player_kind, game, seed, observation), future))
            action = await future
            wait = self.pause - (loop.time() - start)
            if wait > 0:
                await asyncio.sleep(wait)
            client.send(ClientMessage("act", seq, str(action)))
        finally:
            if done is not None:
                done()

    def _submit(self) -> None:
        """Send the decisions of this round to the pool in one job (one thread hand-off, not one each)."""
        batch, self._queue = self._queue, []
        if self._closed:
            for _args, future in batch:
                future.cancel()
            return
        loop = asyncio.get_running_loop()
        for start in range(0, len(batch), _CHUNK):
            part = batch[start : start + _CHUNK]
            job = loop.run_in_executor(self._pool, _choose_all, [args for args, _f in part])
            job.add_done_callback(lambda j, part=part: _settle(j, part))  # type: ignore[misc]

    def run(self, fn: Callable[..., Any], *args: Any) -> asyncio.Future[Any]:
        """Run ``fn(*args)`` in the pool (for hints)."""
        return asyncio.get_running_loop().run_in_executor(self._pool, fn, *args)

    def close(self) -> None:
        """Stop thinking: pending decisions are dropped (they are recomputed after a restart)."""
        self._closed = True
        for task in list(self._tasks):
            task.cancel()
        self._pool.shutdown(wait=False, cancel_futures=True)
