"""Board matches: hand-by-hand duplicate scoring in the game's value (hucklebuck.boards)."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from typing import Any

import pytest

from hucklebuck.boards import board_values, ratio_ci, run_board_match
from hucklebuck.cli import main
from hucklebuck.errors import OptionsError
from hucklebuck.games import DeerParkGame, HucklebuckGame
from hucklebuck.games.base import Phase
from hucklebuck.players import make_player


@pytest.mark.parametrize(
    ("game", "players", "games", "options"),
    [
        ("deerpark", 4, 24, {}),
        ("hucklebuck", 4, 24, {}),
        ("buckem", 5, 30, {"pot_limit": 20}),
    ],
)
def test_heuristic_gains_on_random_hand_by_hand(
    game: str, players: int, games: int, options: dict[str, object]
) -> None:
    t = run_board_match(
        game, players=players, bots=("heuristic", "random"), games=games, seed=1, options=options
    )
    heuristic, rnd = t.results
    assert (heuristic.kind, rnd.kind) == ("heuristic", "random")
    assert heuristic.low > 0.0 > rnd.high
    assert heuristic.even == rnd.even == 0.0
    # what one kind's seats gain over the table's mean the other's lose
    total = sum(r.value * r.seats for r in t.compositions[0].results)
    assert abs(total) < 1e-9
    assert t.hands > t.deals  # every hand of each reference game is a board


def _twin(seed: int) -> object:
    from hucklebuck.players import MonteCarloPlayer

    return MonteCarloPlayer(samples=4, seed=seed)


def test_two_names_for_one_player_with_common_seeds_score_exactly_even() -> None:
    custom = {"a": _twin, "b": _twin}
    t = run_board_match(
        "deerpark", players=4, bots=("a", "b"), games=8, seed=3, custom=custom, common_seeds=True
    )
    for r in t.results:
        assert abs(r.value) < 1e-9 and abs(r.low) < 1e-9 and abs(r.high) < 1e-9
    own = run_board_match("deerpark", players=4, bots=("a", "b"), games=4, seed=3, custom=custom)
    assert own.results[0].value != 0.0  # without common seeds the searches' own luck shows


def _play_out(game: Any, bots: Sequence[Any]) -> None:
    """Play ``game`` to its end with one player per seat."""
    while game.phase is not Phase.GAME_OVER:
        if game.phase is Phase.HAND_OVER:
            game.next_hand()
            continue
        seat = game.to_act
        game.apply(bots[seat].choose(game.observation(seat)))


def test_the_boards_are_the_hands_of_the_reference_game() -> None:
    # heuristic players do not depend on their seeds, so the reference game is the
    # game those players play from the deal's seed: its hands are the boards
    from hucklebuck.tournament import _deal_seed

    t = run_board_match("hucklebuck", players=4, bots=("heuristic",), games=4, seed=5)
    assert t.deals == 1
    game = HucklebuckGame(4, seed=_deal_seed(5, 0))
    bots = [make_player("heuristic", "hucklebuck", seed=s) for s in range(4)]
    _play_out(game, bots)
    assert t.hands == game.hand_number
    assert abs(t.results[0].value) < 1e-9  # one kind: nothing to gain over itself


def test_uneven_seats_score_every_composition_with_even_zero() -> None:
    t = run_board_match("deerpark", players=3, bots=("heuristic", "random"), games=12, seed=4)
    first, second = t.compositions
    assert [r.seats for r in first.results] == [2, 1] and [r.seats for r in second.results] == [1, 2]
    for comp in t.compositions:
        assert abs(sum(r.value * r.seats for r in comp.results)) < 1e-9
        assert all(r.even == 0.0 for r in comp.results)
    text = t.table()
    assert "scored hand by hand (a board match)" in text and "once per rotation and composition" in text
    assert "total over the compositions" in text and "points gained per hand" in text
    assert "(only 2 reference games: the intervals are rough below 30 reference games" in text


def test_ratio_interval() -> None:
    r, low, high = ratio_ci([2.0, 4.0, 6.0], [1, 2, 3])
    assert r == 2.0 and low == high == 2.0  # every observation on the ratio: no width
    r, low, high = ratio_ci([1.0, 3.0], [2, 2])
    # residuals -1 and +1: sd sqrt(2), half-width 1.96 * sqrt(2) / sqrt(2) / 2
    assert r == 1.0 and math.isclose(high - r, 1.959963984540054 / 2) and math.isclose(r - low, high - r)
    r, low, high = ratio_ci([3.0], [4])
    assert r == 0.75 and math.isnan(low) and math.isnan(high)


def test_board_values_of_a_standing_and_of_a_finished_game() -> None:
    fresh = DeerParkGame(4, seed=1)
    assert all(math.isclose(v, 0.25) for v in board_values(fresh))  # everyone on 20
    game = DeerParkGame(3, seed=2)
    bots = [make_player("heuristic", "deerpark", seed=s) for s in range(3)]
    _play_out(game, bots)
    values = board_values(game)
    assert values == [1.0 / len(game.winners) if s in game.winners else 0.0 for s in range(3)]


def test_bad_input_is_refused_as_the_tournament_refuses_it() -> None:
    with pytest.raises(OptionsError, match="unknown player kind 'wizard'"):
        run_board_match("deerpark", bots=("mc", "wizard"), games=4)
    with pytest.raises(OptionsError, match="games must be a positive integer"):
        run_board_match("deerpark", games=0)
    with pytest.raises(OptionsError, match="common_seeds must be True or False"):
        run_board_match("deerpark", games=4, common_seeds="yes")  # type: ignore[arg-type]


def test_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["tournament", "deerpark", "--players", "4", "--bots", "heuristic,random", "--games", "8"]
    assert main([*argv, "--boards"]) == 0
    out = capsys.readouterr().out
    assert "points gained per hand" in out and "gain per hand: the change a hand made" in out
    assert main([*argv, "--boards", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["hands"] > 2 and data["metric"] == "points gained per hand"
    assert (
        main(
            [
                "tournament",
                "buckem",
                "--bots",
                "heuristic,random",
                "--games",
                "5",
                "--rounds",
                "3",
                "--option",
                "pot_limit=20",
                "--boards",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "chips gained per round" in out and "with 3 rounds" in out
