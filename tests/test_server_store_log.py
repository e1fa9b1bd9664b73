"""The SQLite store's write-ahead log file is written out once when the store opens, so that the
commits of a quiet server write into room it has rather than grow it (each sync of a grown file
puts its size on the disk too); counted in bytes, not timed."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from hucklebuck.server import store as store_module
from hucklebuck.server.store import SQLiteStore, StoredMove, StoredTable


def _moves(store: SQLiteStore, first: int, count: int) -> None:
    for seq in range(first, first + count):
        store.commit([], [StoredMove("a", seq, "0 play TH")])


def _killed_copy(path: Path, to: Path) -> Path:
    """The database and its log as a server killed now leaves them (no clean close)."""
    to.mkdir()
    for suffix in ("", "-wal"):
        shutil.copy(str(path) + suffix, str(to / path.name) + suffix)
    return to / path.name


def test_a_quiet_store_s_commits_do_not_grow_its_log(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite"
    store = SQLiteStore(str(path))
    try:
        store.commit([StoredTable("a", 0, "{}", "[]", "{}")], [])
        before = Path(str(path) + "-wal").stat().st_size
        _moves(store, 1, 300)  # (some 1.2 MiB of log pages)
        assert Path(str(path) + "-wal").stat().st_size == before
        assert before >= store_module.LOG_PREPARED
    finally:
        store.close()


def test_a_killed_store_s_prepared_log_restores_every_commit(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite"
    store = SQLiteStore(str(path))
    try:
        store.commit([StoredTable("a", 0, "{}", "[]", "{}")], [])
        _moves(store, 1, 50)
        copy = _killed_copy(path, tmp_path / "killed")
    finally:
        store.close()
    again = SQLiteStore(str(copy))
    try:
        (row,) = again.load_all()
        assert row.seq == 50 and row.moves == ("0 play TH",) * 50
    finally:
        again.close()


def test_the_log_is_written_out_past_its_own_pages_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A log longer than the room made when the store last opened (a server killed with moves
    logged past it) keeps every page when a store opens it and makes more room."""
    monkeypatch.setattr(store_module, "LOG_PREPARED", 16 * 1024)
    path = tmp_path / "t.sqlite"
    store = SQLiteStore(str(path))
    try:
        store.commit([StoredTable("a", 0, "{}", "[]", "{}")], [])
        _moves(store, 1, 60)
        assert Path(str(path) + "-wal").stat().st_size > 16 * 1024
        copy = _killed_copy(path, tmp_path / "killed")
    finally:
        store.close()
    monkeypatch.setattr(store_module, "LOG_PREPARED", 4 * 1024 * 1024)
    again = SQLiteStore(str(copy))
    try:
        assert Path(str(copy) + "-wal").stat().st_size >= 4 * 1024 * 1024
        (row,) = again.load_all()
        assert row.seq == 60 and len(row.moves) == 60
        _moves(again, 61, 5)
    finally:
        again.close()
    last = SQLiteStore(str(copy))
    try:
        (row,) = last.load_all()
        assert row.seq == 65
    finally:
        last.close()
