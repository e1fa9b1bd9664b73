"""A commit of many computer moves tells the tables' clients in slices, a few tables a turn of the
event loop, so that a person's move read meanwhile is stored and answered between two slices
rather than after the whole round; every client still sees every state once, in order.  (The
slices are made as small as can be here, one table a turn, so that what is counted does not
depend on the machine's speed; the latency itself is measured by ``python -m hucklebuck.bench
server``.)"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

pytest.importorskip("starlette")  # the server extra (server_kit imports the app)

import server_kit as kit

from hucklebuck.server import manager as manager_module
from hucklebuck.server.catalog import read_table_request
from hucklebuck.server.config import ServerConfig
from hucklebuck.server.manager import TELL_AT_ONCE, TableManager
from hucklebuck.server.protocol import ClientMessage
from hucklebuck.server.store import SQLiteStore

OTHERS = 40
"""Tables whose computer moves are stored in one batch."""


class _Told:
    """A connection that notes, in the shared ``order``, which table told it which state."""

    def __init__(self, seat: int | None, name: str, order: list[tuple[str, int]]) -> None:
        self.seat, self.name, self.order = seat, name, order

    def send_text(self, text: str) -> None:
        self.order.append((self.name, json.loads(text)["seq"]))

    def close(self, code: int, reason: str) -> None:
        self.order.append((f"{self.name} closed", -1))


def _table(manager: TableManager, people: bool) -> Any:
    """A Deer Park table of people only, or of one person (seat 0) and three computers."""
    seats = [{"kind": "human", "name": "P"}] + [{"kind": "human" if people else "computer", "name": "Q"}] * 3
    table, _tokens = manager.create(read_table_request({"game": "deerpark", "seats": seats}, 24))
    return table


def _after_the_commit(manager: TableManager, then: Any) -> list[int]:
    """Call ``then`` right after the next commit's own turn (in that turn); the list gets how many
    tables that turn had told by then."""
    flush, counted = manager.flush, []

    def flush_then() -> None:
        had = bool(manager._batch)
        flush()
        if had and not counted:
            counted.append(then())

    manager.flush = flush_then  # type: ignore[method-assign]
    return counted


def _computer_move(table: Any) -> None:
    seat = table.game.to_act
    table.agent_message(seat, ClientMessage("act", table.seq, str(table.game.legal_actions()[0])))


async def _setup(order: list[tuple[str, int]]) -> tuple[TableManager, list[Any], Any, _Told]:
    config = ServerConfig(db=":memory:", bot_pause=1000.0, deal_pause=1000.0, grace=1000.0)
    manager = TableManager(config, SQLiteStore(":memory:"))  # (computers think, never send)
    manager.start()
    others = [_table(manager, people=False) for _ in range(OTHERS)]
    mine = _table(manager, people=True)
    person = _Told(mine.game.to_act, "person", order)
    mine.join(person)
    for i, t in enumerate(others):
        t.join(_Told(0, f"table {i}", order))
    await kit.settle(lambda: len({n for n, _s in order}) == OTHERS + 1, "each table's first state")
    await kit.settle(lambda: not any(t.pending for t in [*others, mine]))
    del order[:]
    return manager, others, mine, person


def test_a_person_s_move_read_after_a_large_commit_is_answered_between_its_slices(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Forty computer moves stored in one batch; the person's move comes in the next turn of the
    event loop: it is answered before most of the forty tables are told (before, the commit told
    all forty in its own turn, so the person's answer came after every one of them)."""
    monkeypatch.setattr(manager_module, "TELL_SLICE", 0.0)

    async def play() -> tuple[list[tuple[str, int]], int, dict[str, int]]:
        order: list[tuple[str, int]] = []
        manager, others, mine, person = await _setup(order)
        seqs = {f"table {i}": t.seq + 1 for i, t in enumerate(others)}
        seqs["person"] = mine.seq + 1

        def person_moves() -> int:  # read in the turn after the commit's
            told = len(order)
            mine.client_message(person, ClientMessage("act", mine.seq, str(mine.game.legal_actions()[0])))
            return told

        counted = _after_the_commit(manager, person_moves)
        for t in others:  # one stretch of the event loop: one batch
            _computer_move(t)
        await kit.settle(lambda: len(order) >= OTHERS + 1, "the answers")
        manager.close()
        return order, counted[0], seqs

    order, first, seqs = asyncio.run(play())
    names = [name for name, _seq in order]
    assert first == TELL_AT_ONCE, f"the commit's own turn told {first} tables"
    assert names.index("person") < OTHERS // 2, f"{names.index('person')} tables were told before the person"
    assert sorted(order) == sorted(seqs.items()), "each table told its new state once"


