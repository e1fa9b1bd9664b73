"""The PettingZoo environments pass PettingZoo's own tests for every game at two
player counts, and follow the documented observation, reward and render rules."""

from __future__ import annotations

import importlib
import sys
import types
import warnings
from typing import Any

import pytest

pytest.importorskip(
    "pettingzoo", reason="the PettingZoo extra is not installed (pip install 'hucklebuck[pettingzoo]')"
)

import numpy as np
from pettingzoo.test import (
    api_test,
    max_cycles_test,
    parallel_api_test,
    parallel_seed_test,
    seed_test,
)
from pettingzoo.utils.conversions import parallel_to_aec

from hucklebuck.errors import IllegalAction, OptionsError, PlayerCountError
from hucklebuck.games import Phase
from hucklebuck.pettingzoo import env, parallel_env

CASES = [
    ("hucklebuck", 3),
    ("hucklebuck", 6),
    ("buckem", 5),
    ("buckem", 8),
    ("deerpark", 3),
    ("deerpark", 5),
]

# Warnings PettingZoo's api_test gives every environment with a dict observation
# (its own card-game environments included); anything else fails the test.
DICT_OBS_WARNINGS = (
    "Observation space for each agent probably should be",
    "Observation is not a NumPy array",
)

pytestmark = [
    pytest.mark.single_core,  # the environments' logic is core-independent; the game tests cover both
    pytest.mark.filterwarnings("ignore::hucklebuck.vector.RewardWarning"),  # episodes cut on purpose
]


def _unexpected(caught: list[warnings.WarningMessage]) -> list[str]:
    return [str(w.message) for w in caught if not str(w.message).startswith(DICT_OBS_WARNINGS)]


@pytest.mark.parametrize(("game", "players"), CASES)
def test_api_test(game: str, players: int) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env(game, players=players), num_cycles=400)
    assert _unexpected(caught) == []


@pytest.mark.parametrize(
    ("game", "players", "options"),
    [
        ("buckem", 6, {"simultaneous_declare": True, "scare_cards": True, "deuce_swap": True}),
        ("hucklebuck", 4, {"all_pass": "dealer_must_bid", "target": 11}),
        ("deerpark", 8, {"eight_player_turnup": "dealer_last_card", "club_turnup_pickup": True}),
    ],
)
def test_api_test_with_options(game: str, players: int, options: dict[str, Any]) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env(game, players=players, options=options), num_cycles=300)
    assert _unexpected(caught) == []


@pytest.mark.parametrize(("game", "players"), CASES)
def test_seed_test(game: str, players: int) -> None:
    seed_test(lambda: env(game, players=players), num_cycles=200)
    parallel_seed_test(lambda: parallel_env(game, players=players, illegal="penalize"), num_cycles=50)


@pytest.mark.parametrize(("game", "players"), CASES)
def test_max_cycles_test(game: str, players: int) -> None:
    # max_cycles_test steps every agent with unmasked random actions: the parallel
    # view with illegal actions penalised (state unchanged) and its AEC conversion
    mod = types.SimpleNamespace(
        parallel_env=lambda max_cycles: parallel_env(
            game, players=players, max_cycles=max_cycles, illegal="penalize"
        ),
        env=lambda max_cycles: parallel_to_aec(
            parallel_env(game, players=players, max_cycles=max_cycles, illegal="penalize")
        ),
    )
    max_cycles_test(mod)


@pytest.mark.parametrize(("game", "players"), CASES[::2])
def test_parallel_api_test(game: str, players: int) -> None:
    parallel_api_test(parallel_env(game, players=players, illegal="penalize", max_cycles=300), num_cycles=300)


def _play_out(e: Any, rng: np.random.Generator) -> dict[str, float]:
    """Play an episode with masked random actions; total reward per agent."""
    totals = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        totals[agent] += reward
        if term or trunc:
            e.step(None)
        else:
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return totals


def test_hand_rewards_are_score_changes_and_win_bonus() -> None:
    e = env("hucklebuck", players=4, reward="hand")
    e.reset(seed=3)
    totals = _play_out(e, np.random.default_rng(0))
    g = e.game
    assert g.is_over
    # per-hand points sum to the final scores (which start at 0); each winner gets +1 more
    expected = [float(s) + (1.0 if i in g.winners else 0.0) for i, s in enumerate(g.standings)]
    assert [totals[a] for a in e.possible_agents] == expected


