"""Benchmark section ``server`` (opt-in: ``python -m hucklebuck.bench server``).

Starts ``hucklebuck serve`` as its own process on a free loopback port, creates
N tables (N = 10, 100, 1000, 2000; the three games in turn), each with one scripted
person and computer seats (the quick ``heuristic`` player), and plays for a
fixed time over real WebSockets.  The scripted people answer at once; the
computer seats and the deals keep the server's pacing (``--bot-pause``,
``--deal-pause``), as at real tables.  A last run without pauses shows how many
actions a second the server takes when nothing waits.

Each run at the default pace is followed by its floor (:mod:`hucklebuck.bench.server_floor`): a
bare asyncio server that only stores and writes each change, for as many connections at the same
pace, measured the same way.  Its CPU per change is passed to the 0.3 ms target as the machine's
own figure: a miss the floor misses too is marked as the host's.

First, in this process, the CPU a table's state message costs as the server makes it and
built afresh (:mod:`hucklebuck.bench.server_views`).  Reported per run: actions a second
(all seats), p50/p99 latency from a person's action to the state it produces (timed from 3 s after the last
connection opened), the server's memory per table, the CPU time per change of
the server and of the scripted people (in the timed part), the machine's load
average meanwhile, and
a check that nothing was lost or doubled: after a clean stop every stored game
is restored (which replays and checks every step), and each person's stored
actions are exactly the ones the server acknowledged to them.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from dataclasses import dataclass, field
from typing import Any

from . import targets

__all__ = ["Run", "changes_between", "measure", "run"]

GAMES = (("deerpark", 4), ("hucklebuck", 4), ("buckem", 5))
CPU_PER_CHANGE_MS = 0.3
"""The target: the server's CPU milliseconds per table change (a move stored, broadcast and
answered), at the default pace; an absolute figure, shown met or missed, never guarded."""
P99_MS_2000 = 100.0
"""The target: at 2,000 tables and the default pace, one server process answers a person's move
within this many milliseconds in 99 cases of 100 (on a quiet core: an absolute figure, shown met
or missed, never guarded)."""
WARM_UP = 3.0
"""Seconds after the last connection opens before moves are timed."""


@dataclass
class Run:
    """One measurement."""

    tables: int
    seconds: float
    bot_pause: float
    deal_pause: float
    latencies: list[float] = field(default_factory=list)
    samples: list[tuple[float, float]] = field(default_factory=list)
    """(time sent, latency) of every move; :attr:`latencies` keeps those after the warm-up."""
    connected: int = 0
    ready_at: float = float("inf")
    seqs: list[list[tuple[float, int]]] = field(default_factory=list)
    """Per table, (time, seq) of each state its person received."""
    rate: float = 0.0
    """Table changes a second (moves, deals) in the timed part of the run."""
    window: float = 0.0
    """Seconds the timed part of the run lasted."""
    acked: dict[str, int] = field(default_factory=dict)
    actions: int = 0
    rss_before: int = 0
    rss_tables: int = 0
    server_pid: int = 0
    cpu: float = 0.0
    """CPU seconds the server used (with its threads) in the timed part of the run."""
    client_cpu: float = 0.0
    """CPU seconds this process (the scripted people) used in the timed part of the run."""
    db_cpu: float = 0.0
    """CPU seconds the database's own processes used in the timed part (PostgreSQL only)."""
    marks: tuple[float, float] = (0.0, 0.0)
    """The event loop times at which the timed part began and ended (the server's CPU read)."""
    load: tuple[float, float] = (0.0, 0.0)
    """The machine's load average (1 minute) as the timed part began and as it ended."""
    problems: list[str] = field(default_factory=list)
    wal_peak: int = 0
    """The largest size of the database's write-ahead log seen during the run, in bytes."""
    texts: int = 0
    """Messages the scripted people received (their sizes summed in :attr:`text_bytes`)."""
    text_bytes: int = 0
    """The bytes of the messages counted in :attr:`texts`."""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _rss_kib(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def _post(port: int, body: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/tables",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(req, timeout=60) as r:
        out: dict[str, Any] = json.loads(r.read())
        return out


class _Person(asyncio.Protocol):
    """One scripted person: acts at once on each turn until ``stop_at``, then waits for the last answer.

    A bare protocol on websockets' sans-I/O core (no task, no timeout per message), so that a
    thousand of them cost the benchmark's process little and its own delays stay out of the
    figures it measures.
    """

    def __init__(
        self, url: str, table_id: str, stop_at: float, result: Run, done: asyncio.Future[None],
        token: str | None = None,
    ) -> None:  # fmt: skip
        from websockets.client import ClientProtocol
        from websockets.uri import parse_uri

        from ..server.protocol import seat_subprotocols

        offered: Any = seat_subprotocols(token)  # the seat token goes in a header, never in the url
        self.ws = ClientProtocol(parse_uri(url), max_size=None, subprotocols=offered)
        self.table_id, self.stop_at, self.result, self.done = table_id, stop_at, result, done
        self.loop = asyncio.get_running_loop()
        self.transport: asyncio.Transport | None = None
        self.pending: tuple[int, float] | None = None
        self.acked = 0
        self.seen: list[tuple[float, int]] = []
        self.open = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        self.ws.send_request(self.ws.connect())
        self._flush()

    def _flush(self) -> None:
        if self.transport is not None and not self.transport.is_closing():
            data = self.ws.data_to_send()
            if data:
                self.transport.write(b"".join(data))

    def data_received(self, data: bytes) -> None:
        from websockets.frames import Frame, Opcode
        from websockets.http11 import Response

        self.ws.receive_data(data)
        for event in self.ws.events_received():
            if isinstance(event, Response):
                if self.ws.handshake_exc is not None:
                    self._end(f"the connection was refused: {self.ws.handshake_exc}")
                    return
                self.open = True
                self.result.connected += 1
                self.result.seqs.append(self.seen)
                if self.result.connected == self.result.tables:
                    self.result.ready_at = self.loop.time()
            elif isinstance(event, Frame) and event.opcode is Opcode.TEXT and not self.done.done():
                self.result.texts += 1
                self.result.text_bytes += len(event.data)
                self._message(json.loads(bytes(event.data)))
        self._flush()

    def _message(self, m: dict[str, Any]) -> None:
        now = self.loop.time()
        if m["type"] != "state":
            self.result.problems.append(f"table {self.table_id}: {m.get('code')}: {m.get('message')}")
            self.pending = None
            return
        seq, view = m["seq"], m["view"]
        self.seen.append((now, seq))
        if self.pending is not None and seq == self.pending[0] + 1:
            self.result.samples.append((self.pending[1], now - self.pending[1]))
            self.acked += 1
            self.pending = None
        if view["game_over"]:
            if now >= self.stop_at:
                self._end()
                return
            self._send({"type": "rematch"})
            self.acked = 0  # the store keeps the current game: count its moves only
            return
        if now >= self.stop_at and self.pending is None:
            self._end()
        elif view["to_act"] == 0 and view["legal"] and self.pending is None:
            self.pending = (seq, now)
            self._send({"type": "act", "action": view["legal"][0]["id"], "seq": seq})

    def _send(self, message: dict[str, Any]) -> None:
        self.ws.send_text(json.dumps(message).encode())
        self._flush()

    def check(self, now: float) -> None:
        """Called every so often: stop once the time is up and no move waits for its answer."""
        if self.done.done():
            return
        if self.pending is not None and now - self.pending[1] > 30:
            self._end("no answer to a move within 30 s")
        elif self.pending is None and now >= self.stop_at:
            self._end()

    def _end(self, problem: str | None = None) -> None:
        from websockets.protocol import State

        if self.done.done():
            return
        if problem is not None:
            self.result.problems.append(f"table {self.table_id}: {problem}")
        self.result.acked[self.table_id] = self.acked
        if self.open and self.ws.state is State.OPEN:
            self.ws.send_close()
            self._flush()
        if self.transport is not None:
            self.transport.close()
        self.done.set_result(None)

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.done.done():
            self._end("the server closed the connection")


async def _people(port: int, tables: list[dict[str, Any]], stop_at: float, result: Run) -> None:
    loop = asyncio.get_running_loop()
    people: list[_Person] = []
    for t in tables:
        url = f"ws://127.0.0.1:{port}/ws/tables/{t['id']}"
        done: asyncio.Future[None] = loop.create_future()
        person = _Person(url, t["id"], stop_at, result, done, t["seats"][0]["token"])
        await loop.create_connection(lambda person=person: person, "127.0.0.1", port)  # type: ignore[misc]
        people.append(person)
    marks: list[tuple[float, float, float, float]] = []  # (time, server CPU, own CPU, load)

    def mark() -> None:
        marks.append((loop.time(), _cpu_seconds(result.server_pid), time.process_time(), os.getloadavg()[0]))

    timed = False
    while not all(p.done.done() for p in people):
        await asyncio.sleep(0.05)
        now = loop.time()
        for p in people:
            p.check(now)
        if not timed and result.ready_at < stop_at:  # the marks fall due on the loop at their times
            timed = True
            loop.call_at(result.ready_at + WARM_UP, mark)
            loop.call_at(stop_at, mark)
    while timed and len(marks) < 2 and loop.time() < stop_at + 60:  # (the end mark may still be due)
        await asyncio.sleep(0.05)
    if len(marks) == 2 and marks[0][0] < marks[1][0]:
        result.marks = (marks[0][0], marks[1][0])
        result.cpu = marks[1][1] - marks[0][1]
        result.client_cpu = marks[1][2] - marks[0][2]
        result.load = (marks[0][3], marks[1][3])
    else:  # (a figure from no timed part would read as a measurement)
        result.problems.append(
            f"nothing was timed: {result.connected} of {result.tables} connections opened before the end"
        )


def changes_between(seen: list[tuple[float, int]], start: float, end: float) -> int:
    """The changes a table made between ``start`` and ``end``, from the (time, seq) of the states its
    person received (in order): the seq held at ``end`` less the seq held at ``start``.  Counting
    only the states received inside the window would miss the change that brought the first of
    them (one a table: some 4 % of the changes in 20 s at the default pace)."""
    before = after = seen[0][1] if seen else 0  # (the state the person got on joining, at worst)
    for t, seq in seen:
        if t <= start:
            before = seq
        if t <= end:
            after = seq
        else:
            break
    return max(0, after - before)


async def _play(port: int, tables: list[dict[str, Any]], seconds: float, result: Run) -> None:
    loop = asyncio.get_running_loop()
    stop_at = loop.time() + seconds + WARM_UP + 0.001 * len(tables)  # opening 1000 sockets takes a while
    await _people(port, tables, stop_at, result)
    warm = result.ready_at + WARM_UP  # the first seconds after every socket is open are not timed
    result.latencies = [lat for sent, lat in result.samples if sent >= warm]
    start, end = result.marks  # (the times the server's CPU was read: the same window for both)
    changes = sum(changes_between(seen, start, end) for seen in result.seqs)
    result.window = max(1e-9, end - start)
    result.rate = changes / result.window
    if not changes and not result.problems:
        result.problems.append("no table was seen to change in the timed part (the machine too busy?)")


def _check_store(db: str, result: Run) -> None:
    """Restore every stored game (replaying each step) and compare each person's actions with the acks."""
    from ..cli.common import GAMES as SPECS
    from ..server.manager import replay_moves
    from ..server.store import SQLiteStore

    by_kind = {s.kind.value: s.game_type for s in SPECS.values()}
    store = SQLiteStore(db)
    rows = store.load_all()
    store.close()
    total = 0
    for row in rows:
        data = json.loads(row.game)
        game = by_kind[data["game"]].from_dict(data)  # replays and checks every step
        replay_moves(game, row.moves)
        full = game.to_dict()
        if by_kind[data["game"]].from_dict(full).to_dict() != full:
            result.problems.append(f"table {row.id}: the game does not replay to the same state")
        mine = sum(1 for hand in full["hands"] for a in hand["actions"] if a.startswith("0 "))
        total += sum(len(hand["actions"]) for hand in full["hands"])
        acked = result.acked.get(row.id)
        if acked is not None and mine < acked:
            result.problems.append(f"table {row.id}: {acked - mine} acknowledged moves lost")
        if acked is not None and mine > acked:
            result.problems.append(f"table {row.id}: {mine - acked} moves stored twice")
    result.actions = total


def _watch_wal(db: str, result: Run, done: threading.Event) -> None:
    """Note the write-ahead log's largest size, twice a second, until ``done``."""
    while not done.wait(0.5):
        try:
            result.wal_peak = max(result.wal_peak, os.path.getsize(db + "-wal"))
        except OSError:
            pass


def _cpu_seconds(pid: int) -> float:
    """The CPU seconds process ``pid`` has used, its threads (also those that have ended) included:
    read from its CPU-time clock in nanoseconds where the system has one (Linux), else from
    ``/proc/PID/stat`` in clock ticks (10 ms).  (Adding up ``/proc/PID/task/*/schedstat`` would
    miss the threads that ended.)"""
    try:
        return time.clock_gettime((~pid << 3) | 2)  # the process's CPU clock (clock_getcpuclockid)
    except (OSError, AttributeError, OverflowError):
        pass
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return float("nan")


def measure(tables: int, seconds: float, *, bot_pause: float, deal_pause: float) -> Run:
    """One run: a fresh server and database, ``tables`` tables played for ``seconds``."""
    result = Run(tables, seconds, bot_pause, deal_pause)
    with tempfile.TemporaryDirectory() as tmp:
        db = os.path.join(tmp, "bench.sqlite")
        port = _free_port()
        cmd = [sys.executable, "-m", "hucklebuck", "serve", "--port", str(port), "--db", db,
               "--bot-pause", str(bot_pause), "--deal-pause", str(deal_pause), "--max-tables", str(tables),
               "--max-connections", str(tables + 10), "--takeover-player", "heuristic",
               "--connect-rate", "1000", "--tables-per-address", str(tables + 10),
               "--create-rate", "100000"]  # fmt: skip  # every person connects from this one address
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            assert proc.stdout is not None
            proc.stdout.readline()
            for _ in range(500):
                try:
                    with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                        break
                except OSError:
                    time.sleep(0.02)
            result.rss_before = _rss_kib(proc.pid)
            result.server_pid = proc.pid
            made = []
            for i in range(tables):
                game, players = GAMES[i % len(GAMES)]
                seats = [{"kind": "human", "name": "P"}] + [{"kind": "computer", "player": "heuristic"}] * (
                    players - 1
                )
                made.append(_post(port, {"game": game, "players": players, "seats": seats}))
            watching = threading.Event()
            watcher = threading.Thread(target=_watch_wal, args=(db, result, watching), daemon=True)
            watcher.start()
            asyncio.run(_play(port, made, seconds, result))
            watching.set()
            watcher.join()
            result.rss_tables = _rss_kib(proc.pid)
        finally:
            proc.send_signal(signal.SIGTERM)
            try:
                _out, err = proc.communicate(timeout=60)
            except subprocess.TimeoutExpired:
                proc.kill()
                _out, err = proc.communicate()
            if proc.returncode != 0:
                tail = err.strip()[-300:]
                result.problems.append(f"the server ended with status {proc.returncode}: {tail}")
        _check_store(db, result)
    return result


def _pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _line(r: Run) -> str:
    per_table = (r.rss_tables - r.rss_before) / max(1, r.tables)
    verdict = "ok" if not r.problems else f"{len(r.problems)} PROBLEMS"
    changes = max(1.0, r.rate * r.window)
    return (
        f"{r.tables:>6} {r.bot_pause:>5.1f}s {r.rate:>10.0f} {len(r.latencies):>7} "
        f"{_pct(r.latencies, 0.5) * 1e3:>7.1f} {_pct(r.latencies, 0.99) * 1e3:>7.1f} {per_table:>9.0f} "
        f"{r.cpu / changes * 1e3:>7.2f} {r.client_cpu / changes * 1e3:>7.2f} "
        f"{r.load[0]:>4.1f}-{r.load[1]:<4.1f} {r.wal_peak / 2**20:>7.1f}  {verdict}"
    )


def run(args: argparse.Namespace) -> None:
    """Print the load figures (see the module docstring)."""
    try:
        import websockets  # noqa: F401
    except ImportError:
        print("skipped: needs the server extra (pip install 'hucklebuck[server]')")
        return
    from . import server_floor
    from .server_views import measure_views

    for every, who in ((False, "the person's seat"), (True, "every seat and a spectator")):
        kept, afresh, texts = measure_views(max(300, int(3000 * args.scale)), every)
        print(
            f"state texts for {who}: {kept:.0f} µs of CPU a change from kept pieces, {afresh:.0f} µs "
            f"built afresh ({kept / afresh:.2f}x; alternating, {texts:,} texts, all equal)"
        )
    seconds = max(3.0, 20.0 * args.scale)
    print(f"{seconds:.0f} s of play per run; one scripted person per table, the others heuristic computers")
    print("(loopback; server and clients share this machine's cores with anything else running on it)")
    print(
        f"{'tables':>6} {'pause':>6} {'changes/s':>10} {'moves':>7} {'p50 ms':>7} {'p99 ms':>7} "
        f"{'KiB/table':>9} {'CPU ms':>7} {'client':>7} {'load':>9} {'WAL MiB':>7}"
    )
    plan = [(10, 0.8, 2.0), (100, 0.8, 2.0), (1000, 0.8, 2.0), (2000, 0.8, 2.0), (100, 0.0, 0.0)]
    for tables, bot_pause, deal_pause in plan:
        r = measure(tables, seconds, bot_pause=bot_pause, deal_pause=deal_pause)
        print(_line(r), flush=True)
        for p in r.problems[:5]:
            print(f"    {p}")
        if bot_pause > 0 and r.rate > 0 and not r.problems:  # (the default pace, a clean run)
            label = f"server CPU ms per change, {tables:,} tables (SQLite)"
            cpu = r.cpu / max(1.0, r.rate * r.window) * 1e3
            size = r.text_bytes // r.texts if r.texts else 1500
            low = server_floor.measure(tables, r.rate, max(5.0, seconds), size=size)
            print(
                f"    floor: a bare asyncio server that only stores and writes each change ({size:,}-byte "
                f"messages) at this pace: {low.cpu_ms:.2f} ms of CPU a change "
                f"(load {low.load[0]:.1f}-{low.load[1]:.1f}; the rest of a change: {cpu - low.cpu_ms:.2f} ms)"
            )
            verdict = targets.check(
                "server", label, cpu, CPU_PER_CHANGE_MS, higher=False, ratio=False, ceiling=low.cpu_ms
            )
            print("    " + verdict)
            if tables == 2000 and r.latencies:
                label = "p99 ms of a person's move, 2,000 tables (SQLite)"
                p99 = _pct(r.latencies, 0.99) * 1e3
                print("    " + targets.check("server", label, p99, P99_MS_2000, higher=False, ratio=False))
    print(
        "moves: the scripted people's moves timed (p50/p99: from sending one to the state it produces); "
        "changes/s: moves of every seat and deals; CPU ms: the server's CPU time per change, client: "
        "the scripted people's; load: the machine's load average as the timing began and ended; "
        "WAL MiB: the largest size of the database's write-ahead log during the run"
    )
