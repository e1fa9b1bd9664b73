"""Every refusal of the table server: a specific error to that client alone,
and nothing changes (stale seq, illegal, out of turn, bad JSON, oversize,
flood, wrong token, wrong origin, a spectator acting, limits, bad tables)."""

from __future__ import annotations

from importlib.util import find_spec

import pytest

pytest.importorskip("starlette")
pytest.importorskip("jsonschema")

import server_kit as kit
from starlette.websockets import WebSocketDisconnect

from hucklebuck.cli.common import CliError, game_spec, parse_options
from hucklebuck.players import PLAYER_KINDS

pytestmark = pytest.mark.single_core


def _my_turn(ws: object) -> dict:
    m = kit.receive_state(ws)
    while m["view"]["to_act"] != 0:
        m = kit.receive_state(ws)
    return m


def _unchanged(c: object, t: dict, seq: int) -> None:
    assert c.get(f"/api/tables/{t['id']}").json()["seq"] == seq  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("message", "code"),
    [
        ("{not json", "bad_message"),
        ("[1, 2]", "bad_message"),
        ('{"type": "dance"}', "bad_message"),
        ('{"type": "act", "action": 3}', "bad_message"),
        ('{"type": "act", "seq": 0}', "bad_message"),
        ('{"type": "act", "seq": 0, "action": {"x": 1}}', "bad_message"),
    ],
)
def test_unreadable_messages_are_refused(message: str, code: str) -> None:
    with kit.client() as c:
        t = kit.new_table(c, "deerpark", kit.humans_and_bots(1, 3))
        with c.websocket_connect(kit.ws_url(t, 0)) as ws:
            m = _my_turn(ws)
            ws.send_text(message)
            err = kit.receive_type(ws, "error")
            assert err["code"] == code and err["seq"] == m["seq"]
            _unchanged(c, t, m["seq"])
            ws.send_json({"type": "act", "action": m["view"]["legal"][0]["id"], "seq": m["seq"]})
            assert kit.receive_state(ws)["seq"] > m["seq"]  # the connection still works


def test_stale_illegal_and_unreadable_moves_change_nothing() -> None:
    with kit.client() as c:
        t = kit.new_table(c, "hucklebuck", kit.humans_and_bots(1, 3))
        with c.websocket_connect(kit.ws_url(t, 0)) as ws:
            m = _my_turn(ws)
            seq, legal = m["seq"], m["view"]["legal"]
            for action, sent_seq, code in [
                (legal[0]["id"], seq - 1, "stale"),
                (legal[0]["id"], seq + 1, "stale"),
                (99_999, seq, "illegal"),
                ("hop skip", seq, "illegal"),
                ("0 bid 9", seq, "illegal"),
            ]:
                ws.send_json({"type": "act", "action": action, "seq": sent_seq})
                err = kit.receive_type(ws, "error")
                assert err["code"] == code, (action, err)
                assert err["message"] and "Error" not in err["message"]
            _unchanged(c, t, seq)
            again = c.websocket_connect(kit.ws_url(t, 0))
            with again as ws2:
                assert kit.receive_state(ws2)["view"]["hand"] == m["view"]["hand"]


def test_a_card_not_held_is_refused_in_words() -> None:
    with kit.client() as c:
        t = kit.new_table(c, "deerpark", kit.humans_and_bots(1, 3))
        with c.websocket_connect(kit.ws_url(t, 0)) as ws:
            m = _my_turn(ws)
            while m["view"]["phase"] != "play" or m["view"]["to_act"] != 0:
                if m["view"]["to_act"] == 0:
                    ws.send_json({"type": "act", "action": m["view"]["legal"][0]["id"], "seq": m["seq"]})
                m = kit.receive_state(ws)
            missing = next(
                code for code in ("2C", "9C", "9D", "9H", "9S", "TS", "AS") if code not in m["view"]["hand"]
            )
            ws.send_json({"type": "act", "action": f"play {missing}", "seq": m["seq"]})
            err = kit.receive_type(ws, "error")
            assert err["code"] == "illegal"
            _unchanged(c, t, m["seq"])


