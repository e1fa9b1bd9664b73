"""The web application: pages, the HTTP API and the table WebSocket (Starlette).

:func:`create_app` builds it from a :class:`~hucklebuck.server.config.ServerConfig`;
``hucklebuck serve`` runs it on uvicorn, tests drive it with Starlette's test client.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import sys
from collections.abc import AsyncIterator, Callable, Coroutine, Generator
from importlib import resources
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from ..cardart import card_files
from ._inbox import Bucket, Inbox
from .catalog import games_listing, read_table_request
from .cluster import RETRY_AFTER, ClusterManager, is_shared, table_listing
from .config import ServerConfig
from .guard import PageHeaders, RequestGuard, origin_allowed
from .learned import load_offers
from .manager import TableManager
from .netlimits import RECEIVE_NOW, SEND_NOW, QuietReport, canonical_table_id, quiet_accept_errors
from .protocol import SUBPROTOCOL, ProtocolError, error_message, load_json, token_from_subprotocols
from .quotas import TableQuotas
from .storage import open_store
from .store import Store, StoreError
from .tables import TableRefused

__all__ = ["create_app"]

MAX_BODY = 64 * 1024
"""Largest ``POST /api/tables`` body in bytes."""
SEND_QUEUE = 256
"""Messages waiting for a slow client before its connection is closed."""
TAKEN_OVER = 4001
"""WebSocket close code for a connection whose seat was opened again elsewhere (a newer tab holds it)."""
DROP_WAIT = 2.0
"""Seconds a dropped client's connection may take to close before it is cut (its transport aborted)."""
ABORT = "hucklebuck.abort"
"""The ASGI scope extension through which ``hucklebuck serve``'s WebSocket protocol lets the
application cut a connection at once (see :mod:`hucklebuck.server.netlimits`)."""

_PLACEHOLDER = """<!doctype html><meta charset="utf-8"><title>hucklebuck tables</title>
<p>The hucklebuck table server is running. The browser table is not installed in this copy;
clients talk to <code>/api/games</code>, <code>/api/tables</code> and <code>/ws/tables/ID</code>.</p>"""


GC_THRESHOLDS = (700, 10, 10_000)
"""The cycle collector's thresholds with ``tune_gc``: the young generations as in Python's default
(700, 10, 10), so their collections stay short, and a full collection only after ten thousand
middle-generation ones (tens of minutes apart at a thousand busy tables, not seconds)."""


def tune_gc() -> None:
    """Keep the cycle collector's pauses short in a long-running server.

    A full collection walks every object the process holds, which at a
    thousand tables takes hundreds of milliseconds during which no table
    answers.  The tables' state is acyclic (reference counting frees it), and
    the little cyclic garbage a server makes is young and found by the young
    collections.  So the objects alive after start-up (modules, restored
    tables) are frozen out of the collector's walks, and full collections
    are made rare (``GC_THRESHOLDS``).
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def static_dir() -> Path:
    """The folder of the browser table's files (package data)."""
    return Path(str(resources.files("hucklebuck.server"))) / "static"


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


class _Resume:
    """A send that had to wait (the client reads slowly): awaiting this finishes it, in the writer's
    task.  ``coro`` is the send's coroutine, stopped at ``waits_for`` (what it yielded)."""

    __slots__ = ("coro", "waits_for")

    def __init__(self, coro: Coroutine[Any, Any, None], waits_for: Any) -> None:
        self.coro, self.waits_for = coro, waits_for

    def __await__(self) -> Generator[Any, Any, None]:
        value = self.waits_for
        while True:
            try:
                sent = yield value
            except BaseException as exc:  # (the writer cancelled: the send is told, as it would be)
                try:
                    value = self.coro.throw(exc)
                except StopIteration:
                    return
                continue
            try:
                value = self.coro.send(sent)
            except StopIteration:
                return


