"""Non-interference at the table server (DEF #84-#91): for two deals that differ
only in cards a seat (or a spectator) may not see, every message that seat
receives is byte-identical, including the answer to every move it could try to
send at each of its decisions (each seat x each card x each verb, in protocol
form and as a person types it) and the hints it asks for.

Each run plays one hand by a script (the same actions at both twins, their
hidden cards swapped) at a table of people only, so no computer thinks; the
next hand is never dealt (a long deal pause), so the hand's end is compared
too.  A twin swaps two cards the observer never sees; it is kept only when
every scripted action stays legal and everything public (tricks, standings,
card counts, the observer's own hand at every step) stays the same.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

pytest.importorskip("starlette")

from server_kit import Recorder, settle
from twins_kit import GAMES, VERBS_ARG, VERBS_PLAIN, VERBS_WITH_CARD, _make_case, _twin

from hucklebuck.cards import Card
from hucklebuck.server.catalog import read_table_request
from hucklebuck.server.config import ServerConfig
from hucklebuck.server.hints import hint_for
from hucklebuck.server.manager import TableManager
from hucklebuck.server.protocol import ClientMessage, ProtocolError
from hucklebuck.server.store import SQLiteStore
from hucklebuck.server.tables import Seat, ServerTable

pytestmark = pytest.mark.single_core


def _tries(players: int) -> list[str]:
    """Every move text worth trying: each seat x each card x each verb, protocol form and typed form."""
    codes = [Card.from_index(i).code for i in range(52)]
    out: list[str] = []
    for seat in range(players + 1):  # one seat past the table too
        for verb in VERBS_WITH_CARD:
            out += [f"{seat} {verb} {c}" for c in codes]
        out += [f"{seat} {v}" for v in VERBS_PLAIN + VERBS_ARG]
    out += codes + [f"play {c}" for c in codes] + [Card.parse(c).display for c in codes[::5]]
    out += ["pass", "bid 3", "stay", "fold", "order", "call S", 7, 10**6, -1]  # type: ignore[list-item]
    return out


def _accepted(table: ServerTable, seat: int, move: object) -> bool:
    try:
        table.reader.read(seat, move, table.narrator.names)  # type: ignore[arg-type]
    except ProtocolError:
        return False
    return True


async def _run_table(
    game_name: str, players: int, options: dict[str, Any], deal: Any, script: list[str], observer: int | None
) -> list[str]:
    """Play the script at a table of people; the observer tries every move at each of its decisions."""
    # presence_pause=0: who is connected goes out at once, never on a timer that a later state may or may
    # not overtake (the first seat to act tries every move first, which on a loaded machine took longer
    # than the usual half second: one twin got a presence message the other did not)
    config = ServerConfig(db=":memory:", bot_pause=0.0, deal_pause=1000.0, grace=1000.0, presence_pause=0.0)
    manager = TableManager(
        config, SQLiteStore(":memory:"), hinter=lambda g, seat: hint_for(g, seat, samples=6)
    )
    manager.start()
    try:
        body = {"game": game_name, "players": players, "options": options}
        body["seats"] = [{"kind": "human", "name": f"P{i}"} for i in range(players)]
        request = read_table_request(body, config.max_name)
        game = GAMES[game_name](players, options=options, deal=deal)
        seats = [Seat("human", s.name, None, "digest") for s in request.seats]
        fields: dict[str, Any] = {
            "turn_timer": None,
            "notices": [],
            "last_hand": None,
            "game_over": None,
            "game_number": 1,
        }
        if game_name == "buckem":
            fields["hands"] = 1
        table = ServerTable(manager, "twin", request.spec, game, seats, 0, fields)
        manager.tables["twin"] = table
        probes = [Recorder(s) for s in range(players)]
        watcher = Recorder(observer)
        conns = probes if observer is None else []
        for p in probes:
            table.join(p)
        if observer is None:
            table.join(watcher)
        me = watcher if observer is None else probes[observer]
        table.drive()
        await asyncio.sleep(0)
        tries = _tries(players)
        for step, text in enumerate(script):
            await asyncio.sleep(0)
            to_act = table.game.to_act
            if observer is not None:
                chosen = tries if to_act == observer else tries[step::97]
                for t in chosen:
                    if to_act == observer and _accepted(table, observer, t):
                        continue  # a move it may make: the refusals are what is compared
                    table.client_message(me, ClientMessage("act", table.seq, t))
                if to_act == observer and step % 3 == 0:  # a hint, from this seat's view only
                    count = len(me.texts)
                    table.client_message(me, ClientMessage("hint", table.seq))
                    await settle(lambda: len(me.texts) > count, "the hint")  # noqa: B023
                    assert '"type":"hint"' in me.texts[-1].replace(" ", ""), me.texts[-1][:300]
            else:
                table.client_message(me, ClientMessage("act", table.seq, str(text)))  # a spectator acts
            before = table.seq
            assert to_act is not None
            table.client_message(probes[to_act], ClientMessage("act", table.seq, text))
            assert table.seq != before, (step, text, probes[to_act].texts[-1:])
        # the last messages: the last batch is stored and sent, every hint answered (nothing else is due)
        await settle(lambda: not table.pending and not table._hinting, "the last messages")
        del conns
        return me.texts
    finally:
        manager.close()


CASES = [
    ("hucklebuck", 4, {}),
    ("hucklebuck", 5, {}),
    ("deerpark", 4, {}),
    ("deerpark", 3, {"club_turnup_pickup": True}),
    ("buckem", 6, {}),
    ("buckem", 6, {"simultaneous_declare": True, "deuce_swap": True}),
    ("buckem", 7, {"scare_cards": True}),
]


@pytest.mark.parametrize(("game_name", "players", "options"), CASES)
def test_twin_deals_give_each_seat_and_spectator_the_same_messages(
    game_name: str, players: int, options: dict[str, Any]
) -> None:
    rng = random.Random(players * 31 + len(options))
    compared = 0
    for seed in range(1):
        deal, script = _make_case(game_name, players, options, seed + 100 * players)
        seats = list(range(players)) if players <= 5 else sorted(rng.sample(range(players), 4))
        for observer in [None, *seats]:  # every seat of small tables, four of large ones
            twin = _twin(game_name, players, options, deal, script, observer, rng)
            if twin is None:
                continue
            deal2, script2 = twin
            a = asyncio.run(_run_table(game_name, players, options, deal, script, observer))
            b = asyncio.run(_run_table(game_name, players, options, deal2, script2, observer))
            assert len(a) == len(b), (observer, len(a), len(b))
            for i, (ma, mb) in enumerate(zip(a, b, strict=True)):
                assert ma == mb, (game_name, observer, i, ma[:400], mb[:400])
            compared += 1
    assert compared >= min(players, 5), compared  # the twins were found: the test compared something