def test_out_of_turn_and_spectators_acting_are_refused() -> None:
    with kit.client() as c:
        t = kit.new_table(c, "deerpark", kit.humans_and_bots(2, 2))
        with (
            c.websocket_connect(kit.ws_url(t, 0)) as ws0,
            c.websocket_connect(kit.ws_url(t, 1)) as ws1,
            c.websocket_connect(kit.ws_url(t, None)) as spec,
        ):
            m = kit.receive_state(ws0)
            while m["view"]["to_act"] not in (0, 1):
                m = kit.receive_state(ws0)
            idle = ws1 if m["view"]["to_act"] == 0 else ws0
            idle.send_json({"type": "act", "action": 0, "seq": m["seq"]})
            assert kit.receive_type(idle, "error")["code"] == "not_your_turn"
            spec.send_json({"type": "act", "action": 0, "seq": m["seq"]})
            assert kit.receive_type(spec, "error")["code"] == "spectator"
            spec.send_json({"type": "hint", "seq": m["seq"]})
            assert kit.receive_type(spec, "error")["code"] == "spectator"
            _unchanged(c, t, m["seq"])


def test_an_oversize_message_gets_an_error_then_the_connection_closes() -> None:
    # (at the person's turn, with a grace longer than the test: nothing else moves the table, so
    # the state it stays at is the one the oversize move answered)
    with kit.client(kit.config(max_message=512, grace=60.0)) as c:
        t = kit.new_table(c, "deerpark", kit.humans_and_bots(1, 3))
        with c.websocket_connect(kit.ws_url(t, 0)) as ws:
            m = _my_turn(ws)
            ws.send_text(f'{{"type": "act", "seq": {m["seq"]}, "action": "' + "x" * 600 + '"}')
            assert kit.receive_type(ws, "error")["code"] == "too_large"
            with pytest.raises(WebSocketDisconnect) as closed:
                while True:
                    kit.receive(ws)
            assert closed.value.code == 1009
        _unchanged(c, t, m["seq"])


def test_a_flood_gets_an_error_then_the_connection_closes() -> None:
    with kit.client(kit.config(rate=2.0, burst=5)) as c:
        t = kit.new_table(c, "deerpark", kit.humans_and_bots(1, 3))
        with c.websocket_connect(kit.ws_url(t, 0)) as ws:
            kit.receive_state(ws)
            for _ in range(12):
                ws.send_text('{"type": "hint", "seq": -5}')
            codes = []
            with pytest.raises(WebSocketDisconnect) as closed:
                while True:
                    m = kit.receive(ws)
                    if m["type"] == "error":
                        codes.append(m["code"])
            assert codes[-1] == "rate_limited" and codes.count("rate_limited") == 1
            assert closed.value.code == 1008
        assert c.get("/api/games").status_code == 200  # the server is fine


def test_a_wrong_token_or_table_is_refused() -> None:
    with kit.client() as c:
        t = kit.new_table(c, "deerpark", kit.humans_and_bots(1, 3))
        for url, code, close in [
            (kit.seat_path(t["id"], "not-a-seat-token"), "bad_token", 4401),
            (kit.seat_path(t["id"], t["seats"][0]["token"][:-1]), "bad_token", 4401),
            ("/ws/tables/nosuchtable", "unknown_table", 4404),
        ]:
            with c.websocket_connect(url) as ws:
                err = kit.receive(ws)
                assert err["type"] == "error" and err["code"] == code
                with pytest.raises(WebSocketDisconnect) as closed:
                    ws.receive_text()
                assert closed.value.code == close
        assert c.get("/api/tables/nosuchtable").status_code == 404