class _Socket:
    """One WebSocket client of a table: its messages in order, through a send queue drained by its
    own task when they must wait.

    A message for a client whose queue is empty is written at once, with no task switch: the
    server's WebSocket protocol takes it without waiting unless the client leaves too much unread.
    Only then does the send wait, and everything after it, in the queue, for the writer's task.
    """

    def __init__(self, ws: WebSocket, seat: int | None) -> None:
        self.ws = ws
        self.seat = seat
        self.dropped = False
        self.queue: asyncio.Queue[str | _Resume | None] = asyncio.Queue(SEND_QUEUE)
        self.closing: tuple[int, str] | None = None
        self._sending = False
        """The writer's task is sending a message it took from the queue."""
        direct = (ws.scope.get("extensions") or {}).get(SEND_NOW, {}).get("send")
        self._direct: Callable[[str], bool] | None = direct if callable(direct) else None
        """The server's own WebSocket protocol's immediate write (``hucklebuck serve``), if offered."""
        self.writer = asyncio.get_running_loop().create_task(self._write())

    def send_text(self, text: str) -> None:
        if not self._sending and self.closing is None and self.queue.empty() and not self.writer.done():
            self._send_now(text)
            return
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:  # a client that does not read: drop it rather than hold memory
            if not self.writer.done():
                self.writer.cancel()
                asyncio.get_running_loop().create_task(self._drop())

    def _send_now(self, text: str) -> None:
        """Send ``text`` without a task switch; if the send must wait, the writer's task finishes it
        (and sends what comes after).  A send that fails ends the writer, as a failure in it does.
        Where the server's protocol offers it, an open connection whose client reads is written to
        directly (the same frame, without the ASGI send's layers)."""
        direct = self._direct
        if direct is not None and self.ws.application_state is WebSocketState.CONNECTED and direct(text):
            return
        coro = self.ws.send_text(text)
        try:
            waits_for = coro.send(None)
        except StopIteration:
            return
        except Exception:
            self.writer.cancel()
            return
        self.queue.put_nowait(_Resume(coro, waits_for))

    def close(self, code: int, reason: str) -> None:
        """Close after the queued messages (another connection took this seat, or the table
        moved to another server): the code is kept, so that a handler ending meanwhile closes
        with it too, not with a plain 1000 (a client reconnects on 1012, not on 1000)."""
        self.closing = (code, reason)
        asyncio.get_running_loop().create_task(self._close(code, reason))

    async def _close(self, code: int, reason: str) -> None:
        await self.finish()
        with contextlib.suppress(Exception):
            await self.ws.close(code, reason)

    async def _drop(self) -> None:
        """Close a client that does not read; if the close cannot get through either, cut it."""
        self.dropped = True
        try:
            await asyncio.wait_for(self.ws.close(1008, "the client does not read its messages"), DROP_WAIT)
        except (Exception, asyncio.CancelledError):
            pass
        self.abort()

    async def close_or_cut(self, code: int, reason: str) -> None:
        """Close with ``code``; if the close cannot get through within ``DROP_WAIT`` seconds (the
        client reads nothing, so the server's writes are held), cut the connection instead."""
        try:
            await asyncio.wait_for(self.ws.close(code, reason), DROP_WAIT)
        except asyncio.TimeoutError:
            self.abort()
        except Exception:
            pass

    def abort(self) -> None:
        """Cut the connection now (nothing more is sent): the server's own WebSocket protocol offers
        it; elsewhere (a test client) the close above is all there is."""
        cut = self.ws.scope.get("extensions", {}).get(ABORT, {}).get("abort")
        if callable(cut):
            cut()

    async def _write(self) -> None:
        while True:
            item = await self.queue.get()
            self._sending = True
            if item is None:
                if self.closing is not None:
                    with contextlib.suppress(Exception):
                        await self.ws.close(*self.closing)
                return
            if isinstance(item, str):
                await self.ws.send_text(item)
            else:
                await item
            self._sending = False

    def replace(self) -> None:
        """The seat was opened by a newer connection: send what is queued, then close with TAKEN_OVER."""
        self.closing = (TAKEN_OVER, "this seat was opened in another tab or window")
        with contextlib.suppress(asyncio.QueueFull):
            self.queue.put_nowait(None)

    async def finish(self) -> None:
        """Send what is queued, then stop."""
        with contextlib.suppress(asyncio.QueueFull):
            self.queue.put_nowait(None)
        with contextlib.suppress(Exception, asyncio.CancelledError):
            await asyncio.wait_for(self.writer, 2)


