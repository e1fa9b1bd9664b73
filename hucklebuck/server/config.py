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
    """Origins (``https://cards.example``) whose pages may create tables and open table WebSockets
    besides the server's own."""
    hostnames: tuple[str, ...] = ()
    """Names the server is reached by (``cards.example``) besides its IP addresses, ``localhost``
    and the hosts of ``origins``; a request naming another host is refused."""
    grace: float = 60.0
    """Seconds a person's seat waits after their connection drops before the computer plays it."""
    first_wait: float = 600.0
    """Seconds a person's seat waits for its link to be first opened before the computer plays it
    (a table may ask for another wait: its ``first_wait``)."""
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
    create_rate: float = 0.2
    """Tables a second one address may create on average (one every five seconds)."""
    create_burst: int = 20
    """Tables one address may create at once before ``create_rate`` applies."""
    tables_per_address: int = 50
    """Tables created from one address that may be in play at once (not over yet)."""
    max_computer_tables: int = 20
    """Tables with nobody at them (every seat a computer) that may be in play at once."""
    computer_hands: int = 100
    """Most rounds of a Buck 'Em session with nobody at the table."""
    hint_threads: int = 1
    """Threads hints are worked out in: a pool of their own, so that no table's computer seats
    wait behind anyone's hints."""
    hint_queue: int = 8
    """Hints that may wait for a thread at once; one more is refused (busy), and each table
    may have one hint in the works at a time."""
    max_connections: int = 5000
    """Most connections at once, HTTP and WebSocket together; one more is refused.  ``hucklebuck
    serve`` lowers it below what the process may open (its limit of open files)."""
    request_timeout: float = 10.0
    """Seconds a client has to send a whole HTTP request (head and body) and to take the answer;
    a connection that sends nothing for as long after an answer is closed too."""
    connect_rate: float = 10.0
    """WebSocket connections a second one address may open on average."""
    connect_burst: int = 60
    """WebSocket connections one address may open at once before ``connect_rate`` applies."""
    seat_connect_rate: float = 1.0
    """Connections a second one seat may be opened with on average (its link reopened)."""
    seat_connect_burst: int = 10
    """Connections one seat may be opened with at once before ``seat_connect_rate`` applies."""
    presence_pause: float = 0.5
    """Who is connected is sent at most this often (seconds) when only that changed."""
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
    learned: tuple[tuple[str, str], ...] = ()
    """Trained policies offered for computer seats, each ``(NAME, PATH)``: the host's checkpoint
    files (``hucklebuck serve --learned NAME=PATH``), checked when the server starts; clients pick
    a NAME (:mod:`hucklebuck.server.learned`)."""
