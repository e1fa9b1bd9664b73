"""A person's move is answered before the computer moves stored in the same batch: a beat of a
hundred computer moves does not stand between a person and the answer (counted: the tables told
before the person's; the latency itself is measured by ``python -m hucklebuck.bench server``)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

pytest.importorskip("starlette")  # the server extra (server_kit imports the app)

import server_kit as kit

from hucklebuck.server.catalog import read_table_request
from hucklebuck.server.config import ServerConfig
from hucklebuck.server.manager import TableManager
from hucklebuck.server.protocol import ClientMessage
from hucklebuck.server.store import SQLiteStore

OTHERS = 20
"""Tables whose computer moves share the batch with the person's move."""


class _Told:
    """A connection that notes, in the shared ``order``, which table told it something."""

    def __init__(self, seat: int | None, name: str, order: list[str]) -> None:
        self.seat, self.name, self.order = seat, name, order

    def send_text(self, text: str) -> None:
        self.order.append(self.name)

    def close(self, code: int, reason: str) -> None:
        self.order.append(f"{self.name} closed")


def _table(manager: TableManager, people: bool) -> Any:
    """A Deer Park table of people only, or of one person (seat 0) and three computers."""
    seats = [{"kind": "human", "name": "P"}] + [{"kind": "human" if people else "computer", "name": "Q"}] * 3
    table, _tokens = manager.create(read_table_request({"game": "deerpark", "seats": seats}, 24))
    return table


def test_a_person_s_move_is_answered_before_the_computer_moves_of_its_batch() -> None:
    """Twenty computer moves, then a person's, all in one batch: after the commit the person's
    table is told first (before, it was told last: after every other table's broadcast)."""

    async def play() -> list[str]:
        config = ServerConfig(db=":memory:", bot_pause=1000.0, deal_pause=1000.0, grace=1000.0)
        manager = TableManager(config, SQLiteStore(":memory:"))  # (computers think, never send)
        manager.start()
        order: list[str] = []
        others = [_table(manager, people=False) for _ in range(OTHERS)]
        mine = _table(manager, people=True)
        person = _Told(mine.game.to_act, "person", order)
        mine.join(person)
        for i, t in enumerate(others):
            t.join(_Told(0, f"table {i}", order))
        await kit.settle(lambda: not any(t.pending for t in [*others, mine]))
        del order[:]
        for t in others:  # one stretch of the event loop: one batch
            seat = t.game.to_act
            t.agent_message(seat, ClientMessage("act", t.seq, str(t.game.legal_actions()[0])))
        mine.client_message(person, ClientMessage("act", mine.seq, str(mine.game.legal_actions()[0])))
        assert manager.is_pending(mine) and not order
        await kit.settle(lambda: len(order) >= OTHERS + 1, "the answers")
        manager.close()
        return order

    order = asyncio.run(play())
    assert order.index("person") == 0, f"{order.index('person')} tables were told before the person"
    assert sorted(order) == sorted(["person"] + [f"table {i}" for i in range(OTHERS)])