class _Buckets:
    """One :class:`_Bucket` per key (an address, a seat), the full ones forgotten now and then."""

    KEEP = 10_000
    """Keys held before the buckets that have refilled are forgotten."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.burst = rate, burst
        self.buckets: dict[object, Bucket] = {}

    def take(self, key: object) -> bool:
        bucket = self.buckets.get(key)
        if bucket is None:
            if len(self.buckets) >= self.KEEP:
                self.buckets = {k: b for k, b in self.buckets.items() if not b.full}
            bucket = self.buckets[key] = Bucket(self.rate, self.burst)
        return bucket.take()


def create_app(
    config: ServerConfig | None = None,
    *,
    store: Store | None = None,
    report: Callable[[str], None] | None = None,
    hinter: Callable[[Any, int], dict[str, Any]] | None = None,
) -> Starlette:
    """The application; tables live in ``store`` (default: the SQLite file ``config.db``).

    ``report`` gets one line for each problem the operator should know about
    (a stored table that cannot be restored, a failed write); default stderr.
    ``hinter`` replaces :func:`~hucklebuck.server.hints.hint_for`.  Raises
    :class:`~hucklebuck.server.store.StoreError` if the database cannot be used, and
    :class:`~hucklebuck.server.learned.LearnedOfferError` (before the database is opened) if a
    trained policy of ``config.learned`` cannot be offered.
    """
    cfg = config or ServerConfig()
    say = report or QuietReport(lambda line: print(f"hucklebuck serve: {line}", file=sys.stderr, flush=True))
    offers = load_offers(cfg.learned)  # every offered checkpoint checked before anything else starts
    backing = store if store is not None else open_store(cfg.db)
    if is_shared(backing):  # several processes share the database: tables are claimed one by one
        manager: TableManager = ClusterManager(cfg, backing, report=say, hinter=hinter, offers=offers)
    else:
        manager = TableManager(cfg, backing, report=say, hinter=hinter, offers=offers)
    for note in getattr(backing, "notes", ()):  # a damaged database, read as far as it could be
        say(note)
    for table_id, why in getattr(backing, "lost", {}).items():
        manager.broken[table_id] = why
        say(f"table {table_id} cannot be restored: {why}")
    manager.restore()

    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        quiet_accept_errors(asyncio.get_running_loop())
        manager.start()
        if cfg.tune_gc:
            tune_gc()
        try:
            yield
        finally:
            manager.close()

    async def page(name: str) -> Response:
        path = static_dir() / name
        if path.is_file():
            return FileResponse(path, media_type="text/html")
        return HTMLResponse(_PLACEHOLDER)

    async def index(_request: Request) -> Response:
        return await page("index.html")

    async def table_page(request: Request) -> Response:
        if not canonical_table_id(request.scope, request.path_params["table_id"]):
            return _error(404, "unknown_table", "there is no such table")
        return await page("table.html")

    quotas = TableQuotas(cfg, _Buckets(cfg.create_rate, cfg.create_burst).take)
    pictures = {code: svg.encode() for code, svg in card_files().items()}  # drawn once, served from memory

    async def card_picture(request: Request) -> Response:
        svg = pictures.get(request.path_params["code"])
        if svg is None:
            return _error(404, "not_found", "no such card picture (use a card code such as TH, or back)")
        return Response(svg, media_type="image/svg+xml", headers={"Cache-Control": "public, max-age=86400"})

    async def api_games(_request: Request) -> Response:
        return JSONResponse(games_listing(offers))

    async def api_create(request: Request) -> Response:
        length = request.headers.get("content-length", "")
        if length.isdigit() and int(length) > MAX_BODY:  # refused before a byte of it is read
            return _error(413, "too_large", f"the request body is limited to {MAX_BODY} bytes")

        async def read() -> bytes | None:
            body = b""
            async for chunk in request.stream():
                body += chunk
                if len(body) > MAX_BODY:
                    return None
            return body

        try:
            body = await asyncio.wait_for(read(), cfg.request_timeout)
        except asyncio.TimeoutError:
            return _error(408, "timeout", f"the request body did not arrive within {cfg.request_timeout:g} s")
        if body is None:
            return _error(413, "too_large", f"the request body is limited to {MAX_BODY} bytes")
        try:
            data = load_json(body or b"null")
        except ValueError:
            return _error(400, "bad_request", "the request body is not JSON")
        host = request.client.host if request.client is not None else ""
        try:
            req = read_table_request(data, cfg.max_name, offers)
            quotas.check(host, req, manager.tables)
            if isinstance(manager, ClusterManager):  # stored off the event loop
                table, tokens = await manager.create_async(req)
            else:
                table, tokens = manager.create(req)
        except ProtocolError as exc:
            return _error(400, exc.code, exc.message)
        except TableRefused as exc:
            if exc.code == "too_many":  # this address's quota: others may still create tables
                answer = _error(429, exc.code, exc.message)
                answer.headers["Retry-After"] = "60"
                return answer
            return _error(503, exc.code, exc.message)
        except StoreError as exc:
            say(str(exc))
            return _error(503, "busy", "the server could not store the table; try again")
        quotas.record(host, table.id, all(s.kind == "computer" for s in req.seats))
        seats = []
        for i, (seat, token) in enumerate(zip(table.seats, tokens, strict=True)):
            seats.append(
                {
                    "seat": i,
                    "kind": seat.kind,
                    "name": seat.name,
                    "player": seat.player,
                    "token": token,
                    "link": f"/t/{table.id}#{token}" if token else None,
                }
            )
        made = {"id": table.id, "seats": seats, "spectator_link": f"/t/{table.id}", "public": req.public}
        return JSONResponse(made, 201)

    async def lookup(scope: Any, table_id: str) -> Any:
        """The table ``table_id`` (claimed off the event loop where the database is shared); an id
        that is not a table id written as itself is refused before any lookup."""
        if not canonical_table_id(scope, table_id):
            raise TableRefused("unknown_table", "there is no such table")
        if isinstance(manager, ClusterManager):
            return await manager.fetch(table_id)
        return manager.get(table_id)

    async def api_table(request: Request) -> Response:
        try:
            table = await lookup(request.scope, request.path_params["table_id"])
        except TableRefused as exc:
            if exc.code in ("moving", "busy", "full"):  # another process plays it, handing it over: ask again
                answer = _error(503, exc.code, exc.message)
                answer.headers["Retry-After"] = str(RETRY_AFTER)
                return answer
            return _error(404 if exc.code == "unknown_table" else 409, exc.code, exc.message)
        for _ in range(1000):  # a change being committed is shown once it is stored
            if not table.pending:
                return JSONResponse(table.summary())
            await asyncio.sleep(0.002)
        answer = _error(503, "busy", "the table's last change is still being stored; try again")
        answer.headers["Retry-After"] = str(RETRY_AFTER)
        return answer

    async def api_list(_request: Request) -> Response:
        try:
            if isinstance(manager, ClusterManager):
                return JSONResponse({"tables": await manager.listing()})
            return JSONResponse({"tables": table_listing(manager)})
        except StoreError as exc:
            say(str(exc))
            return _error(503, "busy", "the table database cannot be reached; try again")

    def origin_ok(ws: WebSocket) -> bool:
        origin = ws.headers.get("origin")
        if origin is None:
            return True  # not a browser: Origin protects people's browsers from other sites' pages
        host = ws.headers.get("host", "")  # a name of this server's own: RequestGuard checked it
        return origin_allowed(origin, host, ws.url.scheme, cfg.origins)

    by_address = _Buckets(cfg.connect_rate, cfg.connect_burst)
    by_seat = _Buckets(cfg.seat_connect_rate, cfg.seat_connect_burst)

    def answered(ws: WebSocket) -> str | None:
        """The subprotocol to accept with: ours if offered (a browser that offered some drops
        a connection accepted with none), never the one that carries the token."""
        return SUBPROTOCOL if SUBPROTOCOL in ws.scope.get("subprotocols", ()) else None

    async def refuse(ws: WebSocket, code: str, message: str, close_code: int) -> None:
        await ws.accept(answered(ws))
        await ws.send_text(json.dumps(error_message(code, message, -1)))
        await ws.close(close_code, message[:120])

    async def ws_table(ws: WebSocket) -> None:
        if not origin_ok(ws):
            await ws.close(1008, "this page's origin may not open tables here")
            return
        try:
            table = await lookup(ws.scope, ws.path_params["table_id"])
        except TableRefused as exc:
            if exc.code in ("moving", "busy", "full"):  # another process is handing the table over: try again
                await refuse(ws, "busy", exc.message, 1013)
            else:
                await refuse(ws, "unknown_table", exc.message, 4404)
            return
        if "token" in ws.query_params:  # it is in the access logs already: refuse it, so nobody relies on it
            words = "a seat token never goes in the address: offer it as subprotocol hucklebuck.token.TOKEN"
            await refuse(ws, "bad_token", words, 4401)
            return
        token = token_from_subprotocols(list(ws.scope.get("subprotocols", ())))
        seat = None
        if token:
            seat = table.seat_for_token(token)
            if seat is None:
                await refuse(ws, "bad_token", "that seat link is not valid for this table", 4401)
                return
        address = ws.client.host if ws.client is not None else ""
        if not by_address.take(address) or (seat is not None and not by_seat.take((table.id, seat))):
            slow_down = "too many connections opened from here; wait a few seconds, then try again"
            await refuse(ws, "rate_limited", slow_down, 1013)
            return
        if manager.connections >= cfg.max_connections:
            await refuse(ws, "busy", "the server has as many connections as it takes; try later", 1013)
            return
        await ws.accept(answered(ws))
        manager.connections += 1
        conn = _Socket(ws, seat)
        inbox = Inbox(conn, table, manager.tables, Bucket(cfg.rate, cfg.burst), cfg.max_message, say)
        if seat is not None:  # the newest connection holds the seat: an older tab is closed, and says so
            for other in list(table.connections):
                if other.seat == seat and isinstance(other, _Socket):
                    other.replace()
        table.join(conn)
        take = (ws.scope.get("extensions") or {}).get(RECEIVE_NOW, {}).get("take")
        if not callable(take):  # (a test client: every message comes through receive)
            take = None
        try:
            if take is not None:  # a message that arrives while none waits is handled at once
                take(inbox.take_now)
            while not conn.writer.done():
                msg = await ws.receive()
                if msg["type"] == "websocket.disconnect":
                    break
                text: str | bytes | None = msg.get("text")
                if text is None:
                    text = msg.get("bytes") or b""
                if await inbox.handle(text):
                    return
        except WebSocketDisconnect:
            pass
        finally:
            inbox.open = False
            if take is not None:
                take(None)
            manager.connections -= 1
            inbox.table.leave(conn)
            conn.writer.cancel()
            if (
                ws.application_state is WebSocketState.CONNECTED
                and ws.client_state is WebSocketState.CONNECTED
            ):
                await conn.close_or_cut(*(conn.closing or (1000, "")))

    routes: list[Any] = [
        Route("/", index),
        Route("/t/{table_id}", table_page),
        Route("/cards/{code}.svg", card_picture),
        Route("/api/games", api_games),
        Route("/api/tables", api_create, methods=["POST"]),
        Route("/api/tables", api_list, methods=["GET"]),
        Route("/api/tables/{table_id}", api_table),
        WebSocketRoute("/ws/tables/{table_id}", ws_table),
    ]
    if static_dir().is_dir():
        routes.append(Mount("/static", app=StaticFiles(directory=str(static_dir())), name="static"))
    else:  # a copy without the browser table: its files are simply not there

        async def no_static(_request: Request) -> Response:
            return _error(404, "not_found", "this copy of the server has no browser table files")

        routes.append(Route("/static/{path:path}", no_static))
    guard = Middleware(RequestGuard, hostnames=cfg.hostnames, origins=cfg.origins)
    app = Starlette(routes=routes, lifespan=lifespan, middleware=[Middleware(PageHeaders), guard])
    app.state.manager = manager
    return app
