"""Benchmark section ``chaos`` (opt-in: ``python -m hucklebuck.bench chaos``): a soak run of the
table server under attack, on loopback only, that stops by itself (two minutes; ``--scale``
multiplies it: ``--scale 15`` is half an hour).

``hucklebuck serve`` runs as its own process with its default pacing (``--bot-pause 0.8``,
``--deal-pause 2``); :data:`TABLES` tables each have one scripted person (seat 0) and
``heuristic`` computers.  Meanwhile:

* the server is killed with ``kill -9`` every :data:`KILL_EVERY` seconds and restarted on the same
  database and port (the people reconnect by themselves);
* people drop their connection now and then and reconnect;
* connection floods (hundreds of sockets at once), half-sent HTTP requests, clients that stop
  reading, hostile messages (deep JSON, a seat that does not exist, over the limit in bytes),
  a seat reconnecting in a loop, and requests of another site (``Origin``, ``text/plain``,
  another ``Host``) or with sizes past their bounds;
* and, ten seconds on and ten off (:mod:`hucklebuck.bench.chaos_floods`), ping floods from a
  client that never reads, creation floods, and hint floods at the flooder's own tables.

Reported: the p50/p99 latency the honest people saw from a move to its state (and, with and
without the floods, that p99 and the p99 of the computers' turn-around: from the person's move
to their next turn), the server's peak memory with and without the floods, their moves
acknowledged, every refusal by kind, the write-ahead log's size over time, the kills, and the
check at the end: every stored game is restored (replaying every step), each person's
acknowledged moves are all stored, none twice (a move sent just before a kill may be stored
without its answer: those are counted apart), and no request of the attackers made a table
(but the creation flood's, within its quotas).

The server's ``--connect-rate`` is raised for the run: every client here shares one address,
and a few hundred people reconnecting at once after a kill would otherwise be refused as one
flooding address; the per-seat limit stays as it is, and the seat reconnecting in a loop meets it.
The grace period is long (10 minutes), so that no person's seat is taken over while they
reconnect (a computer's moves in their seat would be counted as theirs).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from ..server.protocol import seat_subprotocols
from .chaos_floods import HINTER, create_from, floods, honest_address

__all__ = ["Figures", "run", "soak"]

TABLES = 200
"""Tables with a scripted person."""
SECONDS = 120.0
"""Length of the run at ``--scale 1``."""
HINT_TABLES = 10
"""Tables of the hint flooder (a person's seat it holds, asking for hints at each of its turns)."""
KILL_EVERY = 20.0
"""Seconds between two ``kill -9`` of the server."""
GAMES = (("deerpark", 4), ("hucklebuck", 4), ("buckem", 5))


@dataclass
class Figures:
    """What one run saw."""

    seconds: float
    latencies: list[float] = field(default_factory=list)
    acked: Counter[str] = field(default_factory=Counter)
    """Per table: the person's moves the server answered with their state."""
    uncertain: Counter[str] = field(default_factory=Counter)
    """Per table: moves sent whose answer a kill or a drop cut off (stored or not)."""
    refusals: Counter[str] = field(default_factory=Counter)
    attacks: Counter[str] = field(default_factory=Counter)
    wal: list[tuple[float, int]] = field(default_factory=list)
    kills: int = 0
    restarts: list[float] = field(default_factory=list)
    reconnects: int = 0
    problems: list[str] = field(default_factory=list)
    stored_tables: int = 0
    honest_tables: int = 0
    flooding: bool = False
    """Whether the floods are on now (they run in alternate windows)."""
    by_phase: dict[bool, list[float]] = field(default_factory=lambda: {False: [], True: []})
    """Honest latencies (move to state) without and with the floods."""
    turnaround: dict[bool, list[float]] = field(default_factory=lambda: {False: [], True: []})
    """From a person's acknowledged move to their next turn (the computers' moves between), by phase."""
    rss: list[tuple[float, int, bool]] = field(default_factory=list)
    """The server's resident memory over time: (seconds, bytes, floods on)."""
    flood_created: int = 0
    flood_unsure: int = 0


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class _Server:
    """``hucklebuck serve`` as a process: started, killed, restarted on the same database."""

    def __init__(self, db: str, port: int, log: str, extra: tuple[str, ...] = ()) -> None:
        self.db, self.port, self.log, self.extra = db, port, log, extra
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> float:
        began = time.monotonic()
        cmd = [sys.executable, "-m", "hucklebuck", "serve", "--port", str(self.port), "--db", self.db,
               "--grace", "600", "--connect-rate", "1000", "--request-timeout", "5", *self.extra]  # fmt: skip
        with open(self.log, "ab") as err:
            self.proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err)
        for _ in range(3000):
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return time.monotonic() - began
            except OSError:
                if self.proc.poll() is not None:
                    raise RuntimeError(f"the server ended with status {self.proc.returncode}") from None
                time.sleep(0.01)
        raise RuntimeError("the server never listened")

    def kill9(self) -> None:
        if self.proc is not None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()

    def stop(self) -> int:
        if self.proc is None:
            return 0
        self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return self.proc.wait()


