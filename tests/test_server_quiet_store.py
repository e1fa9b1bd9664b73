"""A quiet server's store does the least a commit needs: a commit of a few moves does not look
at the log's size, and the checkpoint thread puts a little log on the disk rather than copying
it into the database each time (counted, not timed; the CPU itself is measured by
``python -m hucklebuck.bench server``)."""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from hucklebuck.server import store as store_module
from hucklebuck.server.store import SQLiteStore, StoredMove, StoredTable


def _until(test: Callable[[], bool], what: str) -> None:
    """Wait until ``test()`` holds (the store's thread works meanwhile); fails only on a hang.
    (No server here: the store alone, so these tests run where the server's extra is missing.)"""
    deadline = time.monotonic() + 120
    while not test():
        assert time.monotonic() < deadline, f"{what} never came"
        time.sleep(0.001)


class _Counted:
    """A connection whose checkpoints that copy the log (``PASSIVE``) are counted."""

    copies = 0

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def execute(self, sql: str, *args: Any) -> Any:
        if "wal_checkpoint(PASSIVE)" in sql:
            type(self).copies += 1
        return self._db.execute(sql, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._db, name)


def test_a_commit_of_a_few_moves_does_not_look_at_the_log_s_size(tmp_path: Path) -> None:
    """Reading the log's size is a system call, costly at a quiet server: moves alone are
    counted instead (generously), and the size is read after whole tables or once the count
    could pass the limit."""
    store = SQLiteStore(str(tmp_path / "t.sqlite"))
    looks: list[str] = []
    real = store.wal_bytes

    def counted() -> int:
        looks.append(threading.current_thread().name)
        return real()

    store.wal_bytes = counted  # type: ignore[method-assign]
    try:
        store.commit([StoredTable("a", 0, "{}", "[]", "{}")], [])
        assert threading.main_thread().name in looks  # whole tables: looked at
        looks.clear()
        for seq in range(1, 40):
            store.commit([], [StoredMove("a", seq, "0 play TH", '{"x": 1}' if seq % 9 == 0 else None)])
        assert threading.main_thread().name not in looks
        store.commit([StoredTable("b", 0, "{}", "[]", "{}")], [])
        store.delete("b")  # (its moves deleted: any number of pages logged)
        looks.clear()
        store.commit([], [StoredMove("a", 40, "0 play TH")])
        assert threading.main_thread().name in looks
    finally:
        store.close()


def test_moves_that_could_pass_the_limit_make_the_writer_look(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The count of what may have been logged brings the writer to read the size (and truncate
    the log) before it can be over the limit unseen."""
    monkeypatch.setattr(store_module, "WAL_LIMIT", 64 * 1024)
    path = str(tmp_path / "t.sqlite")
    store = SQLiteStore(path)
    try:
        store.commit([StoredTable("a", 0, "{}", "[]", "{}")], [])
        peak = 0
        for seq in range(1, 3000):
            store.commit([], [StoredMove("a", seq, f"0 play TH {'x' * 200}")])
            peak = max(peak, store.wal_bytes())
        assert peak <= 2 * store_module.WAL_LIMIT, peak
    finally:
        store.close()


def test_a_quiet_store_syncs_a_little_log_and_copies_it_once_more_is_logged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After a small write the thread's round syncs the log (as a checkpoint would first) and
    copies nothing; once a mebibyte may have been logged, a round copies it into the database."""
    monkeypatch.setattr(store_module, "CHECKPOINT_EVERY", 0.02)
    real_connect = sqlite3.connect
    monkeypatch.setattr(sqlite3, "connect", lambda *a, **kw: _Counted(real_connect(*a, **kw)))
    syncs = [0]
    real_sync = os.fdatasync

    def sync(fd: int) -> None:
        syncs[0] += 1
        real_sync(fd)

    monkeypatch.setattr(os, "fdatasync", sync)
    _Counted.copies = 0
    store = SQLiteStore(str(tmp_path / "t.sqlite"))
    try:
        store.commit([StoredTable("a", 0, "{}", "[]", "{}")], [])
        _until(lambda: not store._written.is_set() and syncs[0] > 0, "the first round")
        copies, synced = _Counted.copies, syncs[0]
        for seq in range(1, 4):
            store.commit([], [StoredMove("a", seq, "0 play TH")])
            _until(lambda s=synced: syncs[0] > s, "the sync after a write")
            synced = syncs[0]
        assert _Counted.copies == copies, "a little log was copied into the database"
        many = store_module.COPY_AFTER // 4096 // 4 + 1  # (a move counts as 4 pages)
        store.commit([], [StoredMove("a", 4 + i, "0 play TH") for i in range(many)])
        _until(lambda: _Counted.copies > copies, "the copy once more is logged")
    finally:
        store.close()


@pytest.mark.skipif(not hasattr(os, "fdatasync"), reason="the log is synced with fdatasync")
def test_the_checkpoint_thread_opens_the_log_once_and_pauses_without_an_event_wait(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each round of the store's thread used to open and close the log file for its sync, and to
    pause on an event with a timeout (Python's condition code, run cold each round).  Now the
    file is opened once for every sync, closed with the store, and the pause is a lock's wait."""
    monkeypatch.setattr(store_module, "CHECKPOINT_EVERY", 0.02)
    path = str(tmp_path / "t.sqlite")
    opened: list[int] = []
    closed: list[int] = []
    timed_waits = [0]
    syncs = [0]
    real_open, real_close, real_sync, real_wait = os.open, os.close, os.fdatasync, threading.Event.wait

    def counted_open(name: Any, *args: Any, **kwargs: Any) -> int:
        fd = real_open(name, *args, **kwargs)
        if str(name).endswith("-wal"):
            opened.append(fd)
        return fd

    def counted_close(fd: int) -> None:
        if fd in opened:
            closed.append(fd)
        real_close(fd)

    def counted_sync(fd: int) -> None:
        syncs[0] += 1
        real_sync(fd)

    def counted_wait(self: threading.Event, timeout: float | None = None) -> bool:
        if timeout is not None and threading.current_thread().name == "hucklebuck-checkpoint":
            timed_waits[0] += 1
        return real_wait(self, timeout)

    monkeypatch.setattr(os, "open", counted_open)
    monkeypatch.setattr(os, "close", counted_close)
    monkeypatch.setattr(os, "fdatasync", counted_sync)
    monkeypatch.setattr(threading.Event, "wait", counted_wait)
    store = SQLiteStore(path)
    try:
        store.commit([StoredTable("a", 0, "{}", "[]", "{}")], [])
        for seq in range(1, 6):
            synced = syncs[0]
            store.commit([], [StoredMove("a", seq, "0 play TH")])
            _until(lambda s=synced: syncs[0] > s, "the sync after a write")
        assert syncs[0] >= 5
        assert len(opened) == 1, f"the log was opened {len(opened)} times for {syncs[0]} syncs"
        assert timed_waits[0] == 0, f"{timed_waits[0]} timed event waits between rounds"
    finally:
        store.close()
    assert store._checkpointer is not None and not store._checkpointer.is_alive()
    assert closed == opened  # (no file left open)
