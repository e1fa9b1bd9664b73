"""The CPU a table's state message costs, as the server makes it (pieces kept while they do not
change: :class:`~hucklebuck.server.views.ViewText`) and built afresh (the whole view built and
encoded at once), alternating state by state in one process (part of ``bench server``).

Tables of the three games are played at random, dealing and starting again as the server does;
after every change each way makes the same state's text (they are checked equal), for the
person's seat alone (one connection, as at the benchmark's tables) and for every seat and a
spectator (a full table).  Sockets, the store and the computer seats are left out: this is the
view's own cost, which the load runs cannot separate from the machine's drift.
"""

from __future__ import annotations

import json
import random
import time
import types
from typing import Any

__all__ = ["measure_views"]

_SETUPS = (("deerpark", 4), ("hucklebuck", 4), ("buckem", 5))


def _tables(count: int, rng: random.Random) -> list[Any]:
    from ..cli.common import GAMES
    from ..server._seats import Seat
    from ..server.config import ServerConfig
    from ..server.tables import ServerTable

    manager: Any = types.SimpleNamespace(config=ServerConfig())
    out = []
    for i in range(count):
        name, players = _SETUPS[i % len(_SETUPS)]
        spec = next(s for s in GAMES.values() if s.kind.value == name)
        seats = [Seat(kind="human", name="Ann", player=None, digest=None, connections=1, opened=True)]
        seats += [
            Seat(kind="computer", name=f"Bot {s}", player="heuristic", digest=None) for s in range(1, players)
        ]
        game = spec.game_type(players, seed=rng.randrange(1 << 30))
        out.append(ServerTable(manager, f"t{i}", spec, game, seats, 0, {"notices": []}))
    return out


def _step(table: Any, rng: random.Random) -> None:
    from ..server.views import HandLog

    game = table.game
    if table.over:
        table.fields["game_over"] = table.fields["last_hand"] = None
        table.game = table.narrator.game = table.spec.game_type(game.players, seed=rng.randrange(1 << 30))
        table._log = HandLog()
    elif game.to_act is None:
        game.next_hand()
    else:
        before = game.phase
        game.apply(rng.choice(game.legal_actions()))
        table._after_action(before)
    table.seq += 1


def _state(encode: Any, table: Any, seat: int | None) -> str:
    return str(encode({"type": "state", "seq": table.seq, "you": seat, "view": table.view(seat)}))


def measure_views(changes: int, every_seat: bool, tables: int = 30) -> tuple[float, float, int]:
    """CPU microseconds per change of the kept pieces and of the view built afresh, and the
    number of texts compared; ``every_seat``: every seat and a spectator, else the person's."""
    encode = json.JSONEncoder(separators=(",", ":"), check_circular=False).encode
    rng = random.Random(60)
    held = _tables(tables, rng)
    kept = afresh = 0.0
    texts = 0
    clock = time.process_time
    for n in range(changes):
        table = held[n % len(held)]
        _step(table, rng)
        table.log()
        viewers: list[int | None] = [*range(table.game.players), None] if every_seat else [0]
        for first_kept in (n % 2 == 0, n % 2 == 1):  # each way first in turn
            start = clock()
            if first_kept:  # (as the server's broadcast makes them: what the viewers share, once)
                made = table.state_texts(viewers)
                got = [made[v] for v in viewers]
                kept += clock() - start
            else:
                want = [_state(encode, table, v) for v in viewers]
                afresh += clock() - start
        if got != want:
            raise AssertionError(f"table {table.id} at state {table.seq}: the two texts differ")
        texts += len(viewers)
    return kept / changes * 1e6, afresh / changes * 1e6, texts
