"""The OpenSpiel games pass OpenSpiel's own random simulation test (with
serialisation) and follow the documented chance, observation and reward model."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

pyspiel = pytest.importorskip(
    "pyspiel", reason="the OpenSpiel extra is not installed (pip install 'hucklebuck[openspiel]')"
)

from hucklebuck.errors import OptionsError  # noqa: E402
from hucklebuck.games import BuckEmGame, DeerParkGame, HucklebuckGame  # noqa: E402
from hucklebuck.games.base import DealEvent  # noqa: E402
from hucklebuck.openspiel import GAME_NAMES, load  # noqa: E402
from hucklebuck.packs import GameKind  # noqa: E402

pytestmark = [
    pytest.mark.single_core,  # the games' logic runs on both cores in the game tests
    pytest.mark.filterwarnings("ignore::hucklebuck.vector.RewardWarning"),  # episodes cut on purpose
]

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
    # two hands: random whole games at eight players run to the 100-hand cut (a minute of CPU);
    # whole games are played in test_default_progress_returns_are_the_game_result_when_the_game_ends
    "python_deerpark(players=8,hands=2,eight_player_turnup=dealer_last_card,club_turnup_pickup=True)",
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
        assert names | {"players", "hands", "seed", "reward"} == set(spec), kind
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
    game = load("hucklebuck", players=4, hands=3, reward="hand")
    for seed in range(3):
        state = game.new_initial_state()
        _play(state, random.Random(seed))
        g = state._game
        assert g.is_over or g.hand_number == 3
        assert state.returns() == [float(s) for s in g.standings]  # scores start at 0
    dp = load("deerpark", players=3, hands=2, reward="hand").new_initial_state()
    _play(dp, random.Random(5))
    assert dp.returns() == [20.0 - s for s in dp._game.standings]


@pytest.mark.parametrize("kind,players", [("deerpark", 4), ("hucklebuck", 4), ("deerpark", 3)])
def test_default_progress_returns_are_the_game_result_when_the_game_ends(kind: str, players: int) -> None:
    """The default reward, as in PettingZoo and the batched lane: progress toward the
    nearer goal in an episode cut short, the game's result (1.0 to each winner) once a
    whole game is played."""
    game = load(kind, players=players, hands=400)
    assert game.get_parameters()["reward"] == "progress"
    for seed in range(3):
        state = game.new_initial_state()
        _play(state, random.Random(seed))
        g = state._game
        assert g.is_over
        assert state.returns() == pytest.approx([1.0 if s in g.winners else 0.0 for s in range(players)])
    short = load("deerpark", players=4, hands=2).new_initial_state()
    _play(short, random.Random(9))
    near = [min(s, 50 - s) for s in short._game.standings]  # no goal reached in two hands
    assert short.returns() == pytest.approx([(20 - d) / 20 for d in near])
    with pytest.raises(OptionsError, match="would always pay 0"):
        load("deerpark", players=4, hands=2, reward="game")
    assert load("deerpark", players=4, hands=4, reward="game").max_utility() == 1.0


def test_clone_costs_a_few_engine_copies() -> None:
    """A clone copies the engine's state once and the episode's records as lists (it was
    a generic deep copy of every attribute, about 50 engine copies' time); it is independent
    of the original.  (Its time: ``python -m hucklebuck.bench vector``.)"""
    state = load("deerpark", players=4, hands=2).new_initial_state()
    rng = random.Random(3)

    def step(s: Any) -> None:
        if s.is_chance_node():
            s.apply_action(rng.choice(s.chance_outcomes())[0])
        else:
            s.apply_action(rng.choice(s.legal_actions()))

    while state.move_number() < 45:
        step(state)
    assert list(state.__dict__) == ["_ep"]  # OpenSpiel deep-copies each attribute: one, cheaply
    copies = [0]
    real_copy = type(state._game).copy

    def counting_copy(self: Any) -> Any:
        copies[0] += 1
        return real_copy(self)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(type(state._game), "copy", counting_copy)
        twin = state.clone()
    assert copies == [1]
    assert twin.history() == state.history() and str(twin) == str(state)
    assert twin.information_state_string(0) == state.information_state_string(0)
    before = (state.history(), state.information_state_string(1), state.returns())
    while not twin.is_terminal():
        step(twin)
    assert (state.history(), state.information_state_string(1), state.returns()) == before
