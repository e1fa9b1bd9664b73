"""Cards seen that come back into play: scare cards after their owner's draw, swapped
upcards, one's own discards and folded hands dealt on from a re-formed stock.

The search deals the cards a seat cannot see.  Every legal position must have the
real deal among those it may draw (else the search fails with "no deal of the unseen
cards fits", as it did for 8-player Buck 'Em with scare cards after a re-formed
stock), and every player kind must decide in every such position.
"""

from __future__ import annotations

import pathlib
import random
from collections.abc import Iterator
from typing import Any

import pytest
from thorough_kit import examples

import hucklebuck
from hucklebuck._core import _py_search as pys
from hucklebuck._core import get_core
from hucklebuck.actions import BuckStay, Stay
from hucklebuck.games import BuckEmGame, DeerParkGame, HucklebuckGame
from hucklebuck.games.base import Phase
from hucklebuck.players import MonteCarloPlayer, _search, make_player

GAMES: dict[str, Any] = {"buckem": BuckEmGame, "hucklebuck": HucklebuckGame, "deerpark": DeerParkGame}

#: Games and variants that re-form stocks, swap deuces, show scare cards, remove the trump card.
CASES: list[tuple[str, int, dict[str, Any]]] = [
    ("buckem", 8, {"scare_cards": True, "scare_position": 3, "simultaneous_declare": True}),
    ("buckem", 8, {"scare_cards": True, "deuce_swap": True}),
    ("buckem", 7, {"scare_cards": True, "deuce_swap": True, "scare_position": 1}),
    ("buckem", 6, {"short_handed": True, "short_handed_trump": "removed_card", "scare_cards": True}),
    ("buckem", 5, {"short_handed": True, "scare_cards": True, "deuce_swap": True}),
    ("hucklebuck", 7, {}),
    ("hucklebuck", 6, {"auction_reentry": True, "exchange_order": "dealer_left_dealer_last"}),
    ("deerpark", 8, {"eight_player_turnup": "dealer_last_card"}),
]
IDS = [f"{g}-{n}-{i}" for i, (g, n, _) in enumerate(CASES)]


def _greedy(obs: Any, rng: random.Random) -> Any:
    """Stay and draw or exchange as much as allowed, most of the time: stocks run out."""
    legal = obs.legal_actions
    stays = [a for a in legal if isinstance(a, BuckStay | Stay)]
    if stays and rng.random() < 0.95:
        return max(stays, key=lambda a: (getattr(a, "exchange", 0), rng.random()))
    if obs.phase in (Phase.DRAW, Phase.EXCHANGE) and rng.random() < 0.9:
        most = max(len(getattr(a, "cards", ())) for a in legal)
        return rng.choice([a for a in legal if len(getattr(a, "cards", ())) >= most - 1])
    return rng.choice(legal)


def _positions(case: tuple[str, int, dict[str, Any]], seed: int, hands: int) -> Iterator[tuple[Any, Any]]:
    """(game, observation of the seat to act) over ``hands`` hands of one seeded game."""
    name, n, opts = case
    game = GAMES[name](n, seed=seed, options=opts)
    rng = random.Random(seed)
    done = 0
    while game.phase is not Phase.GAME_OVER and done < hands:
        if game.phase is Phase.HAND_OVER:
            done += 1
            game.next_hand()
            continue
        obs = game.observation(game.to_act)
        yield game, obs
        game.apply(_greedy(obs, rng))


def _restocked(game: Any) -> bool:
    return any(type(e).__name__ == "RestockEvent" and e.hand == game.hand_number for e in game.events)


