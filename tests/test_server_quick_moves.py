"""A quick computer player (rule of thumb, random) is decided on the event loop when its pause
ends, by the timer that sends its move: no thread hand-off and no wake-up of its own.  Counted,
not timed: which way each decision went, the timers it set, the moves it sent."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

pytest.importorskip("starlette")  # the server extra (server_kit imports the app)

import server_kit as kit

from hucklebuck.games import BuckEmGame, DeerParkGame, HucklebuckGame
from hucklebuck.packs import GameKind
from hucklebuck.server import bots

GAMES: list[tuple[Any, int, GameKind]] = [
    (DeerParkGame, 4, GameKind.DEERPARK),
    (HucklebuckGame, 4, GameKind.HUCKLEBUCK),
    (BuckEmGame, 5, GameKind.BUCKEM),
]


class _Client:
    """A computer seat's table: one fixed observation at ``seq`` 7."""

    def __init__(self, game: Any, loop: asyncio.AbstractEventLoop) -> None:
        if game.to_act is None:
            game.next_hand()
        self.obs, self.loop = game.observation(game.to_act), loop
        self.asked = self.sent_at = -1.0
        self.sent: Any = None

    def observation(self) -> tuple[int, Any]:
        self.asked = self.loop.time()
        return 7, self.obs

    def send(self, message: Any) -> None:
        self.sent_at, self.sent = self.loop.time(), message

    def notice(self, text: str) -> None:
        raise AssertionError(text)


def _seats_own(callback: Any) -> bool:
    """Whether ``callback`` is the computer seats' own (not, say, the test's ``asyncio.sleep``)."""
    return isinstance(getattr(callback, "__self__", None), bots.ComputerSeats)


