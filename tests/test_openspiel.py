"""The OpenSpiel games pass OpenSpiel's own random simulation test (with
serialisation) and follow the documented chance, observation and reward model."""

from __future__ import annotations

import dataclasses
import importlib
import random
import sys

import pytest

pyspiel = pytest.importorskip(
    "pyspiel", reason="the OpenSpiel extra is not installed (pip install 'hucklebuck[openspiel]')"
)

from hucklebuck.games import BuckEmGame, DeerParkGame, HucklebuckGame, Phase  # noqa: E402
from hucklebuck.games.base import DealEvent  # noqa: E402
from hucklebuck.openspiel import GAME_NAMES, load  # noqa: E402
from hucklebuck.packs import GameKind  # noqa: E402

pytestmark = pytest.mark.single_core  # the games' logic runs on both cores in the game tests

CASES = [
    "python_hucklebuck(players=3,hands=2)",
    "python_hucklebuck(players=6,hands=2)",
    "python_buckem(players=5,hands=2)",
    "python_buckem(players=7,hands=2)",
    "python_deerpark(players=3,hands=2)",
    "python_deerpark(players=5,hands=2)",
    # options that change the deal or what a seat may see
    "python_buckem(players=5,hands=2,scare_cards=True,deuce_swap=True,simultaneous_declare=True)",
    "python_buckem(players=5,short_handed=True,short_handed_trump=removed_card)",
    "python_deerpark(players=8,eight_player_turnup=dealer_last_card,club_turnup_pickup=True)",
]


@pytest.mark.parametrize("name", CASES)
def test_random_sim_test_with_serialisation(name: str) -> None:
    pyspiel.random_sim_test(pyspiel.load_game(name), num_sims=2, serialize=True, verbose=False)


def test_parameters_cover_players_hands_seed_and_every_option() -> None:
    for kind, options in (
        (GameKind.HUCKLEBUCK, HucklebuckGame(4).options),
        (GameKind.BUCKEM, BuckEmGame(5).options),
        (GameKind.DEERPARK, DeerParkGame(4).options),
    ):
        spec = pyspiel.load_game(GAME_NAMES[kind]).get_type().parameter_specification
        names = {f.name for f in dataclasses.fields(options)}
        assert names | {"players", "hands", "seed"} == set(spec), kind
    g = load("hucklebuck", players=5, target=11)
    assert g.num_players() == 5 and g.get_parameters()["target"] == 11
    with pytest.raises(Exception, match="players"):
        pyspiel.load_game("python_buckem(players=3)")
    with pytest.raises(Exception, match="target"):
        pyspiel.load_game("python_hucklebuck(target=12)")


def _play(state: object, rng: random.Random) -> None:
    while not state.is_terminal():  # type: ignore[attr-defined]
        if state.is_chance_node():  # type: ignore[attr-defined]
            outcomes = state.chance_outcomes()  # type: ignore[attr-defined]
            state.apply_action(rng.choice(outcomes)[0])  # type: ignore[attr-defined]
        else:
            state.apply_action(rng.choice(state.legal_actions()))  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("kind", "cls", "players"),
    [("hucklebuck", HucklebuckGame, 4), ("buckem", BuckEmGame, 6), ("deerpark", DeerParkGame, 4)],
)
def test_chance_deals_the_pack_the_way_the_game_lays_it_out(kind: str, cls: type, players: int) -> None:
    # the shuffled order a seeded game dealt (one card at a time from eldest, then
    # the stock), fed card by card through the chance nodes, gives the same deal
    own = cls(players, seed=11)
    deal = next(ev for ev in own.events if isinstance(ev, DealEvent))
    eldest_first = [(1 + i) % players for i in range(players)]
    order = [deal.hands[s][j].index for j in range(5) for s in eldest_first]
    order += [c.index for c in deal.stock]
    state = load(kind, players=players).new_initial_state()
    for i, card in enumerate(order):
        assert state.is_chance_node()
        outcomes = dict(state.chance_outcomes())
        assert card in outcomes and outcomes[card] == pytest.approx(1 / (len(order) - i))
        state.apply_action(card)
    assert not state.is_chance_node()
    mine = next(ev for ev in state._game.events if isinstance(ev, DealEvent))
    assert mine == deal  # the same hands, kitty and turned card
    assert state._game.legal_action_ids() == own.legal_action_ids()