def test_the_websocket_origin_must_be_the_servers_own_or_listed() -> None:
    cfg = kit.config(origins=("https://cards.example",))
    with kit.client(cfg) as c:
        t = kit.new_table(c, "deerpark", kit.humans_and_bots(1, 3))
        for origin in ("http://testserver", "https://cards.example"):
            with c.websocket_connect(kit.ws_url(t, 0), headers={"origin": origin}) as ws:
                assert kit.receive_state(ws)["you"] == 0
        for origin in ("http://evil.example", "null", "https://cards.example.evil"):
            with pytest.raises(WebSocketDisconnect) as refused:
                with c.websocket_connect(kit.ws_url(t, 0), headers={"origin": origin}) as ws:
                    ws.receive_text()
            assert refused.value.code == 1008


def test_table_and_connection_limits_refuse_clearly() -> None:
    with kit.client(kit.config(max_tables=1, max_connections=1)) as c:
        t = kit.new_table(c, "deerpark", kit.humans_and_bots(1, 3))
        r = c.post("/api/tables", json={"game": "deerpark"})
        assert r.status_code == 503 and r.json()["error"]["code"] == "full"
        with c.websocket_connect(kit.ws_url(t, 0)) as ws:
            kit.receive_state(ws)
            with c.websocket_connect(kit.ws_url(t, None)) as second:
                err = kit.receive(second)
                assert err["code"] == "busy"
                with pytest.raises(WebSocketDisconnect) as closed:
                    second.receive_text()
                assert closed.value.code == 1013


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("hucklebuck", {"target": 12}),
        ("hucklebuck", {"no_such_option": True}),
        ("hucklebuck", {"all_pass": "bogus"}),
        ("buckem", {"ante": "lots"}),
        ("deerpark", {"lock_at": "none", "first_lead": 3}),
    ],
)
def test_bad_options_get_the_command_lines_message(game: str, options: dict) -> None:
    items = [f"{k}={'true' if v is True else v}" for k, v in options.items()]
    with pytest.raises(CliError) as cli:
        parse_options(game_spec(game), items)
    expected = str(cli.value).removesuffix(f" (see: options {game})")
    with kit.client() as c:
        r = c.post("/api/tables", json={"game": game, "options": options})
        assert r.status_code == 400
        assert r.json()["error"] == {"code": "bad_request", "message": expected}


def test_options_are_those_hucklebuck_options_lists() -> None:
    with kit.client() as c:
        games = {g["name"]: g for g in c.get("/api/games").json()["games"]}
        for name, g in games.items():
            spec = game_spec(name)
            assert [o["name"] for o in g["options"]] == [i.name for i in spec.options_type.describe()]
            assert (g["players"]["min"], g["players"]["max"]) == spec.player_range
            # every kind make_player knows, each described in words, then the trained weights shipped
            # for this game (Deer Park Euchre's learned-dp4, offered where NumPy is installed)
            shipped = ["learned-dp4"] if name == "deerpark" and find_spec("numpy") else []
            assert [p["name"] for p in g["computer_players"]] == [*PLAYER_KINDS, *shipped]
            assert all(p["description"] for p in g["computer_players"])
        t = kit.new_table(
            c, "hucklebuck", kit.humans_and_bots(1, 4), options={"target": 11, "auction_reentry": "yes"}
        )
        opts = c.get(f"/api/tables/{t['id']}").json()["options"]
        assert opts["target"] == 11 and opts["auction_reentry"] is True


@pytest.mark.parametrize(
    "body",
    [
        {"game": "chess"},
        {"game": "deerpark", "players": 2, "seats": kit.humans_and_bots(1, 1)},
        {"game": "deerpark", "players": 4, "seats": kit.humans_and_bots(1, 2)},
        {"game": "deerpark", "players": 3, "seats": [{"kind": "robot"}] * 3},
        {"game": "deerpark", "players": 3, "seats": [{"kind": "computer", "player": "oracle"}] * 3},
        {"game": "deerpark", "players": 3, "seats": [{"kind": "human", "name": "x" * 25}] * 3},
        {"game": "deerpark", "players": 3, "seats": [{"kind": "human", "name": "a\x00b"}] * 3},
        {"game": "deerpark", "turn_timer": -1},
        {"game": "buckem", "hands": 0},
        [1, 2, 3],
    ],
)
def test_bad_tables_are_refused_in_words(body: object) -> None:
    with kit.client() as c:
        r = c.post("/api/tables", json=body)
        assert r.status_code == 400, r.text
        error = r.json()["error"]
        assert error["code"] == "bad_request" and error["message"]


