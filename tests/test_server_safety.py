"""The table server against strangers, in process: sizes checked before anything is built,
no table created by another site's page (Origin, Sec-Fetch-Site, a JSON body), no request for
another host name (DNS rebinding), connects limited per address and per seat, presence sent
coalesced, a fresh table's people taken over after the grace period, the database private, and
malformed messages (deep JSON, a seat that does not exist, a message over the limit in bytes)
answered with the documented error while nothing else changes."""

from __future__ import annotations

import asyncio
import json
import os
import stat
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("jsonschema")

import server_kit as kit
from starlette.websockets import WebSocketDisconnect

import hucklebuck.server.catalog as catalog
from hucklebuck.server.config import ServerConfig
from hucklebuck.server.manager import TableManager
from hucklebuck.server.protocol import ClientMessage
from hucklebuck.server.store import SQLiteStore

pytestmark = pytest.mark.single_core

JSON = {"Content-Type": "application/json"}


def _tables(c: Any) -> int:
    return len(c.app_ref.state.manager.tables)


# ------------------------------------------------------------- point 2: sizes first


@pytest.mark.parametrize(
    "body",
    [
        {"game": "hucklebuck", "players": 3_000_000},
        {"game": "deerpark", "players": 10**9, "seats": [{"kind": "human"}] * 3000},
        {"game": "buckem", "players": -5},
        {"game": "buckem", "hands": 10**12},
        {"game": "deerpark", "options": {f"x{i}": 1 for i in range(500)}},
    ],
)
def test_sizes_are_checked_before_anything_is_built(
    body: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    built: list[object] = []
    real = catalog.SeatRequest

    def counted(*args: Any) -> object:
        built.append(args)
        assert len(built) <= 8, "seats were built for a player count outside the game's range"
        return real(*args)

    monkeypatch.setattr(catalog, "SeatRequest", counted)
    with kit.client() as c:
        r = c.post("/api/tables", json=body)
        assert r.status_code == 400, r.text
        assert r.json()["error"]["code"] == "bad_request"
        assert len(built) <= 8 and _tables(c) == 0


def test_an_infinite_turn_timer_is_refused() -> None:
    with kit.client() as c:
        body = b'{"game": "deerpark", "turn_timer": Infinity}'
        r = c.post("/api/tables", content=body, headers=JSON)
        assert r.status_code == 400 and "turn_timer" in r.json()["error"]["message"]
        assert _tables(c) == 0


# ------------------------------------------------- points 3 and 4: origin, host, JSON


def test_a_cross_site_simple_post_creates_no_table() -> None:
    body = json.dumps({"game": "deerpark"})
    with kit.client() as c:
        for headers, status, code in [
            ({"Content-Type": "text/plain"}, 415, "not_json"),  # a no-cors "simple" POST
            ({}, 415, "not_json"),
            ({"Content-Type": "application/x-www-form-urlencoded"}, 415, "not_json"),
            (JSON | {"Origin": "https://evil.example"}, 403, "forbidden"),
            (JSON | {"Origin": "null"}, 403, "forbidden"),
            (JSON | {"Sec-Fetch-Site": "cross-site"}, 403, "forbidden"),
            (JSON | {"Sec-Fetch-Site": "same-site"}, 403, "forbidden"),
        ]:
            r = c.post("/api/tables", content=body, headers=headers)
            assert r.status_code == status, (headers, r.text)
            error = r.json()["error"]
            assert error["code"] == code and "Error" not in error["message"], error
        assert _tables(c) == 0
        own = JSON | {"Origin": "http://testserver", "Sec-Fetch-Site": "same-origin"}
        assert c.post("/api/tables", content=body, headers=own).status_code == 201
        assert c.post("/api/tables", content=body, headers=JSON).status_code == 201  # not a browser
        assert _tables(c) == 2


def test_an_origin_given_with_origin_may_create_tables() -> None:
    cfg = kit.config(origins=("https://cards.example",))
    with kit.client(cfg) as c:
        headers = JSON | {"Origin": "https://cards.example", "Sec-Fetch-Site": "cross-site"}
        assert c.post("/api/tables", json={"game": "deerpark"}, headers=headers).status_code == 201
        r = c.post(
            "/api/tables", json={"game": "deerpark"}, headers=JSON | {"Origin": "https://other.example"}
        )
        assert r.status_code == 403


def test_a_request_for_another_host_name_is_refused() -> None:
    """DNS rebinding: a page of evil.example, its name pointed at this server, sends its own
    name as Host and Origin; the server does not answer to that name."""
    with kit.client() as c:
        t = kit.new_table(c, "deerpark", kit.humans_and_bots(1, 3))
        evil = {"Host": "evil.example:8000", "Origin": "http://evil.example:8000"}
        r = c.post("/api/tables", json={"game": "deerpark"}, headers=JSON | evil)
        assert r.status_code == 421 and r.json()["error"]["code"] == "wrong_host"
        for path in ("/", "/api/games", f"/api/tables/{t['id']}"):
            r = c.get(path, headers={"Host": "evil.example:8000"})
            assert r.status_code == 421, path
        with pytest.raises(WebSocketDisconnect), c.websocket_connect(kit.ws_url(t, 0), headers=evil) as ws:
            ws.receive_text()
        assert _tables(c) == 1
        for host in ("127.0.0.1:8000", "[::1]:8000", "localhost:8000", "testserver"):
            assert c.get("/api/games", headers={"Host": host}).status_code == 200, host
        twice = [("host", "testserver"), ("host", "evil.example")]
        assert c.get("/api/games", headers=twice).status_code == 421


def test_a_name_given_with_hostname_is_answered() -> None:
    with kit.client(kit.config(hostnames=("cards.example",))) as c:
        assert c.get("/api/games", headers={"Host": "cards.example"}).status_code == 200
        assert c.get("/api/games", headers={"Host": "cards.example.evil"}).status_code == 421


# --------------------------------------------- point 5: connects limited, presence coalesced


def test_reconnecting_a_seat_in_a_loop_is_limited() -> None:
    cfg = kit.config(seat_connect_burst=3, seat_connect_rate=0.01)
    with kit.client(cfg) as c:
        t = kit.new_table(c, "deerpark", kit.humans_and_bots(2, 2))
        for _ in range(3):
            with c.websocket_connect(kit.ws_url(t, 1)) as ws:
                assert kit.receive_state(ws)["type"] == "state"
        with c.websocket_connect(kit.ws_url(t, 1)) as ws:
            err = kit.receive(ws)
            assert err["type"] == "error" and err["code"] == "rate_limited", err
        with c.websocket_connect(kit.ws_url(t, 0)) as ws:  # another seat is not held up
            assert kit.receive_state(ws)["type"] == "state"


def test_connecting_in_a_loop_from_one_address_is_limited() -> None:
    cfg = kit.config(connect_burst=4, connect_rate=0.01)
    with kit.client(cfg) as c:
        t = kit.new_table(c, "deerpark", kit.humans_and_bots(1, 3))
        for _ in range(4):
            with c.websocket_connect(kit.ws_url(t)) as ws:
                kit.receive_state(ws)
        with c.websocket_connect(kit.ws_url(t)) as ws:
            assert kit.receive(ws)["code"] == "rate_limited"


def test_presence_changes_are_sent_coalesced() -> None:
    """One person reconnecting in a loop: the others get a state per pause, not per connection."""

    async def run() -> tuple[int, int, dict[str, Any]]:
        cfg = ServerConfig(db=":memory:", bot_pause=0.0, deal_pause=0.0, grace=60.0, presence_pause=0.3)
        manager = TableManager(cfg, SQLiteStore(":memory:"))
        manager.start()
        try:
            body = {"game": "deerpark", "players": 4, "seats": kit.humans_and_bots(2, 2)}
            table, _tokens = manager.create(catalog.read_table_request(body, 24))

            def waiting_for_a_person() -> bool:  # the computer seats have moved: nothing else changes
                seat = table.game.to_act
                return seat is not None and table.seats[seat].kind == "human" and not table.pending

            await kit.settle(waiting_for_a_person, "a person's turn")
            watcher = kit.Recorder(0)
            table.join(watcher)
            first = kit.Recorder(1)  # the seat's first opening is stored (and sent) at once
            table.join(first)
            table.leave(first)
            await kit.settle(lambda: not table.pending and table._presence_timer is None, "the seats stored")
            before = len(watcher.texts)
            for _ in range(200):
                looper = kit.Recorder(1)
                table.join(looper)
                table.leave(looper)
            table.join(kit.Recorder(1))  # and stays
            during = len(watcher.texts) - before
            assert table._presence_timer is not None  # the changes wait for the end of the pause
            await kit.settle(lambda: table._presence_timer is None, "the state at the end of the pause")
            last = json.loads(watcher.texts[-1])
            return during, len(watcher.texts) - before, last
        finally:
            manager.close()

    during, total, last = asyncio.run(run())
    assert during <= 1 and total <= 3, (during, total)
    assert last["view"]["seats"][1]["connected"] is True  # the last word is right


# --------------------------------------------------- point 6: grace from table start


def test_a_fresh_tables_unopened_seat_is_taken_over_after_its_first_wait() -> None:
    # an unopened seat waits the first wait (issue 58), a dropped one the grace period
    with kit.client(kit.config(grace=600.0, first_wait=0.2)) as c:
        t = kit.new_table(c, "deerpark", kit.humans_and_bots(1, 3))
        deadline = time.monotonic() + kit.HANG
        summary = c.get(f"/api/tables/{t['id']}").json()
        while not summary["seats"][0]["away"] and time.monotonic() < deadline:
            time.sleep(0.05)
            summary = c.get(f"/api/tables/{t['id']}").json()
        assert summary["seats"][0]["away"], summary
        while summary["seq"] < 5 and time.monotonic() < deadline:  # the computer plays the seat
            time.sleep(0.05)
            summary = c.get(f"/api/tables/{t['id']}").json()
        assert summary["seq"] >= 5
        with c.websocket_connect(kit.ws_url(t, 0)) as ws:  # and the person gets it back
            m = kit.receive_state(ws)
            while m["view"]["seats"][0]["away"]:
                m = kit.receive_state(ws)


def test_a_seat_opened_within_the_grace_period_is_not_taken_over() -> None:
    with kit.client(kit.config(grace=kit.HANG)) as c:  # (opened well within it, however busy the machine)
        t = kit.new_table(c, "deerpark", kit.humans_and_bots(1, 3))
        table = c.app_ref.state.manager.tables[t["id"]]
        assert 0 in table._grace  # the grace period runs from the table's start
        with c.websocket_connect(kit.ws_url(t, 0)) as ws:
            kit.receive_state(ws)
            assert 0 not in table._grace and table.seats[0].grace_until is None  # and stops when opened
            assert not c.get(f"/api/tables/{t['id']}").json()["seats"][0]["away"]


# --------------------------------------------------- point 10: a private database


def test_the_database_and_its_log_files_are_private(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        db = tmp_path / "t.sqlite"
        with kit.client(kit.config(db=str(db))) as c:
            kit.new_table(c, "deerpark", kit.humans_and_bots(1, 3))
            for name in (db, Path(f"{db}-wal"), Path(f"{db}-shm")):
                assert name.exists(), name
                assert stat.S_IMODE(name.stat().st_mode) == 0o600, (name, oct(name.stat().st_mode))
        loose = tmp_path / "loose.sqlite"
        SQLiteStore(str(loose)).close()
        os.chmod(loose, 0o644)
        SQLiteStore(str(loose)).close()  # one made by an older version is made private too
        assert stat.S_IMODE(loose.stat().st_mode) == 0o600
    finally:
        os.umask(old)


# ------------------------------------------------------ point 11: malformed messages


def test_deeply_nested_json_over_http_is_a_bad_request() -> None:
    with kit.client() as c:
        for body in (b"[" * 50_000, b'{"game": ' * 7_000, b"[" * 5000 + b"]" * 5000):
            r = c.post("/api/tables", content=body, headers=JSON)
            assert r.status_code == 400, r.text
            assert r.json()["error"]["code"] == "bad_request"
        assert _tables(c) == 0


def _my_turn(ws: Any) -> dict[str, Any]:
    m = kit.receive_state(ws)
    while m["view"]["to_act"] != 0:
        m = kit.receive_state(ws)
    return m


@pytest.mark.parametrize(
    ("make", "code"),
    [
        (lambda seq: "[" * 3000, "bad_message"),  # nested past what JSON may be read to, under 4,096 bytes
        (
            lambda seq: f'{{"type": "act", "seq": {seq}, "action": ' + "[" * 2000 + "]" * 2000 + "}",
            "bad_message",
        ),
        (lambda seq: json.dumps({"type": "act", "seq": seq, "action": "9 play TH"}), "illegal"),
        (lambda seq: json.dumps({"type": "act", "seq": seq, "action": "-1 play TH"}), "illegal"),
        (lambda seq: json.dumps({"type": "act", "seq": seq, "action": "4 bid 3"}), "illegal"),
    ],
)
def test_malformed_messages_get_the_documented_error_and_change_nothing(make: Any, code: str) -> None:
    with kit.client() as c:
        t = kit.new_table(c, "deerpark", kit.humans_and_bots(1, 3))
        with c.websocket_connect(kit.ws_url(t, 0)) as ws:
            m = _my_turn(ws)
            ws.send_text(make(m["seq"]))
            err = kit.receive_type(ws, "error")
            assert err["code"] == code and err["seq"] == m["seq"], err
            assert "Error" not in err["message"] and "Traceback" not in err["message"], err
            assert c.get(f"/api/tables/{t['id']}").json()["seq"] == m["seq"]
            ws.send_json({"type": "act", "action": m["view"]["legal"][0]["id"], "seq": m["seq"]})
            assert kit.receive_state(ws)["seq"] == m["seq"] + 1  # the connection still plays


def test_the_message_limit_counts_bytes_not_characters() -> None:
    with kit.client() as c:
        t = kit.new_table(c, "deerpark", kit.humans_and_bots(1, 3))
        with c.websocket_connect(kit.ws_url(t, 0)) as ws:
            m = _my_turn(ws)
            text = json.dumps({"type": "act", "seq": m["seq"], "action": "\u2665" * 1400}, ensure_ascii=False)
            assert len(text) < 4096 < len(text.encode())
            ws.send_text(text)
            assert kit.receive_type(ws, "error")["code"] == "too_large"
            with pytest.raises(WebSocketDisconnect):
                while True:
                    ws.receive_text()
        with c.websocket_connect(kit.ws_url(t, 0)) as ws:  # just under the limit in bytes: read
            m = _my_turn(ws)
            text = json.dumps(
                {"type": "act", "seq": m["seq"], "action": "x", "pad": "\u2665" * 1300}, ensure_ascii=False
            )
            assert len(text.encode()) < 4096
            ws.send_text(text)
            assert kit.receive_type(ws, "error")["code"] == "illegal"


def test_serve_refuses_an_unbounded_rate_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from hucklebuck.cli import main

    for words in (["--rate", "inf"], ["--rate", "nan"], ["--rate", "0"], ["--rate", "1e400"],
                  ["--grace", "inf"], ["--request-timeout", "0"], ["--connect-rate", "-1"]):  # fmt: skip
        with pytest.raises(SystemExit) as stop:
            main(["serve", "--port", "0", "--db", str(tmp_path / "x.sqlite"), *words])
        out = capsys.readouterr()
        assert stop.value.code == 2, words
        assert len(out.err.strip().splitlines()) == 1, out.err
        assert "Traceback" not in out.err and words[0] in out.err, out.err
    assert not (tmp_path / "x.sqlite").exists()


def test_a_message_that_cannot_be_handled_is_answered_and_the_handler_goes_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The whole class of point 11: whatever a message makes a table raise, the client gets an
    error, the operator a line, and the connection and the table carry on."""
    from hucklebuck.server.tables import ServerTable

    lines: list[str] = []
    real = ServerTable.client_message

    def boom(self: ServerTable, conn: Any, message: ClientMessage) -> None:
        if message.type == "hint":
            raise KeyError("surprise")
        real(self, conn, message)

    monkeypatch.setattr(ServerTable, "client_message", boom)
    with kit.client(report=lines.append) as c:
        t = kit.new_table(c, "deerpark", kit.humans_and_bots(1, 3))
        with c.websocket_connect(kit.ws_url(t, 0)) as ws:
            m = _my_turn(ws)
            ws.send_json({"type": "hint", "seq": m["seq"]})
            assert kit.receive_type(ws, "error")["code"] == "illegal"
            ws.send_json({"type": "act", "action": m["view"]["legal"][0]["id"], "seq": m["seq"]})
            assert kit.receive_state(ws)["seq"] == m["seq"] + 1
    assert any("could not be handled" in line for line in lines), lines