def test_a_table_changed_again_before_its_slice_tells_every_state_in_order(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A table whose clients were not told its stored state yet changes again (another computer
    move): its clients get the state it was at first, then the new one, each once; tables still
    waiting are told in turn."""
    monkeypatch.setattr(manager_module, "TELL_SLICE", 0.0)

    async def play() -> tuple[list[tuple[str, int]], dict[str, int], str, int]:
        order: list[tuple[str, int]] = []
        manager, others, _mine, _person = await _setup(order)
        start = {f"table {i}": t.seq for i, t in enumerate(others)}
        chosen: list[tuple[str, Any]] = []

        def second_change() -> int:
            told = {n for n, _s in order}
            waiting = [(f"table {i}", t) for i, t in enumerate(others) if f"table {i}" not in told]
            chosen.extend((n, t) for n, t in waiting if t.game.to_act not in (None, 0))  # a computer's turn
            if chosen:
                _computer_move(chosen[-1][1])  # its second change, before its slice came
            return len(waiting)

        counted = _after_the_commit(manager, second_change)
        for t in others:
            _computer_move(t)
        await kit.settle(lambda: len(order) >= OTHERS + len(chosen[-1:]), "the answers")  # (one told twice)
        manager.close()
        assert counted == [OTHERS - TELL_AT_ONCE], f"{counted} tables waited for a later turn"
        return order, start, chosen[-1][0], chosen[-1][1].seq

    order, start, name, last_seq = asyncio.run(play())
    mine = [seq for n, seq in order if n == name]
    assert mine == [start[name] + 1, start[name] + 2] == [last_seq - 1, last_seq], mine
    for n, s in start.items():
        if n != name:
            assert [seq for m, seq in order if m == n] == [s + 1], n


def test_a_client_joining_a_table_waiting_for_its_slice_gets_its_state_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A connection opened to a table whose stored state is still to be told gets that state once,
    with the table's slice (not once on joining and again with the slice)."""
    monkeypatch.setattr(manager_module, "TELL_SLICE", 0.0)

    async def play() -> tuple[list[tuple[str, int]], dict[str, int], list[str]]:
        order: list[tuple[str, int]] = []
        manager, others, _mine, _person = await _setup(order)
        seqs = {f"table {i}": t.seq + 1 for i, t in enumerate(others)}
        joined: list[str] = []

        def join() -> int:
            told = {n for n, _s in order}
            waiting = [(f"table {i}", t) for i, t in enumerate(others) if f"table {i}" not in told]
            if waiting:
                name, table = waiting[-1]
                joined.append(name)
                table.join(_Told(None, f"{name} watcher", order))  # a spectator
                seqs[f"{name} watcher"] = table.seq
            return len(waiting)

        _after_the_commit(manager, join)
        for t in others:
            _computer_move(t)
        await kit.settle(lambda: len({n for n, _s in order}) >= OTHERS + len(joined), "the answers")
        for _ in range(3 * OTHERS):  # (every slice has run: nothing more comes)
            await asyncio.sleep(0)
        manager.close()
        return order, seqs, joined

    order, seqs, joined = asyncio.run(play())
    assert joined, "no table was waiting for its slice"
    assert sorted(order) == sorted(seqs.items()), "each connection told the table's new state once"


def test_computers_changes_made_while_tables_are_told_wait_for_one_commit_a_person_s_does_not(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Computer moves made while a large commit's tables are still being told are stored together
    once the telling ends (before, each turn of the event loop made a commit of its own: many small
    commits cost more CPU than one); a person's move made meanwhile is stored at once, with the
    computers' moves waiting so far, and answered before the telling ends."""
    monkeypatch.setattr(manager_module, "TELL_SLICE", 0.0)

    async def play() -> tuple[list[bool], list[int], int, int, int]:
        order: list[tuple[str, int]] = []
        manager, others, mine, person = await _setup(order)
        commits: list[bool] = []  # for each commit: was a telling under way?
        sizes: list[int] = []
        commit = manager.store.commit

        def counting(rows: Any, moves: Any) -> Any:
            commits.append(manager._telling)
            sizes.append(len(rows) + len(moves))
            return commit(rows, moves)

        manager.store.commit = counting  # type: ignore[method-assign]
        loop = asyncio.get_running_loop()
        movers: list[Any] = []

        def moves_then_person() -> int:
            movers.extend([t for t in others if t.game.to_act not in (None, 0)][:5])  # a computer's turn

            def step(i: int) -> None:
                if i < len(movers):
                    _computer_move(movers[i])  # one a turn, while the others are being told
                    loop.call_soon(step, i + 1)
                else:
                    move = str(mine.game.legal_actions()[0])
                    mine.client_message(person, ClientMessage("act", mine.seq, move))

            loop.call_soon(step, 0)
            return len(order)

        _after_the_commit(manager, moves_then_person)
        for t in others:
            _computer_move(t)
        done = OTHERS + 1 + len(movers)
        await kit.settle(lambda: len(order) >= done and not manager._telling, "the answers")
        person_at = [n for n, _s in order].index("person")
        manager.close()
        return commits, sizes, len(movers), person_at, len(order)

    commits, sizes, movers, person_at, told = asyncio.run(play())
    assert movers >= 2, "too few of the first tables had a computer to move"
    assert commits[0] is False and sizes[0] == OTHERS, (commits, sizes)  # the forty moves
    assert commits[1:] == [True], f"commits after the first (telling under way?): {commits[1:]}"
    assert sizes[1] == movers + 1, f"the person's commit stored {sizes[1]} changes"
    assert person_at < told - (OTHERS - TELL_AT_ONCE) // 2, "the person was answered after the telling"
