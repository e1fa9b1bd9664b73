"""``hucklebuck serve``: the table server, where friends sit down together online
and the computer takes any empty seat (needs the extra ``hucklebuck[server]``)."""

from __future__ import annotations

import argparse
import errno
import logging
import math
import os
import re
import signal
import socket
import sys
from typing import Any

from ..players import PLAYER_KINDS
from .common import CliError, positive_int

__all__ = ["register", "run"]

INSTALL_HINT = "pip install 'hucklebuck[server]'"
MAX_RATE = 1_000_000
"""Largest ``--rate`` and ``--connect-rate`` (a number of messages or connections a second)."""


DESCRIPTION = """\
Run the table server: people create tables in the browser (or through the HTTP
API), share one secret link per seat, and the computer plays every empty seat.
Tables live in a SQLite file (or a PostgreSQL database that several servers
share) and survive a restart exactly where they were.

examples:
  hucklebuck serve                              http://127.0.0.1:8000/
  hucklebuck serve --port 9000 --db games.sqlite
  hucklebuck serve --host 0.0.0.0 --origin https://cards.example.org
  hucklebuck serve --db postgresql://cards@db.example.org/tables   (several servers, one database)
  hucklebuck serve --learned dp4=run/final.npz  (a trained policy for computer seats, named dp4)
"""


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0 <= value < math.inf:
        raise argparse.ArgumentTypeError(f"must be a number of seconds, 0 or more, not {text}")
    return value