class _Counts:
    """The computer seats' timers on the event loop and the pool's jobs a run of decisions asked for."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.timers = 0
        self.jobs = 0
        real_at, real_soon, real_pool = loop.call_at, loop.call_soon, loop.run_in_executor

        def call_at(when: float, callback: Any, *args: Any, **kwargs: Any) -> Any:
            self.timers += _seats_own(callback)
            return real_at(when, callback, *args, **kwargs)

        def call_soon(callback: Any, *args: Any, **kwargs: Any) -> Any:
            self.timers += _seats_own(callback)
            return real_soon(callback, *args, **kwargs)

        def run_in_executor(executor: Any, fn: Any, *args: Any) -> Any:
            self.jobs += 1
            return real_pool(executor, fn, *args)

        loop.call_at = call_at  # type: ignore[method-assign]
        loop.call_soon = call_soon  # type: ignore[method-assign]
        loop.run_in_executor = run_in_executor  # type: ignore[method-assign]


async def _decide_all(
    seats: bots.ComputerSeats, clients: list[_Client], kind: str, at: float | None = None
) -> None:
    """Start a decision for each client (all at the loop time ``at``, if given), then wait for
    every move (only a hang ends the wait)."""
    loop = asyncio.get_running_loop()
    real_time = loop.time
    if at is not None:
        loop.time = lambda: at  # type: ignore[method-assign]
    try:
        for i, c in enumerate(clients):
            seats.decide(c, kind, GameKind.DEERPARK, f"t:1:{i}:7")
    finally:
        loop.time = real_time  # type: ignore[method-assign]
    deadline = real_time() + 60
    while any(c.sent is None for c in clients) and real_time() < deadline:
        await asyncio.sleep(0.01)


def test_quick_decisions_use_no_thread_and_one_timer_a_beat() -> None:
    """Six quick decisions started in one beat: no job for the pool, one timer (the one that
    decides and sends them), every move sent after its pause with the seq it was asked at.
    Before, the same decisions took a gathering timer, a pool job and a sending timer."""

    async def play() -> tuple[list[_Client], _Counts]:
        loop = asyncio.get_running_loop()
        counts = _Counts(loop)
        seats = bots.ComputerSeats(1, pause=0.2)
        clients = [_Client(DeerParkGame(4, seed=s), loop) for s in range(6)]
        started = loop.time()
        try:
            await _decide_all(seats, clients, "heuristic", at=started)
        finally:
            seats.close()
        for c in clients:
            assert c.sent_at >= started + 0.2 - 1e-6  # (a timer may run a tick early)
        return clients, counts

    clients, counts = asyncio.run(play())
    assert all(c.sent is not None and c.sent.seq == 7 for c in clients)
    assert counts.jobs == 0
    assert counts.timers == 1


@pytest.mark.parametrize(("cls", "players", "kind"), GAMES)
@pytest.mark.parametrize("player", ["heuristic", "random"])
def test_a_quick_decision_on_the_loop_is_the_pool_s_decision(
    cls: Any, players: int, kind: GameKind, player: str
) -> None:
    """The same seat, seed and observation give the same move on the event loop as in the pool
    (the seed is keyed by the server's secret, the same here for both)."""

    async def one(on_loop: int, secret: bytes, seed: int) -> str:
        loop = asyncio.get_running_loop()
        seats = bots.ComputerSeats(1, pause=0.01, on_loop=on_loop)
        seats._secret = secret
        client = _Client(cls(players, seed=seed), loop)
        try:
            seats.decide(client, player, kind, f"t:1:2:{seed}")
            deadline = loop.time() + 60
            while client.sent is None and loop.time() < deadline:
                await asyncio.sleep(0.005)
        finally:
            seats.close()
        return str(client.sent.action)

    secret = b"k" * 32
    for seed in range(12):
        assert asyncio.run(one(bots.ON_LOOP, secret, seed)) == asyncio.run(one(0, secret, seed))


def test_past_its_share_a_beat_s_quick_decisions_go_to_the_pool() -> None:
    """At most ``on_loop`` quick decisions a beat are made on the event loop; the rest, and any
    player that is not quick, go to the pool, as before; every move is sent."""

    async def play() -> tuple[list[_Client], int, int]:
        loop = asyncio.get_running_loop()
        counts = _Counts(loop)
        seats = bots.ComputerSeats(1, pause=0.2, on_loop=2)
        clients = [_Client(DeerParkGame(4, seed=s), loop) for s in range(6)]
        real_submit = seats._submit
        pooled: list[int] = []

        def submit() -> None:
            pooled.append(len(seats._queue))
            real_submit()

        seats._submit = submit  # type: ignore[method-assign]
        try:
            await _decide_all(seats, clients, "heuristic", at=loop.time())
        finally:
            seats.close()
        return clients, sum(pooled), counts.jobs

    clients, pooled, jobs = asyncio.run(play())
    assert all(c.sent is not None and c.sent.seq == 7 for c in clients)
    assert pooled == 4 and jobs == 1


def test_a_player_that_is_not_quick_goes_to_the_pool() -> None:
    """A built-in player that thinks longer than a hand-off (here ``mc``, its decision never
    made: the pool is closed first) is queued for the pool, not kept for the event loop."""

    async def play() -> tuple[int, int]:
        loop = asyncio.get_running_loop()
        seats = bots.ComputerSeats(1, pause=0.2)
        seats.decide(_Client(DeerParkGame(4, seed=3), loop), "mc", GameKind.DEERPARK, "t:1:1:0")
        queued, kept = len(seats._queue), sum(len(g) for g in seats._due.values())
        seats.close()
        return queued, kept

    assert asyncio.run(play()) == (1, 0)


def test_a_server_s_quick_computer_seats_never_use_the_pool(monkeypatch: pytest.MonkeyPatch) -> None:
    """At a table of rule-of-thumb computers with a pause, every move is decided on the event
    loop: the pool's work function is never called, and the table plays on."""
    pooled = 0
    real = bots._choose_all

    def counted(*args: Any) -> Any:
        nonlocal pooled
        pooled += 1
        return real(*args)

    monkeypatch.setattr(bots, "_choose_all", counted)
    with kit.client(kit.config(bot_pause=0.02, deal_pause=0.02)) as c:
        t = kit.new_table(c, "deerpark", kit.humans_and_bots(0, 4, "heuristic"))
        deadline = time.monotonic() + 60  # the wait ends once there; only a hang reaches this
        while c.get(f"/api/tables/{t['id']}").json()["seq"] < 30 and time.monotonic() < deadline:
            time.sleep(0.02)
        assert c.get(f"/api/tables/{t['id']}").json()["seq"] >= 30
    assert pooled == 0
