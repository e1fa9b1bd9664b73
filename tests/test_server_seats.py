"""Seats that change hands: the computer takes a person's seat after the grace
period and hands it back when they return; the turn timer; both announced."""

from __future__ import annotations

import time

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
                    time.sleep(0.3)  # nobody plays for a person who is here
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
