"""The seer: the measuring stick that sees every card (only the tournament seats it)."""

from __future__ import annotations

import random

import pytest

from hucklebuck.cli import main
from hucklebuck.errors import OptionsError
from hucklebuck.games import DeerParkGame, HucklebuckGame
from hucklebuck.games.base import Phase
from hucklebuck.games.deerpark import DeerParkDeal
from hucklebuck.packs import pack
from hucklebuck.players import PLAYER_KINDS, MonteCarloPlayer, make_player
from hucklebuck.players.accuracy import true_values
from hucklebuck.players.seer import SEER_KINDS, SeerPlayer, make_seer
from hucklebuck.tournament import run_tournament


def _to_play(game: DeerParkGame | HucklebuckGame, seed: int) -> None:
    """Play heuristic choices until a card is to be played with a choice."""
    bot = make_player("heuristic", "deerpark" if isinstance(game, DeerParkGame) else "hucklebuck")
    while not (game.phase is Phase.PLAY and len(game.legal_actions()) > 1):
        game.apply(bot.choose(game.observation(game.to_act)))


def test_the_seer_plays_the_best_action_on_the_true_deal() -> None:
    for seed in (1, 2, 3):
        game = DeerParkGame(4, seed=seed)
        _to_play(game, seed)
        obs = game.observation(game.to_act)
        seer = SeerPlayer(seed=seed, samples=16)
        seer.watch(game)
        legal = list(obs.legal_actions)
        values = true_values(obs, game, legal, random.Random(seed).getrandbits(62), 16)
        assert seer.choose(obs) == legal[max(range(len(legal)), key=lambda i: (values[i], -i))]


def _swapped(deal: DeerParkDeal, a: int, b: int, i: int, j: int) -> DeerParkDeal:
    hands = [list(h) for h in deal.hands]
    hands[a][i], hands[b][j] = hands[b][j], hands[a][i]
    return DeerParkDeal(tuple(tuple(h) for h in hands), deal.kitty)


def test_the_seer_reads_cards_the_fair_player_cannot_see() -> None:
    """Two deals that differ only in two other seats' cards look the same to the seat on turn:
    the fair player values them alike, the seer does not."""
    cards = sorted(pack("deerpark", 4))
    random.Random(11).shuffle(cards)
    deal = DeerParkDeal(tuple(tuple(cards[5 * s : 5 * s + 5]) for s in range(4)), tuple(cards[20:]))
    seat = DeerParkGame(4, deal=deal).to_act
    a, b = [s for s in range(4) if s != seat][:2]
    differs = 0
    for i in range(5):
        for j in range(5):
            one, two = DeerParkGame(4, deal=deal), DeerParkGame(4, deal=_swapped(deal, a, b, i, j))
            o1, o2 = one.observation(seat), two.observation(seat)
            assert o1.hand == o2.hand and o1.history == o2.history and o1.turned == o2.turned
            fair = [MonteCarloPlayer(seed=5, samples=24).analyse(o) for o in (o1, o2)]
            assert fair[0] == fair[1]
            legal = list(o1.legal_actions)
            v1 = true_values(o1, one, legal, 5, 24)
            v2 = true_values(o2, two, legal, 5, 24)
            differs += v1 != v2
    assert differs > 0


def test_a_seer_needs_the_game_it_watches() -> None:
    game = DeerParkGame(4, seed=1)
    _to_play(game, 1)
    obs = game.observation(game.to_act)
    seer = SeerPlayer(seed=1)
    with pytest.raises(OptionsError, match="a game it watches"):
        seer.choose(obs)
    other = DeerParkGame(4, seed=2)
    seer.watch(other)
    with pytest.raises(OptionsError, match="not of the game the seer watches"):
        seer.choose(obs)
    seer.watch(game)
    assert game.is_legal(seer.choose(obs))
    solver = SeerPlayer(method="solver", samples=4, seed=1)
    solver.watch(game)
    assert game.is_legal(solver.choose(obs))


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"samples": 0}, "samples must be an integer from 1 to 100000"),
        ({"samples": True}, "samples must be an integer"),
        ({"method": "oracle"}, "unknown method 'oracle'"),
    ],
)
def test_bad_seer_settings_are_refused(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(OptionsError, match=message):
        SeerPlayer(**kwargs)  # type: ignore[arg-type]


def test_the_seer_is_no_player_kind() -> None:
    assert not set(SEER_KINDS) & set(PLAYER_KINDS)
    with pytest.raises(OptionsError, match="unknown player kind 'seer'"):
        make_player("seer", "deerpark")
    with pytest.raises(OptionsError, match="unknown seer kind 'mc'"):
        make_seer("mc")
    assert make_seer("seer-solver").method == "solver"


# (whole games: once, on the first core; the seer's choices are tested on both above)
@pytest.mark.single_core
@pytest.mark.parametrize("game", ["hucklebuck", "deerpark", "buckem"])
def test_the_tournament_seats_a_seer(game: str) -> None:
    players = 5 if game == "buckem" else 4
    t = run_tournament(game, players=players, bots=("seer", "random"), games=players, seed=4, rounds=2)
    assert [r.kind for r in t.results][:2] == ["seer", "random"]
    if game != "buckem":
        assert abs(sum(r.value for r in t.results) - 1.0) < 1e-9


@pytest.mark.single_core
def test_the_seer_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "deerpark", "--bots", "seer,random", "--games", "4", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "seer " in out and "random" in out
    assert main(["tournament", "deerpark", "--bots", "seer,oracle", "--games", "8"]) == 2
    assert "seer" in capsys.readouterr().err
    assert main(["play", "deerpark", "--bots", "seer"]) == 2
    assert "unknown player kind 'seer'" in capsys.readouterr().err