@pytest.mark.parametrize("game,players,seed", [("deerpark", 3, 4), ("deerpark", 4, 6), ("hucklebuck", 4, 3)])
def test_default_progress_rewards_sum_to_the_game_result(game: str, players: int, seed: int) -> None:
    """The default reward pays progress toward the goal at each hand, and a whole game's
    rewards sum to its result (1.0 to each winner, 0.0 to the others): its maximiser wins."""
    e = env(game, players=players)
    assert e.reward_mode == "progress"
    e.reset(seed=seed)
    paid: list[float] = []
    totals = dict.fromkeys(e.possible_agents, 0.0)
    rng = np.random.default_rng(seed)
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        totals[agent] += reward
        if reward and not (term or trunc):
            paid.append(reward)
        if term or trunc:
            e.step(None)
        else:
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    g = e.game
    assert g.is_over and paid  # a signal before the end
    assert [totals[a] for a in e.possible_agents] == pytest.approx(list(g.returns()), abs=1e-9)


def test_progress_and_hand_rewards_of_the_batched_lane_and_pettingzoo_agree() -> None:
    """The same Deer Park game, with the same ids, pays the same rewards at every step in
    both interfaces (the lane in float32)."""
    from hucklebuck.games import DeerParkGame
    from hucklebuck.vector import VectorGame

    for mode in ("progress", "hand"):
        vg = VectorGame("deerpark", 4, 1, seed=0, hands=None, reward=mode)
        e = env("deerpark", players=4, reward=mode)  # type: ignore[arg-type]
        e.reset(seed=0)
        e.game = DeerParkGame(4, rng=vg.stream(0))  # the lane's first game, in the environment
        e.agent_selection = e.possible_agents[e.game.to_act]
        paid = 0
        for k in range(5000):
            ids = vg.sample_legal(k)
            e.step(int(ids[0]))
            vg.step(ids)
            row = vg.rewards.tolist()[0]
            assert row == pytest.approx([e.rewards[a] for a in e.possible_agents], abs=1e-6), k
            paid += any(row)
            if vg.terminated[0]:
                break
        assert vg.terminated[0] and all(e.terminations.values()) and paid > 3


def test_deerpark_hand_reward_is_the_fall_of_the_score() -> None:
    e = env("deerpark", players=3, reward="hand")
    e.reset(seed=4)
    totals = _play_out(e, np.random.default_rng(1))
    g = e.game
    expected = [20.0 - s + (1.0 if i in g.winners else 0.0) for i, s in enumerate(g.standings)]
    assert [totals[a] for a in e.possible_agents] == expected


def test_buckem_episode_is_a_session_and_rewards_are_chips() -> None:
    e = env("buckem", players=5, hands=6)
    e.reset(seed=5)
    totals = _play_out(e, np.random.default_rng(2))
    g = e.game
    assert g.hand_number == 6 and not g.is_over
    assert [totals[a] for a in e.possible_agents] == list(g.returns())
    assert sum(totals.values()) + g.pot == 0  # chips are conserved: what seats lost is in the pot
    game_mode = env("buckem", players=5, hands=6, reward="game")
    game_mode.reset(seed=5)
    assert _play_out(game_mode, np.random.default_rng(2)) == totals  # same session, paid at the end


def test_a_game_reward_that_would_always_be_zero_is_refused() -> None:
    with pytest.raises(OptionsError, match="would always pay 0"):
        env("deerpark", players=4, hands=2, reward="game")
    env("deerpark", players=4, hands=2)  # the default reward pays progress


def test_the_class_of_all_three_games_has_a_neutral_name() -> None:
    from hucklebuck import pettingzoo as pz
    from hucklebuck.vector import VectorGame

    e = env("buckem", players=5)
    assert type(e).__name__ == "TrickGameAECEnv" and isinstance(e, pz.HucklebuckAECEnv)
    assert pz.HucklebuckAECEnv is pz.TrickGameAECEnv and pz.HucklebuckParallelEnv is pz.TrickGameParallelEnv
    e.reset(seed=1)
    mask = e.observe(e.agent_selection)["action_mask"]
    assert mask.dtype == np.asarray(VectorGame("buckem", 5, 1, seed=1, hands=1).legal_mask).dtype == np.int8