def test_returns_are_the_per_hand_score_changes() -> None:
    game = load("hucklebuck", players=4, hands=3)
    for seed in range(3):
        state = game.new_initial_state()
        _play(state, random.Random(seed))
        g = state._game
        assert g.is_over or g.hand_number == 3
        assert state.returns() == [float(s) for s in g.standings]  # scores start at 0
    dp = load("deerpark", players=3, hands=2).new_initial_state()
    _play(dp, random.Random(5))
    assert dp.returns() == [20.0 - s for s in dp._game.standings]


def test_observations_hide_other_hands() -> None:
    game = load("buckem", players=5)
    state = game.new_initial_state()
    rng = random.Random(2)
    while state.is_chance_node():
        state.apply_action(rng.choice(state.chance_outcomes())[0])
    g = state._game
    seat = state.current_player()
    other = (seat + 1) % 5
    assert state.observation_tensor(seat) == pytest.approx(g.observation_tensor(seat))
    for text in (state.observation_string(seat), state.information_state_string(seat)):
        assert all(c.code in text for c in g.hand(seat))
        assert not any(c.code in text for c in g.hand(other) if c not in g.hand(seat))
    assert state.information_state_string(seat) != state.information_state_string(other)


def test_serialise_and_restore_mid_hand() -> None:
    game = load("hucklebuck", players=4, hands=2)
    state = game.new_initial_state()
    rng = random.Random(9)
    for _ in range(70):
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    back = game.deserialize_state(state.serialize())
    assert str(back) == str(state) and back.history() == state.history()
    assert back._game.to_json() == state._game.to_json()
    clone = state.clone()
    _play(clone, random.Random(1))
    assert state._game.phase is not Phase.GAME_OVER or not state.is_terminal()  # the clone is independent
    assert str(back) == str(state)


def test_mcts_plays_through_evaluate_bots() -> None:
    np = pytest.importorskip("numpy")
    from open_spiel.python.algorithms import evaluate_bots, mcts

    game = load("deerpark", players=3)
    rng = np.random.RandomState(3)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bots = [
        mcts.MCTSBot(game, uct_c=2.0, max_simulations=8, evaluator=evaluator, random_state=rng),
        pyspiel.make_uniform_random_bot(1, 1),
        pyspiel.make_uniform_random_bot(2, 2),
    ]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)
    assert len(returns) == 3 and all(game.min_utility() <= r <= game.max_utility() for r in returns)


def test_missing_extra_names_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pyspiel", None)
    monkeypatch.delitem(sys.modules, "hucklebuck.openspiel")
    with pytest.raises(ImportError, match=r"hucklebuck\[openspiel\]"):
        importlib.import_module("hucklebuck.openspiel")


def test_information_state_tensor_hides_others_discards() -> None:
    game = load("hucklebuck", players=4)
    n, actions = 4, game.num_distinct_actions()
    width, obs_size = n + actions + 1, game.observation_tensor_size()
    assert game.information_state_tensor_size() == obs_size + 52 + (12 * n + 8) * width
    rng = random.Random(4)
    for _ in range(200):  # find a deal where someone exchanges cards
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
                continue
            actor = state.current_player()
            action = rng.choice(state.legal_actions())
            state.apply_action(action)
            if 68 <= action <= 99:  # a discard: its cards are the actor's secret
                k = len(state._log[-1]) - 1
                base = obs_size + 52 + k * width
                own = state.information_state_tensor(actor)
                other = state.information_state_tensor((actor + 1) % n)
                assert own[base + n + action] == 1.0 and own[base + n + actions] == 0.0
                assert other[base + n + action] == 0.0 and other[base + n + actions] == 1.0
                assert other[base + (actor - (actor + 1)) % n] == 1.0  # but who discarded is public
                dealt = state._dealt[-1][actor]
                assert [own[obs_size + c] for c in dealt] == [1.0] * 5
                return
    raise AssertionError("no exchange in 200 random deals")