def _timeout(text: str) -> float:
    value = _seconds(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be a number of seconds above 0, not {text}")
    return value


def _rate(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0 < value <= MAX_RATE:
        raise argparse.ArgumentTypeError(f"must be a number above 0 and at most {MAX_RATE}, not {text}")
    return value


def _offer(text: str) -> tuple[str, str]:
    from ..server.learned import LearnedOfferError, parse_offer

    try:
        return parse_offer(text)
    except LearnedOfferError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _port(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number") from None
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 0 to 65535, not {value}")
    return value


def register(subparsers: Any) -> None:
    """Add the ``serve`` subcommand."""
    from ..server.config import DEFAULT_DB, ServerConfig

    d = ServerConfig()
    p = subparsers.add_parser(
        "serve",
        help="run the online table server (needs hucklebuck[server])",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=_port, default=8000, help="port to listen on (default 8000)")
    p.add_argument(
        "--db",
        default=DEFAULT_DB,
        metavar="PATH",
        help=f"the table database: a SQLite file (default ./{DEFAULT_DB}) or a PostgreSQL address "
        "postgresql://USER@HOST/DB that several servers share (needs hucklebuck[postgres])",
    )
    p.add_argument(
        "--grace",
        type=_seconds,
        default=d.grace,
        metavar="SECONDS",
        help=f"wait this long after a person's connection drops before the computer plays "
        f"their seat (default {d.grace:g})",
    )
    p.add_argument(
        "--first-wait",
        type=_seconds,
        default=d.first_wait,
        metavar="SECONDS",
        help=f"wait this long for a person who has not opened their seat link yet before the computer "
        f"plays their seat, unless their table asks for another wait (default {d.first_wait:g})",
    )
    p.add_argument(
        "--bot-pause",
        type=_seconds,
        default=d.bot_pause,
        metavar="SECONDS",
        help=f"pause before each computer move (default {d.bot_pause:g})",
    )
    p.add_argument(
        "--deal-pause",
        type=_seconds,
        default=d.deal_pause,
        metavar="SECONDS",
        help=f"pause between hands (default {d.deal_pause:g})",
    )
    p.add_argument(
        "--origin",
        action="append",
        default=[],
        metavar="URL",
        help="another origin whose pages may open tables (repeatable; the server's own always may)",
    )
    p.add_argument(
        "--hostname",
        action="append",
        default=[],
        metavar="NAME",
        help="a name the server is reached by (repeatable; its IP addresses, localhost and the hosts "
        "of --origin always are); a request for any other name is refused",
    )
    p.add_argument(
        "--max-tables",
        type=positive_int,
        default=d.max_tables,
        metavar="N",
        help=f"most tables at once (default {d.max_tables})",
    )
    p.add_argument(
        "--tables-per-address",
        type=positive_int,
        default=d.tables_per_address,
        metavar="N",
        help=f"tables created from one address that may be in play at once (default {d.tables_per_address})",
    )
    p.add_argument(
        "--create-rate",
        type=_rate,
        default=d.create_rate * 60,
        metavar="N",
        help=f"tables a minute one address may create on average, {d.create_burst} at once "
        f"(default {d.create_rate * 60:g})",
    )
    p.add_argument(
        "--max-computer-tables",
        type=positive_int,
        default=d.max_computer_tables,
        metavar="N",
        help=f"tables with nobody at them that may be in play at once (default {d.max_computer_tables}); "
        f"their Buck 'Em sessions last at most {d.computer_hands} rounds",
    )
    p.add_argument(
        "--max-connections",
        type=positive_int,
        default=d.max_connections,
        metavar="N",
        help=f"most connections at once, HTTP and WebSocket (default {d.max_connections}, "
        "lowered below the limit of open files)",
    )
    p.add_argument(
        "--request-timeout",
        type=_timeout,
        default=d.request_timeout,
        metavar="SECONDS",
        help=f"time a client has to send a whole HTTP request (default {d.request_timeout:g})",
    )
    p.add_argument(
        "--connect-rate",
        type=_rate,
        default=d.connect_rate,
        metavar="N",
        help=f"WebSocket connections a second one address may open on average (default {d.connect_rate:g})",
    )
    p.add_argument(
        "--takeover-player",
        choices=PLAYER_KINDS,
        default=d.takeover_player,
        help=f"the computer player that sits in for an absent person (default {d.takeover_player})",
    )
    p.add_argument(
        "--learned",
        action="append",
        default=[],
        type=_offer,
        metavar="NAME=PATH",
        help="offer the trained policy in the checkpoint PATH (of python -m hucklebuck.learn; needs "
        "hucklebuck[learn]) for computer seats, listed in the lobby as NAME (repeatable); each file is "
        "checked at start-up",
    )
    p.add_argument(
        "--rate",
        type=_rate,
        default=d.rate,
        metavar="N",
        help=f"messages a second one connection may send on average (default {d.rate:g})",
    )
    p.add_argument(
        "--bot-threads",
        type=positive_int,
        default=d.bot_threads,
        metavar="N",
        help=f"threads the computer players think in (default {d.bot_threads})",
    )
    p.set_defaults(run=run)


class _Redact(logging.Filter):
    """Keeps seat tokens out of the server's log lines."""

    _TOKEN = re.compile(r"(token=|hucklebuck\.token\.)[^&\s\"',]*")

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if "token=" in message or "hucklebuck.token." in message:
            record.msg = self._TOKEN.sub(r"\1[hidden]", message)
            record.args = ()
        return True


def _resumed_line(app: Any, db: str, shown: str | None = None) -> str:
    """What a restart found: how many stored tables it resumed, and where the database is
    (``shown``: how to name a database that is not a file, never with its password)."""
    from ..server.storage import is_database_url

    if shown is None and is_database_url(db):  # the address as given (never its password), not a path
        from ..server.store_postgres import describe_url

        shown = f"the {describe_url(db)}"
    where = shown if shown is not None else db if db == ":memory:" else os.path.abspath(db)
    tables = getattr(getattr(app.state, "manager", None), "tables", {})
    n = len(tables)
    if not n:
        return f"no stored tables to resume in {where}"
    return f"resumed {n} table{'s' if n != 1 else ''} from {where}"


def _check_port(host: str, port: int) -> None:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host, port))
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                raise CliError(
                    f"port {port} on {host} is already in use (choose another with --port)"
                ) from None
            raise CliError(f"cannot listen on {host} port {port}: {exc.strerror or exc}") from None


def run(args: argparse.Namespace) -> int:
    """Start the server; returns when it is stopped (Ctrl-C or SIGTERM)."""
    try:
        import starlette  # noqa: F401
        import uvicorn
        import websockets  # noqa: F401
    except ImportError as exc:
        raise CliError(f"the table server needs {exc.name or 'its extra'}: {INSTALL_HINT}") from None

    from ..server.app import create_app
    from ..server.config import ServerConfig
    from ..server.learned import LearnedOfferError
    from ..server.netlimits import (
        ConnectionLimits,
        accept_backlog,
        connection_bound,
        protocols,
        quiet_server,
        raise_open_files,
    )
    from ..server.storage import is_database_url
    from ..server.store import StoreError

    d = ServerConfig()
    open_files, _hard = raise_open_files()
    bound = connection_bound(args.max_connections, open_files)
    if bound < args.max_connections:
        print(
            f"hucklebuck serve: at most {bound} connections (this process may open {open_files} files)",
            file=sys.stderr,
            flush=True,
        )

    config = ServerConfig(
        db=args.db,
        origins=tuple(args.origin),
        grace=args.grace,
        first_wait=args.first_wait,
        bot_pause=args.bot_pause,
        deal_pause=args.deal_pause,
        max_tables=args.max_tables,
        max_connections=bound,
        hostnames=tuple(args.hostname),
        request_timeout=args.request_timeout,
        connect_rate=args.connect_rate,
        connect_burst=max(d.connect_burst, int(args.connect_rate * 6)),
        takeover_player=args.takeover_player,
        bot_threads=args.bot_threads,
        tune_gc=True,
        rate=args.rate,
        burst=max(d.burst, int(args.rate * 2)),
        tables_per_address=args.tables_per_address,
        create_rate=args.create_rate / 60,
        create_burst=max(d.create_burst, int(args.create_rate / 3)),
        max_computer_tables=args.max_computer_tables,
        learned=tuple(args.learned),
    )
    _check_port(args.host, args.port)
    try:
        app = create_app(config)
    except (StoreError, LearnedOfferError) as exc:
        raise CliError(str(exc)) from None
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logging.getLogger(name).addFilter(_Redact())
    if not logging.getLogger("hucklebuck.serve").handlers:
        notes = logging.StreamHandler(sys.stderr)
        notes.setFormatter(logging.Formatter("hucklebuck serve: %(message)s"))
        logging.getLogger("hucklebuck.serve").addHandler(notes)
    limits = ConnectionLimits(bound, args.request_timeout, frame_rate=config.rate, frame_burst=config.burst)
    http, ws = protocols(limits)
    server = quiet_server(
        uvicorn.Config(
            app,
            host=args.host,
            port=args.port,
            access_log=False,
            log_level="warning",
            http=http,
            ws=ws,
            backlog=accept_backlog(open_files),
            ws_max_size=64 * 1024,
            ws_per_message_deflate=False,  # small messages: compressing them costs more CPU than it saves
            timeout_graceful_shutdown=5,
            lifespan="on",
        )
    )
    shown = f"[{args.host}]" if ":" in args.host else args.host
    where = args.db
    named: str | None = None
    if is_database_url(args.db):
        from ..server.store_postgres import describe_url

        where = named = f"the {describe_url(args.db)}"  # never the password
    print(
        f"hucklebuck tables at http://{shown}:{server.config.port}/  (tables in {where}; Ctrl-C stops)",
        flush=True,
    )
    print(_resumed_line(app, args.db, named), flush=True)
    # uvicorn stops gracefully on SIGINT/SIGTERM and then raises the signal again:
    # let that land in a no-op handler so the command ends with its own message and status 0.
    quiet = {sig: signal.signal(sig, lambda _sig, _frame: None) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        server.run()
    finally:
        for sig, handler in quiet.items():
            signal.signal(sig, handler)
    if not server.started:
        return 2
    print("hucklebuck serve: stopped; every table is stored", file=sys.stderr, flush=True)
    return 0
