"""Connections as ``hucklebuck serve`` holds them: bounded, timed out, cut when stuck.

uvicorn's own HTTP and WebSocket protocols (h11, and the ``websockets``
package's sans-I/O core), each with a little more:

* **Every connection is counted**, HTTP and WebSocket together, against one
  bound below the number of files the process may open (:func:`connection_bound`,
  after :func:`raise_open_files` has raised the soft limit as far as the hard
  one allows).  One more connection is closed at once, before a byte is read,
  so ``accept()`` never runs out of descriptors; the refusals are logged once,
  then counted in one line a minute at most, not a line per connection.
* **A request has ``request_timeout`` seconds** to arrive whole (head and
  body) and its answer to be taken, and a kept-alive connection as long to
  send its next request's head (the request then has its whole time again,
  so an answer is never cut because its request came late); a connection
  that sends half a request and stops, or nothing at all, or does not read its
  answer, is cut (its transport aborted, which needs no cooperation from the
  client).
* **A WebSocket connection can be cut by the application** (the scope
  extension :data:`~hucklebuck.server.app.ABORT`): a client that stops reading
  is dropped at once instead of waiting for a close that never drains.
* **A WebSocket message can be written at once** (the scope extension
  :data:`SEND_NOW`): while the connection is open and its client reads, the
  application's text goes straight to the connection's frame writer, not through
  the four coroutines of an ASGI send; otherwise the application sends as usual.
* **A WebSocket message can be handled at once** (the scope extension
  :data:`RECEIVE_NOW`): the application may name a function that takes a whole
  text or binary message; a message that arrives while none waits for the
  application (and the connection is open, read and written freely) goes to it
  in the turn of the event loop that read it, not through the ASGI queue and a
  wake of the application's task.  One message per read at most: the rest of
  what a read brought, and anything the function does not take, queue as usual,
  in order.
* **Reading is held only when messages pile up**: uvicorn stops reading from a
  client after each message until the application takes it; here a client may
  have :data:`READ_AHEAD` messages waiting before reading stops.
* **A WebSocket connection holds a bounded amount of memory.**  Control
  frames (pings, pongs) count against a rate limit of their own (``--rate``
  a second, twice that at once): past it, the connection is cut.  While the
  answers waiting for a client are over :data:`WRITE_HIGH` bytes (it does not
  read them), nothing more is read from it, so a ping it sends gets no pong
  queued until it reads; and a connection that fails its keepalive (no pong in
  time) is cut, not closed, since a close would wait for those unread bytes
  to drain.

The operating system's own errors at ``accept()`` (out of descriptors all the
same, say, because of another limit) are logged once a minute, not per try.

And the server sleeps while nothing happens (:func:`quiet_server`): uvicorn's own
main loop wakes ten times a second to see whether it should stop and, once a
second, to write the ``Date`` header's text; here it sleeps until it is told to
stop, and the header's text is written when an answer needs it.
"""

from __future__ import annotations

import asyncio
import logging
import re
import threading
import time
from collections.abc import Callable
from email.utils import formatdate
from typing import Any

__all__ = [
    "READ_AHEAD",
    "RECEIVE_NOW",
    "RESERVED_FILES",
    "SEND_NOW",
    "TABLE_ID",
    "WRITE_HIGH",
    "ConnectionLimits",
    "QuietReport",
    "accept_backlog",
    "canonical_table_id",
    "connection_bound",
    "protocols",
    "quiet_accept_errors",
    "quiet_server",
    "raise_open_files",
]

RESERVED_FILES = 64
"""Descriptors kept for everything but client connections (the database, its log, the listening
socket, threads' pipes, the browser table's files being served)."""

WRITE_HIGH = 64 * 1024
"""Bytes of answers a WebSocket client may leave unread before the server stops reading from it
(the transport's high-water mark; reading resumes below a quarter of it)."""

READ_AHEAD = 4
"""Messages a WebSocket client may have waiting for the application before the server stops
reading from it.  uvicorn stops reading after every message and starts again once the
application has taken it: two system calls per message a person sends, for nothing when the
application takes each message at once, as the table's handler does."""

