"""The server's settings: one frozen record built by ``hucklebuck serve`` (or a test)."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["DEFAULT_DB", "ServerConfig"]

DEFAULT_DB = "hucklebuck-tables.sqlite"
"""Where ``hucklebuck serve`` keeps its tables unless told otherwise (in the current folder)."""


@dataclass(frozen=True)
class ServerConfig:
    """Everything a running server may be told; the defaults suit people at a table."""

    db: str = DEFAULT_DB
    """The SQLite file the tables live in (``":memory:"`` keeps them in memory only)."""
    origins: tuple[str, ...] = ()
    """Origins (``https://cards.example``) allowed to open a WebSocket besides the server's own."""
    grace: float = 60.0
    """Seconds a person's seat waits after their connection drops before the computer plays it."""
    bot_pause: float = 0.8
    """Seconds a computer seat waits before its move is sent, so people can follow the play."""
    deal_pause: float = 2.0
    """Seconds between the end of a hand and the deal of the next one."""
    takeover_player: str = "heuristic"
    """The computer player kind that sits in for an absent person or a person whose time ran out."""
    bot_threads: int = 2
    """Size of the thread pool in which computer players think (off the event loop)."""
    tune_gc: bool = False
    """Keep Python's cycle collector out of the way of a long-running server (``hucklebuck serve``
    turns it on): objects alive after start-up are frozen, and full collections are rare."""
    max_tables: int = 1000
    """Most tables held at once; creating one more is refused."""
    max_connections: int = 5000
    """Most WebSocket connections at once; one more is refused."""
    max_message: int = 4096
    """Largest client message in bytes; a bigger one gets an error and the connection is closed."""
    rate: float = 20.0
    """Messages per second a connection may send on average."""
    burst: int = 40
    """Messages a connection may send at once before the rate applies; past it: error, then close."""
    max_name: int = 24
    """Longest seat name, in characters."""
    buckem_hands: int = 10
    """How many rounds a Buck 'Em session lasts unless the table says otherwise."""
    notices: int = 6
    """How many recent table notices each view carries."""
