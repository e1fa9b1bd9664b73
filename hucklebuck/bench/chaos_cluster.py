"""Benchmark section ``chaos-cluster`` (opt-in: ``python -m hucklebuck.bench chaos-cluster``): the
soak of section ``chaos`` on several servers, on loopback only, stopping by itself (two minutes;
``--scale 15`` is half an hour).

A throw-away PostgreSQL with the advised settings (:mod:`hucklebuck.bench.pgtemp`), :data:`SERVERS`
``hucklebuck serve`` processes sharing it, and Debian's HAProxy with the shipped
``deploy/haproxy.cfg`` (its addresses made loopback ones) in front.  :data:`TABLES` tables each
have one scripted person (seat 0, playing through the proxy) and computer seats; a person
whose game ends sits down at a new table, so that people play all run long.  Every
:data:`FAULT_EVERY` seconds one fault, in turn:

* ``kill -9`` of a server (restarted at once on its port);
* ``SIGSTOP`` of a server for longer than its lease (:data:`STOPPED`), then ``SIGCONT``: the others
  take its tables over meanwhile, and its late writes must be refused;
* a PostgreSQL crash and restart (``pg_ctl stop -m immediate``, then start).

Beside the people, strangers attack through the proxy and straight at the servers:
percent-encoded table ids (which moved tables before), ids with a NUL or outside the id
alphabet, eight clients listing the tables in a loop, hostile messages on a seat and requests
of other sites (from section ``chaos``).

Matched, not counted: each person keeps every move the table acknowledged as ``(table, seq,
move)`` (a move sent at state ``s`` is acknowledged by any later state: at the person's turn
nobody else changes the table, so it is stored at ``s + 1``; a new connection that opens at
``s`` says it was not stored).  At the end every stored game is replayed, and each acknowledged
move must be found at its ``seq``: the same move (its id, worked out from the replayed state
before it; for a finished game, stored whole, its kind and cards), by seat 0.  A move lost,
stored at another ``seq`` or stored twice fails the run, as does a client that saw ``seq`` go
back, an attack answered other than 404, or a traceback in a server's log.

Reported: the p50/p99 latency of the honest moves; per fault kind, the failover time (from the
fault until every table being played answers ``GET /api/tables/ID`` through the proxy again) and
the people's reconnections (from a dropped connection to the next state); the hand-overs, the
attacks and their answers.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import signal
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..server.protocol import seat_subprotocols
from ._chaos_http import _answers, _get, _strange_paths
from .chaos import GAMES, _cross_site, _every, _hostile_messages, _pct, _Server

__all__ = ["Ack", "Figures", "proxy_config", "run", "soak"]

TABLES = 60
"""Tables with a scripted person."""
SERVERS = 3
SECONDS = 120.0
"""Length of the run at ``--scale 1``."""
FAULT_EVERY = 15.0
"""Seconds between two faults."""
STOPPED = 6.0
"""Seconds a server stays stopped (SIGSTOP): twice its lease."""
FAULTS = ("kill -9", "SIGSTOP past the lease", "PostgreSQL restart")
HAPROXY_CFG = Path(__file__).resolve().parent.parent.parent / "deploy" / "haproxy.cfg"


@dataclass(frozen=True)
class Ack:
    """A move the table acknowledged: stored at ``seq`` of ``table`` if all is well."""

    table: str
    seq: int
    move: int
    kind: str
    cards: tuple[str, ...]


@dataclass
class Figures:
    """What one run saw."""

    seconds: float
    servers: int
    latencies: list[float] = field(default_factory=list)
    acks: list[Ack] = field(default_factory=list)
    gaps: dict[str, list[float]] = field(default_factory=dict)
    """Per fault kind: seconds from a person's dropped connection to its next state."""
    failover: dict[str, list[float]] = field(default_factory=dict)
    """Per fault kind, per fault: seconds from the fault until every table being played answered
    ``GET /api/tables/ID`` through the proxy again (200)."""
    faults: list[tuple[float, str]] = field(default_factory=list)
    refusals: Counter[str] = field(default_factory=Counter)
    attacks: Counter[str] = field(default_factory=Counter)
    reconnects: int = 0
    handovers: int = 0
    stored_tables: int = 0
    checked_by_id: int = 0
    checked_whole: int = 0
    log_lines: list[int] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def proxy_config(listen: int, ports: list[int]) -> str:
    """The shipped HAProxy file with its listening address and servers made loopback ones."""
    out: list[str] = []
    section = ""
    for line in HAPROXY_CFG.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith(" "):
            section = line.strip()
        if line.startswith("    bind "):
            line = f"    bind 127.0.0.1:{listen}"
        elif line.startswith("    server "):
            if line.startswith("    server s1 "):
                for i, p in enumerate(ports):
                    how = "check" if section == "backend by_table" else f"track by_table/s{i}"
                    out.append(f"    server s{i} 127.0.0.1:{p} {how}")
            continue
        out.append(line)
    return "\n".join(out) + "\n"


