"""Three ``hucklebuck serve`` processes behind HAProxy (the shipped configuration), one real
PostgreSQL: tables of every game with scripted people and computer seats play to their end
while the processes are killed with ``kill -9`` at random moments and restarted; no
acknowledged move is lost or applied twice, and every client ends on the database's state.
Every kill lands on tables being played: a new wave of tables starts whenever every game has ended
before the kills (earlier, with 22 kills and one wave, the games often ended before the kills did, and
the later kills hit servers nobody used).  Bounded: 16 kills over about 45 seconds (more on a busy machine),
the whole test within five minutes; a developer's run makes half as many kills, at moments as random."""

from __future__ import annotations

import random
import shutil
import threading
import time
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("websockets.sync.client")
pytest.importorskip("psycopg", reason="psycopg is not installed: pip install 'hucklebuck[postgres]'")

import cluster_kit as ck
from pg_kit import PgServer, fresh_database
from thorough_kit import examples

pytestmark = [pytest.mark.single_core, pytest.mark.filterwarnings("ignore::DeprecationWarning")]

KILLS = examples(16, least=8)
TABLES = (("hucklebuck", 4, {}), ("deerpark", 4, {}), ("buckem", 5, {"hands": 6}))
PER_GAME = 2


def test_the_scripted_person_counts_a_move_its_dead_server_stored() -> None:
    # The move went out at state 10 and the server died before answering; the next server
    # refused the connection (the table was still moving) before a state came: that refusal says
    # nothing of the move, and the state 11 that comes after it acknowledges it.
    acks = ck.Acks()
    acks.connected()
    acks.state(10)
    acks.send(10)
    acks.connected()
    acks.refused()
    acks.connected()
    acks.state(11)
    assert acks.acked == 1 and acks.sent is None


def test_the_scripted_person_plays_again_a_move_that_was_not_taken() -> None:
    acks = ck.Acks()
    acks.connected()
    acks.state(4)
    acks.send(4)
    acks.refused()  # answered on the same connection: the server could not store it
    assert acks.sent is None
    acks.state(4)
    acks.send(4)
    acks.connected()  # the connection dropped; the new one shows the same state: it never landed
    acks.state(4)
    assert acks.sent is None and acks.acked == 0
    acks.send(4)
    acks.state(5)
    acks.state(9)  # the others' moves after it count for nothing
    assert acks.acked == 1


@pytest.fixture
def haproxy_installed() -> None:
    if ck.haproxy_binary() is None:
        pytest.skip("haproxy is not installed (apt-get install haproxy; .ci/run installs it)")


def test_tables_play_to_their_end_through_kill_9s_of_their_servers(
    postgres_server: PgServer, haproxy_installed: None
) -> None:
    url = fresh_database(postgres_server)
    folder = ck.temp_folder()
    pace = ("--bot-pause", "0.05", "--deal-pause", "0.1", "--grace", "600", "--bot-threads", "1")
    servers = [ck.Serve(url, ck.free_port(), folder, *pace) for _ in range(3)]
    proxy = ck.HAProxy([s.port for s in servers], folder)
    rng = random.Random(38)
    people: list[ck.Person] = []
    restarts: dict[int, threading.Thread] = {}  # by port: the restart of a killed server, in the background
    failed: list[str] = []
    try:
        proxy.wait_up()  # HAProxy's first health checks see all three servers
        deadline = time.monotonic() + 280  # bounded: the kills take about 45 s on a quiet machine

        def new_tables() -> None:
            """Tables of every game, two scripted people each: a new wave of games to kill servers under."""
            for game, players, body in TABLES:
                for _ in range(PER_GAME):
                    seats: list[dict[str, Any]] = [{"kind": "human", "name": n} for n in ("Ann", "Bo")]
                    seats += [{"kind": "computer", "player": "random"}] * (players - 2)
                    table = ck.create_table(proxy.port, game, seats, public=True, **body)
                    for seat in (0, 1):
                        people.append(ck.Person(proxy.port, table, seat, deadline, seed=len(people)))
                        people[-1].start()

        def restart(server: ck.Serve) -> None:
            try:
                server.start()
            except Exception as exc:  # (shown by the assertion after the kills)
                failed.append(f"server {server.port} did not start again: {exc}")

        new_tables()
        kills, played, waves = 0, 0, 1
        while kills < KILLS and time.monotonic() < deadline - 60:
            time.sleep(rng.uniform(0.6, 1.6))
            if not any(p.is_alive() for p in people):
                # every game ended before the kills did (on a loaded machine a restart takes seconds, while
                # the games, mostly pauses, keep their pace): a new wave, so that every kill lands on play
                new_tables()
                waves += 1
            # each kill lands on tables being played: first some play since the last restart (on a
            # loaded machine a restarted server takes seconds to be back in HAProxy's rotation, and
            # kills faster than that would only hit servers that nobody could reach)
            wait_until = time.monotonic() + 10
            while sum(p.states for p in people) <= played and time.monotonic() < wait_until:
                if not any(p.is_alive() for p in people):
                    break  # every game is over: the next round starts a new wave
                time.sleep(0.05)
            # a server still starting again is not killed again; the others are (its restart goes on
            # beside the next kills, so their pace does not depend on how long a restart takes)
            up = [s for s in servers if s.port not in restarts or not restarts[s.port].is_alive()]
            victim = rng.choice(up)
            victim.kill9()
            kills += 1
            time.sleep(rng.uniform(0.3, 1.5))
            restarts[victim.port] = threading.Thread(target=restart, args=(victim,))
            restarts[victim.port].start()
            played = sum(p.states for p in people)
        for t in restarts.values():
            t.join(60)
        assert not failed, failed
        assert kills >= KILLS - 2, f"only {kills} kills in the time allowed"
        for p in people:
            p.join(max(1.0, deadline - time.monotonic()))
        problems = [f"table {p.table['id']} seat {p.seat}: {x}" for p in people for x in p.problems]
        assert not problems, problems
        for p in people:
            assert p.last is not None and p.last["view"]["game_over"], "a game did not end"
            seq, game, fields = ck.stored_game(url, p.table["id"])  # replays every stored step
            assert p.last["seq"] == seq, "the client ended on another state than the database's"
            assert fields["game_over"] == p.last["view"]["game_over"]
            assert ck.actions_of(game, p.seat) == p.acked, "an acknowledged move was lost or stored twice"
        reconnects = sum(p.reconnects for p in people)
        assert reconnects >= KILLS // 2  # the kills did reach the tables' connections
        gaps = sorted(g for p in people for g in p.gaps)
        print(f"{kills} kills, {waves} waves of {len(people)} people, {reconnects} reconnections; "
              f"from a drop to the next state: p50 {gaps[len(gaps) // 2]:.2f} s, "
              f"max {gaps[-1]:.2f} s")  # fmt: skip
        status, listing = ck.http(proxy.port, "/api/tables")
        assert status == 200
        assert {p.table["id"] for p in people} <= {t["id"] for t in listing["tables"]}
    finally:
        for t in restarts.values():
            t.join(60)
        proxy.stop()
        for s in servers:
            s.stop()
        shutil.rmtree(folder, ignore_errors=True)
