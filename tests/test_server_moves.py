"""Reading a client's move at the table server: every legal move is found by each of its names
(id, protocol form, the menu's words, ``play`` + card), whatever else is tried first; and the menu
of one decision is rendered once, however many tries a client sends at it (a client that floods one
decision with unreadable moves costs the server a dictionary look-up each, not a rendering of every
legal move)."""

from __future__ import annotations

import random
from typing import Any

import pytest

pytest.importorskip("starlette")

from hucklebuck.actions import Play
from hucklebuck.cli.human import move_text
from hucklebuck.games import BuckEmGame, DeerParkGame, HucklebuckGame
from hucklebuck.server import moves
from hucklebuck.server.protocol import ProtocolError


def _decisions(game: Any, rng: random.Random, count: int) -> list[Any]:
    """``count`` positions of one random game (copies), each with a seat to act."""
    out = []
    while len(out) < count and not game.is_over:
        if game.to_act is None:
            game.next_hand()
            continue
        out.append(game.copy())
        game.apply(rng.choice(game.legal_actions()))
    return out


@pytest.mark.parametrize(("kind", "players"), [(HucklebuckGame, 4), (DeerParkGame, 4), (BuckEmGame, 5)])
def test_every_legal_move_is_read_by_each_of_its_names(kind: Any, players: int) -> None:
    game = kind(players, seed=3)
    names = [f"P{i}" for i in range(game.players)]
    for position in _decisions(game, random.Random(5), 60):
        seat = position.to_act
        for action in position.legal_actions():
            text = move_text(action, position)
            forms: list[int | str] = [position.action_id(action), str(action), text, text.upper()]
            if isinstance(action, Play):
                forms.append(f"play {text}")
            for form in forms:
                assert moves.read_move(position, seat, form, names) == action, (form, action)


def test_many_tries_at_one_decision_render_its_menu_once() -> None:
    game = BuckEmGame(6, seed=11)
    rng = random.Random(2)
    while game.to_act is None or len(game.legal_actions()) < 8:  # a decision with many moves (the draw)
        if game.to_act is None:
            game.next_hand()
        else:
            game.apply(rng.choice(game.legal_actions()))
    seat, names = game.to_act, [f"P{i}" for i in range(6)]
    before = moves._menu.cache_info()
    for k in range(500):
        with pytest.raises(ProtocolError):
            moves.read_move(game, seat, f"nonsense {k}", names)
    after = moves._menu.cache_info()
    assert after.misses - before.misses <= 1  # rendered once (or already, by an earlier test)
    assert after.hits - before.hits >= 499
    # the cached menu is the decision's own: a move of it is still read after all those tries
    legal = game.legal_actions()
    assert moves.read_move(game, seat, str(legal[-1]), names) == legal[-1]
