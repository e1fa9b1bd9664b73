"""A real PostgreSQL for the tests (:mod:`hucklebuck.bench.pgtemp`: Debian's server binaries,
a throw-away cluster in a temporary folder on a free loopback port, run as an unprivileged
user since PostgreSQL refuses to run as root).

``postgres_server`` (session-wide) starts it; ``pg_url`` gives each test a fresh,
empty database.  Where PostgreSQL or psycopg is not installed, the tests that need
them are skipped with the reason shown (``.ci/run`` installs both).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator

import pytest

from hucklebuck.bench.pgtemp import PgServer, fresh_database, start_postgres

__all__ = ["PgServer", "fresh_database", "pg_url", "postgres_server"]


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PgServer]:
    """A real PostgreSQL on loopback for the whole session (skipped, saying why, where it is missing)."""
    if shutil.which("runuser") is None and os.getuid() == 0:
        pytest.skip("runuser is missing: PostgreSQL cannot be started as an unprivileged user")
    pytest.importorskip("psycopg", reason="psycopg is not installed: pip install 'hucklebuck[postgres]'")
    try:
        server = start_postgres()
    except FileNotFoundError as exc:
        pytest.skip(str(exc))
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def pg_url(postgres_server: PgServer) -> str:
    """The URL of a fresh, empty database on the session's PostgreSQL."""
    return fresh_database(postgres_server)
