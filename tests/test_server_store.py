"""The table store: SQLite in WAL mode behind a small interface; every accepted
action is stored before anyone is told; a table that cannot be restored is
reported by its id and never stops the server.  Every test runs against both
stores: a SQLite file and a real PostgreSQL database (``pg_kit``)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("jsonschema")

import server_kit as kit

from hucklebuck.games import DeerParkGame
from hucklebuck.server.storage import is_database_url, open_store
from hucklebuck.server.store import DEAL, SCHEMA_VERSION, StoredMove, StoredTable, StoreError

pytestmark = pytest.mark.single_core


@pytest.fixture(params=["sqlite", "postgres"])
def db(request: Any, tmp_path: Path) -> str:
    """The table database of a test: a SQLite file, or a fresh PostgreSQL database."""
    if request.param == "postgres":
        url: str = request.getfixturevalue("pg_url")
        return url
    return str(tmp_path / "t.sqlite")


def sql(db: str, query: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Run one statement on the database behind the server's back (``?`` placeholders)."""
    if is_database_url(db):
        import psycopg

        with psycopg.connect(db, autocommit=True) as con:
            cur = con.execute(query.replace("?", "%s").encode(), params)
            return cur.fetchall() if cur.description else []
    with sqlite3.connect(db) as con:
        return con.execute(query, params).fetchall()


def test_the_store_round_trips_and_sqlite_uses_wal(db: str) -> None:
    store = open_store(db)
    row = StoredTable("abc", 3, DeerParkGame(4, seed=1).to_json(), "[]", "{}")
    store.commit([row], [])
    store.commit([StoredTable("abc", 4, row.game, "[]", '{"x": 1}')], [])
    store.close()
    if not is_database_url(db):
        assert sql(db, "PRAGMA journal_mode")[0][0] == "wal"
    again = open_store(db)
    assert again.load_all() == [StoredTable("abc", 4, row.game, "[]", '{"x": 1}')]
    again.commit([], [StoredMove("abc", 5, "1 pass"), StoredMove("abc", 6, "2 pass")])
    assert again.load_all()[0].moves == ("1 pass", "2 pass") and again.load_all()[0].seq == 6
    again.commit([], [StoredMove("abc", 7, "3 pass", '{"x": 2}'), StoredMove("abc", 8, DEAL)])
    assert again.load_all()[0].moves == ("1 pass", "2 pass", "3 pass", DEAL)
    assert again.load_all()[0].table == '{"x": 2}'  # a move that ends a hand rewrites the table's fields
    again.commit([StoredTable("abc", 7, row.game, "[]", "{}")], [])
    assert again.load_all()[0].moves == ()  # a whole snapshot replaces the moves before it
    again.delete("abc")
    assert again.load_all() == []
    again.close()


def test_a_database_of_another_version_is_refused(db: str) -> None:
    open_store(db).close()
    sql(db, "UPDATE meta SET value = ? WHERE key = 'version'", (str(SCHEMA_VERSION + 1),))
    with pytest.raises(StoreError, match="another version of hucklebuck"):
        open_store(db)


def test_a_database_of_the_first_version_is_read_and_marked_as_the_current_one(db: str) -> None:
    store = open_store(db)
    store.commit([StoredTable("abc", 0, DeerParkGame(4, seed=1).to_json(), "[]", "{}")], [])
    store.close()
    sql(db, "UPDATE meta SET value = '1' WHERE key = 'version'")
    again = open_store(db)
    assert [row.id for row in again.load_all()] == ["abc"]
    again.close()
    assert sql(db, "SELECT value FROM meta WHERE key = 'version'")[0][0] == str(SCHEMA_VERSION)


class RecordingStore:
    """A store that remembers the last seq it committed, and can be made to fail."""

    def __init__(self, db: str) -> None:
        self.inner = open_store(db)
        self.saved = -1
        self.fail = False

    def __getattr__(self, name: str) -> Any:  # a shared store's ownership calls go to the real one
        return getattr(self.inner, name)

    def load_all(self) -> list[StoredTable]:
        return self.inner.load_all()

    def commit(self, tables: list[StoredTable], moves: list[StoredMove]) -> None:
        if self.fail:
            raise StoreError("the disk is full")
        self.inner.commit(tables, moves)
        self.saved = max([self.saved, *(t.seq for t in tables), *(m.seq for m in moves)])

    def delete(self, table_id: str) -> None:
        self.inner.delete(table_id)

    def close(self) -> None:
        self.inner.close()


def test_every_state_is_stored_before_it_is_sent_and_a_failed_store_changes_nothing(db: str) -> None:
    store = RecordingStore(db)
    reports: list[str] = []
    with kit.client(store=store, report=reports.append) as c:
        t = kit.new_table(c, "deerpark", kit.humans_and_bots(1, 3))
        with c.websocket_connect(kit.ws_url(t, 0)) as ws:
            m = kit.receive_state(ws)
            for _ in range(40):
                assert m["seq"] <= store.saved  # the client never hears of a state not yet stored
                if m["view"]["to_act"] == 0:
                    break
                m = kit.receive_state(ws)
            assert m["view"]["to_act"] == 0
            store.fail = True
            ws.send_json({"type": "act", "action": m["view"]["legal"][0]["id"], "seq": m["seq"]})
            err = kit.receive_type(ws, "error")
            assert err["code"] == "busy"
            assert reports and "the disk is full" in reports[-1]
            assert kit.receive_state(ws)["seq"] == m["seq"]  # everyone gets the unchanged state again
            store.fail = False
            ws.send_json({"type": "act", "action": m["view"]["legal"][0]["id"], "seq": m["seq"]})
            after = kit.receive_state(ws)
            assert after["seq"] == m["seq"] + 1 and store.saved >= after["seq"]