def test_bad_bodies_are_refused() -> None:
    with kit.client() as c:
        json_type = {"Content-Type": "application/json"}
        assert c.post("/api/tables", content=b"{nope", headers=json_type).status_code == 400
        r = c.post("/api/tables", content=b"[" + b"1," * 40_000 + b"1]", headers=json_type)
        assert r.status_code == 413 and r.json()["error"]["code"] == "too_large"


def test_names_are_plain_text_sent_as_given() -> None:
    with kit.client() as c:
        name = '<b>Ann</b> & "Bo"'
        t = kit.new_table(c, "deerpark", [{"kind": "human", "name": name}] + kit.humans_and_bots(0, 2))
        with c.websocket_connect(kit.ws_url(t, 0)) as ws:
            assert kit.receive_state(ws)["view"]["seats"][0]["name"] == name


def test_one_hint_at_a_time_per_connection() -> None:
    import threading

    from hucklebuck.server.hints import hint_for

    release = threading.Event()

    def slow_hint(game: object, seat: int) -> dict:
        release.wait(kit.HANG)  # still being worked out until the second request has been refused
        return hint_for(game, seat, samples=20)  # type: ignore[arg-type]

    with kit.client(hinter=slow_hint) as c:
        t = kit.new_table(c, "deerpark", kit.humans_and_bots(1, 3))
        with c.websocket_connect(kit.ws_url(t, 0)) as ws:
            m = _my_turn(ws)
            ws.send_json({"type": "hint", "seq": m["seq"]})
            ws.send_json({"type": "hint", "seq": m["seq"]})
            assert kit.receive_type(ws, "error")["code"] == "busy"
            release.set()
            assert kit.receive_type(ws, "hint")["seq"] == m["seq"]


def test_a_finished_unwatched_table_makes_room_for_a_new_one() -> None:
    with kit.client(kit.config(max_tables=1)) as c:
        old = kit.new_table(c, "buckem", kit.humans_and_bots(0, 5), hands=1)
        with c.websocket_connect(kit.ws_url(old, None)) as ws:
            m = kit.receive_state(ws)
            while m["view"]["game_over"] is None:
                m = kit.receive_state(ws)
            r = c.post("/api/tables", json={"game": "deerpark"})
            assert r.status_code == 503  # someone is still watching it
        new = c.post("/api/tables", json={"game": "deerpark"})
        assert new.status_code == 201
        assert c.get(f"/api/tables/{old['id']}").status_code == 404


def test_a_seat_opened_twice_closes_the_older_connection_with_4001() -> None:
    with kit.client() as c:
        t = kit.new_table(c, "deerpark", kit.humans_and_bots(1, 3))
        with c.websocket_connect(kit.ws_url(t, 0)) as first:
            kit.receive_state(first)
            with c.websocket_connect(kit.ws_url(t, 0)) as second:
                assert kit.receive_state(second)["you"] == 0
                with pytest.raises(WebSocketDisconnect) as closed:
                    while True:
                        kit.receive(first)
                assert closed.value.code == 4001
                summary = c.get(f"/api/tables/{t['id']}").json()
                assert summary["seats"][0]["connected"] and not summary["seats"][0]["away"]


def test_no_internal_rule_tags_reach_people() -> None:
    import json
    import re

    with kit.client() as c:
        text = json.dumps(c.get("/api/games").json())
        assert not re.search(r"\bR\d+\b", text)
        assert "DEF #" in text  # the sources people can look up stay
