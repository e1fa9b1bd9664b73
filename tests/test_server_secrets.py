"""Page headers on every answer, and the seat token kept out of addresses: it is offered as a
WebSocket subprotocol, the server answers with ``hucklebuck`` alone, and a token in the
address is refused."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette")

import server_kit as kit
from starlette.websockets import WebSocketDisconnect

from hucklebuck.server.guard import PAGE_HEADERS

EXPECTED = {
    "content-security-policy": "default-src 'self'; frame-ancestors 'none'",
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",
    "x-content-type-options": "nosniff",
}


def test_every_answer_carries_the_page_headers() -> None:
    assert {k.decode(): v.decode() for k, v in PAGE_HEADERS} == EXPECTED
    with kit.client() as c:
        t = kit.new_table(c, "deerpark", kit.humans_and_bots(1, 3))
        answers = [
            c.get("/"),
            c.get(f"/t/{t['id']}"),
            c.get("/static/table.js"),
            c.get("/static/style.css"),
            c.get("/cards/AS.svg"),
            c.get("/api/games"),
            c.get("/api/tables"),
            c.get(f"/api/tables/{t['id']}"),
            c.get("/api/tables/nosuchtable"),  # a refusal of the app
            c.post("/api/tables", content=b"{}", headers={"content-type": "text/plain"}),  # of the guard
            c.get("/", headers={"host": "evil.example"}),  # of the guard, before the app
        ]
        assert [a.status_code for a in answers[-3:]] == [404, 415, 421]
        for a in answers:
            got = {k: a.headers.get(k) for k in EXPECTED}
            assert got == EXPECTED, (a.request.url, got)


def test_the_seat_token_goes_in_the_subprotocol_header_never_in_the_address() -> None:
    with kit.client() as c:
        t = kit.new_table(c, "deerpark", kit.humans_and_bots(2, 2))
        token = t["seats"][1]["token"]
        offered = ["hucklebuck", f"hucklebuck.token.{token}"]
        with c.websocket_connect(f"/ws/tables/{t['id']}", subprotocols=offered) as ws:
            assert ws.accepted_subprotocol == "hucklebuck"  # never the token back
            assert kit.receive_state(ws)["you"] == 1
        with c.websocket_connect(f"/ws/tables/{t['id']}", subprotocols=["hucklebuck"]) as ws:
            assert ws.accepted_subprotocol == "hucklebuck"
            assert kit.receive_state(ws)["you"] is None  # no token: a spectator
        # in the address it is refused (and says where it goes), so no client comes to rely on it
        with c.websocket_connect(f"/ws/tables/{t['id']}?token={token}") as ws:
            err = kit.receive(ws)
            assert err["type"] == "error" and err["code"] == "bad_token"
            assert "never goes in the address" in err["message"]
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_text()
            assert closed.value.code == 4401
        with c.websocket_connect(
            f"/ws/tables/{t['id']}", subprotocols=["hucklebuck", "hucklebuck.token.x"]
        ) as ws:
            assert kit.receive(ws)["code"] == "bad_token"  # a wrong token, offered right: refused as ever
