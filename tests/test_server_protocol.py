"""The table protocol in process (Starlette's test client with WebSockets): whole
games of every game with computer seats and scripted people, spectators,
reconnecting, rematch and hints.  Every message received is checked against
its shipped JSON Schema (``server_kit.receive``)."""

from __future__ import annotations

import random
import time

import pytest

pytest.importorskip("starlette")
pytest.importorskip("jsonschema")

import itertools

import server_kit as kit

pytestmark = pytest.mark.single_core

GAMES = [("hucklebuck", 4, {}), ("buckem", 5, {"scare_cards": True}), ("deerpark", 4, {})]


@pytest.mark.parametrize(("game", "players", "options"), GAMES)
def test_two_people_and_the_computer_play_a_whole_game(game: str, players: int, options: dict) -> None:
    with kit.client() as c:
        body = {"options": options} | ({"hands": 4} if game == "buckem" else {})
        t = kit.new_table(c, game, kit.humans_and_bots(2, players - 2, "heuristic"), **body)
        assert [s["token"] is not None for s in t["seats"]] == [True, True] + [False] * (players - 2)
        assert all(len(s["token"]) >= 32 for s in t["seats"][:2])  # 24 random bytes or more
        with (
            c.websocket_connect(kit.ws_url(t, 0)) as ws0,
            c.websocket_connect(kit.ws_url(t, 1)) as ws1,
            c.websocket_connect(kit.ws_url(t, None)) as spectator,
        ):
            final = kit.play_out({0: ws0, 1: ws1}, rng=random.Random(players))
            assert final["view"]["game_over"] is not None
            assert final["you"] == 0
            views = []
            while True:  # the spectator saw the same game, without any hand
                m = kit.receive_state(spectator)
                assert m["you"] is None and m["view"]["hand"] == [] and m["view"]["legal"] == []
                views.append(m)
                if m["seq"] == final["seq"]:
                    break
            assert views[-1]["view"]["game_over"] == final["view"]["game_over"]
            assert [v["seq"] for v in views] == sorted(v["seq"] for v in views)
        summary = c.get(f"/api/tables/{t['id']}").json()
        assert summary["over"] and summary["winners"] == final["view"]["game_over"]["winners"]
        assert summary["seq"] == final["seq"]


def test_a_seat_link_opens_its_own_seat_only() -> None:
    with kit.client() as c:
        a = kit.new_table(c, "deerpark", kit.humans_and_bots(2, 2))
        b = kit.new_table(c, "deerpark", kit.humans_and_bots(1, 3))
        with c.websocket_connect(kit.ws_url(a, 1)) as ws:
            m = kit.receive_state(ws)
            assert m["you"] == 1
            assert m["view"]["hand"] and len(m["view"]["hand"]) == m["view"]["seats"][1]["cards"]
        wrong = kit.seat_path(b["id"], a["seats"][0]["token"])
        with c.websocket_connect(wrong) as ws:
            m = kit.receive(ws)
            assert m["type"] == "error" and m["code"] == "bad_token"


def test_reconnecting_gives_the_full_state_again() -> None:
    with kit.client() as c:
        t = kit.new_table(c, "hucklebuck", kit.humans_and_bots(1, 3, "heuristic"))
        with c.websocket_connect(kit.ws_url(t, 0)) as ws:
            m = kit.play_out({0: ws}, rng=random.Random(3), stop=lambda m: m["view"]["hand_number"] >= 2)
            while m["view"]["to_act"] != 0:
                m = kit.receive_state(ws)
        with c.websocket_connect(kit.ws_url(t, 0)) as ws:
            again = kit.receive_state(ws)
        assert again["seq"] == m["seq"]
        for key in ("hand", "legal", "log", "current_trick", "hand_number", "to_act", "face_up"):
            assert again["view"][key] == m["view"][key], key


def test_rematch_starts_a_new_game_with_the_same_seats() -> None:
    with kit.client() as c:
        t = kit.new_table(c, "buckem", kit.humans_and_bots(1, 4), hands=1)
        with c.websocket_connect(kit.ws_url(t, 0)) as ws:
            over = kit.play_out({0: ws}, rng=random.Random(1))
            ws.send_json({"type": "act", "action": 0, "seq": over["seq"]})
            assert kit.receive_type(ws, "error")["code"] == "game_over"
            ws.send_json({"type": "rematch"})
            m = kit.receive_state(ws)
            assert m["seq"] == over["seq"] + 1
            assert m["view"]["game_over"] is None and m["view"]["hand_number"] == 1
            assert "rematch" in m["view"]["notices"][-1]
            assert [s["name"] for s in m["view"]["seats"]] == [s["name"] for s in over["view"]["seats"]]


def test_rematch_before_the_end_is_refused() -> None:
    with kit.client() as c:
        t = kit.new_table(c, "deerpark", kit.humans_and_bots(1, 3))
        with c.websocket_connect(kit.ws_url(t, 0)) as ws:
            kit.receive_state(ws)
            ws.send_json({"type": "rematch"})
            assert kit.receive_type(ws, "error")["code"] == "not_over"


def test_a_hint_rates_every_legal_move() -> None:
    with kit.client() as c:
        t = kit.new_table(c, "deerpark", kit.humans_and_bots(1, 3))
        with c.websocket_connect(kit.ws_url(t, 0)) as ws:
            m = kit.receive_state(ws)
            while m["view"]["to_act"] != 0:
                m = kit.receive_state(ws)
            ws.send_json({"type": "hint", "seq": m["seq"]})
            hint = kit.receive_type(ws, "hint")
            legal = {x["id"] for x in m["view"]["legal"]}
            assert hint["seq"] == m["seq"] and hint["best"] in legal
            assert {x["id"] for x in hint["moves"]} == legal
            values = [x["value"] for x in hint["moves"]]
            assert values == sorted(values, reverse=True)


def test_computer_seats_wait_the_configured_pause() -> None:
    cfg = kit.config(bot_pause=0.15)
    with kit.client(cfg) as c:
        t = kit.new_table(c, "deerpark", kit.humans_and_bots(0, 3))
        with c.websocket_connect(kit.ws_url(t, None)) as ws:
            kit.receive_state(ws)
            times = []
            for _ in range(3):
                kit.receive_state(ws)
                times.append(time.monotonic())
        gaps = [b - a for a, b in itertools.pairwise(times)]
        assert all(g >= 0.1 for g in gaps), gaps
