"""Opening the table store that ``--db`` names: a SQLite file (the default), or a PostgreSQL
database (``postgresql://USER@HOST/DB``, needs ``hucklebuck[postgres]``) that several server
processes may share.  psycopg is imported only for a PostgreSQL address."""

from __future__ import annotations

from .store import SQLiteStore, Store, StoreError

__all__ = ["POSTGRES_HINT", "is_database_url", "open_store"]

POSTGRES_HINT = "pip install 'hucklebuck[postgres]'"
"""How to install what a PostgreSQL table database needs."""


def is_database_url(db: str) -> bool:
    """Whether ``db`` is a PostgreSQL address rather than a file."""
    return db.startswith(("postgresql://", "postgres://"))


def open_store(db: str) -> Store:
    """The store ``db`` names; :class:`~hucklebuck.server.store.StoreError` (one line) if it
    cannot be used."""
    if not is_database_url(db):
        return SQLiteStore(db)
    try:
        from .store_postgres import PostgresStore
    except ImportError:
        raise StoreError(f"a PostgreSQL table database needs psycopg: {POSTGRES_HINT}") from None
    return PostgresStore(db)
