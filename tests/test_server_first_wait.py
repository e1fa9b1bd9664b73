"""A seat nobody has opened yet (issue 58, point 3): the table shows its person as "not here
yet", waits the table's own, longer first wait (a lobby option) before the computer plays it,
and never says their connection dropped; once opened, a dropped connection waits the grace period."""

from __future__ import annotations

import time
from pathlib import Path

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


def test_an_unopened_seat_waits_the_first_wait_not_the_grace_period() -> None:
    with kit.client(kit.config(grace=0.1, bot_pause=0.01, first_wait=600.0)) as c:
        t = kit.new_table(c, "hucklebuck", kit.humans_and_bots(2, 2, "heuristic"))
        with c.websocket_connect(kit.ws_url(t, 0)) as ws:
            m = kit.receive_state(ws)
            ben = m["view"]["seats"][1]
            assert ben["opened"] is False and ben["connected"] is False
            assert 590 <= ben["grace_left"] <= 600  # the first wait, not the 0.1 s grace
            assert m["view"]["seats"][0]["opened"] is True and m["view"]["seats"][2]["opened"] is True
            time.sleep(0.5)  # five grace periods: an unopened seat is still waited for
            info = c.get(f"/api/tables/{t['id']}").json()
            assert info["seats"][1]["away"] is False


def test_the_table_asks_for_its_own_first_wait_and_the_takeover_says_not_here_yet() -> None:
    with kit.client(kit.config(grace=600.0, bot_pause=0.01)) as c:
        t = kit.new_table(c, "deerpark", kit.humans_and_bots(2, 2, "heuristic"), first_wait=0.2)
        with c.websocket_connect(kit.ws_url(t, 0)) as ws:
            taken = _until(ws, lambda m: m["view"]["seats"][1]["away"])
            notice = taken["view"]["notices"][-1]
            assert "H1 has not opened their link yet" in notice
            assert "dropped" not in notice
            with c.websocket_connect(kit.ws_url(t, 1)) as ben:  # Ben comes after all
                back = _until(ben, lambda m: not m["view"]["seats"][1]["away"])
                assert back["view"]["seats"][1]["opened"] is True


def test_an_opened_seat_that_drops_waits_the_grace_period_and_says_dropped() -> None:
    with kit.client(kit.config(grace=0.2, bot_pause=0.01, first_wait=600.0)) as c:
        t = kit.new_table(c, "deerpark", kit.humans_and_bots(2, 2, "heuristic"))
        with c.websocket_connect(kit.ws_url(t, 0)) as ws:
            with c.websocket_connect(kit.ws_url(t, 1)) as ben:
                kit.receive_state(ben)
            taken = _until(ws, lambda m: m["view"]["seats"][1]["away"])
            assert "H1's connection dropped" in taken["view"]["notices"][-1]


@pytest.mark.parametrize("bad", [0, -5, True, "ten", 86_401])
def test_a_bad_first_wait_is_refused_in_words(bad: object) -> None:
    with kit.client() as c:
        body = {"game": "hucklebuck", "players": 3, "seats": kit.humans_and_bots(1, 2), "first_wait": bad}
        r = c.post("/api/tables", json=body)
        assert r.status_code == 400
        assert '"first_wait" must be a number of seconds' in r.json()["error"]["message"]


def test_an_opened_seat_stays_opened_across_a_restart_with_no_other_change(tmp_path: Path) -> None:
    # Ben opens his link and nothing else happens at the table (the computer seats wait for the
    # person to act); the server restarts: Ben's seat must not wait the long first wait again.
    cfg = kit.config(db=str(tmp_path / "t.sqlite"), grace=600.0, first_wait=3600.0, bot_pause=0.01)
    with kit.client(cfg) as c:
        t = kit.new_table(c, "deerpark", kit.humans_and_bots(2, 2, "heuristic"))
        with c.websocket_connect(kit.ws_url(t, 0)) as ws:
            kit.receive_state(ws)
            with c.websocket_connect(kit.ws_url(t, 1)) as ben:
                kit.receive_state(ben)
                _until(ws, lambda m: m["view"]["seats"][1]["opened"])
    with kit.client(cfg) as c:
        info = c.get(f"/api/tables/{t['id']}").json()
        assert info["seats"][1]["opened"] is True and info["seats"][1]["away"] is False
        with c.websocket_connect(kit.ws_url(t, 0)) as ws:
            ben = kit.receive_state(ws)["view"]["seats"][1]
            assert ben["opened"] is True
            assert ben["grace_left"] is None or ben["grace_left"] <= 600  # the grace, not the first wait
