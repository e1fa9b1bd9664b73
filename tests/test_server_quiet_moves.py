"""A computer seat's move: what it asks of the event loop.

A decision the pool's thread makes within the move's pause is taken by the timer that sends the
move: the pool's thread hands nothing back to the event loop (no write to wake it, no callback of
its own).  A decision the pool finishes only after the pause is handed back and sent at once.
"""

from __future__ import annotations

import asyncio
import threading
from typing import Any

from hucklebuck.games import DeerParkGame
from hucklebuck.packs import GameKind
from hucklebuck.server import bots


class _Client:
    """A computer seat's table: one fixed observation, the move it was sent."""

    def __init__(self, obs: Any, loop: asyncio.AbstractEventLoop) -> None:
        self.obs, self.loop = obs, loop
        self.asked = self.sent_at = -1.0
        self.sent: Any = None

    def observation(self) -> tuple[int, Any]:
        self.asked = self.loop.time()
        return 7, self.obs

    def send(self, message: Any) -> None:
        self.sent_at, self.sent = self.loop.time(), message

    def notice(self, text: str) -> None:
        raise AssertionError(text)


class _Counted:
    """The timers ``seats`` set on ``loop`` (by their callback's name) and the callbacks other
    threads hand the loop."""

    def __init__(self, loop: asyncio.AbstractEventLoop, seats: bots.ComputerSeats) -> None:
        self.timers: list[str] = []
        self.handed = 0
        real_at, real_later, real_safe = loop.call_at, loop.call_later, loop.call_soon_threadsafe

        def note(callback: Any) -> None:
            if getattr(callback, "__self__", None) is seats:  # (not asyncio's own, for sleep)
                self.timers.append(callback.__name__)

        def call_at(when: float, callback: Any, *args: Any, **kwargs: Any) -> Any:
            note(callback)
            return real_at(when, callback, *args, **kwargs)

        def call_later(delay: float, callback: Any, *args: Any, **kwargs: Any) -> Any:
            note(callback)
            return real_later(delay, callback, *args, **kwargs)

        def call_soon_threadsafe(callback: Any, *args: Any, **kwargs: Any) -> Any:
            self.handed += 1
            return real_safe(callback, *args, **kwargs)

        setattr(loop, "call_at", call_at)  # noqa: B010
        setattr(loop, "call_later", call_later)  # noqa: B010
        setattr(loop, "call_soon_threadsafe", call_soon_threadsafe)  # noqa: B010


async def _sent(client: _Client) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 60  # only a hang ends the wait
    while client.sent is None and loop.time() < deadline:
        await asyncio.sleep(0.01)


def _client(loop: asyncio.AbstractEventLoop) -> _Client:
    game = DeerParkGame(4, seed=3)
    if game.to_act is None:
        game.next_hand()
    return _Client(game.observation(game.to_act), loop)


def test_a_move_decided_within_its_pause_is_not_handed_back_by_the_pool() -> None:
    """Two timers (the gathering one, the one that sends the move), nothing from the pool's thread."""
    decided_at: list[float] = []

    async def play() -> tuple[_Client, _Counted, float]:
        loop = asyncio.get_running_loop()
        seats = bots.ComputerSeats(1, pause=1.0)
        counted = _Counted(loop, seats)
        real = bots._choose_all

        def timed(*args: Any) -> Any:
            out = real(*args)
            decided_at.append(loop.time())  # (the same clock, read in the pool's thread)
            return out

        bots._choose_all = timed  # type: ignore[assignment]
        try:
            client = _client(loop)
            seats.decide(client, "heuristic", GameKind.DEERPARK, "t0")
            await _sent(client)
        finally:
            bots._choose_all = real
            seats.close()
        return client, counted, 1.0

    client, counted, pause = asyncio.run(play())
    assert client.sent is not None and client.sent.seq == 7
    assert client.sent_at >= client.asked + pause - 1e-6  # (a timer may run a tick early)
    assert decided_at and decided_at[0] < client.sent_at  # (decided within the pause: the case here)
    assert counted.timers == ["_submit", "_send_when_decided"]
    assert counted.handed == 0


def test_a_move_decided_after_its_pause_is_sent_at_once() -> None:
    """The pool still thinking when the pause ends: the move goes as soon as it is decided."""
    due = threading.Event()
    go = threading.Event()
    order: list[str] = []

    async def play() -> tuple[_Client, _Counted, float]:
        loop = asyncio.get_running_loop()
        seats = bots.ComputerSeats(1, pause=0.2)
        counted = _Counted(loop, seats)
        real_choose, real_due = bots._choose_all, seats._send_when_decided

        def slow(*args: Any) -> Any:
            go.wait(60)  # (until the pause is over: see below)
            order.append("decided")
            return real_choose(*args)

        def when_due(job: Any, part: Any) -> None:
            order.append("due")
            real_due(job, part)
            due.set()

        bots._choose_all = slow  # type: ignore[assignment]
        seats._send_when_decided = when_due  # type: ignore[method-assign]
        try:
            client = _client(loop)
            seats.decide(client, "heuristic", GameKind.DEERPARK, "t0")
            while not due.is_set():
                await asyncio.sleep(0.01)
            go.set()
            await _sent(client)
        finally:
            go.set()
            bots._choose_all = real_choose
            seats.close()
        return client, counted, 0.2

    client, counted, pause = asyncio.run(play())
    assert order == ["due", "decided"]
    assert client.sent is not None and client.sent.seq == 7
    assert client.sent_at >= client.asked + pause - 1e-6
    assert counted.handed == 1
