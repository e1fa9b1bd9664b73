"""Fuzz action text: ``parse_action`` and ``game.apply`` on any text, mid-game.

The first bytes pick the game, the seed and how many legal actions to play
first; the rest is one action line.  Checks: only library errors escape, a
refused action leaves the game exactly as it was, and both cores agree.
"""

from __future__ import annotations

import sys

from _common import on_every_core, run

from hucklebuck.actions import parse_action
from hucklebuck.games import BuckEmGame, DeerParkGame, HucklebuckGame

GAMES = ((HucklebuckGame, 3, 7), (BuckEmGame, 5, 8), (DeerParkGame, 3, 7))


def _apply(data: bytes) -> tuple[str, str]:
    cls, lo, hi = GAMES[data[0] % 3]
    players = lo + data[1] % (hi - lo + 1)
    game = cls(players, seed=data[2])
    for i in range(data[3] % 64):
        if game.to_act is None:
            if game.is_over:
                break
            game.next_hand()
        legal = game.legal_actions()
        game.apply(legal[(data[4] + i) % len(legal)])
    text = data[5:].decode("utf-8", "replace")
    before = game.to_json()
    try:
        parse_action(game.kind, text)
        game.apply(text)
    except Exception:
        assert game.to_json() == before, "a refused action changed the game"
        raise
    return text, game.to_json()


def TestOneInput(data: bytes) -> None:  # the name atheris expects
    if len(data) < 5:
        return
    on_every_core(lambda: _apply(data))


if __name__ == "__main__":
    run(TestOneInput)
    sys.exit(0)