def _request(port: int, method: str, path: str, body: bytes | None, headers: dict[str, str]) -> int:
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=body, method=method, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=20) as r:
            r.read()
            return int(r.status)
    except urllib.error.HTTPError as exc:
        return int(exc.code)


def _create(port: int, game: str, players: int, source: str = "127.0.0.1") -> dict[str, Any]:
    seats = [{"kind": "human", "name": "P"}] + [{"kind": "computer", "player": "heuristic"}] * (players - 1)
    status, out = create_from(source, port, {"game": game, "players": players, "seats": seats})
    if status != 201:
        raise RuntimeError(f"a table could not be created from {source}: HTTP {status} {out}")
    return dict(out)


# --------------------------------------------------------------- honest people


async def _person(port: int, table: dict[str, Any], fig: Figures, stop: asyncio.Event, seed: int) -> None:
    """Seat 0 of ``table``: plays each turn at once until the game ends or the run stops; reconnects."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import WebSocketException

    rng = random.Random(seed)
    tid = table["id"]
    url = f"ws://127.0.0.1:{port}/ws/tables/{tid}"
    offered: Any = seat_subprotocols(table["seats"][0]["token"])
    loop = asyncio.get_running_loop()
    pending: tuple[int, float] | None = None
    acked_at: float | None = None
    first = True
    while not stop.is_set():
        try:
            async with connect(
                url, subprotocols=offered, open_timeout=10, max_size=None, ping_interval=None
            ) as ws:
                if not first:
                    fig.reconnects += 1
                first = False
                drop_at = loop.time() + rng.uniform(10, 60)  # people drop now and then
                while not stop.is_set():
                    try:
                        raw = await asyncio.wait_for(ws.recv(), 1.0)
                    except asyncio.TimeoutError:
                        raw = None
                    if loop.time() >= drop_at and pending is None:
                        fig.attacks["people dropped and reconnected"] += 1
                        break
                    if raw is None:
                        continue
                    m = json.loads(raw)
                    if m["type"] == "error":
                        fig.refusals[f"honest: {m['code']}"] += 1
                        pending = None
                        continue
                    if m["type"] != "state":
                        continue
                    seq, view = m["seq"], m["view"]
                    if pending is not None and seq > pending[0]:
                        if seq == pending[0] + 1:
                            fig.acked[tid] += 1
                            fig.latencies.append(loop.time() - pending[1])
                            fig.by_phase[fig.flooding].append(loop.time() - pending[1])
                            acked_at = loop.time()
                        else:
                            fig.uncertain[tid] += 1
                        pending = None
                    if view["game_over"]:
                        return
                    if view["to_act"] == 0 and view["legal"] and pending is None:
                        if acked_at is not None:
                            fig.turnaround[fig.flooding].append(loop.time() - acked_at)
                            acked_at = None
                        move = rng.choice(view["legal"])
                        pending = (seq, loop.time())
                        await ws.send(json.dumps({"type": "act", "action": move["id"], "seq": seq}))
        except (OSError, WebSocketException, asyncio.TimeoutError):
            pass
        acked_at = None  # a reconnection's wait is not the computers'
        if pending is not None:  # cut off before its answer: stored or not, nobody can tell
            fig.uncertain[tid] += 1
            pending = None
        if not stop.is_set():
            await asyncio.sleep(rng.uniform(0.1, 1.0))


# -------------------------------------------------------------------- attackers


async def _every(seconds: float, stop: asyncio.Event) -> bool:
    try:
        await asyncio.wait_for(stop.wait(), seconds)
    except asyncio.TimeoutError:
        return True
    return False


async def _killer(server: _Server, fig: Figures, stop: asyncio.Event) -> None:
    while await _every(KILL_EVERY, stop):
        server.kill9()
        fig.kills += 1
        fig.restarts.append(await asyncio.to_thread(server.start))


async def _flood(port: int, fig: Figures, stop: asyncio.Event) -> None:
    """Hundreds of connections at once, each held a moment."""
    while await _every(7.0, stop):
        held: list[asyncio.StreamWriter] = []
        for _ in range(300):
            try:
                _r, w = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), 2)
                held.append(w)
            except (OSError, asyncio.TimeoutError):
                fig.refusals["flood: connection refused or timed out"] += 1
        fig.attacks["flood connections"] += len(held)
        await asyncio.sleep(1.0)
        for w in held:
            w.close()


async def _half_sent(port: int, fig: Figures, stop: asyncio.Event) -> None:
    """Sockets that send half a request and stop: each must be cut by the server."""
    while await _every(9.0, stop):
        socks: list[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = []
        for _ in range(100):
            try:
                r, w = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), 2)
                w.write(b"GET / HTTP/1.1\r\n")
                socks.append((r, w))
            except (OSError, asyncio.TimeoutError):
                fig.refusals["half-sent: connection refused"] += 1
        fig.attacks["half-sent requests"] += len(socks)
        for r, w in socks:
            try:
                data = await asyncio.wait_for(r.read(100), 8)  # the request timeout is 5 s
                fig.refusals["half-sent: cut by the server"] += 1 if data == b"" else 0
            except asyncio.TimeoutError:
                fig.problems.append("a half-sent request was held past the request timeout")
            except OSError:
                fig.refusals["half-sent: cut by the server"] += 1
            w.close()


def _non_reader(port: int, table: dict[str, Any], fig: Figures) -> None:
    """A spectator that sends junk fast and never reads what comes back: it must be cut."""
    from websockets.client import ClientProtocol
    from websockets.uri import parse_uri

    ws = ClientProtocol(parse_uri(f"ws://127.0.0.1:{port}/ws/tables/{table['id']}"))
    with socket.socket() as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.settimeout(15)
        try:
            sock.connect(("127.0.0.1", port))
            ws.send_request(ws.connect())
            sock.sendall(b"".join(ws.data_to_send()))
            head = b""
            while b"\r\n\r\n" not in head:
                byte = sock.recv(1)
                if not byte:
                    fig.refusals["non-reader: refused at connect"] += 1
                    return
                head += byte
            ws.receive_data(head)
            ws.events_received()
            for _ in range(100_000):
                ws.send_text(b"x")
            sock.sendall(b"".join(ws.data_to_send()))
            fig.attacks["non-reading clients"] += 1
            deadline = time.monotonic() + 15
            while time.monotonic() < deadline:
                sock.sendall(b"\x81\x80\x00\x00\x00\x00")  # more of nothing, masked, empty
                time.sleep(0.2)
            fig.problems.append("a client that does not read was not cut within 15 s")
        except OSError:
            fig.refusals["non-reader: cut by the server"] += 1


async def _non_readers(port: int, table: dict[str, Any], fig: Figures, stop: asyncio.Event) -> None:
    while await _every(11.0, stop):
        await asyncio.to_thread(_non_reader, port, table, fig)


def hostile_messages(seq: int) -> list[str]:
    """Malformed messages for a table at ``seq`` (the last one is over the limit: it closes)."""
    return [
        "[" * 3000,
        f'{{"type": "act", "seq": {seq}, "action": ' + "[" * 1500 + "]" * 1500 + "}",
        json.dumps({"type": "act", "seq": seq, "action": "9 play TH"}),
        json.dumps({"type": "act", "seq": seq, "action": "-1 play TH"}),
        "\x00\xff",
        json.dumps({"type": "rematch"}),
        json.dumps({"type": "hint", "seq": -1}),
        json.dumps({"type": "act", "seq": seq, "action": "\u2665" * 1500}, ensure_ascii=False),
    ]


async def _hostile_messages(port: int, table: dict[str, Any], fig: Figures, stop: asyncio.Event) -> None:
    """Malformed messages on a seat of the attacker's own table: each gets an error, nothing breaks."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed, WebSocketException

    url = f"ws://127.0.0.1:{port}/ws/tables/{table['id']}"
    offered: Any = seat_subprotocols(table["seats"][0]["token"])
    while await _every(3.0, stop):
        try:
            async with connect(
                url, subprotocols=offered, open_timeout=10, max_size=None, ping_interval=None
            ) as ws:
                first = json.loads(await asyncio.wait_for(ws.recv(), 10))
                if first["type"] != "state":
                    fig.refusals[f"hostile message: {first['code']}"] += 1
                    continue
                for text in hostile_messages(first["seq"]):
                    await ws.send(text)
                    while True:
                        m = json.loads(await asyncio.wait_for(ws.recv(), 10))
                        if m["type"] == "error":
                            fig.refusals[f"hostile message: {m['code']}"] += 1
                            break
                    fig.attacks["hostile messages"] += 1
        except ConnectionClosed as exc:
            if exc.rcvd is None or exc.rcvd.code not in (1009, 1013):  # too large, or a kill
                fig.refusals["hostile message: connection closed"] += 1
        except (OSError, WebSocketException, asyncio.TimeoutError):
            pass


