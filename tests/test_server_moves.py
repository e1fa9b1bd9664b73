"""Reading a client's move at the table server: every legal move is found by each of its names
(id, protocol form, the menu's words, ``play`` + card), whatever else is tried first; and the menu
of one decision is rendered once, however many tries a client sends at it (a client that floods one
decision with unreadable moves costs the server a dictionary look-up each, not a rendering of every
legal move)."""

from __future__ import annotations

import random
from typing import Any

import pytest

pytest.importorskip("starlette")

from hucklebuck.actions import Play
from hucklebuck.cli.human import move_text
from hucklebuck.games import BuckEmGame, DeerParkGame, HucklebuckGame
from hucklebuck.server import moves
from hucklebuck.server.protocol import ProtocolError


def _decisions(game: Any, rng: random.Random, count: int) -> list[Any]:
    """``count`` positions of one random game (copies), each with a seat to act."""
    out = []
    while len(out) < count and not game.is_over:
        if game.to_act is None:
            game.next_hand()
            continue
        out.append(game.copy())
        game.apply(rng.choice(game.legal_actions()))
    return out


@pytest.mark.parametrize(("kind", "players"), [(HucklebuckGame, 4), (DeerParkGame, 4), (BuckEmGame, 5)])
def test_every_legal_move_is_read_by_each_of_its_names(kind: Any, players: int) -> None:
    game = kind(players, seed=3)
    names = [f"P{i}" for i in range(game.players)]
    for position in _decisions(game, random.Random(5), 60):
        seat = position.to_act
        for action in position.legal_actions():
            text = move_text(action, position)
            forms: list[int | str] = [position.action_id(action), str(action), text, text.upper()]
            if isinstance(action, Play):
                forms.append(f"play {text}")
            for form in forms:
                assert moves.read_move(position, seat, form, names) == action, (form, action)


def test_many_tries_at_one_decision_render_its_menu_once() -> None:
    game = BuckEmGame(6, seed=11)
    rng = random.Random(2)
    while game.to_act is None or len(game.legal_actions()) < 8:  # a decision with many moves (the draw)
        if game.to_act is None:
            game.next_hand()
        else:
            game.apply(rng.choice(game.legal_actions()))
    seat, names = game.to_act, [f"P{i}" for i in range(6)]
    before = moves._menu.cache_info()
    for k in range(500):
        with pytest.raises(ProtocolError):
            moves.read_move(game, seat, f"nonsense {k}", names)
    after = moves._menu.cache_info()
    assert after.misses - before.misses <= 1  # rendered once (or already, by an earlier test)
    assert after.hits - before.hits >= 499
    # the cached menu is the decision's own: a move of it is still read after all those tries
    legal = game.legal_actions()
    assert moves.read_move(game, seat, str(legal[-1]), names) == legal[-1]


def _draw_decision() -> tuple[BuckEmGame, int]:
    game = BuckEmGame(6, seed=11)
    rng = random.Random(2)
    while game.to_act is None or len(game.legal_actions()) < 8:  # the draw: 26 moves
        if game.to_act is None:
            game.next_hand()
        else:
            game.apply(rng.choice(game.legal_actions()))
    assert game.to_act is not None
    return game, game.to_act


def test_a_reader_works_a_decision_out_once_however_many_tries(monkeypatch: pytest.MonkeyPatch) -> None:
    """A flood of moves at one decision: the legal moves are listed once, and each refused move's
    reason (which may try the move on a copy of the game) is worked out once, not once per try."""
    game, seat = _draw_decision()
    names = [f"P{i}" for i in range(6)]
    listed, reasons = [0], [0]
    real_legal, real_why = BuckEmGame.legal_actions, moves.why_illegal

    def legal(self: BuckEmGame) -> Any:
        listed[0] += 1
        return real_legal(self)

    def why(*args: Any) -> str:
        reasons[0] += 1
        return real_why(*args)

    monkeypatch.setattr(BuckEmGame, "legal_actions", legal)
    monkeypatch.setattr(moves, "why_illegal", why)
    reader = moves.MoveReader(game)
    other = (seat + 1) % 6
    held = next(iter(game.hand(other)))  # another seat's card and move: refused for that alone
    tries = [f"{other} draw {held.code}", f"{seat} play {held.code}", "nonsense", 10**6]
    refusals: dict[str, set[str]] = {}
    for k in range(400):
        move = tries[k % len(tries)]
        with pytest.raises(ProtocolError) as caught:
            reader.read(seat, move, names)
        refusals.setdefault(str(move), set()).add(caught.value.message)
    assert reasons[0] == 2, reasons  # the two readable moves, once each
    assert listed[0] <= 1 + reasons[0], listed  # once for the reader (and at most once per reason)
    assert all(len(texts) == 1 for texts in refusals.values()), refusals  # the same answer each time
    assert refusals[tries[0]] == {"not allowed: that is another seat's move"}
    legal_now = real_legal(game)
    assert reader.read(seat, str(legal_now[-1]), names) == legal_now[-1]
    assert reader.read(seat, game.action_id(legal_now[3]), names) == legal_now[3]


def test_a_table_reads_each_state_with_that_states_reader() -> None:
    """The table keeps one reader per state: the same one for every try at a state, a new one after
    a move and after a roll-back, so a refusal always answers the state the table is in."""
    import asyncio

    import server_kit as kit
    from server_kit import Recorder

    from hucklebuck.server.catalog import read_table_request
    from hucklebuck.server.config import ServerConfig
    from hucklebuck.server.manager import TableManager
    from hucklebuck.server.protocol import ClientMessage
    from hucklebuck.server.store import SQLiteStore

    async def run() -> None:
        config = ServerConfig(db=":memory:", bot_pause=0.0, deal_pause=1000.0, grace=1000.0)
        manager = TableManager(config, SQLiteStore(":memory:"))
        manager.start()
        try:
            body = {
                "game": "deerpark",
                "players": 4,
                "seats": [{"kind": "human", "name": f"P{i}"} for i in range(4)],
            }
            table, _tokens = manager.create(read_table_request(body, 24))
            conns = [Recorder(i) for i in range(4)]
            for c in conns:
                table.join(c)
            await kit.settle(lambda: not table.pending)
            first = table.reader
            assert table.reader is first  # one reader for every try at this state
            seat = table.game.to_act
            move = str(table.game.legal_actions()[0])
            point = table.undo_point()
            table.client_message(conns[seat], ClientMessage("act", table.seq, move))
            await kit.settle(lambda: not table.pending)  # stored and sent
            assert table.seq == point[2] + 1 and table.reader is not first
            with pytest.raises(ProtocolError):  # the old state's move, at the new state
                table.reader.read(seat, move, table.narrator.names)
            after_move = table.reader
            table.roll_back(point)  # (as when a batch cannot be stored)
            assert table.reader is not after_move
            assert str(table.reader.read(seat, move, table.narrator.names)) == move
        finally:
            manager.close()

    asyncio.run(run())
