"""Benchmark section ``cluster`` (opt-in: ``python -m hucklebuck.bench cluster``): several
table servers, SQLite and PostgreSQL side by side, and how fast a killed server's tables
play on.

*Tables held*: for 1 and 2 ``hucklebuck serve`` processes, with SQLite (each process its
own file: tables split between them, nothing shared) and with PostgreSQL (one database
shared by the processes, as behind HAProxy), the most tables of a ladder at which a
person's move is answered within 100 ms in 99 cases of 100, at the default pacing (one
scripted person and computer seats per table, as in section ``server``).  The people
connect to the process that holds their table (the proxy's hop is not measured here).
Each run also checks that no acknowledged move was lost or stored twice.

*Failover*: 2 processes behind HAProxy (``deploy/haproxy.cfg``) and PostgreSQL; one of
them is killed with ``kill -9`` again and again (and restarted); for each of its tables'
people, the time from the kill to the first state received after reconnecting, p50 and
p99; then every stored game is replayed and each person's stored moves compared with the
acknowledged ones.

Needs ``hucklebuck[postgres]``, Debian's ``postgresql`` (a throw-away cluster is started on
loopback, :mod:`hucklebuck.bench.pgtemp`) and ``haproxy``; loopback only, bounded in time.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from ..server.protocol import seat_subprotocols
from .server import GAMES, WARM_UP, Run, _check_store, _free_port, _pct, _Person, _post

__all__ = ["LADDER", "TARGET", "failover", "held", "measure", "run"]

HAPROXY_CFG = Path(__file__).resolve().parent.parent.parent / "deploy" / "haproxy.cfg"
"""The shipped HAProxy file (in a source checkout)."""
TARGET = 0.100
"""The p99 latency (seconds) a number of tables is held at."""
LADDER = (50, 100, 250, 350, 500, 750, 1000, 1500, 2000, 3000)
"""Table counts tried, in order, until one misses :data:`TARGET` twice in a row."""


def _serve(port: int, db: str, tables: int, *extra: str) -> subprocess.Popen[str]:
    cmd = [sys.executable, "-m", "hucklebuck", "serve", "--port", str(port), "--db", db,
           "--max-tables", str(tables + 10), "--max-connections", str(tables + 50),
           "--connect-rate", "1000", "--tables-per-address", str(tables + 10), "--create-rate", "100000",
           *extra]  # every client shares one address here  # fmt: skip
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    proc.stdout.readline()
    _wait(port)
    return proc


def _wait(port: int) -> None:
    import socket

    for _ in range(1000):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.02)
    raise RuntimeError(f"no server on port {port}")


def _stop(proc: subprocess.Popen[str], result: Run) -> None:
    proc.send_signal(signal.SIGCONT)
    proc.send_signal(signal.SIGTERM)
    try:
        _out, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        _out, err = proc.communicate()
    if proc.returncode not in (0, -9):
        result.problems.append(f"a server ended with status {proc.returncode}: {err.strip()[-300:]}")


def _seats(players: int) -> list[dict[str, Any]]:
    return [{"kind": "human", "name": "P"}] + [{"kind": "computer", "player": "heuristic"}] * (players - 1)


def _proc_cpu(pid: int, waited: bool = False) -> float:
    """CPU seconds of process ``pid`` (user + system; ``waited``: with its ended children's)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        ticks = sum(int(x) for x in fields[11 : 15 if waited else 13])
        return ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return 0.0


def _db_cpu(pg: Any) -> dict[int, float]:
    """CPU seconds of every PostgreSQL process now, by process id (the postmaster's own figure
    includes the backends that ended)."""
    if pg is None:
        return {}
    pids = pg.pids()
    return {pid: _proc_cpu(pid, waited=i == 0) for i, pid in enumerate(pids)}


def _mark(pids: list[int], pg: Any) -> tuple[float, dict[int, float], float]:
    return sum(_proc_cpu(pid) for pid in pids), _db_cpu(pg), time.process_time()


async def _people(
    targets: list[tuple[int, dict[str, Any]]], seconds: float, result: Run, pids: list[int], pg: Any = None
) -> float:
    """Play until ``seconds`` after the warm-up that follows the last connection; the end time.
    The CPU time of the servers, the database and this process in the timed part goes into ``result``."""
    loop = asyncio.get_running_loop()
    stop_at = loop.time() + 600  # until every connection is open (then set below)
    people: list[_Person] = []
    for port, t in targets:
        url = f"ws://127.0.0.1:{port}/ws/tables/{t['id']}"
        done: asyncio.Future[None] = loop.create_future()
        person = _Person(url, t["id"], stop_at, result, done, t["seats"][0]["token"])
        await loop.create_connection(lambda person=person: person, "127.0.0.1", port)  # type: ignore[misc]
        people.append(person)
    while result.connected < len(people) and not all(p.done.done() for p in people):
        await asyncio.sleep(0.05)  # opening thousands of sockets on a busy machine takes a while,
    if result.connected == len(people):  # so the timed part starts once every one is open
        stop_at = result.ready_at + WARM_UP + seconds
        for p in people:
            p.stop_at = stop_at
    marks: list[tuple[float, dict[int, float], float]] = []
    loads: list[float] = []
    while not all(p.done.done() for p in people):
        await asyncio.sleep(0.05)
        now = loop.time()
        for p in people:
            p.check(now)
        if len(marks) < 2 and now >= (result.ready_at + WARM_UP if not marks else stop_at):
            marks.append(_mark(pids, pg))
            loads.append(os.getloadavg()[0])
    if len(marks) == 2:
        (s0, d0, c0), (s1, d1, c1) = marks
        result.cpu = s1 - s0
        result.db_cpu = sum(v - d0.get(pid, 0.0) for pid, v in d1.items())
        result.client_cpu = c1 - c0
        result.load = (loads[0], loads[1])
    return stop_at


def _check_postgres(url: str, result: Run) -> None:
    """Replay every stored game and compare each person's stored moves with the acknowledged ones."""
    import psycopg

    from ..cli.common import GAMES as SPECS
    from ..server.manager import replay_moves

    by_kind = {s.kind.value: s.game_type for s in SPECS.values()}
    with psycopg.connect(url) as con:
        rows = con.execute(b"SELECT id, game FROM tables").fetchall()
        moves: dict[str, list[str]] = {}
        for table_id, action in con.execute(b"SELECT table_id, action FROM moves ORDER BY table_id, seq"):
            moves.setdefault(table_id, []).append(action)
    for table_id, text in rows:
        data = json.loads(text)
        game = by_kind[data["game"]].from_dict(data)
        replay_moves(game, moves.get(table_id, []))
        mine = sum(1 for hand in game.to_dict()["hands"] for a in hand["actions"] if a.startswith("0 "))
        acked = result.acked.get(table_id)
        if acked is not None and mine != acked:
            result.problems.append(
                f"table {table_id}: {mine} stored moves of the person, {acked} acknowledged"
            )


def measure(store: str, processes: int, tables: int, seconds: float, pg: Any = None) -> Run:
    """One run: ``processes`` fresh servers on ``store`` (``sqlite``: a file each; ``postgres``:
    one fresh database on ``pg``), ``tables`` tables split between them, played for ``seconds``."""
    from .pgtemp import fresh_database

    result = Run(tables, seconds, 0.8, 2.0)
    with tempfile.TemporaryDirectory() as tmp:
        dbs = [os.path.join(tmp, f"bench{i}.sqlite") for i in range(processes)]
        if store == "postgres":
            dbs = [fresh_database(pg)] * processes
        ports = [_free_port() for _ in range(processes)]
        procs = [_serve(port, db, tables) for port, db in zip(ports, dbs, strict=True)]
        try:
            targets = []
            for i in range(tables):
                game, players = GAMES[i % len(GAMES)]
                port = ports[i % processes]
                targets.append(
                    (port, _post(port, {"game": game, "players": players, "seats": _seats(players)}))
                )

            async def play() -> None:
                pids = [p.pid for p in procs]
                stop_at = await _people(targets, seconds, result, pids, pg if store == "postgres" else None)
                if not result.latencies and not result.samples:
                    result.problems.append("no move was timed")
                warm = result.ready_at + WARM_UP
                result.latencies = [lat for sent, lat in result.samples if sent >= warm]
                changes = 0
                for seen in result.seqs:
                    inside = [q for t, q in seen if warm <= t <= stop_at]
                    changes += inside[-1] - inside[0] if len(inside) > 1 else 0
                result.window = max(1e-9, stop_at - warm)
                result.rate = changes / result.window

            asyncio.run(play())
        finally:
            for proc in procs:
                _stop(proc, result)
        if store == "postgres":
            _check_postgres(dbs[0], result)
        else:
            for db in dbs:
                _check_store(db, result)
    return result


def cores(r: Run) -> dict[str, float]:
    """CPU-seconds a second (cores busy) in ``r``'s timed part: servers, database, clients."""
    w = max(1e-9, r.window)
    return {"servers": r.cpu / w, "database": r.db_cpu / w, "clients": r.client_cpu / w}


def _cpu_line(r: Run) -> str:
    changes = max(1.0, r.rate * r.window)
    parts = cores(r)
    per = {"servers": r.cpu, "database": r.db_cpu, "clients": r.client_cpu}
    return (
        "cores busy (ms CPU a change): "
        + ", ".join(f"{name} {parts[name]:.2f} ({per[name] / changes * 1e3:.2f})" for name in parts)
        + f", all {sum(parts.values()):.2f}"
    )


def ceiling(r: Run, cpus: int) -> tuple[float, float]:
    """The most tables ``cpus`` busy cores could hold at ``r``'s CPU cost per table, and its ratio to
    ``r.tables``: how far the machine allows more processes to go, whatever their number."""
    used = sum(cores(r).values())
    if used <= 0:
        return float("nan"), float("nan")
    most = cpus * r.tables / used
    return most, most / r.tables


def held(
    store: str, processes: int, seconds: float, pg: Any, ladder: tuple[int, ...] = LADDER
) -> tuple[int, list[Run], Run | None]:
    """The most tables of ``ladder`` held at p99 ≤ :data:`TARGET` (0 if none), every run made,
    and the run that held them."""
    best, runs, best_run = 0, [], None
    for tables in ladder:
        for _attempt in range(2):  # a step that misses is tried once more (the machine may be busy)
            r = measure(store, processes, tables, seconds, pg)
            runs.append(r)
            p99 = _pct(r.latencies, 0.99)
            if r.problems or p99 <= TARGET:
                break
        print(f"    {store:<8} {processes} process(es) {tables:>5} tables: p99 {p99 * 1e3:7.1f} ms, "
              f"{r.rate:6.0f} changes/s, {_cpu_line(r)}, "
              f"load {r.load[0]:.1f}-{r.load[1]:.1f}, {'ok' if not r.problems else r.problems[:2]}",
              flush=True)  # fmt: skip
        if r.problems or not p99 <= TARGET:
            break
        best, best_run = tables, r
    return best, runs, best_run


class _Reconnecting:
    """A scripted person through the proxy who reconnects at once when the connection drops."""

    def __init__(self, port: int, table: dict[str, Any]) -> None:
        self.port, self.table = port, table
        self.acked = 0
        self.last_seq = -1
        self.first_state_after: list[float] = []
        self.problems: list[str] = []

    async def run(self, stop: asyncio.Event, kills: list[float]) -> None:
        from websockets.asyncio.client import connect

        token = self.table["seats"][0]["token"]
        url = f"ws://127.0.0.1:{self.port}/ws/tables/{self.table['id']}"
        offered: Any = seat_subprotocols(token)
        sent: int | None = None
        waiting = False
        while not stop.is_set():
            try:
                async with connect(url, open_timeout=5, close_timeout=1, subprotocols=offered) as ws:
                    first = True
                    async for raw in ws:
                        m = json.loads(raw)
                        if m["type"] == "error":
                            if m["code"] in ("busy", "stale"):
                                sent = None
                            continue
                        if waiting and kills:
                            self.first_state_after.append(time.monotonic() - kills[-1])
                            waiting = False
                        seq = m["seq"]
                        if seq < self.last_seq:
                            self.problems.append(f"went back from {self.last_seq} to {seq}")
                        if sent is not None and seq > sent:
                            self.acked += 1
                            sent = None
                        elif sent is not None and first and seq == sent:
                            sent = None
                        first = False
                        self.last_seq = seq
                        view = m["view"]
                        if stop.is_set() or view["game_over"]:
                            return
                        if view["to_act"] == 0 and sent is None and view["legal"]:
                            await ws.send(
                                json.dumps({"type": "act", "action": view["legal"][0]["id"], "seq": seq})
                            )
                            sent = seq
            except Exception:
                pass
            waiting = True
            await asyncio.sleep(0.05)


def failover(pg: Any, kills: int, tables: int = 30) -> tuple[list[float], Run]:
    """``kills`` kill -9s of one of 2 servers behind HAProxy; the times from each kill to the first
    state each of its people received again, and the check of the stored games."""
    from .pgtemp import fresh_database

    url = fresh_database(pg)
    result = Run(tables, 0.0, 0.3, 0.5)
    folder = Path(tempfile.mkdtemp(prefix="hb-bench-"))
    ports = [_free_port() for _ in range(2)]
    pace = ("--bot-pause", "0.3", "--deal-pause", "0.5", "--grace", "600")
    procs = [_serve(port, url, tables, *pace) for port in ports]
    cfg = HAPROXY_CFG
    proxy_port = _free_port()
    text = re.sub(r"(?m)^    bind .*$", f"    bind 127.0.0.1:{proxy_port}", cfg.read_text(encoding="utf-8"))
    text = re.sub(r"(?m)^    server s3 .*\n", "", text)
    for i, port in enumerate(ports, 1):
        text = re.sub(rf"(?m)^(    server s{i}) [0-9.]+:8000", rf"\1 127.0.0.1:{port}", text)
    (folder / "haproxy.cfg").write_text(text, encoding="utf-8")
    binary = shutil.which("haproxy") or "/usr/sbin/haproxy"
    quiet = subprocess.DEVNULL
    proxy = subprocess.Popen([binary, "-db", "-f", str(folder / "haproxy.cfg")], stdout=quiet, stderr=quiet)
    times: list[float] = []
    try:
        _wait(proxy_port)
        time.sleep(2.5)
        made = []
        for i in range(tables):
            game, players = GAMES[i % len(GAMES)]
            made.append(_post(proxy_port, {"game": game, "players": players, "seats": _seats(players)}))
        people = [_Reconnecting(proxy_port, t) for t in made]
        rng = random.Random(38)

        async def play() -> None:
            stop = asyncio.Event()
            marks: list[float] = []
            tasks = [asyncio.create_task(p.run(stop, marks)) for p in people]
            await asyncio.sleep(3)
            for _ in range(kills):
                victim = rng.randrange(2)
                before = [len(p.first_state_after) for p in people]
                procs[victim].send_signal(signal.SIGKILL)
                marks.append(time.monotonic())
                procs[victim].wait(10)
                await asyncio.sleep(6)  # the failover, then some play
                for p, n in zip(people, before, strict=True):
                    times.extend(p.first_state_after[n:])
                procs[victim] = await asyncio.to_thread(_serve, ports[victim], url, tables, *pace)
                await asyncio.sleep(3)  # back in HAProxy's rotation
            stop.set()
            await asyncio.wait(tasks, timeout=30)

        asyncio.run(play())
        for p in people:
            result.acked[p.table["id"]] = p.acked
            result.problems.extend(f"table {p.table['id']}: {x}" for x in p.problems)
    finally:
        proxy.terminate()
        proxy.wait(10)
        for proc in procs:
            _stop(proc, result)
        shutil.rmtree(folder, ignore_errors=True)
    _check_postgres(url, result)
    return times, result


def _report(found: dict[tuple[str, int], tuple[int, Run | None]]) -> None:
    """The capacities, where the CPU went at each, and the ceiling the machine's cores allow."""
    cpus = os.cpu_count() or 1
    print(f"{'store':<10} {'1 process':>10} {'2 processes':>12} {'ratio':>6}")
    for store in ("sqlite", "postgres"):
        one, two = found[(store, 1)][0], found[(store, 2)][0]
        print(f"{store:<10} {one:>10} {two:>12} {two / one if one else float('nan'):>6.2f}")
    print(f"CPU at each capacity, cores busy (ms CPU a change) per component; {cpus} cores here:")
    for (store, processes), (n, at) in found.items():
        if at is not None:
            print(
                f"  {store:<8} {processes} process(es) {n:>5} tables, {at.rate:5.0f} changes/s: "
                f"{_cpu_line(at)}"
            )
    print(
        "ceiling: the tables every core busy would hold at the one-process cost per table "
        "(it means something only where the one-process capacity is the server's own limit, "
        "on a quiet machine)"
    )
    for store in ("sqlite", "postgres"):
        n, at = found[(store, 1)]
        if at is None:
            continue
        used = sum(cores(at).values())
        most, ratio = ceiling(at, cpus)
        no_clients = cpus * n / max(1e-9, used - cores(at)["clients"]) / max(1, n)
        print(
            f"  {store:<8} 1 process holds {n} tables using {used:.2f} cores: {cpus} cores hold at most "
            f"{most:.0f} = {ratio:.2f}x ({no_clients:.2f}x with the clients on other machines); "
            f"1.7x would keep {1.7 * used:.2f} of the {cpus} cores busy"
        )


def run(args: argparse.Namespace) -> None:
    """Print the figures (see the module docstring)."""
    try:
        import psycopg  # noqa: F401
        import websockets  # noqa: F401
    except ImportError:
        print("skipped: needs the postgres extra (pip install 'hucklebuck[postgres]')")
        return
    from .pgtemp import start_postgres

    try:
        pg = start_postgres(durable=True)
    except (FileNotFoundError, RuntimeError, subprocess.CalledProcessError) as exc:
        print(f"skipped: no PostgreSQL to start ({exc})")
        return
    try:
        seconds = max(4.0, 10.0 * args.scale)
        print(
            f"tables held at p99 <= {TARGET * 1e3:.0f} ms ({seconds:.0f} s timed per step, default pacing; "
            "loopback, servers and clients on this machine's cores with anything else running)"
        )
        print(f"load average now: {os.getloadavg()[0]:.1f}")
        found: dict[tuple[str, int], tuple[int, Run | None]] = {}
        for store in ("sqlite", "postgres"):
            for processes in (1, 2):
                n, _runs, at = held(store, processes, seconds, pg)
                found[(store, processes)] = (n, at)
        _report(found)
        if shutil.which("haproxy") is None and not os.path.exists("/usr/sbin/haproxy"):
            print("failover: skipped (haproxy is not installed)")
            return
        if not HAPROXY_CFG.is_file():
            print("failover: skipped (deploy/haproxy.cfg is in a source checkout only)")
            return
        kills = max(4, int(10 * args.scale))
        times, r = failover(pg, kills)
        print(f"failover, {kills} kill -9s of one of 2 servers behind HAProxy: {len(times)} reconnections, "
              f"kill to first state p50 {_pct(times, 0.5):.2f} s, p99 {_pct(times, 0.99):.2f} s; "
              f"{'0 lost or doubled moves' if not r.problems else r.problems[:3]}")  # fmt: skip
        print(f"load average now: {os.getloadavg()[0]:.1f}")
    finally:
        pg.stop()
