"""Every legal position of every option and player count: the Monte Carlo player
(both methods) decides without an exception, and ``analyse`` values every legal
action; players refuse what is not a position they can decide on with library
errors (never TypeError or AttributeError)."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from hucklebuck.errors import IllegalAction, OptionsError
from hucklebuck.games import BuckEmGame, DeerParkGame, HucklebuckGame
from hucklebuck.games.base import Phase
from hucklebuck.players import MonteCarloPlayer, RandomPlayer, make_player

#: Each option's values to sweep (an option not named takes its default).
SWEEP: dict[Any, dict[str, list[Any]]] = {
    HucklebuckGame: {
        "target": [11, 15],
        "all_pass": ["dealer_scores_5", "dealer_must_bid"],
        "moon_at_zero": ["reset_to_zero", "win", "score_normally"],
        "lone_moon_bidder": ["scores_5", "wins_game"],
        "bidder_zero_trick_penalty_stacks": [False, True],
        "tie_break": ["highest_then_bidder", "bidder_first", "shared"],
        "exchange_order": ["bidder_left_bidder_last", "dealer_left_dealer_last"],
        "auction_reentry": [False, True],
        "in_the_hole_reset_applies_to": ["moon_only", "any_bid"],
    },
    DeerParkGame: {
        "club_turnup_pickup": [False, True],
        "round2_excludes_turned_suit": [True, False],
        "failed_contract_tricks_count": [False, True],
        "first_lead": ["eldest", "maker"],
        "lock_at": [45, 40, 49],
        "lock_permanent": [False, True],
        "tie_break": ["distance_then_maker", "shared"],
    },
    BuckEmGame: {
        "ante": [1, 2],
        "short_handed": [True, False],
        "scare_cards": [True, False],
        "scare_position": [5, 1, 3],
        "deuce_swap": [True, False],
        "simultaneous_declare": [False, True],
        "pot_limit": [None, 5],
        "odd_chip": ["buckup", "carry", "first_left_of_dealer"],
        "split": ["equal", "proportional"],
        "rake_hand": ["as_dealt", "after_swap"],
        "rake_rounding": ["floor", "ceil"],
        "after_void_round_ante": [True, False],
    },
}
COUNTS = {HucklebuckGame: range(3, 8), DeerParkGame: range(3, 9), BuckEmGame: range(5, 9)}
CASES = [(cls, n, k) for cls, counts in COUNTS.items() for n in counts for k in range(2)]


def _options(cls: Any, n: int, k: int) -> dict[str, Any]:
    """The ``k``-th sweep of the options at ``n`` players: every value of every option appears."""
    i = n + 3 * k
    opts = {name: values[i % len(values)] for name, values in SWEEP[cls].items()}
    if cls is DeerParkGame and n == 8:
        opts["eight_player_turnup"] = "dealer_last_card"
    if cls is BuckEmGame and opts["short_handed"] and n <= 6 and k == 1:
        opts["short_handed_trump"] = "removed_card"
    return opts


@pytest.mark.parametrize(("cls", "n", "k"), CASES, ids=[f"{c.__name__}-{n}-{k}" for c, n, k in CASES])
def test_mc_decides_every_position(cls: Any, n: int, k: int, core_name: str) -> None:
    opts = _options(cls, n, k)
    seed = 1000 * n + k
    game = cls(n, seed=seed, options=opts)
    rng = random.Random(seed)
    # Monte Carlo seats of both methods, and a random seat to reach odd positions.
    bots: list[Any] = [
        MonteCarloPlayer(samples=2, method=("playout", "solver")[s % 2], seed=s, node_limit=3000)
        for s in range(n - 1)
    ] + [RandomPlayer(seed=seed)]
    rng.shuffle(bots)
    # The Python core's search is slower: there, one hand and at most 12 decisions.
    hands, most, decisions = 0, (2, 1)[core_name != "c"], (1000, 12)[core_name != "c"]
    while game.phase is not Phase.GAME_OVER and hands < most and decisions > 0:
        decisions -= 1
        if game.phase is Phase.HAND_OVER:
            hands += 1
            game.next_hand()
            continue
        obs = game.observation(game.to_act)
        bot = bots[game.to_act]
        if isinstance(bot, MonteCarloPlayer):
            ranked = bot.analyse(obs)
            assert sorted(map(repr, (a for a, _ in ranked))) == sorted(map(repr, obs.legal_actions))
            assert all(isinstance(v, float) for _, v in ranked)
            action = ranked[0][0]
        else:
            action = bot.choose(obs)
        game.apply(action)
    assert hands == most or decisions == 0 or game.phase is Phase.GAME_OVER


def test_eight_player_dealer_last_card_order() -> None:
    """The position of the report: the first order decision, where the dealer holds the turned card."""
    game = DeerParkGame(8, seed=1069105253366, options={"eight_player_turnup": "dealer_last_card"})
    obs = game.observation(game.to_act)
    assert obs.phase is Phase.ORDER
    assert len(MonteCarloPlayer(seed=1, samples=8).analyse(obs)) == len(obs.legal_actions)


KINDS = ["mc", "mc-solver", "heuristic", "random"]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("game", ["hucklebuck", "deerpark", "buckem"])
def test_players_refuse_what_is_not_their_position(kind: str, game: str) -> None:
    games = {
        "hucklebuck": HucklebuckGame(4, seed=1),
        "deerpark": DeerParkGame(4, seed=1),
        "buckem": BuckEmGame(5, seed=1),
    }
    mine = games[game]
    other = games["deerpark" if game == "hucklebuck" else "hucklebuck"]
    waiting = mine.observation((mine.to_act + 1) % mine.players)
    bot: Any = make_player(kind, game, seed=3)
    if isinstance(bot, MonteCarloPlayer):  # a small search: what is checked is the input
        bot = MonteCarloPlayer(samples=4, method=bot.method, seed=3, node_limit=2000)
    methods = [bot.choose] + ([bot.analyse] if hasattr(bot, "analyse") else [])
    for method in methods:
        for bad in (None, 3, "1 bid 2", mine):
            with pytest.raises(OptionsError, match="observation"):
                method(bad)
        with pytest.raises(IllegalAction, match="no legal action"):
            method(waiting)
        theirs = other.observation(other.to_act)
        if kind == "heuristic":
            with pytest.raises(OptionsError, match="it was given an observation of"):
                method(theirs)
        else:  # the general players play any game
            assert other.is_legal(bot.choose(theirs))


@pytest.mark.parametrize("seed", [[1], 1.5, "x", True, object()])
def test_bad_player_seeds(seed: Any) -> None:
    with pytest.raises(OptionsError, match="seed must be an integer"):
        MonteCarloPlayer(seed=seed)
    with pytest.raises(OptionsError, match="seed must be an integer"):
        RandomPlayer(seed=seed)
    with pytest.raises(OptionsError, match="seed must be an integer"):
        make_player("mc", "hucklebuck", seed=seed)


def test_an_altered_observation_is_refused() -> None:
    game = DeerParkGame(4, seed=1)
    obs = dataclasses.replace(game.observation(game.to_act), phase=Phase.PLAY)  # trump not made yet
    with pytest.raises(OptionsError, match="not consistent with its game"):
        MonteCarloPlayer(samples=4, seed=1).choose(obs)
