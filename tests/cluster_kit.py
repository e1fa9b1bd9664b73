"""Helpers for the tests of several ``hucklebuck serve`` processes sharing one PostgreSQL:
the processes themselves, HAProxy with the shipped configuration (``deploy/haproxy.cfg``,
its addresses replaced by loopback ones), scripted people that reconnect by themselves,
and reading back what the database holds."""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
HAPROXY_CFG = ROOT / "deploy" / "haproxy.cfg"
ENV = os.environ | {"PYTHONUNBUFFERED": "1"}


def free_port() -> int:
    """A free loopback port."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def wait_listening(port: int, seconds: float = 30) -> None:
    """Wait until something accepts connections on ``port``."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.02)
    raise AssertionError(f"nothing listens on port {port}")


class Serve:
    """One ``hucklebuck serve`` process on a loopback port, its messages in a file."""

    def __init__(self, db: str, port: int, folder: Path, *extra: str) -> None:
        self.db, self.port, self.extra = db, port, extra
        self.log = folder / f"serve-{port}.log"
        self.proc: subprocess.Popen[str] | None = None
        self.start()

    def start(self) -> None:
        """Start (again) on the same port."""
        # every test client comes from one address (through the proxy too): no per-address table quota
        quotas = ["--create-rate", "100000", "--tables-per-address", "100000"]
        args = ["--port", str(self.port), "--db", self.db, "--rate", "1000", *quotas, *self.extra]
        with open(self.log, "a", encoding="utf-8") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "hucklebuck", "serve", *args],
                stdout=log, stderr=log, text=True, env=ENV,
            )  # fmt: skip
        wait_listening(self.port)

    def signal(self, sig: int) -> None:
        """Send ``sig`` to the process."""
        assert self.proc is not None
        self.proc.send_signal(sig)

    def kill9(self) -> None:
        """``kill -9``, and wait for it to be gone."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        """Stop it (SIGTERM, then SIGKILL)."""
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.send_signal(signal.SIGCONT)
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)

    def messages(self) -> str:
        """What it said on stderr/stdout so far."""
        return self.log.read_text(encoding="utf-8", errors="replace")


def haproxy_config(listen: int, ports: list[int]) -> str:
    """The shipped HAProxy file with its listening address and servers replaced by loopback ones
    (the first ``server`` line of each backend becomes this test's servers, the others go)."""
    out: list[str] = []
    section = ""
    for line in HAPROXY_CFG.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith(" "):
            section = line.strip()
        if line.startswith("    bind "):
            line = f"    bind 127.0.0.1:{listen}"
        elif line.startswith("    server "):
            if not line.startswith("    server s1 "):
                continue
            for i, p in enumerate(ports):
                how = "check" if section == "backend by_table" else f"track by_table/s{i}"
                out.append(f"    server s{i} 127.0.0.1:{p} {how}")
            continue
        out.append(line)
    return "\n".join(out) + "\n"


class HAProxy:
    """Debian's ``haproxy`` in the foreground with :func:`haproxy_config`."""

    def __init__(self, ports: list[int], folder: Path) -> None:
        binary = shutil.which("haproxy") or "/usr/sbin/haproxy"
        self.port = free_port()
        self.servers = len(ports)
        self.socket = folder / "haproxy.sock"
        cfg = folder / "haproxy.cfg"
        text = haproxy_config(self.port, ports)  # with a stats socket, so that tests see its health view
        text = text.replace("global\n", f"global\n    stats socket {self.socket} mode 600 level admin\n", 1)
        cfg.write_text(text, encoding="utf-8")
        self.log = folder / "haproxy.log"
        with open(self.log, "w", encoding="utf-8") as log:
            self.proc = subprocess.Popen([binary, "-db", "-f", str(cfg)], stdout=log, stderr=log)
        wait_listening(self.port)

    def stats(self) -> dict[str, dict[str, str]]:
        """``show stat`` of the table backend's servers: by server name, each column."""
        with socket.socket(socket.AF_UNIX) as s:
            s.settimeout(10)
            s.connect(str(self.socket))
            s.sendall(b"show stat\n")
            data = b""
            while chunk := s.recv(65536):
                data += chunk
        lines = data.decode().splitlines()
        head = lines[0].lstrip("# ").split(",")
        out = {}
        for line in lines[1:]:
            row = dict(zip(head, line.split(","), strict=False))
            if row.get("pxname") == "by_table" and row.get("svname") not in ("FRONTEND", "BACKEND"):
                out[row["svname"]] = row
        return out

    def health_changes(self) -> int:
        """How many times the proxy took a server out so far (its choice of server for some tables
        changed each time)."""
        return sum(int(row.get("chkdown") or 0) for row in self.stats().values())

    def wait_up(self, count: int | None = None, seconds: float = 120) -> None:
        """Wait until the proxy's health checks see ``count`` servers (default all) up."""
        want = self.servers if count is None else count
        end = time.monotonic() + seconds
        up = 0
        while time.monotonic() < end:
            try:
                up = sum(1 for row in self.stats().values() if row.get("status") == "UP")
            except OSError:
                up = 0
            if up == want:
                return
            time.sleep(0.05)
        raise AssertionError(f"the proxy sees {up} servers up, not {want}")

    def stop(self) -> None:
        """Stop it."""
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def haproxy_binary() -> str | None:
    """Where ``haproxy`` is, if installed."""
    return shutil.which("haproxy") or (shutil.which("/usr/sbin/haproxy"))


def http(port: int, path: str, body: dict[str, Any] | None = None, timeout: float = 10) -> tuple[int, Any]:
    """One HTTP request to loopback ``port``: status and JSON answer (or text)."""
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}", data=data, headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            raw, status = r.read(), r.status
    except urllib.error.HTTPError as exc:
        raw, status = exc.read(), exc.code
    try:
        return status, json.loads(raw)
    except ValueError:
        return status, raw.decode(errors="replace")


