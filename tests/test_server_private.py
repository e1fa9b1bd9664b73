"""Tables are private by default: ``GET /api/tables`` (the lobby) lists only the tables whose
host chose "open to everyone", in both stores and after a restart; a private table is watched
with the watch link its host shares (its unguessable id), and nobody else learns of it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")

import server_kit as kit


def _listed(c: Any) -> list[str]:
    return [row["id"] for row in c.get("/api/tables").json()["tables"]]


def _check_listing(db: str) -> None:
    with kit.client(kit.config(db=db)) as c:
        private = kit.new_table(c, "deerpark", kit.humans_and_bots(1, 3))
        shut = kit.new_table(c, "deerpark", kit.humans_and_bots(1, 3), public=False)
        open_ = kit.new_table(c, "hucklebuck", kit.humans_and_bots(1, 3), public=True)
        assert (private["public"], shut["public"], open_["public"]) == (False, False, True)
        assert _listed(c) == [open_["id"]]
        assert c.get(f"/api/tables/{private['id']}").json()["public"] is False
        with c.websocket_connect(kit.ws_url(private)) as ws:  # its watch link still shows the game
            assert kit.receive_state(ws)["you"] is None
    with kit.client(kit.config(db=db)) as c:  # restarted on the same database: still private
        assert _listed(c) == [open_["id"]]
        assert c.get(f"/api/tables/{private['id']}").json()["public"] is False


def test_only_tables_open_to_everyone_are_listed_sqlite(tmp_path: Path) -> None:
    _check_listing(str(tmp_path / "tables.sqlite"))


def test_only_tables_open_to_everyone_are_listed_postgresql(pg_url: str) -> None:
    pytest.importorskip("psycopg")
    _check_listing(pg_url)


def test_public_must_be_true_or_false() -> None:
    with kit.client() as c:
        for bad in ("yes", 1, None, [True]):
            r = c.post("/api/tables", json={"game": "deerpark", "public": bad})
            assert r.status_code == 400, bad
            assert '"public" must be true' in r.json()["error"]["message"]
        assert _listed(c) == []
