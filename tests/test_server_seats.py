"""Seats that change hands: the computer takes a person's seat after the grace
period and hands it back when they return; the turn timer; both announced."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette")
pytest.importorskip("jsonschema")

import server_kit as kit

pytestmark = pytest.mark.single_core


def _until(ws: object, test: object, limit: int = 2000) -> dict:
    for _ in range(limit):
        m = kit.receive_state(ws)
        if test(m):  # type: ignore[operator]
            return m
    raise AssertionError("the state never came")


def test_the_computer_takes_over_after_the_grace_period_and_hands_back() -> None:
    with kit.client(kit.config(grace=0.1, bot_pause=0.01)) as c:
        t = kit.new_table(c, "deerpark", kit.humans_and_bots(1, 3, "heuristic"))
        with c.websocket_connect(kit.ws_url(t, None)) as spectator:
            with c.websocket_connect(kit.ws_url(t, 0)) as ws:
                m = _until(ws, lambda m: m["view"]["to_act"] == 0)
            seq_left = m["seq"]
            dropped = _until(spectator, lambda m: m["view"]["seats"][0]["away"])
            assert not dropped["view"]["seats"][0]["connected"]
            assert "H0's connection dropped" in dropped["view"]["notices"][-1]
            # the computer now plays seat 0's moves: the game goes on past the move it was waiting for
            _until(spectator, lambda m: m["seq"] > seq_left + 1)
            assert c.get(f"/api/tables/{t['id']}").json()["seats"][0]["away"] is True
            with c.websocket_connect(kit.ws_url(t, 0)) as ws:
                back = _until(ws, lambda m: not m["view"]["seats"][0]["away"])
                assert "H0 is back" in back["view"]["notices"][-1]
                # (the hand-back may come just as seat 0 is to act: then no later state comes)
                turn = back
                if not (back["view"]["to_act"] == 0 or back["view"]["game_over"]):
                    turn = _until(ws, lambda m: m["view"]["to_act"] == 0 or m["view"]["game_over"])
                if turn["view"]["game_over"] is None:
                    table = c.app_ref.state.manager.tables[t["id"]]  # nobody plays for a person who is here:
                    assert not table.seats[0].away and 0 not in table._thinking and not table._forced
                    assert c.get(f"/api/tables/{t['id']}").json()["seq"] == turn["seq"]
                    ws.send_json(
                        {"type": "act", "action": turn["view"]["legal"][0]["id"], "seq": turn["seq"]}
                    )
                    assert kit.receive_state(ws)["seq"] == turn["seq"] + 1


def test_a_short_drop_within_the_grace_period_changes_nothing() -> None:
    with kit.client(kit.config(grace=30.0)) as c:
        t = kit.new_table(c, "hucklebuck", kit.humans_and_bots(1, 3))
        with c.websocket_connect(kit.ws_url(t, None)) as spectator:
            with c.websocket_connect(kit.ws_url(t, 0)) as ws:
                m = _until(ws, lambda m: m["view"]["to_act"] == 0)
            seq = m["seq"]
            _until(spectator, lambda m: m["view"]["seats"][0]["connected"])
            gone = _until(spectator, lambda m: m["seq"] == seq and not m["view"]["seats"][0]["connected"])
            assert gone["seq"] == m["seq"] and not gone["view"]["seats"][0]["away"]
            with c.websocket_connect(kit.ws_url(t, 0)) as ws:
                again = kit.receive_state(ws)
                assert again["seq"] == m["seq"] and again["view"]["legal"] == m["view"]["legal"]
                assert not any("dropped" in n for n in again["view"]["notices"])


def test_the_turn_timer_has_the_computer_move_once_for_a_slow_person() -> None:
    with kit.client(kit.config(takeover_player="random")) as c:
        t = kit.new_table(c, "deerpark", kit.humans_and_bots(1, 3), turn_timer=0.2)
        with c.websocket_connect(kit.ws_url(t, 0)) as ws:
            waiting = _until(ws, lambda m: m["view"]["to_act"] == 0)
            moved = _until(ws, lambda m: m["seq"] > waiting["seq"])
            assert moved["seq"] == waiting["seq"] + 1
            assert "H0's time ran out" in moved["view"]["notices"][-1]
            assert not moved["view"]["seats"][0]["away"]


def test_nobody_is_taken_over_in_a_finished_game_but_after_a_rematch() -> None:
    """People who leave a finished game are not taken over (there is nothing to play: the table stays
    as the game ended); a rematch gives a seat nobody holds its grace period, then the computer plays it."""
    import asyncio

    from server_kit_async import Probe

    from hucklebuck.server.catalog import read_table_request
    from hucklebuck.server.config import ServerConfig
    from hucklebuck.server.manager import TableManager
    from hucklebuck.server.protocol import ClientMessage
    from hucklebuck.server.store import SQLiteStore

    async def run() -> None:
        config = ServerConfig(db=":memory:", bot_pause=0.0, deal_pause=0.0, grace=0.0)
        manager = TableManager(config, SQLiteStore(":memory:"))
        manager.start()
        try:
            body = {"game": "deerpark", "players": 4, "seats": kit.humans_and_bots(2, 2, "heuristic")}
            table, _tokens = manager.create(read_table_request(body, 24))
            people = [Probe(table, 0, human=True), Probe(table, 1, human=True)]
            for p in people:
                table.join(p)
            await asyncio.wait_for(people[0].done.wait(), kit.HANG)
            await kit.settle(lambda: not table.pending)
            over = table.seq
            for p in people:
                table.leave(p)  # both go (as when the page is closed)
            assert not table._grace and all(s.grace_until is None for s in table.seats)  # no countdown
            await kit.settle(lambda: not table.pending)
            assert table.seq == over and not any(s.away for s in table.seats)
            assert not any("dropped" in n for n in table.fields["notices"])
            back = Probe(table, 0, human=True)
            table.join(back)
            table.client_message(back, ClientMessage("rematch", None))
            await kit.settle(lambda: table.seats[1].away, "the takeover of the seat nobody holds")
            assert "H1's connection dropped" in table.fields["notices"][-1]
            await kit.settle(lambda: table.over, "the end of the second game")  # played out again
            assert table.fields["game_number"] == 2 and not back.errors
        finally:
            manager.close()

    asyncio.run(run())
