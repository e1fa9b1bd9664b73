"""The table server answers its pages and API and plays a whole game over a WebSocket."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette")

from server_kit import client, humans_and_bots, new_table, receive_state, ws_url

pytestmark = pytest.mark.single_core


def test_pages_and_games_listing() -> None:
    with client() as c:
        assert c.get("/").status_code == 200
        assert c.get("/t/anything").status_code == 200
        assert c.get("/static/no-such-file.js").status_code == 404
        assert c.get("/static/../app.py").status_code == 404
        games = c.get("/api/games").json()["games"]
        assert [g["name"] for g in games] == ["hucklebuck", "buckem", "deerpark"]


def test_one_person_plays_a_whole_game_against_the_computer() -> None:
    with client() as c:
        t = new_table(c, "deerpark", humans_and_bots(1, 3))
        with c.websocket_connect(ws_url(t, 0)) as ws:
            while True:
                m = receive_state(ws)
                view = m["view"]
                if view["game_over"]:
                    break
                if view["to_act"] == 0 and view["legal"]:
                    ws.send_json({"type": "act", "action": view["legal"][0]["id"], "seq": m["seq"]})
        summary = c.get(f"/api/tables/{t['id']}").json()
        assert summary["over"] and summary["winners"] == view["game_over"]["winners"]


def test_importing_hucklebuck_never_loads_the_server_stack() -> None:
    import subprocess
    import sys

    code = (
        "import sys, hucklebuck, hucklebuck.cli, hucklebuck.server, hucklebuck.server.config;"
        "from hucklebuck.cli import build_parser; build_parser();"
        "top = {m.split('.')[0] for m in sys.modules};"
        "print(sorted(top & {'starlette', 'uvicorn', 'websockets', 'anyio'}))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_tune_gc_freezes_the_start_up_objects_and_makes_full_collections_rare() -> None:
    import gc

    from server_kit import config

    from hucklebuck.server.app import GC_THRESHOLDS

    before = gc.get_threshold()
    try:
        with client(config(tune_gc=True)):
            assert gc.get_threshold() == GC_THRESHOLDS
            assert GC_THRESHOLDS[2] > before[2] and gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)
    with client():  # off unless asked for (hucklebuck serve asks for it)
        assert gc.get_threshold() == before and gc.get_freeze_count() == 0