def test_game_reward_mode_pays_winners_once() -> None:
    e = env("deerpark", players=4, reward="game")
    e.reset(seed=9)
    totals = _play_out(e, np.random.default_rng(3))
    assert sorted(totals.values())[-1] == 1.0
    assert {a for a, r in totals.items() if r} == {e.possible_agents[s] for s in e.game.winners}


def test_hands_limit_truncates_a_game() -> None:
    e = env("hucklebuck", players=3, hands=2)
    e.reset(seed=1)
    _play_out(e, np.random.default_rng(4))
    assert e.game.hand_number == 2 and e.game.phase is Phase.HAND_OVER
    assert e.agents == []


def test_observation_is_the_seat_tensor_and_mask() -> None:
    e = env("hucklebuck", players=4)
    e.reset(seed=2)
    agent = e.agent_selection
    seat = e.possible_agents.index(agent)
    obs = e.observe(agent)
    assert obs["observation"].dtype == np.float32
    assert obs["observation"].tolist() == pytest.approx(e.game.observation_tensor(seat))
    assert np.flatnonzero(obs["action_mask"]).tolist() == e.game.legal_action_ids()
    others = [a for a in e.possible_agents if a != agent]
    assert all(e.observe(a)["action_mask"].sum() == 0 for a in others)


def test_illegal_action_raises_and_changes_nothing() -> None:
    e = env("deerpark", players=4)
    e.reset(seed=2)
    before = e.game.to_json()
    agent = e.agent_selection
    illegal = next(i for i in range(e.game.num_distinct_actions()) if i not in e.game.legal_action_ids())
    with pytest.raises(IllegalAction):
        e.step(illegal)
    assert e.game.to_json() == before and e.agent_selection == agent
    p = env("deerpark", players=4, illegal="penalize", illegal_reward=-2.5)
    p.reset(seed=2)
    p.step(illegal)
    assert p.rewards[agent] == -2.5 and p.agent_selection == agent and p.game.to_json() == before


def test_render_narrates_like_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    e = env("hucklebuck", players=4, render_mode="ansi")
    e.reset(seed=7)
    text = e.render()
    assert text is not None and "Hand 1" in text and "player_0" in text
    _play_out(e, np.random.default_rng(5))
    rest = e.render()
    assert rest is not None and "Trick 1" in rest and "Scoring of hand" in rest and "Game over" in rest
    h = env("buckem", players=5, render_mode="human", hands=1)
    h.reset(seed=1)
    _play_out(h, np.random.default_rng(6))
    out = capsys.readouterr().out
    assert f"Upcard: {h.game.upcard.display}" in out and "Stopped after" in out
    with pytest.warns(UserWarning, match="render_mode"):
        assert env("deerpark", players=3).render() is None  # no render mode: nothing drawn


def test_bad_arguments() -> None:
    with pytest.raises(IllegalAction, match="reset"):
        env("hucklebuck", players=4).step(0)
    with pytest.raises(PlayerCountError):
        env("buckem", players=4)
    with pytest.raises(OptionsError):
        env("hucklebuck", players=4, render_mode="rgb_array")
    with pytest.raises(OptionsError):
        env("hucklebuck", players=4, reward="chips")  # type: ignore[arg-type]
    with pytest.raises(OptionsError):
        env("hucklebuck", players=4, hands=0)
    with pytest.raises(OptionsError):
        env("hucklebuck", players=4, options={"no_such_option": 1})


def test_missing_extra_names_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pettingzoo", None)
    monkeypatch.delitem(sys.modules, "hucklebuck.pettingzoo")
    with pytest.raises(ImportError, match=r"hucklebuck\[pettingzoo\]"):
        importlib.import_module("hucklebuck.pettingzoo")


def test_import_hucklebuck_does_not_import_the_extras() -> None:
    import subprocess

    code = (
        "import sys, hucklebuck, hucklebuck.evaluate, hucklebuck.games;"
        "extras = ('pettingzoo', 'pyspiel', 'numpy', 'gymnasium', 'dask', 'distributed');"
        "bad = [m for m in extras if m in sys.modules];"
        "assert not bad, bad"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
