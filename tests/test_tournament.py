"""Duplicate tournaments: the large heuristic-vs-random margins, reproducibility
whatever runs the chunks, and bad input."""

from __future__ import annotations

import concurrent.futures as cf
import json
import math
from collections.abc import Callable

import pytest

import hucklebuck
from hucklebuck.boards import run_board_match
from hucklebuck.cli import main
from hucklebuck.errors import OptionsError, UnsupportedOption
from hucklebuck.tournament import FEW_DEALS, TournamentResult, run_tournament


def test_heuristic_beats_random_at_hucklebuck() -> None:
    t = run_tournament("hucklebuck", players=4, bots=("heuristic", "random"), games=32, seed=1)
    heuristic, rnd = t.results
    assert (heuristic.kind, rnd.kind) == ("heuristic", "random")
    assert heuristic.low > 0.5 > rnd.high
    assert abs(heuristic.value + rnd.value - 1.0) < 1e-9  # the win shares add up
    assert t.games == 32 and t.deals == 8


def test_heuristic_beats_random_at_buckem() -> None:
    t = run_tournament(
        "buckem",
        players=6,
        bots=("heuristic", "random"),
        games=12,
        rounds=10,
        seed=2,
        options={"pot_limit": 10},
    )
    heuristic, rnd, h_margin, r_margin = t.results
    assert h_margin.kind == "heuristic margin" and h_margin.low > 0 > r_margin.high
    assert heuristic.value > rnd.value


_RUNS = pytest.mark.parametrize("run", [run_tournament, run_board_match], ids=["games", "boards"])


@_RUNS
def test_same_table_inline_on_threads_and_on_an_executor(run: Callable[..., TournamentResult]) -> None:
    kw = dict(players=3, bots=("heuristic", "random"), games=27, seed=7)
    inline = run("deerpark", **kw)
    threads = run("deerpark", workers=2, **kw)
    with cf.ThreadPoolExecutor(3) as pool:
        pooled = run("deerpark", executor=pool, **kw)
    assert inline == threads == pooled


def _mc8(seed: int) -> object:
    from hucklebuck.players import MonteCarloPlayer

    return MonteCarloPlayer(samples=8, seed=seed)


@pytest.mark.single_core
@pytest.mark.skipif("c" not in hucklebuck.available(), reason="C core not built")
@_RUNS
def test_same_table_on_either_core(run: Callable[..., TournamentResult]) -> None:
    tables = []
    for core in ("c", "python"):
        with hucklebuck.using(core):
            t = run(
                "buckem",
                players=5,
                bots=("mc8", "heuristic"),
                games=5,
                rounds=2,
                seed=3,
                custom={"mc8": _mc8},
            )
            tables.append((t.results, t.hands))
    assert tables[0] == tables[1]


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"bots": ("mc", "wizard")}, OptionsError, "mc, mc-solver, heuristic, random"),
        ({"games": 0}, OptionsError, "games must be a positive integer"),
        ({"players": 9}, OptionsError, "3 to 7 players"),
        ({"options": {"no_such_option": 1}}, UnsupportedOption, "known:"),
    ],
)
def test_bad_input_names_the_valid_values(kwargs: dict[str, object], error: type, message: str) -> None:
    args: dict[str, object] = {"players": 4, "games": 4, **kwargs}
    with pytest.raises(error, match=message):
        run_tournament("hucklebuck", **args)  # type: ignore[arg-type]


def test_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["tournament", "hucklebuck", "--players", "3", "--bots", "heuristic,random", "--games", "3"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "share of games won" in out and "95% CI" in out and "seed 0" in out
    assert main(["tournament", "hucklebuck", "--bots", "heuristic,oracle", "--games", "3"]) == 2
    assert "mc, mc-solver, heuristic, random" in capsys.readouterr().err
    assert main(["tournament", "deerpark", "--games", "3", "--option", "nope=1"]) == 2
    assert "club_turnup_pickup" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["tournament", "deerpark", "--games", "0"])
    assert "must be 1 or more" in capsys.readouterr().err


def test_uneven_seats_play_every_composition() -> None:
    t = run_tournament("deerpark", players=3, bots=("heuristic", "random"), games=12, seed=4)
    assert [c.lineup for c in t.compositions] == [
        ("heuristic", "random", "heuristic"),
        ("random", "heuristic", "random"),
    ]
    assert t.games == 12 and t.deals == 2  # a deal: 3 rotations x 2 compositions
    first, second = t.compositions
    assert [(r.seats, r.even) for r in first.results] == [(2, 2 / 3), (1, 1 / 3)]
    assert [(r.seats, r.even) for r in second.results] == [(1, 1 / 3), (2, 2 / 3)]
    total = t.results
    assert [r.even for r in total] == [0.5, 0.5]
    for i in range(2):  # the total is the mean over the compositions
        assert abs(total[i].value - (first.results[i].value + second.results[i].value) / 2) < 1e-12
    text = t.table()
    assert "composition heuristic,random,heuristic" in text and "total over the compositions" in text
    assert "seats in the total: the kind's mean seats over the compositions" in text


