"""Fuzz the adapter's ``play`` op with requests that are valid until one mutation.

The bytes choose a game, players and seed; a game is played with legal
actions chosen by the bytes and turned into a protocol ``play`` request, then
one part of it (an action, a card of the deal, an option, the start, a
player count) is replaced by a value the bytes choose.  Raw-byte fuzzing of
the adapter rarely gets this deep.  Checks are those of ``fuzz_adapter``:
one strict-JSON answer, never an ``internal error``, the same on both cores.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from _common import Bytes, on_every_core, run
from fuzz_adapter import _answer, check_answer

from hucklebuck.games import BuckEmGame, DeerParkGame, HucklebuckGame

GAMES = ((HucklebuckGame, 3, 7), (BuckEmGame, 5, 8), (DeerParkGame, 3, 7))
VALUES: list[Any] = [
    None,
    -1,
    0,
    1,
    7,
    9,
    2**63,
    1.5,
    "",
    "AS",
    "9S",
    "2C",
    "x",
    [],
    [[]],
    {},
    True,
    "1 pass",
    "0 play AS",
    "1 stay",
    "2 discard",
    "S",
    "C",
    "buckem",
    [0, 1],
    {"a": 1},
]


def _request(b: Bytes) -> dict[str, Any]:
    cls, lo, hi = b.pick(GAMES)
    players = lo + b.byte() % (hi - lo + 1)
    game = cls(players, seed=b.byte())
    for _ in range(b.byte() % 48):
        if game.to_act is None:
            if game.is_over:
                break
            game.next_hand()
        legal = game.legal_actions()
        game.apply(legal[b.byte() % len(legal)])
    saved = game.to_dict()
    return {
        "id": 1,
        "op": "play",
        "game": saved["game"],
        "players": saved["players"],
        "options": saved["options"],
        "start": saved["start"],
        "hands": [{"deal": h["deal"], "actions": h["actions"]} for h in saved["hands"]],
    }


def _mutate(node: Any, b: Bytes) -> Any:
    """Replace one value somewhere inside ``node`` (walking down as the bytes say)."""
    if isinstance(node, dict) and node and b.byte() % 4:
        key = b.pick(sorted(node))
        return {**node, key: _mutate(node[key], b)}
    if isinstance(node, list) and node and b.byte() % 4:
        i = b.byte() % len(node)
        return [*node[:i], _mutate(node[i], b), *node[i + 1 :]]
    return b.pick(VALUES)


def TestOneInput(data: bytes) -> None:  # the name atheris expects
    b = Bytes(data)
    request = _mutate(_request(b), b) if b.byte() % 8 else _request(b)
    line = json.dumps(request).encode()
    kind, text = on_every_core(lambda: _answer(line), allowed=())
    assert kind == "ok"
    check_answer(text)


if __name__ == "__main__":
    run(TestOneInput)
    sys.exit(0)
