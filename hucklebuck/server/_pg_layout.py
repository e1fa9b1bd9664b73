"""The PostgreSQL store's SQL text and its exceptions (needs ``hucklebuck[postgres]``).

Kept apart from :mod:`hucklebuck.server.store_postgres`, which uses them and makes the
public ones available under its own name too.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import psycopg

from .store import StoreError

__all__ = ["OutcomeUnknown", "TableBusy", "TableFull", "TableMoved", "describe_url"]

class TableMoved(StoreError):
    """The batch touched tables this process no longer owns (another took them over): nothing
    of it was stored.  ``table_ids`` names them."""

    def __init__(self, table_ids: Sequence[str]) -> None:
        """Refuse a batch for the tables ``table_ids``."""
        self.table_ids = tuple(table_ids)
        names = ", ".join(self.table_ids)
        super().__init__(f"table(s) {names} are played by another server now: the change was not stored")


class TableBusy(StoreError):
    """Another live process owns the table: ask again in a moment (it is handed over)."""


class OutcomeUnknown(StoreError):
    """The connection dropped while a batch was being committed: it may or may not have been
    stored (the database restarted, say).  Nobody may be told it was not; the server reloads the
    tables from the database instead."""


class TableFull(StoreError):
    """This process holds as many tables as it may (its ``bound``): the table was not made."""


def describe_url(url: str) -> str:
    """``database NAME on HOST:PORT`` for messages (never the password)."""
    try:
        info = psycopg.conninfo.conninfo_to_dict(url)
    except psycopg.ProgrammingError:
        return "the PostgreSQL database (the address could not be read)"
    host = info.get("host") or "localhost"
    port = info.get("port") or "5432"
    name = info.get("dbname") or info.get("user") or "postgres"
    return f"PostgreSQL database {name} on {host}:{port}"


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    line = text[0] if text else type(exc).__name__
    return line.removeprefix("connection failed: ").strip()


_SETUP_LOCK: Final = 7_204_518_136  # an advisory lock key: one process sets the layout up at a time

_LAYOUT: Final = (
    "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS tables (id TEXT PRIMARY KEY, created DOUBLE PRECISION NOT NULL, "
    "seq BIGINT NOT NULL, game TEXT NOT NULL, seats TEXT NOT NULL, tbl TEXT NOT NULL, "
    "owner TEXT, epoch BIGINT NOT NULL DEFAULT 1, wanted TEXT)",
    "CREATE TABLE IF NOT EXISTS moves (table_id TEXT NOT NULL, seq BIGINT NOT NULL, "
    "action TEXT NOT NULL, epoch BIGINT NOT NULL DEFAULT 0, PRIMARY KEY (table_id, seq))",
    "CREATE TABLE IF NOT EXISTS nodes (id TEXT PRIMARY KEY, started DOUBLE PRECISION NOT NULL, "
    "expires TIMESTAMPTZ NOT NULL)",
    "CREATE INDEX IF NOT EXISTS tables_owner ON tables (owner)",
)

_ENDED: Final = "CREATE TABLE IF NOT EXISTS ended (id TEXT PRIMARY KEY, at DOUBLE PRECISION NOT NULL)"
"""The ids of tables removed to make room, so that their links say the game existed and ended."""

_SUMMARY: Final = (
    "ALTER TABLE tables ADD COLUMN IF NOT EXISTS claimed DOUBLE PRECISION",
    "ALTER TABLE tables ADD COLUMN IF NOT EXISTS kind TEXT",
    "ALTER TABLE tables ADD COLUMN IF NOT EXISTS players INTEGER",
    "ALTER TABLE tables ADD COLUMN IF NOT EXISTS over BOOLEAN NOT NULL DEFAULT false",
    "UPDATE tables SET kind = game::jsonb ->> 'game', players = jsonb_array_length(seats::jsonb), "
    "over = coalesce(jsonb_typeof(tbl::jsonb -> 'game_over'), 'null') <> 'null' WHERE kind IS NULL",
    "CREATE INDEX IF NOT EXISTS tables_created ON tables (created DESC)",
    "ALTER TABLE tables ADD COLUMN IF NOT EXISTS listed BOOLEAN NOT NULL DEFAULT false",
    "UPDATE tables SET listed = true WHERE tbl::jsonb -> 'public' = 'true'::jsonb AND NOT listed",
    "CREATE INDEX IF NOT EXISTS tables_listed ON tables (created DESC) WHERE listed",
)
"""Added to a database made before the hand-over hold and the listing's summary columns (once: a
process that finds them there runs none of this, so its start locks nothing the others use)."""

_MOVES_ONLY: Final = (
    b"WITH d AS MATERIALIZED (SELECT %(batch)s::jsonb AS j), "
    b"want AS MATERIALIZED (SELECT e.key AS id, e.value::bigint AS epoch "
    b"FROM d, jsonb_each_text(d.j->'e') AS e), "
    b"ok AS (SELECT t.id, t.owner, t.epoch FROM tables t WHERE t.id = ANY(ARRAY(SELECT id FROM want)) "
    b"ORDER BY t.id FOR UPDATE), "
    b"n AS (SELECT count(*) AS c FROM ok JOIN want w ON w.id = ok.id AND w.epoch = ok.epoch "
    b"WHERE ok.owner = %(node)s), "
    b"go AS (SELECT (SELECT c FROM n) = (SELECT count(*) FROM want) AS yes), "
    b"ins AS (INSERT INTO moves (table_id, seq, action, epoch) "
    b"SELECT m.t, m.s, m.a, (d.j->'e'->>m.t)::bigint "
    b"FROM d, jsonb_to_recordset(d.j->'m') AS m(t text, s bigint, a text) "
    b"WHERE (SELECT yes FROM go)), "
    b"upd AS (UPDATE tables SET tbl = f.value, over = coalesce(jsonb_typeof(f.value::jsonb->'game_over'), "
    b"'null') <> 'null' FROM d, jsonb_each_text(d.j->'f') AS f "
    b"WHERE tables.id = f.key AND (SELECT yes FROM go)) "
    b"SELECT c FROM n"
)
"""Moves (and the table fields some of them carry) in one statement, written only if every
table's row, locked, still names the writer and its epoch.

The batch is one JSON parameter (``e``: each table's epoch, ``m``: the moves, ``f``: the
fields by table): one value for the driver to send instead of a list per column, and a
statement whose generic plan PostgreSQL keeps (every row is found by its key: the tables'
rows through their primary key, whatever the number of tables), so that once prepared it
is neither planned again nor parsed again."""

_NODE_KEY: Final = "hashtextextended('hucklebuck-node:' || %s, 0)"