async def _reconnect_loop(port: int, table: dict[str, Any], fig: Figures, stop: asyncio.Event) -> None:
    """One seat opened again and again: the per-seat limit refuses it soon."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import WebSocketException

    url = f"ws://127.0.0.1:{port}/ws/tables/{table['id']}"
    offered: Any = seat_subprotocols(table["seats"][0]["token"])
    while not stop.is_set():
        try:
            async with connect(
                url, subprotocols=offered, open_timeout=5, max_size=None, ping_interval=None
            ) as ws:
                m = json.loads(await asyncio.wait_for(ws.recv(), 5))
                fig.attacks["seat reconnects"] += 1
                if m["type"] == "error":
                    fig.refusals[f"seat reconnect loop: {m['code']}"] += 1
        except (OSError, WebSocketException, asyncio.TimeoutError):
            await asyncio.sleep(0.2)
        await asyncio.sleep(0.02)


JSON = "application/json"


def _other_sites(port: int, fig: Figures) -> None:
    body = json.dumps({"game": "deerpark"}).encode()
    rebinding = {
        "Content-Type": JSON,
        "Host": f"evil.example:{port}",
        "Origin": f"http://evil.example:{port}",
    }
    tries: list[tuple[str, bytes, dict[str, str]]] = [
        ("text/plain from anywhere", body, {"Content-Type": "text/plain"}),
        ("another origin", body, {"Content-Type": "application/json", "Origin": "https://evil.example"}),
        ("cross-site fetch", body, {"Content-Type": "application/json", "Sec-Fetch-Site": "cross-site"}),
        ("DNS rebinding", body, rebinding),
        ("deep JSON", b"[" * 60_000, {"Content-Type": "application/json"}),
        ("3,000,000 players", b'{"game": "hucklebuck", "players": 3000000}', {"Content-Type": JSON}),
    ]
    for name, data, headers in tries:
        try:
            status = _request(port, "POST", "/api/tables", data, headers)
        except OSError:
            continue  # the server is being restarted
        fig.attacks["requests of other sites, or past their bounds"] += 1
        if status == 201:
            fig.problems.append(f"{name}: a table was created")
        fig.refusals[f"HTTP {status}: {name}"] += 1


async def _cross_site(port: int, fig: Figures, stop: asyncio.Event) -> None:
    while await _every(2.0, stop):
        await asyncio.to_thread(_other_sites, port, fig)


async def _wal(db: str, fig: Figures, stop: asyncio.Event, began: float) -> None:
    while await _every(1.0, stop):
        try:
            size = os.path.getsize(db + "-wal")
        except OSError:
            size = 0
        fig.wal.append((time.monotonic() - began, size))


# ------------------------------------------------------------------------ run


async def _attack(
    server: _Server, honest: list[dict[str, Any]], own: list[dict[str, Any]], hinted: list[dict[str, Any]],
    fig: Figures,
) -> None:  # fmt: skip
    stop = asyncio.Event()
    began = time.monotonic()
    port = server.port
    tasks = [asyncio.create_task(_person(port, t, fig, stop, i)) for i, t in enumerate(honest)]
    tasks += [
        asyncio.create_task(_killer(server, fig, stop)),
        asyncio.create_task(_flood(port, fig, stop)),
        asyncio.create_task(_half_sent(port, fig, stop)),
        asyncio.create_task(_non_readers(port, own[0], fig, stop)),
        asyncio.create_task(_hostile_messages(port, own[1], fig, stop)),
        asyncio.create_task(_reconnect_loop(port, own[2], fig, stop)),
        asyncio.create_task(_cross_site(port, fig, stop)),
        asyncio.create_task(_wal(server.db, fig, stop, began)),
    ]
    tasks += floods(port, lambda: server.proc.pid if server.proc else None, own[0], hinted, fig, stop)
    await asyncio.sleep(fig.seconds)
    stop.set()
    await asyncio.wait(tasks, timeout=60)
    for t in tasks:
        t.cancel()


def _check(db: str, fig: Figures, honest: list[dict[str, Any]]) -> None:
    """Every stored game restores; each person's acknowledged moves are stored, none twice."""
    from ..cli.common import GAMES as SPECS
    from ..server.manager import replay_moves
    from ..server.store import SQLiteStore

    by_kind = {s.kind.value: s.game_type for s in SPECS.values()}
    store = SQLiteStore(db)
    rows = {row.id: row for row in store.load_all()}
    store.close()
    fig.stored_tables = len(rows)
    fig.honest_tables = len(honest)
    for t in honest:
        row = rows.get(t["id"])
        if row is None:
            fig.problems.append(f"table {t['id']}: not stored")
            continue
        data = json.loads(row.game)
        game = by_kind[data["game"]].from_dict(data)  # replays and checks every step
        replay_moves(game, row.moves)
        mine = sum(1 for hand in game.to_dict()["hands"] for a in hand["actions"] if a.startswith("0 "))
        acked, unsure = fig.acked[t["id"]], fig.uncertain[t["id"]]
        if mine < acked:
            fig.problems.append(f"table {t['id']}: {acked - mine} acknowledged move(s) lost")
        if mine > acked + unsure:
            fig.problems.append(f"table {t['id']}: {mine - acked - unsure} move(s) stored twice")


