"""A throw-away PostgreSQL for the benchmarks and the tests: Debian's server binaries
(``apt-get install postgresql``), a fresh cluster in a temporary folder, listening on a free
loopback port only, with trust authentication, run as an unprivileged user (PostgreSQL
refuses to run as root: as root, the system user ``hbtest`` is created once).  For the
tests it runs with ``fsync = off`` (a crash of the machine may lose it, a killed process
may not); the benchmarks start it ``durable``, with the settings the server documentation
advises (:data:`ADVISED`): every commit on disk before it returns."""

from __future__ import annotations

import glob
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass

__all__ = ["ADVISED", "USER", "PgServer", "fresh_database", "start_postgres"]

USER = "hbtest"
"""The unprivileged user PostgreSQL runs as when the tests run as root."""


def _bin_dir() -> str | None:
    for found in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if os.path.exists(os.path.join(found, "initdb")):
            return found
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@dataclass
class PgServer:
    """A running throw-away PostgreSQL cluster."""

    port: int
    folder: str
    bin: str
    run_as: list[str]
    user: str

    def url(self, db: str = "postgres") -> str:
        """A connection URL for database ``db``."""
        return f"postgresql://{self.user}@127.0.0.1:{self.port}/{db}"

    def pids(self) -> list[int]:
        """The cluster's processes now: the postmaster first, then its children (backends,
        writers, checkpointer...)."""
        try:
            with open(f"{self.folder}/data/postmaster.pid", encoding="ascii") as f:
                main = int(f.readline())
        except (OSError, ValueError):
            return []
        children = []
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                try:
                    with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as f:
                        if int(f.read().rsplit(")", 1)[1].split()[1]) == main:
                            children.append(int(entry))
                except (OSError, ValueError, IndexError):
                    continue
        return [main, *children]

    def admin(self, sql: str) -> None:
        """Run ``sql`` on the ``postgres`` database (autocommit)."""
        import psycopg

        with psycopg.connect(self.url(), autocommit=True) as con:
            con.execute(sql.encode())

    def restart(self) -> None:
        """Stop the cluster at once, as a crash would (``immediate``: no checkpoint, every
        connection cut), and start it again on the same port; returns once it accepts connections."""
        data = f"{self.folder}/data"
        subprocess.run(
            [*self.run_as, f"{self.bin}/pg_ctl", "-D", data, "-m", "immediate", "-w", "stop"],
            capture_output=True,
            check=False,
        )
        done = subprocess.run(
            [*self.run_as, f"{self.bin}/pg_ctl", "-D", data, "-l", f"{self.folder}/log", "-w", "-t", "120",
             "start"],
            capture_output=True,
            text=True,
            check=False,
        )  # fmt: skip
        if done.returncode != 0:
            raise RuntimeError(f"PostgreSQL did not start again: {done.stderr.strip()}")

    def stop(self) -> None:
        """Stop the cluster at once and remove its folder."""
        subprocess.run(
            [*self.run_as, f"{self.bin}/pg_ctl", "-D", f"{self.folder}/data", "-m", "immediate", "stop"],
            capture_output=True,
            check=False,
        )
        shutil.rmtree(self.folder, ignore_errors=True)


_names = itertools.count()


ADVISED: tuple[str, ...] = (
    "synchronous_commit = on",  # the default: a commit is on disk when the server is told so
    "fsync = on",
    "full_page_writes = on",
)
"""The settings ``docs/server.rst`` advises for the table database that matter here (as
``postgresql.conf`` lines); none of them trades durability for speed."""


def start_postgres(*, durable: bool = False) -> PgServer:
    """Start a fresh cluster (raises ``RuntimeError`` with the log if it cannot); ``durable``:
    with the advised settings (:data:`ADVISED`) instead of the tests' ``fsync = off``."""
    bindir = _bin_dir()
    if bindir is None:
        raise FileNotFoundError("PostgreSQL's server binaries are not installed (apt-get install postgresql)")
    folder = tempfile.mkdtemp(prefix="hb-pg-")
    run_as: list[str] = []
    user = pwd.getpwuid(os.getuid()).pw_name
    if os.getuid() == 0:
        try:
            pwd.getpwnam(USER)
        except KeyError:
            subprocess.run(["useradd", "--system", "--no-create-home", USER], check=True, capture_output=True)
        shutil.chown(folder, USER, USER)
        run_as = ["runuser", "-u", USER, "--"]
        user = USER
    port = _free_port()
    data = f"{folder}/data"
    subprocess.run(
        [*run_as, f"{bindir}/initdb", "-D", data, "-U", user, "--auth=trust", "-E", "UTF8", "--no-sync"],
        check=True,
        capture_output=True,
    )
    fast = ("fsync = off", "full_page_writes = off")  # a test database: see the module docstring
    settings = [
        "listen_addresses = '127.0.0.1'",
        f"port = {port}",
        f"unix_socket_directories = '{folder}'",
        *(ADVISED if durable else fast),
        "max_connections = 200",
        "shared_buffers = 32MB",
    ]
    with open(f"{data}/postgresql.conf", "a", encoding="utf-8") as f:
        f.write("\n".join(settings) + "\n")
    done = subprocess.run(
        [*run_as, f"{bindir}/pg_ctl", "-D", data, "-l", f"{folder}/log", "-w", "-t", "60", "start"],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        log = open(f"{folder}/log", encoding="utf-8", errors="replace").read()
        shutil.rmtree(folder, ignore_errors=True)
        raise RuntimeError(f"PostgreSQL did not start: {done.stderr}\n{log}")
    return PgServer(port, folder, bindir, run_as, user)


def fresh_database(server: PgServer) -> str:
    """Create an empty database on ``server``; its URL."""
    name = f"t{os.getpid()}_{next(_names)}_{int(time.time() * 1000) % 100000}"
    server.admin(f"CREATE DATABASE {name}")
    return server.url(name)