def _create(port: int, game: str, players: int) -> dict[str, Any]:
    seats = [{"kind": "human", "name": "P"}] + [{"kind": "computer", "player": "heuristic"}] * (players - 1)
    body = json.dumps({"game": game, "players": players, "seats": seats}).encode()
    for _ in range(600):
        req = urllib.request.Request(
            f"http://127.0.0.1:{port}/api/tables", data=body, headers={"Content-Type": "application/json"}
        )
        try:
            with urllib.request.urlopen(req, timeout=60) as r:
                out: dict[str, Any] = json.loads(r.read())
                return out
        except (OSError, urllib.error.HTTPError):
            time.sleep(0.1)  # the servers are starting, or the proxy's first checks are under way
    raise RuntimeError("no table could be made through the proxy")


# --------------------------------------------------------------- honest people


def _latest_fault(fig: Figures, at: float) -> str:
    for when, kind in reversed(fig.faults):
        if when <= at:
            return kind if at - when < 30 else "a drop"
    return "a drop"


async def _player(
    port: int,
    table: dict[str, Any],
    fig: Figures,
    stop: asyncio.Event,
    seed: int,
    honest: list[dict[str, Any]],
) -> None:
    """A person who plays ``table`` to its end, then sits down at a new table, until the run stops."""
    rng = random.Random(seed)
    while not stop.is_set():
        await _person(port, table, fig, stop, rng.randrange(1 << 30))
        if stop.is_set():
            return
        game = GAMES[rng.randrange(len(GAMES))]
        try:
            table = await asyncio.to_thread(_create, port, *game)
        except RuntimeError:
            fig.problems.append("a person could not sit down at a new table")
            return
        honest.append(table)