def _check_truth_fits(game: Any, obs: Any) -> None:
    """The real hidden hands are a deal the position allows: pool cards, not barred, not void."""
    pos = _search.build_position(obs)
    suits, _ = get_core().rules(_search.game_of(obs).core_id, pos.trump if pos.trump >= 0 else 0)
    for s in range(pos.nseats):
        if s == obs.seat or pos.size[s] == 0:
            continue
        if not game.hand(s) and obs.phase is Phase.STAY_FOLD:
            continue  # a fold the seat may not see yet (simultaneous declarations): dealt as undecided
        hidden = game.hand(s).mask & ~pos.known[s]
        assert pos.known[s] & ~game.hand(s).mask == 0, f"seat {s}: a card known to be there is not"
        assert hidden & ~pos.pool == 0, f"seat {s} holds a card the search never deals"
        assert hidden & pos.barred[s] == 0, f"seat {s} holds a card it is barred from"
        for c in range(52):
            if hidden >> c & 1:
                assert not pos.voids[s] >> suits[c] & 1, f"seat {s} holds a card of a suit it is void in"
        assert game.hand(s).mask.bit_count() == pos.size[s]


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_the_real_deal_fits_every_position(case: tuple[str, int, dict[str, Any]], core_name: str) -> None:
    """In every position the seat to act sees, the real deal is one the search may draw, and
    the search draws deals (never "no deal fits")."""
    seeds = range(15) if core_name == "c" else range(4)
    restocks = 0
    for seed in seeds:
        for game, obs in _positions(case, seed, 2):
            _check_truth_fits(game, obs)
            pos = _search.build_position(obs)
            for deal in _search.sample_hands(pos, seed, 4):
                for s in range(pos.nseats):
                    if s != obs.seat:
                        assert deal[s] & pos.barred[s] == 0
                        assert deal[s].bit_count() == pos.size[s]
            restocks += _restocked(game)
    if case[0] == "hucklebuck" or (case[0] == "buckem" and case[1] >= 7):
        assert restocks > 0  # (with fewer Buck 'Em seats the stock is enough; Deer Park has none)


FIXTURES = pathlib.Path(__file__).parent / "fixtures"


def test_the_reported_position_is_searched() -> None:
    """The report's position: 8-player Buck 'Em, scare cards, after a re-formed stock.  Seat 0
    has shown void in every suit but clubs and holds one card; the only clubs left unplayed
    are its own scare card and seat 6's (which seat 1 may have drawn back): the search used
    to take both as out of play and found no deal."""
    game = BuckEmGame.from_json((FIXTURES / "buckem8_scare_restock.json").read_text())
    obs = game.observation(game.to_act)
    assert (obs.seat, obs.phase, len(obs.tricks)) == (1, Phase.PLAY, 3)
    assert _restocked(game)
    _check_truth_fits(game, obs)
    for kind in ("mc", "mc-blind", "mc-solver"):
        bot: Any = make_player(kind, "buckem", seed=5)
        bot.samples = 16
        assert sorted(map(str, (a for a, _ in bot.analyse(obs)))) == sorted(map(str, obs.legal_actions))
        assert game.is_legal(bot.choose(obs))


KINDS = ["mc", "mc-blind", "mc-solver", "heuristic", "random"]


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_every_kind_decides_every_position(case: tuple[str, int, dict[str, Any]], core_name: str) -> None:
    """Every player kind takes a legal decision in every position of whole hands that
    re-form stocks (small searches: what is tested is that a decision is found)."""
    seeds = range(examples(4)) if core_name == "c" else range(1)  # (all four in thorough runs)
    decided = 0
    for seed in seeds:
        bots: list[Any] = []
        for i, kind in enumerate(KINDS):
            bot: Any = make_player(kind, case[0], seed=seed * 10 + i)
            if isinstance(bot, MonteCarloPlayer):
                bot.samples, bot.node_limit = (6, 2000) if core_name == "c" else (2, 300)
            bots.append(bot)
        for game, obs in _positions(case, seed, 2 if core_name == "c" else 1):
            if core_name != "c" and not (_restocked(game) or obs.phase is Phase.PLAY):
                continue
            for bot in bots:
                assert game.is_legal(bot.choose(obs))
            decided += 1
    assert decided > 0


@pytest.mark.single_core
@pytest.mark.skipif("c" not in hucklebuck.available(), reason="the C core is not built here")
def test_both_samplers_deal_the_same_with_barred_cards() -> None:
    """The C sampler and its Python twin draw the same deals when seats are barred from cards."""
    compared = 0
    for seed in range(12):
        for _, obs in _positions(CASES[1], seed, 2):
            pos = _search.build_position(obs)
            if not any(pos.barred):
                continue
            with hucklebuck.using("c"):
                c_deals = _search.sample_hands(pos, seed, 6)
            assert c_deals == pys.sample(pos, seed, 6)
            compared += 1
    assert compared > 20
