"""Issue 24: the OpenSpiel games check parameters and actions first and change
nothing on a refusal (rewards included).  The property test throws junk at every
parameter and at the actions of states along an episode."""

from __future__ import annotations

import random
from typing import Any

import pytest

pytest.importorskip(
    "pyspiel", reason="the OpenSpiel extra is not installed (pip install 'hucklebuck[openspiel]')"
)

import pyspiel
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from thorough_kit import examples

from hucklebuck import openspiel as hos
from hucklebuck.errors import HucklebuckError, IllegalAction, OptionsError

pytestmark = [
    pytest.mark.single_core,  # the wrapper's bookkeeping, the same on both cores
    pytest.mark.filterwarnings("ignore::hucklebuck.vector.RewardWarning"),  # episodes cut on purpose
]


def _episode(game: Any, seed: int) -> Any:
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def _snapshot(state: Any) -> tuple[object, ...]:
    return (str(state), state.history(), state.rewards(), state.returns(), state.is_terminal())


def test_a_refused_action_at_the_end_of_an_episode_keeps_the_rewards() -> None:
    # Before: _apply_action zeroed the rewards first, and said "deal the next hand first".
    state = _episode(hos.load("deerpark", players=3, hands=1), 1)
    before = _snapshot(state)
    assert any(state.rewards())
    with pytest.raises(IllegalAction, match="episode is over"):
        state.apply_action(0)
    assert _snapshot(state) == before


def test_a_refused_decision_keeps_the_shown_rewards() -> None:
    game = hos.load("hucklebuck", players=3, hands=2)
    rng = random.Random(3)
    state = game.new_initial_state()
    while state.is_chance_node() or not any(state.rewards()):
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        if state.is_terminal():
            pytest.fail("the episode ended before a hand was scored mid-episode")
    while state.is_chance_node():  # deal the next hand; the scored hand's rewards stay shown
        state.apply_action(state.chance_outcomes()[0][0])
    before = _snapshot(state)
    illegal = next(a for a in range(game.num_distinct_actions()) if a not in state.legal_actions())
    with pytest.raises(IllegalAction):
        state.apply_action(illegal)
    assert _snapshot(state) == before


def test_a_chance_action_that_is_not_an_outcome_is_refused() -> None:
    # Before: ValueError: list.remove(x): x not in list.
    state = hos.load("deerpark", players=3, hands=1).new_initial_state()
    first = state.chance_outcomes()[0][0]
    state.apply_action(first)
    before = _snapshot(state)
    for card in (first, 60, -2, 0):  # dealt already, not a card, not a card, not in the Deer Park pack
        with pytest.raises(IllegalAction, match="not one of the cards still to deal"):
            state.apply_action(card)
        assert _snapshot(state) == before


@pytest.mark.parametrize(
    ("game", "params", "match"),
    [
        ("hucklebuck", {"hands": -1}, "hands must be an integer from 1"),  # 0 is whole games
        ("hucklebuck", {"hands": 10**8}, "hands must be an integer from 1"),  # before: pybind TypeError
        ("hucklebuck", {"seed": 2**40}, "32 bits"),  # before: pybind RuntimeError
        ("buckem", {"ante": 2**31}, "32 bits"),
    ],
)
def test_bad_parameters_are_library_errors(game: str, params: dict[str, Any], match: str) -> None:
    with pytest.raises(OptionsError, match=match):
        hos.load(game, **params)


def test_parameters_given_to_the_class_directly_are_checked_too() -> None:
    with pytest.raises(OptionsError, match=r"hands must be an integer, not 1\.5"):
        hos.HucklebuckSpielGame({"hands": 1.5})  # before: silently 1
    with pytest.raises(OptionsError, match="32 bits"):
        hos.HucklebuckSpielGame({"seed": 2**40})


def test_many_buck_em_hands_have_finite_utility_bounds_quickly() -> None:
    # Before: hands=400 -> OverflowError from a loop quadratic in hands.
    game = hos.load("buckem", hands=hos.MAX_HANDS)
    assert game.min_utility() < 0 < game.max_utility() < float("inf")
    limited = hos.load("buckem", hands=400, pot_limit=10)
    assert 0 < limited.max_utility() < 1e9


JUNK = st.one_of(
    st.booleans(),
    st.integers(min_value=-(2**40), max_value=2**40),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=5),
)


@settings(max_examples=examples(50), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    game=st.sampled_from(["hucklebuck", "buckem", "deerpark"]),
    name=st.sampled_from(["players", "hands", "seed", "target", "ante", "pot_limit", "scare_position"]),
    junk=JUNK,
)
def test_property_hostile_parameters_are_library_errors(game: str, name: str, junk: object) -> None:
    cls = {
        "hucklebuck": hos.HucklebuckSpielGame,
        "buckem": hos.BuckEmSpielGame,
        "deerpark": hos.DeerParkSpielGame,
    }
    known = set(hos._option_defaults(hos.GameKind(game))) | {"players", "hands", "seed"}
    if name not in known:
        return
    try:
        g = cls[game]({name: junk})
        _episode(g, 0)
    except HucklebuckError:
        pass


@settings(max_examples=examples(50), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    game=st.sampled_from(["hucklebuck", "buckem", "deerpark"]),
    steps=st.integers(0, 80),
    action=st.integers(-5, 200),
    seed=st.integers(0, 50),
)
def test_property_any_integer_action_is_applied_or_refused_changing_nothing(
    game: str, steps: int, action: int, seed: int
) -> None:
    g = hos.load(game, players=5 if game == "buckem" else 3, hands=2)
    rng = random.Random(seed)
    state = g.new_initial_state()
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    legal = (
        [c for c, _ in state.chance_outcomes()]
        if state.is_chance_node()
        else []
        if state.is_terminal()
        else state.legal_actions()
    )
    before = _snapshot(state)
    try:
        state.apply_action(action)
    except pyspiel.SpielError:  # OpenSpiel's own refusal of its kInvalidAction, -1
        assert action == -1
        assert _snapshot(state) == before
    except HucklebuckError:
        assert action not in legal
        assert _snapshot(state) == before
    else:
        assert action in legal
