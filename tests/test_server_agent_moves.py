"""A computer seat's move is checked against the legal moves its observation listed (the table's
reader for that state is made from them), not against a second listing, and found there as the
move its player chose rather than read back from its text; a reader made so reads and refuses
every move exactly as one that lists the moves itself."""

from __future__ import annotations

import asyncio
import random
import threading
import time
from typing import Any

import pytest

from hucklebuck.actions import Play
from hucklebuck.games import BuckEmGame, DeerParkGame, HucklebuckGame
from hucklebuck.games.base import Phase
from hucklebuck.games.engine import TrickGame
from hucklebuck.server import moves, tables
from hucklebuck.server.catalog import read_table_request
from hucklebuck.server.config import ServerConfig
from hucklebuck.server.manager import TableManager
from hucklebuck.server.moves import AgentAct, MoveReader
from hucklebuck.server.protocol import ClientMessage, ProtocolError
from hucklebuck.server.store import SQLiteStore

GAMES: list[tuple[Any, int, str]] = [
    (DeerParkGame, 4, "deerpark"),
    (HucklebuckGame, 4, "hucklebuck"),
    (BuckEmGame, 5, "buckem"),
]


def _outcome(reader: MoveReader, seat: int, move: Any) -> tuple[str, Any]:
    try:
        return ("ok", reader.read(seat, move, ("A", "B", "C", "D", "E")))
    except ProtocolError as exc:
        return (exc.code, exc.message)


def _chosen(reader: MoveReader, seat: int, action: Any) -> tuple[str, Any]:
    try:
        return ("ok", reader.read(seat, str(action), ("A", "B", "C", "D", "E"), action))
    except ProtocolError as exc:
        return (exc.code, exc.message)


@pytest.mark.parametrize(("cls", "players", "_name"), GAMES)
def test_a_reader_given_the_observation_s_moves_reads_as_one_that_lists_them(
    cls: Any, players: int, _name: str
) -> None:
    """Randomized: at states along random games, every legal move (by id, protocol text and the
    move's words), moves of the state before and after, and another seat's, read the same."""
    rng = random.Random(60)
    for game_seed in range(6):
        game = cls(players, seed=game_seed)
        before: list[Any] = []
        for _ in range(rng.randrange(40, 160)):
            if game.to_act is None:
                if game.phase is not Phase.HAND_OVER:
                    break
                game.next_hand()
                continue
            seat = game.to_act
            legal = game.legal_actions()
            given = MoveReader(game, game.observation(seat).legal_actions)
            listed = MoveReader(game)
            tries: list[Any] = []
            for a in legal:
                tries += [str(a), game.action_id(a)]
                if type(a) is Play:
                    tries += [a.card.display, f"play {a.card}"]
            tries += [str(a) for a in before[-8:]] + ["nonsense", "0 bid 9", 9999, "pass"]
            for move in tries:
                for asked in (seat, (seat + 1) % players):
                    assert _outcome(given, asked, move) == _outcome(listed, asked, move), move
            for a in [*legal, *before[-8:]]:  # a chosen move, legal or stale, as its text alone
                assert _chosen(given, seat, a) == _outcome(listed, seat, str(a)), a
            before += legal
            game.apply(rng.choice(legal))


def _all_computers(manager: TableManager, game: str, players: int) -> Any:
    seats = [{"kind": "computer", "player": "random"}] * players
    table, _tokens = manager.create(read_table_request({"game": game, "seats": seats}, 24))
    return table


@pytest.mark.parametrize(("_cls", "players", "name"), GAMES)
def test_a_computer_move_is_checked_without_listing_or_parsing_again(
    _cls: Any, players: int, name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While the table reads and applies a computer's move, the legal moves are not listed again
    nor is the move read back from its text (the code before listed them once more for every
    computer move, and parsed every move but a play)."""
    counts = {"moves": 0, "listed": 0, "parsed": 0, "carried": 0}
    inside: list[int] = []
    real_agent = tables.ServerTable.agent_message
    real_legal = TrickGame.legal_actions

    def agent_message(self: Any, seat: int, message: ClientMessage) -> None:
        counts["moves"] += 1
        counts["carried"] += isinstance(message, AgentAct) and str(message.move) == message.action
        inside.append(threading.get_ident())
        try:
            real_agent(self, seat, message)
        finally:
            inside.pop()

    def legal_actions(self: Any) -> Any:
        if inside and inside[-1] == threading.get_ident():
            counts["listed"] += 1
        return real_legal(self)

    monkeypatch.setattr(tables.ServerTable, "agent_message", agent_message)
    real_parse = moves.parse_action

    def parse_action(*args: Any) -> Any:
        counts["parsed"] += 1
        return real_parse(*args)

    monkeypatch.setattr(TrickGame, "legal_actions", legal_actions)
    monkeypatch.setattr(moves, "parse_action", parse_action)

    async def run() -> None:
        config = ServerConfig(db=":memory:", bot_pause=0.0, deal_pause=0.0, grace=1000.0)
        manager = TableManager(config, SQLiteStore(":memory:"))
        manager.start()
        table = _all_computers(manager, name, players)
        table.drive()
        deadline = time.monotonic() + 120  # only a hang gets there: the loop ends at 40 moves
        while counts["moves"] < 40 and not table.over and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        manager.close()

    asyncio.run(run())
    assert counts["moves"] >= 10
    assert counts["listed"] == 0
    assert counts["parsed"] == 0  # (the code before read a bid, a pass or a draw back from its text)
    assert counts["carried"] == counts["moves"]  # the text sent is the chosen move's protocol form


def test_a_computer_s_stale_move_is_still_refused_after_the_table_moved_on() -> None:
    """The reader made from an observation answers that state only: once the table has moved on,
    the move decided on then is refused (not read against the old list)."""

    async def run() -> None:
        config = ServerConfig(db=":memory:", bot_pause=1000.0, deal_pause=1000.0, grace=1000.0)
        manager = TableManager(config, SQLiteStore(":memory:"))
        manager.start()
        table = _all_computers(manager, "deerpark", 4)
        seat = table.game.to_act
        client = tables._AgentClient(table, seat)
        seq, observation = client.observation()
        chosen = observation.legal_actions[0]
        table.agent_message(seat, AgentAct("act", seq, str(chosen), chosen))
        assert table.seq == seq + 1  # taken
        moved = table.game.copy()
        table.agent_message(seat, AgentAct("act", seq, str(chosen), chosen))  # stale: refused
        assert table.seq == seq + 1 and str(table.game.observation(None)) == str(moved.observation(None))
        manager.close()

    asyncio.run(run())