def test_even_seats_play_one_composition() -> None:
    t = run_tournament("hucklebuck", players=4, bots=("heuristic", "random"), games=8, seed=1)
    assert len(t.compositions) == 1 and t.compositions[0].results == t.results


def test_rounding_and_one_deal_are_explained() -> None:
    t = run_tournament("hucklebuck", players=3, bots=("random",), games=1, seed=1)
    assert t.games == 3 and t.deals == 1 and t.requested == 1
    assert all(math.isnan(r.low) and math.isnan(r.high) for r in t.results)
    text = t.table()
    assert "1 games asked for, rounded up to whole deals" in text and "n/a" in text
    assert "needs two deals or more" in text


def test_few_deals_are_called_rough_and_enough_are_not() -> None:
    few = run_tournament("hucklebuck", players=4, bots=("heuristic", "random"), games=4 * 3, seed=1)
    assert few.deals == 3 and "only 3 deals: the intervals are rough" in few.table()
    enough = run_tournament("hucklebuck", players=4, bots=("random",), games=4 * FEW_DEALS, seed=1)
    assert enough.deals == FEW_DEALS and "intervals are rough" not in enough.table()


def test_buckem_chips_rows_have_no_even_value() -> None:
    t = run_tournament("buckem", bots=("heuristic", "random"), games=20, rounds=2, seed=1)
    rows = {
        line.split()[0] + (" margin" if " margin " in line else ""): line.split()[-1]
        for line in t.table().splitlines()
        if line.startswith(("heuristic", "random"))
    }
    assert rows == {
        "heuristic": "n/a",
        "random": "n/a",
        "heuristic margin": "0.000",
        "random margin": "0.000",
    }


def test_buckem_defaults_and_margins_explained(capsys: pytest.CaptureFixture[str]) -> None:
    t = run_tournament("buckem", bots=("heuristic", "random"), games=1, rounds=1, seed=1)
    assert t.players == 5
    assert "margin: the kind's chips per round minus the table's mean" in t.table()
    assert main(["tournament", "buckem", "--bots", "random", "--games", "1", "--rounds", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["players"] == 5 and data["results"][0]["low"] is None


def test_players_checked_after_the_options() -> None:
    opts = {"eight_player_turnup": "dealer_last_card"}
    t = run_tournament("deerpark", players=8, bots=("heuristic", "random"), games=8, options=opts, seed=1)
    assert t.games == 8
    with pytest.raises(OptionsError, match="eight_player_turnup=dealer_last_card"):
        run_tournament("deerpark", players=8, games=8)
    argv = ["tournament", "deerpark", "--players", "8", "-o", "eight_player_turnup=dealer_last_card"]
    assert main([*argv, "--bots", "random", "--games", "8"]) == 0


def test_more_bots_than_seats_is_refused() -> None:
    with pytest.raises(OptionsError, match="4 bots for 3 seats"):
        run_tournament("hucklebuck", players=3, bots=("mc", "heuristic", "random", "random"), games=3)


def _mc(seed: int) -> object:
    from hucklebuck.players import MonteCarloPlayer

    return MonteCarloPlayer(samples=4, seed=seed)


def test_common_seeds_make_two_identical_kinds_play_the_same_games() -> None:
    # Two names for the same player: with common seeds every rotation of a deal is the
    # same game with the names swapped, so every deal splits evenly; with a seed per game
    # the search's own luck decides.
    custom = {"a": _mc, "b": _mc}
    same = run_tournament(
        "deerpark", players=4, bots=("a", "b"), games=8, seed=3, custom=custom, common_seeds=True
    )
    assert [(r.value, r.low, r.high) for r in same.results] == [(0.5, 0.5, 0.5)] * 2
    assert same.common_seeds and "common seeds" in same.table()
    own = run_tournament("deerpark", players=4, bots=("a", "b"), games=8, seed=3, custom=custom)
    assert own.results[0].value != 0.5 and own.results[0].high > own.results[0].low
    assert not own.common_seeds and "common seeds" not in own.table()
    with pytest.raises(OptionsError, match="common_seeds must be True or False"):
        run_tournament("deerpark", bots=("a", "b"), games=4, custom=custom, common_seeds=1)  # type: ignore[arg-type]


def test_a_seat_keeps_its_seed_only_through_the_rotations_that_change_its_kind() -> None:
    from hucklebuck.tournament import bot_seed, period

    assert period(("mc", "heuristic", "mc", "heuristic")) == 2
    assert period(("mc", "heuristic", "mc")) == 3 and period(("mc", "mc")) == 1
    lineup = ("mc", "heuristic", "mc", "heuristic")
    seeds = [[bot_seed(99, s, r, lineup, True) for s in range(4)] for r in range(4)]
    assert seeds[0] == seeds[1] and seeds[2] == seeds[3] and seeds[0] != seeds[2]
    own = [[bot_seed(99, s, r, lineup, False) for s in range(4)] for r in range(4)]
    assert len({tuple(row) for row in own}) == 4


def test_common_seeds_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["tournament", "deerpark", "--players", "3", "--bots", "heuristic,random", "--games", "6"]
    assert main([*argv, "--common-seeds", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["common_seeds"] is True
    assert main(argv) == 0
    assert "common seeds" not in capsys.readouterr().out
