"""Non-interference in the library: for twin deals that differ only in cards a
seat (or an onlooker) never sees, that seat's view (its JSON form) and its
observation tensor are the same at every point of the hand.  So the tensors,
which feed PettingZoo, OpenSpiel and learning code, know no more than the view."""

from __future__ import annotations

import random
from typing import Any

import pytest
from twins_kit import GAMES, _make_case, _twin

from hucklebuck.games.observe import view

CASES = [
    ("hucklebuck", 4, {}),
    ("hucklebuck", 6, {"auction_reentry": True}),
    ("deerpark", 4, {}),
    ("deerpark", 5, {"club_turnup_pickup": True}),
    ("buckem", 5, {}),
    ("buckem", 6, {"simultaneous_declare": True, "deuce_swap": True}),
    ("buckem", 8, {"scare_cards": True}),
    ("buckem", 6, {"short_handed": True, "short_handed_trump": "removed_card"}),
]


@pytest.mark.parametrize(("game_name", "players", "options"), CASES)
def test_twins_have_equal_views_and_tensors(game_name: str, players: int, options: dict[str, Any]) -> None:
    rng = random.Random(players)
    cls = GAMES[game_name]
    pairs = 0
    for seed in range(6):
        deal, script = _make_case(game_name, players, options, seed)
        for observer in [None, *range(players)]:
            twin = _twin(game_name, players, options, deal, script, observer, rng)
            if twin is None:
                continue
            deal2, script2 = twin
            a, b = cls(players, options=options, deal=deal), cls(players, options=options, deal=deal2)
            for step in range(len(script) + 1):
                assert view(a, observer) == view(b, observer), (seed, observer, step, script[:step])
                if observer is not None:
                    assert list(a.observation_tensor(observer)) == list(b.observation_tensor(observer)), (
                        seed,
                        observer,
                        step,
                    )
                if step < len(script):
                    a.apply(script[step])
                    b.apply(script2[step])
            pairs += 1
    assert pairs >= players, pairs
