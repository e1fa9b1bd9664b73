"""Links that lead nowhere say what happened and what to do (issue 58, point 8): a table removed
to make room says its game existed and ended; a hint says its sample size once."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("jsonschema")

import server_kit as kit

pytestmark = pytest.mark.single_core


def test_a_forgotten_table_says_it_existed_and_ended() -> None:
    with kit.client(kit.config(max_tables=1)) as c:
        old = kit.new_table(c, "buckem", kit.humans_and_bots(0, 5), hands=1)
        with c.websocket_connect(kit.ws_url(old, None)) as ws:
            m = kit.receive_state(ws)
            while m["view"]["game_over"] is None:
                m = kit.receive_state(ws)
        assert c.post("/api/tables", json={"game": "deerpark"}).status_code == 201  # room made
        r = c.get(f"/api/tables/{old['id']}")
        assert r.status_code == 404
        assert "game is over" in r.json()["error"]["message"]
        with c.websocket_connect(kit.ws_url(old, None)) as ws:
            refusal = kit.receive_type(ws, "error")
            assert refusal["code"] == "unknown_table" and "removed it" in refusal["message"]
        never = c.get("/api/tables/no-such-table-at-all")
        assert never.status_code == 404 and "game is over" not in never.json()["error"]["message"]


def test_a_hint_names_its_sample_size_once() -> None:
    from hucklebuck.games import HucklebuckGame
    from hucklebuck.server.hints import hint_for

    game = HucklebuckGame(3, seed=4)
    answer = hint_for(game, game.to_act, samples=8)
    assert answer["samples"] == 8
    assert "8 sampled deals" not in answer["why"]  # the page says it once, from "samples"


@pytest.fixture(params=["sqlite", "postgres"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The table database of a test: a SQLite file, or a fresh PostgreSQL database."""
    if request.param == "postgres":
        url: str = request.getfixturevalue("pg_url")
        return url
    return str(tmp_path / "t.sqlite")


def test_a_forgotten_table_still_says_it_ended_after_a_restart(db: str) -> None:
    cfg = kit.config(db=db, max_tables=1)
    with kit.client(cfg) as c:
        old = kit.new_table(c, "buckem", kit.humans_and_bots(0, 5), hands=1)
        with c.websocket_connect(kit.ws_url(old, None)) as ws:
            m = kit.receive_state(ws)
            while m["view"]["game_over"] is None:
                m = kit.receive_state(ws)
        assert c.post("/api/tables", json={"game": "deerpark"}).status_code == 201  # room made
    with kit.client(cfg) as c:  # the server restarts: the removed table's id is still known
        r = c.get(f"/api/tables/{old['id']}")
        assert r.status_code == 404
        assert "game is over" in r.json()["error"]["message"], r.json()
        with c.websocket_connect(kit.ws_url(old, None)) as ws:
            refusal = kit.receive_type(ws, "error")
            assert refusal["code"] == "unknown_table" and "removed it" in refusal["message"]
        never = c.get("/api/tables/no-such-table-at-all")
        assert never.status_code == 404 and "game is over" not in never.json()["error"]["message"]


def test_the_store_keeps_only_the_newest_removed_ids(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from hucklebuck.games import DeerParkGame
    from hucklebuck.server import store as store_module
    from hucklebuck.server.store import SQLiteStore, StoredTable

    monkeypatch.setattr(store_module, "ENDED_KEPT", 3)
    s = SQLiteStore(str(tmp_path / "t.sqlite"))
    game = DeerParkGame(4, seed=1).to_json()
    for i in range(5):
        s.commit([StoredTable(f"t{i}", 1, game, "[]", "{}")], [])
        s.delete(f"t{i}")
    assert s.removed() == ["t2", "t3", "t4"] and s.load_all() == []
    s.close()