def create_table(port: int, game: str, seats: list[dict[str, Any]], **body: Any) -> dict[str, Any]:
    """``POST /api/tables`` (retried while the servers start or restart: a minute at most, for a busy
    machine where three servers' imports take a while)."""
    deadline = time.monotonic() + 60
    status, answer = 0, None
    while time.monotonic() < deadline:
        try:
            request = {"game": game, "players": len(seats), "seats": seats} | body
            status, answer = http(port, "/api/tables", request)
        except OSError:
            status, answer = 0, None
        if status == 201:
            return dict(answer)
        time.sleep(0.1)
    raise AssertionError(f"could not create a table: {status} {answer}")


class Acks:
    """What a reconnecting client can tell of its own moves: how many the table took.

    A move sent at state ``seq`` was taken when a later state arrives (at the person's turn
    nobody else changes the table).  It was not taken when the first state of a new connection
    is still ``seq``, or when *that same connection* answers it with ``busy`` or ``stale``.  A
    refusal on a new connection before any move was sent on it (a table moving between servers
    says ``busy`` and closes) tells nothing: the move sent on the dropped connection may have
    been stored before its server died, and the next state says which."""

    def __init__(self) -> None:
        self.acked = 0
        self.sent: int | None = None
        self._sent_here = False
        self._first = True

    def connected(self) -> None:
        """A new connection opened: nothing has been sent on it, no state has arrived yet."""
        self._sent_here = False
        self._first = True

    def send(self, seq: int) -> None:
        """A move answering state ``seq`` went out on this connection."""
        self.sent, self._sent_here = seq, True

    def refused(self) -> None:
        """A ``busy`` or ``stale`` error arrived on this connection."""
        if self._sent_here:
            self.sent, self._sent_here = None, False  # the move sent here was not applied

    def state(self, seq: int) -> None:
        """A state arrived."""
        if self.sent is not None and seq > self.sent:
            self.acked += 1
            self.sent = None
        elif self.sent is not None and self._first and seq == self.sent:
            self.sent = None  # reconnected, and the move never landed: play again
        self._first = False