async def _person(port: int, table: dict[str, Any], fig: Figures, stop: asyncio.Event, seed: int) -> None:
    """Seat 0 of ``table`` through the proxy: plays each turn at once, reconnects whenever cut."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import WebSocketException

    rng = random.Random(seed)
    tid = table["id"]
    url = f"ws://127.0.0.1:{port}/ws/tables/{tid}"
    offered: Any = seat_subprotocols(table["seats"][0]["token"])  # the secret never in an address
    loop = asyncio.get_running_loop()
    pending: tuple[int, float, dict[str, Any]] | None = None
    highest = -1
    dropped: float | None = None
    first_connection = True
    while not stop.is_set():
        try:
            async with connect(
                url, open_timeout=10, max_size=None, ping_interval=None, subprotocols=offered
            ) as ws:
                fresh = True  # no state yet on this connection
                sent_here = False
                if not first_connection:
                    fig.reconnects += 1
                first_connection = False
                while not stop.is_set():
                    try:
                        raw = await asyncio.wait_for(ws.recv(), 1.0)
                    except asyncio.TimeoutError:
                        continue
                    m = json.loads(raw)
                    if m["type"] == "error":
                        fig.refusals[f"honest: {m['code']}"] += 1
                        if sent_here and m["code"] in ("busy", "stale", "illegal"):
                            pending, sent_here = None, False  # that move was not taken: play again
                        continue
                    if m["type"] != "state":
                        continue
                    seq, view = m["seq"], m["view"]
                    if seq < highest:
                        fig.problems.append(f"table {tid}: a state went back from {highest} to {seq}")
                    highest = max(highest, seq)
                    if dropped is not None:
                        fig.gaps.setdefault(_latest_fault(fig, dropped), []).append(loop.time() - dropped)
                        dropped = None
                    if pending is not None:
                        at, began, move = pending
                        if seq > at:  # nobody else acts at this seat's turn: ours is at ``at + 1``
                            cards = tuple(move["cards"])
                            fig.acks.append(Ack(tid, at + 1, int(move["id"]), str(move["kind"]), cards))
                            if sent_here and seq == at + 1:
                                fig.latencies.append(loop.time() - began)
                            pending = None
                        elif fresh and seq == at:  # a new connection at the same state: not stored
                            pending = None
                    fresh = False
                    if view["game_over"]:
                        return
                    if view["to_act"] == 0 and view["legal"] and pending is None:
                        move = rng.choice(view["legal"])
                        pending = (seq, loop.time(), move)
                        sent_here = True
                        await ws.send(json.dumps({"type": "act", "action": move["id"], "seq": seq}))
        except (OSError, WebSocketException, asyncio.TimeoutError):
            pass
        if dropped is None:
            dropped = loop.time()
        if not stop.is_set():
            await asyncio.sleep(rng.uniform(0.1, 0.5))


# -------------------------------------------------------------------- attackers


def _stranger(
    proxy: int, ports: list[int], honest: list[dict[str, Any]], fig: Figures, rng: random.Random
) -> None:
    """One round of strange ids, through the proxy and straight at a server: each must be 404."""
    table_id = rng.choice(honest)["id"]
    for path in _strange_paths(table_id):
        for where, port in (("proxy", proxy), ("a server", rng.choice(ports))):
            status = _get(port, path)
            if status == 0:
                continue  # that server is down or stopped just now
            fig.attacks[f"strange ids ({where})"] += 1
            fig.refusals[f"strange id ({where}): HTTP {status}"] += 1
            if status != 404:
                fig.problems.append(f"GET {path} ({where}) answered {status}, not 404")


async def _strangers(
    proxy: int, ports: list[int], honest: list[dict[str, Any]], fig: Figures, stop: asyncio.Event
) -> None:
    rng = random.Random(55)
    while await _every(0.5, stop):
        await asyncio.to_thread(_stranger, proxy, ports, honest, fig, rng)


async def _lister(proxy: int, fig: Figures, stop: asyncio.Event) -> None:
    """A client that lists the tables as fast as it can."""
    while not stop.is_set():
        status = await asyncio.to_thread(_get, proxy, "/api/tables")
        fig.attacks["listings"] += 1
        if status != 200:
            fig.refusals[f"listing: HTTP {status}"] += 1
            await asyncio.sleep(0.2)


async def _probe(proxy: int, tables: list[str], kind: str, at: float, fig: Figures) -> None:
    """After a fault at ``at``: until each of ``tables`` answers 200 through the proxy again (60 s
    at most; a table that never does is a problem), then the time the last one took."""
    loop = asyncio.get_running_loop()
    await asyncio.sleep(0.1)  # the fault has struck

    async def one(table_id: str) -> float | None:
        while loop.time() - at < 60:
            if await _answers(proxy, f"/api/tables/{table_id}") == 200:
                return loop.time() - at
            await asyncio.sleep(0.1)
        return None

    times = await asyncio.gather(*(one(t) for t in tables))
    if any(t is None for t in times):
        fig.problems.append(f"after {kind}, {times.count(None)} table(s) did not answer within 60 s")
    fig.failover.setdefault(kind, []).append(max((t for t in times if t is not None), default=0.0))


async def _faults(
    nodes: list[_Server],
    pg: Any,
    fig: Figures,
    stop: asyncio.Event,
    proxy: int,
    playing: list[dict[str, Any]],
) -> None:
    turn = 0
    probes: list[asyncio.Task[None]] = []
    while await _every(FAULT_EVERY, stop):
        kind = FAULTS[turn % len(FAULTS)]
        node = nodes[(turn // len(FAULTS)) % len(nodes)]
        turn += 1
        now = asyncio.get_running_loop().time()
        fig.faults.append((now, kind))
        ids = [t["id"] for t in playing[-TABLES:]]  # the newest tables: those being played
        probes.append(asyncio.create_task(_probe(proxy, ids, kind, now, fig)))
        if kind == "kill -9":
            node.kill9()
            await asyncio.to_thread(node.start)
        elif kind == "SIGSTOP past the lease":
            assert node.proc is not None
            node.proc.send_signal(signal.SIGSTOP)
            await asyncio.sleep(STOPPED)
            node.proc.send_signal(signal.SIGCONT)
        else:
            await asyncio.to_thread(pg.restart)
    await asyncio.gather(*probes)


async def _attack(
    proxy: int,
    nodes: list[_Server],
    pg: Any,
    honest: list[dict[str, Any]],
    own: list[dict[str, Any]],
    fig: Figures,
) -> None:
    stop = asyncio.Event()
    ports = [n.port for n in nodes]
    tasks = [asyncio.create_task(_player(proxy, t, fig, stop, i, honest)) for i, t in enumerate(list(honest))]
    tasks += [asyncio.create_task(_lister(proxy, fig, stop)) for _ in range(8)]
    tasks += [
        asyncio.create_task(_faults(nodes, pg, fig, stop, proxy, honest)),
        asyncio.create_task(_strangers(proxy, ports, honest, fig, stop)),
        asyncio.create_task(_hostile_messages(proxy, own[0], _ChaosFigures(fig), stop)),  # type: ignore[arg-type]
        asyncio.create_task(_cross_site(proxy, _ChaosFigures(fig), stop)),  # type: ignore[arg-type]
    ]
    await asyncio.sleep(fig.seconds)
    stop.set()
    await asyncio.wait(tasks, timeout=90)
    for t in tasks:
        t.cancel()


class _ChaosFigures:
    """What section ``chaos``'s attackers write to (their counters are this run's)."""

    def __init__(self, fig: Figures) -> None:
        self.attacks, self.refusals, self.problems = fig.attacks, fig.refusals, fig.problems


# ----------------------------------------------------------------------- check


def check(url: str, fig: Figures, honest: list[dict[str, Any]]) -> None:
    """Replay every stored game; find each acknowledged move at its ``seq`` (see the module docstring)."""
    import psycopg

    from ..cli.common import GAMES as SPECS
    from ..server.store import DEAL

    by_kind = {s.kind.value: s.game_type for s in SPECS.values()}
    with psycopg.connect(url) as con:
        rows = {r[0]: r[1:] for r in con.execute(b"SELECT id, seq, game, epoch FROM tables").fetchall()}
        moves: dict[str, list[tuple[int, str]]] = {}
        for tid, seq, action in con.execute(
            b"SELECT table_id, seq, action FROM moves ORDER BY table_id, seq"
        ):
            moves.setdefault(tid, []).append((int(seq), action))
    fig.stored_tables = len(rows)
    fig.handovers = sum(int(r[2]) - 1 for r in rows.values())
    acks: dict[str, dict[int, Ack]] = {}
    for each in fig.acks:
        mine = acks.setdefault(each.table, {})
        if each.seq in mine and mine[each.seq] != each:
            fig.problems.append(f"table {each.table}: two different moves acknowledged at seq {each.seq}")
        mine[each.seq] = each
    for t in honest:
        tid = t["id"]
        if tid not in rows:
            fig.problems.append(f"table {tid}: not stored")
            continue
        base, text, _epoch = rows[tid]
        data = json.loads(text)
        game = by_kind[data["game"]].from_dict(data)  # replays and checks every step up to ``base``
        want = acks.get(tid, {})
        # the moves after the stored game: the exact move id, from the state before it
        expected = int(base) + 1
        for seq, action in moves.get(tid, []):
            if seq != expected:
                fig.problems.append(
                    f"table {tid}: stored move at seq {seq}, expected {expected} (gap or double)"
                )
            expected = seq + 1
            ack = want.get(seq)
            if action == DEAL:
                if ack is not None:
                    fig.problems.append(f"table {tid}: the move acknowledged at seq {seq} is a deal there")
                game.next_hand()
                continue
            if ack is not None:
                fig.checked_by_id += 1
                if not action.startswith("0 ") or game.action_id(action) != ack.move:
                    fig.problems.append(
                        f"table {tid}: at seq {seq} {action!r} is stored, not the acknowledged move"
                    )
            game.apply(action)
        # the moves inside the stored game (a finished game is stored whole): kind and cards
        history: list[str] = []
        for i, hand in enumerate(data["hands"]):
            if i:
                history.append(DEAL)
            history.extend(hand["actions"])
        for seq, ack in want.items():
            if seq > int(base):
                if seq >= expected:
                    fig.problems.append(f"table {tid}: the move acknowledged at seq {seq} is not stored")
                continue
            fig.checked_whole += 1
            if len(history) != int(base):
                fig.problems.append(f"table {tid}: stored whole with {len(history)} steps at seq {base}")
                break
            action = history[seq - 1]
            words = action.split()
            if words[:2] != ["0", ack.kind] or (ack.cards and sorted(words[2:]) != sorted(ack.cards)):
                fig.problems.append(
                    f"table {tid}: at seq {seq} {action!r} is stored, not the acknowledged move"
                )


# ------------------------------------------------------------------------ run


def soak(seconds: float, tables: int = TABLES, servers: int = SERVERS) -> Figures:
    """One run: a fresh PostgreSQL, ``servers`` servers behind HAProxy, ``tables`` honest tables and
    the attackers, ``seconds`` long."""
    from .pgtemp import fresh_database, start_postgres

    fig = Figures(seconds, servers)
    pg = start_postgres(durable=True)
    folder = Path(tempfile.mkdtemp(prefix="hb-chaos-cluster-"))
    proxy_proc: subprocess.Popen[bytes] | None = None
    nodes: list[_Server] = []
    try:
        url = fresh_database(pg)
        from .chaos import _free_port

        # every person of the soak comes through the one proxy from one address: no per-address quota
        many = ("--create-rate", "100000", "--tables-per-address", "100000")
        nodes = [_Server(url, _free_port(), str(folder / f"serve-{i}.log"), many) for i in range(servers)]
        for node in nodes:
            node.start()
        proxy = _free_port()
        (folder / "haproxy.cfg").write_text(proxy_config(proxy, [n.port for n in nodes]), encoding="utf-8")
        binary = shutil.which("haproxy") or "/usr/sbin/haproxy"
        with open(folder / "haproxy.log", "wb") as log:
            proxy_proc = subprocess.Popen(
                [binary, "-db", "-f", str(folder / "haproxy.cfg")], stdout=log, stderr=log
            )
        honest = [_create(proxy, *GAMES[i % len(GAMES)]) for i in range(tables)]
        own = [_create(proxy, "deerpark", 4)]
        asyncio.run(_attack(proxy, nodes, pg, honest, own, fig))
        for node in nodes:
            if node.proc is not None:
                node.proc.send_signal(signal.SIGCONT)
            status = node.stop()
            if status != 0:
                fig.problems.append(f"a server ended with status {status} at the last, clean stop")
        check(url, fig, honest)
        for node in nodes:
            text = Path(node.log).read_text(encoding="utf-8", errors="replace")
            if "Traceback" in text:
                fig.problems.append(f"{Path(node.log).name} holds a traceback")
            fig.log_lines.append(len(text.splitlines()))
    finally:
        for node in nodes:
            if node.proc is not None and node.proc.poll() is None:
                node.proc.send_signal(signal.SIGCONT)
                node.proc.kill()
        if proxy_proc is not None:
            proxy_proc.terminate()
            proxy_proc.wait(10)
        pg.stop()
        shutil.rmtree(folder, ignore_errors=True)
    return fig


def report(fig: Figures) -> list[str]:
    """The run's figures as lines of text."""
    lat = fig.latencies
    lines = [
        f"honest moves acknowledged: {len(fig.acks)} (p50 {_pct(lat, 0.5) * 1e3:.0f} ms, p99 "
        f"{_pct(lat, 0.99) * 1e3:.0f} ms over {len(lat)} timed on an unbroken connection); reconnects: "
        f"{fig.reconnects}",
        f"every acknowledged move found at its seq: {fig.checked_by_id} by move id, {fig.checked_whole} in "
        f"games stored whole; tables changed hands {fig.handovers} times",
        f"faults: {Counter(k for _t, k in fig.faults)}",
    ]
    for kind, gaps in sorted(fig.gaps.items()):
        lines.append(
            f"people's reconnections after {kind}: {len(gaps)}, next state after p50 "
            f"{_pct(gaps, 0.5):.1f} s, p99 {_pct(gaps, 0.99):.1f} s, max {max(gaps):.1f} s"
        )
    for kind, downs in sorted(fig.failover.items()):
        lines.append(
            f"failover after {kind}: every table answered again through the proxy after p50 "
            f"{_pct(downs, 0.5):.1f} s, p99 {_pct(downs, 0.99):.1f} s, max {max(downs):.1f} s "
            f"({len(downs)} faults)"
        )
    lines.append("attacks: " + "; ".join(f"{k} {v}" for k, v in sorted(fig.attacks.items())))
    lines.append("answers: " + "; ".join(f"{k} {v}" for k, v in sorted(fig.refusals.items())))
    lines.append(f"server log lines: {fig.log_lines}")
    return lines


