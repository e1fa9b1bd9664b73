"""Issue 24: the PettingZoo environments check first and change nothing on a refusal.

A refused ``step`` keeps the game, every reward and the turn; NumPy integer
seeds and actions are accepted; every other hostile value is refused with a
library error.  The property test throws junk at every argument.
"""

from __future__ import annotations

import copy
import math
from typing import Any

import pytest

pytest.importorskip(
    "pettingzoo", reason="the PettingZoo extra is not installed (pip install 'hucklebuck[pettingzoo]')"
)

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from thorough_kit import examples

from hucklebuck.errors import ActionParseError, HucklebuckError, IllegalAction, OptionsError
from hucklebuck.pettingzoo import env, parallel_env

# episodes of K hands warn (RewardWarning) that they do not teach winning; these tests cut them on purpose
pytestmark = pytest.mark.filterwarnings("ignore::hucklebuck.vector.RewardWarning")

JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=6),
    st.lists(st.integers(-3, 60), max_size=3),
    st.sampled_from(
        [
            object(),
            52.9,
            np.float64(1.0),
            np.bool_(True),
            np.array([1]),
            {"a": 1},
            "player_9",
            b"1",
            np.int8(-1),
        ]
    ),
)


def _snapshot(e: Any) -> tuple[object, ...]:
    """Everything a refused call must leave as it was: the game and the bookkeeping."""
    return (
        e.game.to_dict(),
        copy.deepcopy(e.rewards),
        copy.deepcopy(e._cumulative_rewards),
        copy.deepcopy(e.terminations),
        copy.deepcopy(e.truncations),
        list(e.agents),
        e.agent_selection,
        e._steps,
        e._hands_done,
    )


def _to_scored_hand(e: Any) -> None:
    """Play legal ids until a hand has just been scored (some reward is non-zero)."""
    for _ in range(500):
        obs, _, term, trunc, _ = e.last()
        if any(e._cumulative_rewards.values()) or term or trunc:
            return
        e.step(int(np.flatnonzero(obs["action_mask"])[0]))
    raise AssertionError("no hand was scored")


def _illegal_id(e: Any) -> int:
    mask = e.observe(e.agent_selection)["action_mask"]
    return int(np.flatnonzero(mask == 0)[0])


def test_an_illegal_step_keeps_the_pending_reward() -> None:
    # Before: step() zeroed _cumulative_rewards and cleared rewards, then apply_id raised.
    e = env("hucklebuck", 4)
    e.reset(seed=5)
    _to_scored_hand(e)
    before = _snapshot(e)
    assert any(before[2].values())  # type: ignore[attr-defined]
    with pytest.raises(IllegalAction):
        e.step(_illegal_id(e))
    assert _snapshot(e) == before


def test_numpy_integer_seeds_and_actions_are_accepted() -> None:
    # Before: random.Random(np.int64(3)) raised TypeError.
    a, b = env("deerpark", 3), env("deerpark", 3)
    a.reset(seed=np.int64(3))
    b.reset(seed=3)
    assert a.game.to_dict() == b.game.to_dict()
    legal = int(np.flatnonzero(a.last()[0]["action_mask"])[0])
    a.step(np.int64(legal))
    b.step(legal)
    assert a.game.to_dict() == b.game.to_dict()


@pytest.mark.parametrize(
    "action", [math.nan, math.inf, [1], 52.9, True, np.float64(1.0), "1", np.bool_(False)]
)
def test_a_non_integer_action_is_refused_not_truncated(action: object) -> None:
    # Before: step(nan) -> ValueError, step(inf) -> OverflowError, step([1]) -> TypeError,
    # step(52.9) was applied as 52 and step(True) as 1.
    e = env("hucklebuck", 4)
    e.reset(seed=1)
    before = _snapshot(e)
    with pytest.raises(ActionParseError, match="integer action id"):
        e.step(action)  # type: ignore[arg-type]
    assert _snapshot(e) == before


def test_hostile_agents_rewards_and_seeds_are_library_errors() -> None:
    e = env("hucklebuck", 4)
    e.reset(seed=1)
    with pytest.raises(OptionsError, match="no agent 'player_9'"):
        e.observe("player_9")  # before: ValueError from list.index
    for bad in ("x", math.nan, math.inf, None, True):
        with pytest.raises(OptionsError, match="illegal_reward"):
            env("hucklebuck", illegal_reward=bad)  # type: ignore[arg-type]
    for seed in (-1, 1.5, "a", 2**64, True):
        with pytest.raises(OptionsError, match="seed"):
            e.reset(seed=seed)  # type: ignore[arg-type]
    with pytest.raises(OptionsError, match="options must be a mapping"):
        env("hucklebuck", options=[1])  # type: ignore[arg-type]


def test_stepping_or_looking_after_the_episode_is_a_library_error() -> None:
    e = env("deerpark", 3, hands=1)
    e.reset(seed=2)
    for _ in e.agent_iter(1000):
        obs, _, term, trunc, _ = e.last()
        e.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[0]))
    assert e.agents == []
    # Before: KeyError for both.
    with pytest.raises(IllegalAction, match="episode is over"):
        e.step(0)
    with pytest.raises(IllegalAction, match="episode is over"):
        e.last()
    fresh = env("deerpark", 3)
    with pytest.raises(IllegalAction, match="reset"):
        fresh.last()  # before: AttributeError


def test_a_dead_agent_is_stepped_with_none_only() -> None:
    e = env("deerpark", 3, hands=1)
    e.reset(seed=2)
    while True:
        obs, _, term, trunc, _ = e.last()
        if term or trunc:
            break
        e.step(int(np.flatnonzero(obs["action_mask"])[0]))
    before = _snapshot(e)
    with pytest.raises(IllegalAction, match="None"):
        e.step(3)
    assert _snapshot(e) == before


def test_the_parallel_api_refuses_a_non_mapping() -> None:
    p = parallel_env("deerpark", 3)
    p.reset(seed=1)
    with pytest.raises(OptionsError, match="actions must map"):
        p.step([1])  # type: ignore[arg-type]


@pytest.mark.single_core
@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    where=st.sampled_from(["step", "step_penalize", "observe", "reset", "env"]),
    arg=st.sampled_from(
        [
            "game",
            "players",
            "options",
            "render_mode",
            "reward",
            "hands",
            "max_cycles",
            "illegal",
            "illegal_reward",
        ]
    ),
    junk=JUNK,
    moves=st.integers(0, 12),
)
def test_property_hostile_values_give_library_errors_and_change_nothing(
    where: str, arg: str, junk: object, moves: int
) -> None:
    if where == "env":
        kwargs: dict[str, Any] = {"game": "buckem", "players": 5, arg: junk}
        try:
            e = env(**kwargs)
            e.reset(seed=1)
        except HucklebuckError:
            pass
        return
    e = env("hucklebuck", 4, illegal="penalize" if where == "step_penalize" else "raise")
    e.reset(seed=4)
    for _ in range(moves):
        e.step(int(np.flatnonzero(e.last()[0]["action_mask"])[0]))
    before = _snapshot(e)
    try:
        if where.startswith("step"):
            e.step(junk)  # type: ignore[arg-type]
        elif where == "observe":
            e.observe(junk)  # type: ignore[arg-type]
        else:
            e.reset(seed=junk)  # type: ignore[arg-type]
    except HucklebuckError:
        assert _snapshot(e) == before
