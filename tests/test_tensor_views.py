"""One tensor from every view (issue 59, point 4): :func:`hucklebuck.games.tensors.tensor_of`
of a seat's typed observation is the tensor the engine, the batched lane (both lanes), the
PettingZoo environments, the OpenSpiel games and the learned player give, at every step."""

from __future__ import annotations

import random
import warnings
from typing import Any

import pytest
from test_tensors import VARIANTS

from hucklebuck.errors import OptionsError
from hucklebuck.games import DeerParkGame, Phase
from hucklebuck.games.tensors import tensor_of
from hucklebuck.vector import VectorGame

pytestmark = pytest.mark.filterwarnings("ignore::hucklebuck.vector.RewardWarning")  # short episodes


@pytest.mark.parametrize("name,make", VARIANTS, ids=[n for n, _ in VARIANTS])
def test_the_tensor_of_a_view_is_the_games_tensor_at_every_step(name: str, make: Any) -> None:
    for seed in range(2):
        game = make(seed)
        rng = random.Random(seed)
        n = game.players if hasattr(game, "players") else len(game.standings)
        for _ in range(160):
            for s in range(n):
                want = game.observation_tensor(s).tobytes()
                assert tensor_of(game.observation(s)).tobytes() == want, (name, s)
            if game.is_over:
                break
            if game.phase is Phase.HAND_OVER:
                game.next_hand()
            else:
                game.apply(rng.choice(game.legal_actions()))


def test_an_onlooker_or_anything_else_has_no_tensor() -> None:
    game = DeerParkGame(4, seed=1)
    with pytest.raises(OptionsError, match="onlooker"):
        tensor_of(game.observation(None))
    with pytest.raises(OptionsError, match="observation"):
        tensor_of(game)


@pytest.mark.parametrize("kind,players", [("deerpark", 4), ("hucklebuck", 4), ("buckem", 5)])
def test_the_lane_gives_the_tensor_of_each_view(kind: str, players: int) -> None:
    vg = VectorGame(kind, players, 3, seed=11, hands=2)
    size = 4 * vg.tensor_size
    for k in range(120):
        rows = [vg.observation_tensor(seat=s).tobytes() for s in range(players)]
        for i in range(3):
            game = vg.game(i)
            for s in range(players):
                want = tensor_of(game.observation(s)).tobytes()
                assert rows[s][i * size : (i + 1) * size] == want, (k, i, s)
        vg.step(vg.sample_legal(k))


@pytest.mark.single_core
@pytest.mark.parametrize("kind,players", [("deerpark", 4), ("hucklebuck", 3), ("buckem", 5)])
def test_pettingzoo_gives_the_tensor_of_each_view(kind: str, players: int) -> None:
    np = pytest.importorskip("numpy")
    pytest.importorskip("pettingzoo")
    from hucklebuck.pettingzoo import env

    e = env(kind, players=players, hands=2)
    e.reset(seed=4)
    rng = np.random.default_rng(0)
    for agent in e.agent_iter():
        obs, _, term, trunc, _ = e.last()
        seat = int(agent.split("_")[1])
        assert obs["observation"].tobytes() == tensor_of(e.game.observation(seat)).tobytes()
        e.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))


@pytest.mark.single_core
@pytest.mark.parametrize("kind,players", [("deerpark", 4), ("hucklebuck", 4), ("buckem", 5)])
def test_openspiel_gives_the_tensor_of_each_view(kind: str, players: int) -> None:
    pytest.importorskip("pyspiel")
    import hucklebuck.openspiel as hos

    state = hos.load(kind, players=players, hands=2).new_initial_state()
    rng = random.Random(2)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
            continue
        for s in range(players):
            want = tensor_of(state._game.observation(s))
            assert list(state.observation_tensor(s)) == list(want)
        state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.single_core
def test_the_learned_player_sees_the_tensor_the_lane_gives(tmp_path: Any) -> None:
    np = pytest.importorskip("numpy")
    from hucklebuck.learn import Network
    from hucklebuck.learn.player import LearnedPlayer

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        vg = VectorGame("deerpark", 4, 2, seed=3, hands=2)
    player = LearnedPlayer(Network.new(vg.kind, 4, vg.num_distinct_actions, (8, 8)))
    for k in range(80):
        lane = np.asarray(vg.observation_tensor())
        for i in range(2):
            seat = int(vg.current_player[i])
            if seat < 0:
                continue
            game = vg.game(i)
            assert player.tensor(game.observation(seat)).tobytes() == lane[i].tobytes()
            action = player.choose(game.observation(seat))
            assert game.is_legal(action)
        vg.step(vg.sample_legal(k))