def run(args: argparse.Namespace) -> None:
    """Print the run's figures (see the module docstring); exit status 1 on any problem."""
    try:
        import psycopg  # noqa: F401
        import websockets  # noqa: F401
    except ImportError:
        print(
            "chaos-cluster: skipped, needs the server and postgres extras "
            "(pip install 'hucklebuck[server,postgres]')"
        )
        return
    if not HAPROXY_CFG.exists() or not (shutil.which("haproxy") or os.path.exists("/usr/sbin/haproxy")):
        print("chaos-cluster: skipped, needs haproxy and deploy/haproxy.cfg (a source checkout)")
        return
    seconds = max(60.0, SECONDS * args.scale)
    print(
        f"chaos-cluster: {TABLES} tables on {SERVERS} servers behind HAProxy, PostgreSQL, {seconds:.0f} s, "
        f"a fault every {FAULT_EVERY:.0f} s (loopback; load average {os.getloadavg()[0]:.1f} at the start)",
        flush=True,
    )
    fig = soak(seconds)
    for line in report(fig):
        print(line)
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")
    print(f"no acknowledged move lost, moved or doubled; no strange id answered but 404: "
          f"{'yes' if not fig.problems else 'NO'}")  # fmt: skip
    for p in fig.problems[:30]:
        print(f"    PROBLEM: {p}")
    if fig.problems:
        raise SystemExit(1)