@dataclass(eq=False)
class Person(threading.Thread):
    """A scripted person at ``seat`` who plays through ``port`` and reconnects whenever the
    connection drops, until the game is over or ``deadline`` passes.

    Its moves taken by the table are counted by :class:`Acks` (at the person's turn nobody
    else can change the table: the grace period is longer than the test).  ``gaps``
    holds, per dropped connection, the seconds from the drop to the next state received."""

    port: int
    table: dict[str, Any]
    seat: int
    deadline: float
    seed: int = 0
    acked: int = 0
    last: dict[str, Any] | None = None
    problems: list[str] = field(default_factory=list)
    gaps: list[float] = field(default_factory=list)
    drops: list[float] = field(default_factory=list)
    reconnects: int = 0
    states: int = 0
    """States received (all connections)."""

    def __post_init__(self) -> None:
        threading.Thread.__init__(self, daemon=True)

    def run(self) -> None:
        from websockets.sync.client import connect

        rng = random.Random(self.seed)
        token = self.table["seats"][self.seat]["token"]
        url = f"ws://127.0.0.1:{self.port}/ws/tables/{self.table['id']}"
        offered: Any = ["hucklebuck", f"hucklebuck.token.{token}"]  # the token never goes in the url
        acks = Acks()
        dropped: float | None = None
        while time.monotonic() < self.deadline:
            try:
                ws = connect(url, open_timeout=5, close_timeout=1, subprotocols=offered)
            except Exception:
                time.sleep(0.2)
                continue
            acks.connected()
            try:
                while time.monotonic() < self.deadline:
                    m = json.loads(ws.recv(timeout=20))
                    if m["type"] == "error":
                        if m["code"] in ("busy", "stale"):
                            acks.refused()  # act again on the next state if it answered our move
                        elif m["code"] != "not_your_turn":
                            self.problems.append(f"error {m['code']}: {m['message']}")
                        continue
                    if m["type"] != "state":
                        continue
                    self.states += 1
                    if dropped is not None:
                        self.gaps.append(time.monotonic() - dropped)
                        dropped = None
                    seq = m["seq"]
                    if self.last is not None and seq < self.last["seq"]:
                        self.problems.append(f"the table went back from state {self.last['seq']} to {seq}")
                    acks.state(seq)
                    self.acked = acks.acked
                    self.last = m
                    view = m["view"]
                    if view["game_over"]:
                        ws.close()
                        return
                    if view["to_act"] == self.seat and acks.sent is None and view["legal"]:
                        move = rng.choice(view["legal"])
                        ws.send(json.dumps({"type": "act", "action": move["id"], "seq": seq}))
                        acks.send(seq)
            except Exception:
                pass
            finally:
                try:
                    ws.close()
                except Exception:
                    pass
            dropped = time.monotonic()
            self.drops.append(dropped)
            self.reconnects += 1
            time.sleep(0.1 + rng.random() * 0.2)
        self.problems.append("the game did not end in time")


def stored_game(url: str, table_id: str) -> tuple[int, dict[str, Any], dict[str, Any]]:
    """What the database holds of a table: its seq, its whole game (replayed, which checks every
    step) and its own fields."""
    import psycopg

    from hucklebuck.cli.common import GAMES
    from hucklebuck.server.manager import replay_moves

    with psycopg.connect(url) as con:
        row = con.execute(b"SELECT seq, game, tbl FROM tables WHERE id = %s", (table_id,)).fetchone()
        assert row is not None, f"table {table_id} is not in the database"
        seq, game, tbl = row
        moves = con.execute(
            b"SELECT seq, action FROM moves WHERE table_id = %s ORDER BY seq", (table_id,)
        ).fetchall()
    data = json.loads(game)
    kind = next(s for s in GAMES.values() if s.kind.value == data["game"])
    restored = kind.game_type.from_dict(data)
    replay_moves(restored, [a for _q, a in moves])
    top = max([int(seq), *(int(q) for q, _a in moves)])
    if moves:
        in_order = list(range(int(seq) + 1, top + 1))
        assert [int(q) for q, _a in moves] == in_order, "a gap or a double in the moves"
    return top, restored.to_dict(), json.loads(tbl)


def actions_of(game: dict[str, Any], seat: int) -> int:
    """How many actions ``seat`` made in a stored game."""
    return sum(1 for hand in game["hands"] for a in hand["actions"] if a.startswith(f"{seat} "))


def temp_folder() -> Path:
    """A fresh temporary folder (the caller removes it)."""
    return Path(tempfile.mkdtemp(prefix="hb-cluster-"))