def test_a_table_that_cannot_be_restored_is_reported_by_id(db: str) -> None:
    with kit.client(kit.config(db=db)) as c:
        good = kit.new_table(c, "deerpark", kit.humans_and_bots(1, 3))
        bad = kit.new_table(c, "hucklebuck", kit.humans_and_bots(1, 3))
        worse = kit.new_table(c, "buckem", kit.humans_and_bots(1, 4))
    game = json.loads(sql(db, "SELECT game FROM tables WHERE id = ?", (bad["id"],))[0][0])
    first = game["hands"][0]["deal"]["hands"][0]
    first[0] = first[1]  # one card dealt twice (a fixed card could be the one already there)
    sql(db, "UPDATE tables SET game = ? WHERE id = ?", (json.dumps(game), bad["id"]))
    sql(db, "UPDATE tables SET seats = 'not json' WHERE id = ?", (worse["id"],))
    reports: list[str] = []
    with kit.client(kit.config(db=db), report=reports.append) as c:
        for broken in (bad, worse):  # (a shared database's tables are read at their first request)
            r = c.get(f"/api/tables/{broken['id']}")
            assert r.status_code == 409 and r.json()["error"]["code"] == "unrestorable"
        assert any(bad["id"] in r and "cannot be restored" in r for r in reports), reports
        assert any(worse["id"] in r for r in reports), reports
        with c.websocket_connect(kit.ws_url(good, 0)) as ws:
            assert kit.receive_state(ws)["you"] == 0  # the others play on


# The restart tests give a person a long grace period: with the tests' short one, a loaded machine
# could let the computer move for the person between their leaving and the restart, and the table
# would rightly come back one move further on.
PATIENT = 60.0


def test_a_restart_resumes_every_table_with_the_same_cards_and_seq(db: str) -> None:
    cfg = kit.config(db=db, grace=PATIENT)
    with kit.client(cfg) as c:
        t = kit.new_table(c, "hucklebuck", kit.humans_and_bots(1, 3))
        with c.websocket_connect(kit.ws_url(t, 0)) as ws:
            m = kit.receive_state(ws)
            while m["view"]["to_act"] != 0:
                m = kit.receive_state(ws)
    with kit.client(cfg) as c, c.websocket_connect(kit.ws_url(t, 0)) as ws:
        again: dict[str, Any] = kit.receive_state(ws)
    assert again["seq"] == m["seq"]
    assert again["view"]["hand"] == m["view"]["hand"] and again["view"]["legal"] == m["view"]["legal"]


def test_a_restart_after_deals_and_ended_hands_resumes_the_same_state(db: str) -> None:
    # Deals and the moves that end a hand are stored as small rows (not the whole game): a restart
    # replays them to the same cards, the same scoring lines of the last hand and the same seq.
    cfg = kit.config(db=db, grace=PATIENT)
    with kit.client(cfg) as c:
        t = kit.new_table(c, "deerpark", kit.humans_and_bots(1, 3))
        with c.websocket_connect(kit.ws_url(t, 0)) as ws:
            m = kit.receive_state(ws)
            while m["view"]["hand_number"] < 3 or m["view"]["to_act"] != 0:
                if m["view"]["to_act"] == 0:
                    ws.send_json({"type": "act", "action": m["view"]["legal"][0]["id"], "seq": m["seq"]})
                m = kit.receive_state(ws)
    actions = [a for (a,) in sql(db, "SELECT action FROM moves WHERE table_id = ?", (t["id"],))]
    assert DEAL in actions  # the deals since the table was created are rows of their own
    with kit.client(cfg) as c, c.websocket_connect(kit.ws_url(t, 0)) as ws:
        again: dict[str, Any] = kit.receive_state(ws)
    assert again["seq"] == m["seq"]
    for key in ("hand", "legal", "hand_number", "last_hand", "seats", "log"):
        assert again["view"][key] == m["view"][key], key


def test_the_table_listing_shows_every_stored_table_open_to_everyone(db: str) -> None:
    with kit.client(kit.config(db=db)) as c:
        made = [
            kit.new_table(c, g, kit.humans_and_bots(1, n), public=True)
            for g, n in (("deerpark", 3), ("buckem", 4))
        ]
        kit.new_table(c, "deerpark", kit.humans_and_bots(1, 3))  # private: never listed
        listed = c.get("/api/tables").json()["tables"]
    assert [t["id"] for t in listed] == [made[1]["id"], made[0]["id"]]  # newest first
    described = [(t["game"], t["players"], t["over"]) for t in listed]
    assert described == [("buckem", 5, False), ("deerpark", 4, False)]