SEND_NOW = "hucklebuck.send_text"
"""The ASGI scope extension through which ``hucklebuck serve``'s WebSocket protocol lets the
application write a text message at once, without the layers of an ASGI send (see
:class:`~hucklebuck.server.app` and :func:`protocols`)."""

RECEIVE_NOW = "hucklebuck.receive_now"
"""The ASGI scope extension through which ``hucklebuck serve``'s WebSocket protocol lets the
application take a client's message at once: its ``"take"`` is called with a function (or ``None``,
to stop) that is given each whole message (``str`` or ``bytes``) arriving while none waits, and
returns whether it handled it; one it did not handle goes the usual way, next (see :func:`protocols`)."""

_log = logging.getLogger("hucklebuck.serve")


def raise_open_files() -> tuple[int, int]:
    """Raise the process's soft limit of open files to its hard limit; returns (soft, hard) after."""
    try:
        import resource
    except ImportError:  # not a Unix: nothing to raise
        return 1 << 20, 1 << 20
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY:
        hard = 1 << 20
    if soft == resource.RLIM_INFINITY or soft > hard:
        soft = hard
    if soft < hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
        except (ValueError, OSError):
            pass
    return soft, hard


IN_FLIGHT_BATCHES = 3
"""Batches of accepted connections that can be open at once before their refusal closes them.
asyncio accepts a batch in one turn of its loop, makes their transports in the next, refuses them
(``connection_made``) in the one after, and closes their descriptors one turn later; meanwhile it
accepts a batch at each turn.  (With two batches counted, a flood of connections on a busy machine
ran a process allowed 256 files out of descriptors, and the loop then stopped accepting anyone for
a second.)"""


