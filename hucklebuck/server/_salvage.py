"""Reading what can be read of a damaged SQLite table database (see
:meth:`hucklebuck.server.store.SQLiteStore._salvage`)."""

from __future__ import annotations

import sqlite3

__all__ = ["intact", "readable"]


def _ids(db: sqlite3.Connection, sql: str) -> tuple[list[str], bool]:
    """The first column of ``sql``'s rows as far as they can be read, and whether all could."""
    out: list[str] = []
    try:
        for (value,) in db.execute(sql):
            out.append(str(value))
    except sqlite3.DatabaseError:
        return out, False
    return out, True


def readable(
    db: sqlite3.Connection,
) -> tuple[list[tuple[object, ...]], list[tuple[object, ...]], dict[str, str], bool]:
    """What can be read of a damaged database: table rows, their move rows, the tables that cannot
    be read (id: why), and whether some ids could not be read at all.

    Ids are gathered along every way into the file (the table in both directions, its index,
    the moves' index), so one bad page hides as few of them as possible; then each table is read
    on its own, with its moves.  A table whose moves cannot all be read is lost, not rewound."""
    ids: dict[str, None] = {}
    complete = False
    for sql in (
        "SELECT id FROM tables",
        "SELECT id FROM tables ORDER BY rowid DESC",
        "SELECT id FROM tables ORDER BY id",
        "SELECT id FROM tables ORDER BY id DESC",
        "SELECT DISTINCT table_id FROM moves ORDER BY table_id",
        "SELECT DISTINCT table_id FROM moves ORDER BY table_id DESC",
    ):
        found, whole = _ids(db, sql)
        ids.update(dict.fromkeys(found))
        complete = complete or (whole and sql.startswith("SELECT id"))
    rows: list[tuple[object, ...]] = []
    moves: list[tuple[object, ...]] = []
    lost: dict[str, str] = {}
    for table_id in ids:
        try:
            row = db.execute(
                "SELECT id, created, seq, game, seats, tbl FROM tables WHERE id = ?", (table_id,)
            ).fetchone()
            if row is None:
                raise sqlite3.DatabaseError("its row is gone")
            later = db.execute(
                "SELECT table_id, seq, action FROM moves WHERE table_id = ?", (table_id,)
            ).fetchall()
        except sqlite3.DatabaseError:
            lost[table_id] = "its stored data is damaged"
            continue
        rows.append(tuple(row))
        moves.extend(tuple(m) for m in later)
    return rows, moves, lost, not complete


def intact(db: sqlite3.Connection) -> bool:
    """Whether SQLite finds the database file sound (``PRAGMA quick_check``)."""
    try:
        rows = db.execute("PRAGMA quick_check(1)").fetchall()
    except sqlite3.DatabaseError:
        return False
    return rows == [("ok",)]
