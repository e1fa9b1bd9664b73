"""OpenSpiel's Python ISMCTS on the three games: the resampler deals the hidden
cards anew without changing what the player knows, ``clone()`` uses the
engine's cheap copy, and ISMCTS plays whole hands of each game."""

from __future__ import annotations

import random
from typing import Any

import pytest

pytest.importorskip("pyspiel")
pytest.importorskip("numpy")

import pyspiel

from hucklebuck import openspiel as hos
from hucklebuck.games.engine import TrickGame

# episodes of K hands warn (RewardWarning) that they do not teach winning; these tests cut them on purpose
pytestmark = pytest.mark.filterwarnings("ignore::hucklebuck.vector.RewardWarning")

GAMES = [
    "python_hucklebuck(players=4,hands=1)",
    "python_buckem(players=5,hands=1)",
    "python_deerpark(players=4,hands=1)",
    "python_buckem(players=6,scare_cards=True,deuce_swap=True,hands=1)",
]


def _to_decision(state: Any, rng: random.Random, steps: int) -> Any:
    """Deal, then take ``steps`` random decisions (stopping at a decision)."""
    taken = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
            continue
        if taken == steps:
            break
        state.apply_action(rng.choice(state.legal_actions()))
        taken += 1
    return state


@pytest.mark.parametrize("name", GAMES)
def test_a_resampled_state_keeps_what_the_player_knows(name: str) -> None:
    game = pyspiel.load_game(name)
    cb = hos.resampler(seed=3)
    changed = 0
    for trial in range(6):
        rng = random.Random(trial)
        state = _to_decision(game.new_initial_state(), rng, steps=rng.randrange(12))
        if state.is_terminal():
            continue
        me = state.current_player()
        mine = state._game.hand(me)
        for _ in range(4):
            other = cb(state, me)
            assert other.information_state_string(me) == state.information_state_string(me)
            assert other.legal_actions() == state.legal_actions()
            assert other._game.hand(me) == mine
            hidden = [other._game.hand(s) for s in range(game.num_players()) if s != me]
            assert all(not (h & mine) for h in hidden)
            changed += hidden != [state._game.hand(s) for s in range(game.num_players()) if s != me]
            other.apply_action(other.legal_actions()[0])  # and it plays on
    assert changed >= 10, changed  # the hidden cards really are dealt anew


def test_clone_uses_the_engines_copy(monkeypatch: pytest.MonkeyPatch) -> None:
    game = pyspiel.load_game("python_deerpark(players=4,hands=1)")
    state = _to_decision(game.new_initial_state(), random.Random(1), 2)
    calls: list[int] = []
    real = TrickGame.copy

    def counted(self: Any) -> Any:
        calls.append(1)
        return real(self)

    monkeypatch.setattr(TrickGame, "copy", counted)
    twin = state.clone()
    assert calls == [1]
    assert str(twin) == str(state) and twin.history() == state.history()
    twin.apply_action(twin.legal_actions()[0])
    assert twin.history() != state.history() and len(state.history()) + 1 == len(twin.history())


@pytest.mark.parametrize("name", GAMES[:3])
def test_ismcts_plays_whole_hands(name: str) -> None:
    game = pyspiel.load_game(name)
    bots = [hos.ismcts_bot(game, max_simulations=8, seed=s) for s in range(game.num_players())]
    rng = random.Random(0)
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
            continue
        action = bots[state.current_player()].step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        decisions += 1
    assert decisions >= 5 and len(state.returns()) == game.num_players()


def test_ismcts_takes_part_in_evaluate_bots() -> None:
    np = pytest.importorskip("numpy")
    from open_spiel.python.algorithms import evaluate_bots

    game = pyspiel.load_game("python_deerpark(players=3,hands=1)")
    bots = [hos.ismcts_bot(game, max_simulations=4, seed=1)] + [
        pyspiel.make_uniform_random_bot(s, s) for s in (1, 2)
    ]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(0))
    assert len(returns) == 3