def soak(seconds: float, tables: int | None = None) -> Figures:
    """One run: a fresh server and database, ``tables`` honest tables (default :data:`TABLES`)
    and the attackers, ``seconds`` long."""
    tables = TABLES if tables is None else tables
    fig = Figures(seconds)
    with tempfile.TemporaryDirectory() as tmp:
        db = os.path.join(tmp, "chaos.sqlite")
        server = _Server(db, _free_port(), os.path.join(tmp, "serve.log"))
        server.start()
        try:
            honest = [_create(server.port, *GAMES[i % len(GAMES)], honest_address(i)) for i in range(tables)]
            own = [_create(server.port, "deerpark", 4, "127.0.0.2") for _ in range(3)]
            hinted = [_create(server.port, "hucklebuck", 4, HINTER) for _ in range(HINT_TABLES)]
            asyncio.run(_attack(server, honest, own, hinted, fig))
        finally:
            status = server.stop()
        if status != 0:
            fig.problems.append(f"the server ended with status {status} at the last, clean stop")
        _check(db, fig, honest)
        known = len(honest) + 3 + HINT_TABLES + fig.flood_created
        if not known <= fig.stored_tables <= known + fig.flood_unsure:
            fig.problems.append(
                f"{fig.stored_tables - known} table(s) created by the attackers past their quotas"
            )
        with open(server.log, encoding="utf-8", errors="replace") as f:
            log = f.read()
        if "Traceback" in log:
            fig.problems.append("the server's log holds a traceback")
        fig.refusals["server log lines"] = len(log.splitlines())
    return fig


