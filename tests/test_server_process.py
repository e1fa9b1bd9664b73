"""``hucklebuck serve`` as a real process on a free loopback port, with real
WebSockets: kill -9 at random moments and restart (nothing lost, same cards,
same seq, the game plays on to its end), SIGTERM, tokens kept out of the log,
and bad input to ``serve`` itself (one clear line, exit 2)."""

from __future__ import annotations

import json
import os
import random
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
sync_client = pytest.importorskip("websockets.sync.client")

from hucklebuck.server.protocol import seat_subprotocols  # noqa: E402

pytestmark = [pytest.mark.single_core, pytest.mark.filterwarnings("ignore::DeprecationWarning")]

ENV = os.environ | {"PYTHONUNBUFFERED": "1"}
HANG = 120.0  # seconds: a wait gives up only on a hang, never because the machine is busy


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Server:
    """One ``hucklebuck serve`` process."""

    def __init__(self, db: Path, port: int, *extra: str) -> None:
        self.db, self.port = db, port
        args = [
            "--port",
            str(port),
            "--db",
            str(db),
            "--bot-pause",
            "0",
            "--deal-pause",
            "0",
            "--rate",
            "1000",
        ]
        args += extra
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "hucklebuck", "serve", *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=ENV,
        )
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        assert f"http://127.0.0.1:{port}/" in line, line + self.proc.stderr.read()  # type: ignore[union-attr]
        deadline = time.monotonic() + HANG  # the address is printed just before uvicorn listens
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=HANG):
                    return
            except OSError:
                time.sleep(0.02)
        raise AssertionError("the server never listened")

    def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        req = urllib.request.Request(
            f"http://127.0.0.1:{self.port}{path}",
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(req, timeout=HANG) as r:
            out: dict[str, Any] = json.loads(r.read())
            return out

    def connect(self, table: dict[str, Any], seat: int) -> Any:
        token = table["seats"][seat]["token"]
        return sync_client.connect(
            f"ws://127.0.0.1:{self.port}/ws/tables/{table['id']}",
            subprotocols=seat_subprotocols(token),  # type: ignore[arg-type]
            open_timeout=HANG,
        )

    def kill9(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(HANG)
        self._close_pipes()

    def stop(self) -> tuple[int, str]:
        self.proc.send_signal(signal.SIGTERM)
        try:
            out, err = self.proc.communicate(timeout=HANG)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            out, err = self.proc.communicate()
        return self.proc.returncode, out + err

    def _close_pipes(self) -> None:
        for f in (self.proc.stdout, self.proc.stderr):
            if f is not None:
                f.close()


def _state(ws: Any) -> dict[str, Any]:
    while True:
        m: dict[str, Any] = json.loads(ws.recv(timeout=HANG))
        if m["type"] == "state":
            return m


def _stored(db: Path) -> tuple[int, dict[str, Any]]:
    """The stored table's seq and its whole game (the snapshot with the moves after it applied)."""
    from hucklebuck.games import DeerParkGame
    from hucklebuck.server.manager import replay_moves

    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as con:
        seq, game = con.execute("SELECT seq, game FROM tables").fetchone()
        moves = con.execute("SELECT seq, action FROM moves ORDER BY seq").fetchall()
    restored = DeerParkGame.from_json(game)
    replay_moves(restored, [action for _seq, action in moves])  # moves, and deals of the next hand
    return max([int(seq), *(q for q, _a in moves)]), restored.to_dict()


def _extends(final: dict[str, Any], earlier: dict[str, Any]) -> bool:
    """Whether ``final`` is ``earlier`` played on: the same deals, each hand's actions continued."""
    if len(final["hands"]) < len(earlier["hands"]):
        return False
    for f, e in zip(final["hands"], earlier["hands"], strict=False):
        if f["deal"] != e["deal"] or f["actions"][: len(e["actions"])] != e["actions"]:
            return False
    return True


def _play_until(wss: dict[int, Any], last: dict[int, dict[str, Any]], rng: random.Random, moves: int) -> bool:
    """The people play ``moves`` moves (or to the end); True once the game is over."""
    leader = min(wss)
    m = last[leader]
    done = 0
    while done < moves:
        if m["view"]["game_over"]:
            return True
        t = m["view"]["to_act"]
        if t in wss:
            mt = last[t]
            while mt["seq"] < m["seq"]:
                mt = last[t] = _state(wss[t])
            move = rng.choice(mt["view"]["legal"])
            wss[t].send(json.dumps({"type": "act", "action": move["id"], "seq": mt["seq"]}))
            done += 1
        m = last[leader] = _state(wss[leader])
    return bool(m["view"]["game_over"])


def test_kill_9_at_random_moments_loses_nothing_and_the_game_plays_on(tmp_path: Path) -> None:
    db, port = tmp_path / "tables.sqlite", _free_port()
    server = Server(db, port)
    rng = random.Random(20)
    table = server.post("/api/tables", {"game": "deerpark", "players": 4, "seats": [
        {"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Ben"}, {"kind": "human", "name": "Cy"},
        {"kind": "computer", "player": "heuristic"}]})  # fmt: skip
    people = (0, 1, 2)
    snapshots = []
    try:
        wss = {s: server.connect(table, s) for s in people}
        last = {s: _state(wss[s]) for s in people}
        for kill in range(3):
            over = _play_until(wss, last, rng, rng.randrange(8, 30))
            assert not over, "the game ended before the kills were done"
            mid_move = kill != 1
            seen = max(m["seq"] for m in last.values())
            if mid_move:  # a move on its way: killed before (or just after) the server stores it
                t = last[min(people)]["view"]["to_act"]
                if t in wss and last[t]["seq"] == seen:
                    move = rng.choice(last[t]["view"]["legal"])
                    wss[t].send(json.dumps({"type": "act", "action": move["id"], "seq": seen}))
                    time.sleep(rng.random() * 0.01)
            server.kill9()
            for ws in wss.values():
                ws.close()
            stored_seq, stored_game = _stored(db)
            assert stored_seq >= seen  # every state a client saw was stored first
            snapshots.append(stored_game)
            server = Server(db, port)
            wss = {s: server.connect(table, s) for s in people}
            again = {s: _state(wss[s]) for s in people}
            for s in people:
                assert again[s]["seq"] >= stored_seq
                if again[s]["seq"] == last[s]["seq"]:  # nothing moved: exactly the state before the kill
                    for key in ("hand", "legal", "log", "current_trick", "face_up", "hand_number", "to_act"):
                        assert again[s]["view"][key] == last[s]["view"][key], key
            last = again
        assert _play_until(wss, last, rng, 100_000)
    finally:
        code, output = server.stop()
    assert code == 0
    _final_seq, final_game = _stored(db)
    assert all(_extends(final_game, snap) for snap in snapshots)  # same cards, every stored move kept
    for s in people:
        assert table["seats"][s]["token"] not in output  # tokens never reach the log


def test_sigterm_closes_sockets_and_keeps_the_tables(tmp_path: Path) -> None:
    db, port = tmp_path / "t.sqlite", _free_port()
    server = Server(db, port)
    table = server.post("/api/tables", {"game": "deerpark", "players": 4})
    ws = server.connect(table, 0)
    first = _state(ws)
    code, output = server.stop()
    assert code == 0, output
    assert "stopped" in output and "Traceback" not in output
    with pytest.raises(Exception) as closed:
        while True:
            ws.recv(timeout=HANG)
    assert "1012" in str(closed.value) or "1001" in str(closed.value) or "1000" in str(closed.value)
    assert _stored(db)[0] >= first["seq"]


def _serve(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "hucklebuck", "serve", *args],
        capture_output=True, text=True, timeout=60, env=env or ENV,
    )  # fmt: skip


def _one_line(result: subprocess.CompletedProcess[str], *words: str) -> None:
    assert result.returncode == 2, result
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.stderr
    for w in words:
        assert w in lines[0], lines[0]


def test_a_port_in_use_is_one_clear_line(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        _one_line(
            _serve("--port", str(port), "--db", str(tmp_path / "x.sqlite")), "already in use", str(port)
        )


def test_an_unusable_database_is_one_clear_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from hucklebuck.cli import main

    def serve(db: Path, *words: str) -> None:
        assert main(["serve", "--port", str(_free_port()), "--db", str(db)]) == 2
        out = capsys.readouterr()
        lines = out.err.strip().splitlines()
        assert len(lines) == 1 and not out.out, out
        for w in words:
            assert w in lines[0], lines[0]

    serve(tmp_path / "no" / "such" / "x.sqlite", "does not exist")
    serve(tmp_path, "cannot use the table database")
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as con:
        con.execute("CREATE TABLE songs (title TEXT)")
    serve(other, "not a hucklebuck table database")
    newer = tmp_path / "newer.sqlite"
    with sqlite3.connect(newer) as con:
        con.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        con.execute("INSERT INTO meta VALUES ('schema', 'hucklebuck-tables'), ('version', '99')")
    serve(newer, "another version of hucklebuck", "99")


def test_serve_without_the_extra_names_the_install_command(tmp_path: Path) -> None:
    code = (
        "import sys; sys.modules['starlette'] = None; "
        "from hucklebuck.cli import main; raise SystemExit(main(['serve', '--db', sys.argv[1]]))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path / "x.sqlite")], capture_output=True, text=True, timeout=60
    )
    _one_line(result, "pip install 'hucklebuck[server]'")
    assert not (tmp_path / "x.sqlite").exists()
