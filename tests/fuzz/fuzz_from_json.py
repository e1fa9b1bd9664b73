"""Fuzz restoring saved games: ``from_json`` of each game on any text.

Checks: only :class:`~hucklebuck.errors.RestoreError` escapes; a game that is
restored saves back to JSON that restores to an equal game, and every action
it lists as legal is legal; the C and Python cores agree.
"""

from __future__ import annotations

import sys

from _common import on_every_core, run

from hucklebuck.errors import RestoreError
from hucklebuck.games import BuckEmGame, DeerParkGame, HucklebuckGame

GAMES = (HucklebuckGame, BuckEmGame, DeerParkGame)


def _restore(cls: type, text: str) -> str:
    game = cls.from_json(text)  # type: ignore[attr-defined]
    saved = game.to_json()
    assert cls.from_json(saved) == game  # type: ignore[attr-defined]
    for action in game.legal_actions()[:20]:
        assert game.is_legal(action), action
    return str(saved)


def TestOneInput(data: bytes) -> None:  # the name atheris expects
    if not data:
        return
    cls = GAMES[data[0] % 3]
    text = data[1:].decode("utf-8", "replace")
    on_every_core(lambda: _restore(cls, text), allowed=RestoreError)


if __name__ == "__main__":
    run(TestOneInput)
    sys.exit(0)