def _pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run(args: argparse.Namespace) -> None:
    """Print the run's figures (see the module docstring)."""
    try:
        import websockets  # noqa: F401
    except ImportError:
        print("skipped: needs the server extra (pip install 'hucklebuck[server]')")
        return
    seconds = max(30.0, SECONDS * args.scale)
    load = os.getloadavg()[0]
    print(f"chaos: {TABLES} tables at the default pace for {seconds:.0f} s, kill -9 every {KILL_EVERY:.0f} s "
          f"(loopback; load average {load:.1f} at the start)", flush=True)  # fmt: skip
    fig = soak(seconds)
    lat = fig.latencies
    print(f"honest moves acknowledged: {sum(fig.acked.values())} (p50 {_pct(lat, 0.5) * 1e3:.1f} ms, "
          f"p99 {_pct(lat, 0.99) * 1e3:.1f} ms, max {max(lat, default=0) * 1e3:.0f} ms); cut off by a kill "
          f"or a drop: {sum(fig.uncertain.values())}; reconnects: {fig.reconnects}")  # fmt: skip
    for flooding, words in ((False, "without the floods"), (True, "with floods of pings, creations, hints")):
        lat, turn = fig.by_phase[flooding], fig.turnaround[flooding]
        mem = [b for _t, b, on in fig.rss if on == flooding]
        print(f"    {words}: move to state p99 {_pct(lat, 0.99) * 1e3:.1f} ms ({len(lat)} moves); "
              f"computers' turn-around p50 {_pct(turn, 0.5):.2f} s, p99 {_pct(turn, 0.99):.2f} s "
              f"({len(turn)}); server memory peak {max(mem, default=0) / 2**20:.0f} MiB")  # fmt: skip
    restarts = ", ".join(f"{r:.1f}" for r in fig.restarts)
    print(f"kill -9: {fig.kills} (restarted, listening after: {restarts} s)")
    print("attacks: " + "; ".join(f"{k} {v}" for k, v in sorted(fig.attacks.items())))
    print("refusals and answers:")
    for k, v in sorted(fig.refusals.items()):
        print(f"    {k}: {v}")
    if fig.wal:
        peak = max(s for _t, s in fig.wal)
        marks = fig.wal[:: max(1, len(fig.wal) // 8)]
        print(f"write-ahead log: peak {peak / 2**20:.1f} MiB; over time: "
              + ", ".join(f"{t:.0f}s {s / 2**20:.1f}" for t, s in marks))  # fmt: skip
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")
    print(f"stored: {fig.stored_tables} tables ({fig.honest_tables} honest + {3 + HINT_TABLES} of the "
          f"attackers' + {fig.flood_created} of the creation flood, within its quotas); every acknowledged "
          f"move stored, none twice, no other table of the attackers': "
          f"{'yes' if not fig.problems else 'NO'}")  # fmt: skip
    for p in fig.problems[:20]:
        print(f"    PROBLEM: {p}")
    if fig.problems:
        raise SystemExit(1)
