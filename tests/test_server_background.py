"""The server's background threads (computer players' thinking, hints, syncing the store's log)
run under Linux's ``SCHED_BATCH`` policy, so that waking them never takes the CPU from the event
loop (counted by the policy each thread holds, not timed)."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest

from hucklebuck.server import bots
from hucklebuck.server.store import SQLiteStore, StoredTable

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="the policy is Linux's (elsewhere nothing changes)"
)


def _policy() -> int:
    return os.sched_getscheduler(0)  # (0: the calling thread)


def test_the_thinking_and_hint_threads_give_way_to_the_event_loop() -> None:
    seats = bots.ComputerSeats(2, pause=0.8)
    try:
        assert seats._pool.submit(_policy).result(timeout=60) == os.SCHED_BATCH
        assert seats._hint_pool.submit(_policy).result(timeout=60) == os.SCHED_BATCH
    finally:
        seats.close()
    assert _policy() == os.SCHED_OTHER  # the caller's own thread (the event loop's) is left as it was


def test_the_store_s_log_thread_gives_way_to_the_event_loop(tmp_path: Path) -> None:
    store = SQLiteStore(str(tmp_path / "t.sqlite"))
    try:
        store.commit([StoredTable("a", 0, "{}", "[]", "{}")], [])
        thread = store._checkpointer
        assert thread is not None and thread.native_id is not None
        policy = os.sched_getscheduler(thread.native_id)
        for _ in range(6000):  # the thread sets it first thing: wait for that (the bound catches a hang)
            if policy == os.SCHED_BATCH:
                break
            time.sleep(0.01)
            policy = os.sched_getscheduler(thread.native_id)
        assert policy == os.SCHED_BATCH
    finally:
        store.close()
    assert _policy() == os.SCHED_OTHER
