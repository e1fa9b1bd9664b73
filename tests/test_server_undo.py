"""A change needs no copy of the game: the table keeps what the store holds of it, and a batch
that cannot be stored puts the table back by rebuilding the game from that.  The copies are
counted (not timed); the tables put back are compared with the games they were before."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

pytest.importorskip("starlette")  # the server extra (server_kit imports the app)

import server_kit as kit
from server_kit import Recorder

from hucklebuck.server.catalog import read_table_request
from hucklebuck.server.config import ServerConfig
from hucklebuck.server.manager import TableManager
from hucklebuck.server.protocol import ClientMessage
from hucklebuck.server.store import SQLiteStore, StoreError

SETUPS = [("deerpark", 4), ("hucklebuck", 4), ("buckem", 5)]


class _Flaky(SQLiteStore):
    """An in-memory store whose commits fail while ``failing`` is set."""

    failing = False
    refused = 0

    def commit(self, tables: Any, moves: Any) -> None:
        if self.failing:
            self.refused += 1
            raise StoreError("the disk is full")
        super().commit(tables, moves)


async def _play(
    name: str, players: int, steps: int, check: Any, seed: int, rematches: list[int] | None = None
) -> TableManager:
    """A table of people only, each move sent by the seat to act (deals come by themselves, and
    a rematch is asked for at the end of a game, counted in ``rematches``); ``check(table, rng)``
    runs before each move."""
    config = ServerConfig(db=":memory:", bot_pause=0.0, deal_pause=0.0, grace=1000.0)
    manager = TableManager(config, _Flaky(":memory:"))
    manager.start()
    rng = random.Random(seed)
    seats = [{"kind": "human", "name": f"P{i}"} for i in range(players)]
    body = {"game": name, "players": players, "seats": seats}
    table, _tokens = manager.create(read_table_request(body, 24))
    conns = [Recorder(i) for i in range(players)]
    for c in conns:
        table.join(c)
    for _ in range(steps):
        await kit.settle(lambda: not table.pending and (table.game.to_act is not None or table.over))
        if table.over:
            if rematches is not None:
                rematches.append(table.seq)
            table.client_message(conns[0], ClientMessage("rematch", table.seq, None))
            continue
        check(table, rng)
        seat = table.game.to_act
        move = str(rng.choice(table.game.legal_actions()))
        table.client_message(conns[seat], ClientMessage("act", table.seq, move))
    await kit.settle(lambda: not table.pending)
    return manager


@pytest.mark.parametrize(("name", "players"), SETUPS)
def test_a_change_copies_no_game(name: str, players: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Moves and deals, every one stored: not one copy of the game is made for them (the server
    used to copy the game at every change, in case its batch could not be stored).  A change
    stored whole (here a game's last move, and a rematch) keeps one copy, as the stored form's game."""
    copies = [0]
    rematches: list[int] = []

    def counting(table: Any, _rng: random.Random) -> None:
        cls = type(table.game)
        if getattr(cls.copy, "counted", False):
            return
        real = cls.copy

        def copy(self: Any) -> Any:
            copies[0] += 1
            return real(self)

        copy.counted = True  # type: ignore[attr-defined]
        monkeypatch.setattr(cls, "copy", copy)

    async def run() -> None:
        manager = await _play(name, players, 300, counting, 5, rematches)
        try:
            table = next(iter(manager.tables.values()))
            assert table.seq > 250
        finally:
            manager.close()

    asyncio.run(run())
    assert copies[0] <= 2 * (len(rematches) + 1)  # (the games ended, and their rematches)


@pytest.mark.parametrize(("name", "players"), SETUPS)
def test_a_batch_not_stored_puts_the_game_back_as_it_was(name: str, players: int) -> None:
    """Now and then a move's commit fails: the table is then the game it was before the move,
    field for field (its save format), at the same ``seq``; a game rebuilt from the store after
    the run is the table's game."""
    seen = [0]

    def maybe_fail(table: Any, rng: random.Random) -> None:
        store: _Flaky = table.manager.store
        if store.failing:
            store.failing = False
            assert table.seq == seen[1] and table.game.to_dict() == seen[2], "the table was not put back"
            seen[0] += 1
        if rng.random() < 0.25:
            store.failing = True
            seen[1:] = [table.seq, table.game.to_dict()]

    async def run() -> None:
        seen.extend([0, None])
        manager = await _play(name, players, 160, maybe_fail, 9)
        try:
            store = manager.store
            assert isinstance(store, _Flaky)
            store.failing = False
            table = next(iter(manager.tables.values()))
            (row,) = store.load_all()
            restored = manager._restore(row)
            assert restored.game.to_dict() == table.game.to_dict() and restored.seq == table.seq
        finally:
            manager.close()

    asyncio.run(run())
    assert seen[0] > 20
