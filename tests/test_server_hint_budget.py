"""Hints have a budget of their own: strangers asking for hints at their tables never hold up
another table's computer seats, and hints past the budget are refused (busy), not queued."""

from __future__ import annotations

import json
import threading
import time
from typing import Any

import pytest

pytest.importorskip("starlette")

import server_kit as kit


def _my_turn(ws: Any) -> int:
    """Read states until it is seat 0's turn; its ``seq``."""
    while True:
        m = kit.receive_state(ws)
        if m["view"]["to_act"] == 0 and m["view"]["legal"]:
            return int(m["seq"])


def test_strangers_hints_never_hold_up_another_tables_computers() -> None:
    """Hints that never finish (a stand-in for a flood of costly ones) fill the hints' pool and
    its queue; one more is refused with busy; and meanwhile a table of computers plays on at
    its pace (before: hints shared the computers' two threads, and two stuck hints stopped
    every computer seat of the server)."""
    release = threading.Event()
    asked = threading.Semaphore(0)

    def stuck_hint(game: Any, seat: int) -> dict[str, Any]:
        asked.release()
        release.wait(600)  # (the test sets it as it ends, whatever happens)
        move = {"id": 0, "text": "-", "value": 0.0, "value_text": "-"}
        return {"type": "hint", "moves": [move], "best": 0, "why": "", "samples": 1}

    cfg = kit.config(bot_threads=2, hint_threads=1, hint_queue=2)
    with kit.client(cfg, hinter=stuck_hint) as c:
        try:
            theirs = [kit.new_table(c, "deerpark", kit.humans_and_bots(1, 3)) for _ in range(4)]
            socks = [c.websocket_connect(kit.ws_url(t, 0)) for t in theirs]
            for ws in socks:
                ws.__enter__()
                ws.send_text(json.dumps({"type": "hint", "seq": _my_turn(ws)}))
            assert asked.acquire(timeout=30)  # the first hint is being worked out (and never ends)
            # a table of computers plays on meanwhile
            table = kit.new_table(c, "hucklebuck", kit.humans_and_bots(0, 4, "random"))
            deadline = time.monotonic() + 60
            while True:
                summary = c.get(f"/api/tables/{table['id']}").json()
                if summary["seq"] >= 40 or summary["over"]:
                    break
                assert time.monotonic() < deadline, f"the computers' table is stuck at seq {summary['seq']}"
                time.sleep(0.02)
            # three hints are in the budget (one at work, two waiting); the fourth was refused at once
            m = kit.receive_type(socks[3], "error")
            assert m["code"] == "busy" and "other hints" in m["message"], m
        finally:
            release.set()
            for ws in socks:
                ws.__exit__(None, None, None)