def accept_backlog(open_files: int) -> int:
    """The listening socket's backlog: also how many connections the event loop accepts at a time
    before any of them can be refused, so it is kept small beside the limit of open files."""
    return max(64, min(2048, open_files // 8))


def connection_bound(wanted: int, open_files: int) -> int:
    """The most connections the server holds: ``wanted``, but below the limit of open files, less
    the files kept for other things and the batches of accepted connections not yet refused."""
    spare = open_files - RESERVED_FILES - IN_FLIGHT_BATCHES * accept_backlog(open_files)
    return max(1, min(wanted, spare))


class ConnectionLimits:
    """The bound and the timeout the protocols apply, and the refusals logged once."""

    REPORT_EVERY = 60.0
    """Seconds between two log lines about refused connections."""

    def __init__(
        self, max_connections: int, request_timeout: float, *, frame_rate: float = 20.0, frame_burst: int = 40
    ) -> None:
        """At most ``max_connections`` at once; ``request_timeout`` seconds per request; a
        WebSocket client may send ``frame_rate`` control frames a second (``frame_burst`` at once)."""
        self.max_connections = max_connections
        self.request_timeout = request_timeout
        self.frame_rate = frame_rate
        self.frame_burst = frame_burst
        self.frame_floods = 0
        """WebSocket connections cut since the server started for sending too many control frames."""
        self.refused = 0
        """Connections refused since the server started (the bound was reached)."""
        self.timed_out = 0
        """Connections cut since the server started (a request too slow, or a client not reading)."""
        self._unreported = 0
        self._reported_at = float("-inf")

    def refuse(self) -> None:
        """Count a refused connection; log it if no line was logged for a while."""
        self.refused += 1
        self._unreported += 1
        now = time.monotonic()
        if now - self._reported_at >= self.REPORT_EVERY:
            _log.warning(
                "refused %d connection(s): the server holds as many as it takes (%d)",
                self._unreported,
                self.max_connections,
            )
            self._unreported = 0
            self._reported_at = now


def protocols(limits: ConnectionLimits) -> tuple[type[asyncio.Protocol], type[asyncio.Protocol]]:
    """uvicorn's HTTP and WebSocket protocol classes, bounded and timed out by ``limits``."""
    from uvicorn.protocols.http.h11_impl import H11Protocol
    from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
    from websockets.exceptions import InvalidState

    class WebSocket(WebSocketsSansIOProtocol):
        """uvicorn's WebSocket protocol; the application may cut the connection (``ABORT``), and
        its memory is bounded (see the module docstring)."""

        writes_held = False
        """Reading stopped because the client leaves too many answers unread."""
        taker: Callable[[str | bytes], bool] | None = None
        """The application's function that takes a message at once (``RECEIVE_NOW``), if any."""
        _take_now = False
        """The read being handled may still hand a message to ``taker`` (one per read)."""
        _frames = 0.0
        _frames_at = 0.0

        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            super().connection_made(transport)
            self.transport.set_write_buffer_limits(high=WRITE_HIGH)
            self._frames, self._frames_at = float(limits.frame_burst), self.loop.time()

        def _control_frame(self) -> bool:
            """Count a control frame; cut the connection past the limit.  Whether to answer it."""
            if self.transport.is_closing():
                return False  # cut, or closing: nothing more is written
            now = self.loop.time()
            self._frames = min(limits.frame_burst, self._frames + (now - self._frames_at) * limits.frame_rate)
            self._frames_at = now
            if self._frames < 1:
                limits.frame_floods += 1
                self.transport.abort()
                return False
            self._frames -= 1
            return True

        def handle_ping(self) -> None:
            if self._control_frame():
                super().handle_ping()
            else:
                self.conn.data_to_send()  # the pong websockets prepared is dropped, not sent

        def handle_pong(self, event: Any) -> None:
            if self._control_frame():
                super().handle_pong(event)

        def pause_writing(self) -> None:
            super().pause_writing()
            self.writes_held = True
            self.transport.pause_reading()

        def resume_writing(self) -> None:
            super().resume_writing()
            self.writes_held = False
            if not self.read_paused and not self.transport.is_closing():
                self.transport.resume_reading()

        def data_received(self, data: bytes) -> None:
            self._take_now = self.taker is not None
            try:
                super().data_received(data)
            finally:
                self._take_now = False

        def take_messages(self, taker: Callable[[str | bytes], bool] | None) -> None:
            """``RECEIVE_NOW``: from now on, hand the messages that arrive while none waits to
            ``taker`` (``None``: none, all go through the ASGI queue)."""
            self.taker = taker

        def _taken(self, message: str | bytes) -> bool:
            """Whether ``taker`` handled ``message`` at once: only the first message of a read,
            only while nothing waits in the queue (the order is kept) and the connection is open,
            read and written freely; anything else goes the usual way."""
            self._take_now = False
            taker = self.taker
            if (
                taker is None
                or not self.queue.empty()
                or self.read_paused
                or self.writes_held
                or self.disconnected
                or self.transport.is_closing()
            ):
                return False
            return taker(message)

        def send_receive_event_to_app(self) -> None:
            # uvicorn's, without its pause after every message: reading stops once READ_AHEAD
            # messages wait (and starts again, in receive(), once the application took them all)
            if self.close_sent:
                self.frames = []
                return  # (as uvicorn: past the application's close, messages are dropped)
            whole = len(self.frames) == 1  # (a message in fragments always goes the usual way)
            data = self.frames[0] if whole else b"".join(self.frames)
            self.frames = []
            take = self._take_now and whole
            queue: Any = self.queue  # (uvicorn's typed events: the same dicts as its own)
            if self.curr_msg_data_type == "text":
                try:
                    text = data.decode()
                except UnicodeDecodeError:
                    self.logger.exception("Invalid UTF-8 sequence received from client.")
                    self.conn.send_close(1007)
                    self.handle_parser_exception()
                    return
                if take and self._taken(text):
                    return
                queue.put_nowait({"type": "websocket.receive", "text": text})
            else:
                if take and self._taken(data):
                    return
                queue.put_nowait({"type": "websocket.receive", "bytes": data})
            if not self.read_paused and queue.qsize() >= READ_AHEAD:
                self.read_paused = True
                self.transport.pause_reading()

        def send_text_now(self, text: str) -> bool:
            """Write ``text`` as one message now, if the connection is open and its client reads
            (what uvicorn's ``send`` of a ``websocket.send`` would do at once); ``False``: nothing
            was written, the application sends it the usual way (which waits, or refuses)."""
            if (
                self.close_sent
                or self.disconnected
                or not self.handshake_complete
                or self.initial_response is not None
                or not self.writable.is_set()
                or self.transport.is_closing()
            ):
                return False
            try:
                self.conn.send_text(text.encode())
            except InvalidState:
                return False
            self.transport.write(b"".join(self.conn.data_to_send()))
            return True

        async def receive(self) -> Any:
            message = await self.queue.get()
            if self.read_paused and self.queue.empty():  # as uvicorn does, unless writes are held
                self.read_paused = False
                if not self.writes_held and not self.transport.is_closing():
                    self.transport.resume_reading()
            return message

        def keepalive_timeout(self) -> None:
            super().keepalive_timeout()
            self.transport.abort()  # a close would wait for unread bytes to drain: cut it

        def shutdown(self) -> None:
            from websockets.exceptions import InvalidState

            try:
                super().shutdown()
            except InvalidState:  # the client's close is under way (uvicorn asks for one more): done
                self.transport.close()

        def handle_connect(self, event: Any) -> None:
            super().handle_connect(event)
            scope: Any = getattr(self, "scope", None)
            if scope is not None:
                scope["extensions"]["hucklebuck.abort"] = {"abort": self.transport.abort}
                scope["extensions"][SEND_NOW] = {"send": self.send_text_now}
                scope["extensions"][RECEIVE_NOW] = {"take": self.take_messages}

    class HTTP(H11Protocol):
        """uvicorn's h11 protocol, counted against the bound and timed out per request."""

        _timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            full = len(self.connections) >= limits.max_connections
            super().connection_made(transport)
            if full:
                limits.refuse()
                self.transport.abort()
                return
            self._arm()

        def _arm(self) -> None:
            if self._timer is not None:
                self._timer.cancel()
            self._timer = self.loop.call_later(limits.request_timeout, self._too_slow)

        def _too_slow(self) -> None:
            self._timer = None
            if not self.transport.is_closing():
                limits.timed_out += 1
                self.transport.abort()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self._arm()  # a kept-alive connection gets as long to send its next request

        def handle_events(self) -> None:
            cycle = getattr(self, "cycle", None)
            super().handle_events()
            if getattr(self, "cycle", None) is not cycle and self._timer is not None:
                # A new request's head has arrived: it gets the whole time again for its body and
                # for its answer to be taken, however late in the kept-alive wait it came (else an
                # answer begun just before that wait ends would be cut in the middle).
                self._arm()

        def handle_websocket_upgrade(self, event: Any) -> None:
            if self._timer is not None:  # the WebSocket has its own pings and limits from here
                self._timer.cancel()
                self._timer = None
            super().handle_websocket_upgrade(event)

        def connection_lost(self, exc: Exception | None) -> None:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
            super().connection_lost(exc)

    return HTTP, WebSocket


def quiet_server(config: Any) -> Any:
    """A ``uvicorn.Server`` for ``config`` (a ``uvicorn.Config``) that sleeps while nothing happens.

    Its main loop waits for the signal to stop (a signal handler wakes it) instead of waking
    ten times a second to look; and the ``Date`` header of its answers is written when an answer
    asks for it (once a second at most), not by a timer.  Everything else is uvicorn's."""
    import uvicorn
    from uvicorn.server import ServerState

    class DatedState(ServerState):
        """uvicorn's shared state; ``default_headers`` (the ``Date`` header and the configured
        ones) are made when a connection or a request reads them."""

        def __init__(self) -> None:
            self._second = -1
            self._headers: list[tuple[bytes, bytes]] = []
            super().__init__()

        @property
        def default_headers(self) -> list[tuple[bytes, bytes]]:
            now = time.time()
            if int(now) != self._second:
                self._second = int(now)
                dated = [(b"date", formatdate(now, usegmt=True).encode())] if config.date_header else []
                self._headers = dated + config.encoded_headers
            return self._headers

        @default_headers.setter
        def default_headers(self, _value: list[tuple[bytes, bytes]]) -> None:
            pass  # (uvicorn's own timer would set it: they are made above instead)

    class QuietServer(uvicorn.Server):
        """uvicorn's server, with no timer ticking while it runs (see :func:`quiet_server`)."""

        _wake: asyncio.Event | None = None
        _loop: asyncio.AbstractEventLoop | None = None
        _exit = False

        def __init__(self, cfg: Any) -> None:
            super().__init__(cfg)
            self.server_state = DatedState()

        @property
        def should_exit(self) -> bool:
            """Whether to stop.  Setting it wakes the main loop, from any thread: the signal handler
            does, and so may a program that runs the server itself, as with uvicorn's own."""
            return self._exit

        @should_exit.setter
        def should_exit(self, value: bool) -> None:
            self._exit = value
            loop, wake = self._loop, self._wake
            if value and loop is not None and wake is not None and not loop.is_closed():
                loop.call_soon_threadsafe(wake.set)

        async def main_loop(self) -> None:
            self._loop = asyncio.get_running_loop()
            self._wake = asyncio.Event()
            while not self.should_exit:
                await self._wake.wait()
                self._wake.clear()

    return QuietServer(config)


def quiet_accept_errors(loop: asyncio.AbstractEventLoop) -> None:
    """Log the event loop's ``accept()`` failures once a minute instead of at every try."""
    previous = loop.get_exception_handler()
    last = [float("-inf"), 0]

    def handler(lp: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        message = str(context.get("message", ""))
        if message.startswith("socket.accept() out of system resource"):
            last[1] += 1
            now = time.monotonic()
            if now - last[0] >= ConnectionLimits.REPORT_EVERY:
                why = context.get("exception") or "no resources"
                _log.warning("could not accept %d connection(s): %s", last[1], why)
                last[0], last[1] = now, 0
            return
        if previous is not None:
            previous(lp, context)
        else:
            lp.default_exception_handler(context)

    loop.set_exception_handler(handler)


TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
"""What a table id may be: letters, digits, ``-`` and ``_`` (the ids the server makes are 12 of them)."""


def canonical_table_id(scope: Any, table_id: str) -> bool:
    """Whether ``table_id`` (from a route's path) is a table id written as itself: in the id
    alphabet, and the last segment of the raw path exactly (no percent-encoding, which a proxy
    hashing the raw path would route elsewhere).  Anything else is refused before any lookup."""
    if TABLE_ID.fullmatch(table_id) is None:
        return False
    raw = scope.get("raw_path")
    if not isinstance(raw, bytes | bytearray):
        return True
    path = bytes(raw).split(b"?", 1)[0]
    return path.rsplit(b"/", 1)[-1] == table_id.encode("ascii")


class QuietReport:
    """A report function that says a repeated line at most once per ``every`` seconds, then how
    many times it came meanwhile: a stranger who makes the server complain cannot fill its log."""

    KEEP = 1000
    """Distinct lines remembered (the oldest are forgotten past this)."""

    def __init__(self, say: Callable[[str], None], every: float = 60.0) -> None:
        """Pass lines to ``say``, each repeat held back for ``every`` seconds."""
        self.say, self.every = say, every
        self._seen: dict[str, list[float]] = {}
        self._lock = threading.Lock()

    def __call__(self, line: str) -> None:
        """Say ``line`` unless it was said less than ``every`` seconds ago."""
        key = _SHAPE.sub("#", line)  # the same complaint with other numbers in it is the same line
        now = time.monotonic()
        with self._lock:
            seen = self._seen.get(key)
            if seen is not None and now - seen[0] < self.every:
                seen[1] += 1
                return
            held = int(seen[1]) if seen is not None else 0
            if len(self._seen) >= self.KEEP:
                self._seen.clear()
            self._seen[key] = [now, 0]
        self.say(line if not held else f"{line} (and {held} more like it in the last {self.every:g} s)")


_SHAPE = re.compile(r"\d+")
