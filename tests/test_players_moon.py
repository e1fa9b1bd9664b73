"""The Monte Carlo players' moon bids in Hucklebuck: the search's known over-rating of the
moon is taken off (MOON_BIAS), a sure moon is still bid, and the search values a hand
as the game scores it."""

from __future__ import annotations

import pathlib
import random
import time

import pytest

from hucklebuck.actions import Bid
from hucklebuck.cards import Card
from hucklebuck.games import HucklebuckGame
from hucklebuck.games.base import Phase
from hucklebuck.packs import GameKind
from hucklebuck.players import MonteCarloPlayer, _search, hand_utility, montecarlo, moon, value

FIXTURES = pathlib.Path(__file__).parent / "fixtures"


def _marginal() -> tuple[HucklebuckGame, object]:
    """Seat 3 at -10 (the others at 2, 0 and 8) with AC TD QD 6S JS after "bid 2, bid 3, pass,
    pass": the moon resets it to 0 at best and puts it out when missed; self-play bid it here."""
    game = HucklebuckGame.from_json((FIXTURES / "hucklebuck_marginal_moon.json").read_text())
    return game, game.observation(game.to_act)


def test_a_marginal_moon_is_no_longer_bid(monkeypatch: pytest.MonkeyPatch) -> None:
    _, obs = _marginal()
    moon_bid = Bid(3, 5)
    assert moon_bid in obs.legal_actions
    for seed in range(3):
        assert MonteCarloPlayer(seed=seed, inference=False).choose(obs) != moon_bid
        assert MonteCarloPlayer(seed=seed).choose(obs) != moon_bid
    # the simulation alone no longer over-rates it: not bid without the correction either
    monkeypatch.setattr(montecarlo, "MOON_BIAS", 0.0)
    assert MonteCarloPlayer(seed=0, inference=False).choose(obs) != moon_bid
    # with the simulated stays of before (0.3 tricks, whatever the score or the bid) the search
    # bids it (the test can fail)
    monkeypatch.setattr(_search, "stay_min", lambda score, target: 3)
    monkeypatch.setattr(_search, "win_bid", lambda obs, seat: 0)
    assert MonteCarloPlayer(seed=0, inference=False).choose(obs) == moon_bid


def test_the_simulated_stays_follow_the_score() -> None:
    """Below 0 a simulated seat stays with any hand, near the target only with a trick or so."""
    assert _search.stay_min(-3, 15) == 0
    assert _search.stay_min(0, 15) == 1
    assert _search.stay_min(5, 15) == 2
    assert _search.stay_min(10, 15) == 4
    assert _search.stay_min(14, 15) == 4
    rising = [_search.stay_min(s, 15) for s in range(-24, 15)]
    assert rising == sorted(rising)


def test_the_least_winning_bid_of_each_seat() -> None:
    game = HucklebuckGame(4, dealer=0, scores=[12, 14, 3, -3], seed=1)
    obs = game.observation(game.to_act)
    assert [_search.win_bid(obs, s) for s in range(4)] == [3, 2, 5, 0]
    at_zero = HucklebuckGame(4, dealer=0, scores=[0, 0, 0, 0], seed=1, options={"moon_at_zero": "win"})
    assert _search.win_bid(at_zero.observation(at_zero.to_act), 0) == 5


def test_the_simulated_seats_stay_against_a_winning_moon() -> None:
    """A moon from above 0 wins the game: in the search every other seat stays to set it;
    with no winning bid known some of them drop (the test can fail)."""
    game = HucklebuckGame(4, dealer=0, scores=[0, 5, 0, 0], seed=3)
    obs = game.observation(game.to_act)
    assert obs.seat == 1
    pos = _search.build_position(obs)
    assert pos.win_bid[1] == 5
    data = _search.run_search(pos, [(5, 0)], 7, 64)
    recs = [data[k : k + 12] for k in range(0, len(data), 12)]
    assert all(r[10] == 0 and all(r[s] < 128 for s in (0, 2, 3)) for r in recs)
    pos.win_bid = [0] * 8
    data = _search.run_search(pos, [(5, 0)], 7, 64)
    recs = [data[k : k + 12] for k in range(0, len(data), 12)]
    assert any(r[10] == 2 or any(r[s] >= 128 for s in (0, 2, 3)) for r in recs)


def test_the_moon_value_is_lowered_by_the_bias(monkeypatch: pytest.MonkeyPatch) -> None:
    _, obs = _marginal()
    raw = dict(map(lambda av: (str(av[0]), av[1]), _analyse(obs, 0.0)))
    fixed = dict(map(lambda av: (str(av[0]), av[1]), _analyse(obs, montecarlo.MOON_BIAS)))
    assert fixed["3 bid 5"] == pytest.approx(max(0.0, raw["3 bid 5"] - montecarlo.MOON_BIAS))
    assert {k: v for k, v in fixed.items() if k != "3 bid 5"} == {
        k: v for k, v in raw.items() if k != "3 bid 5"
    }


def _analyse(obs: object, bias: float) -> list[tuple[object, float]]:
    saved = montecarlo.MOON_BIAS
    montecarlo.MOON_BIAS = bias
    try:
        return list(MonteCarloPlayer(seed=4, inference=False, samples=48).analyse(obs))
    finally:
        montecarlo.MOON_BIAS = saved


def test_a_sure_moon_is_still_bid() -> None:
    """Five top spades from a positive score: the moon wins the game at once."""
    mine = [Card.parse(c) for c in ("AS", "KS", "QS", "JS", "TS")]
    rest = [Card.parse(r + s) for s in "CDHS" for r in "23456789TJQKA" if Card.parse(r + s) not in mine]
    random.Random(2).shuffle(rest)
    hands = [rest[0:5], mine, rest[5:10], rest[10:15]]
    deal = {"hands": [[c.code for c in h] for h in hands], "stock": [c.code for c in rest[15:]]}
    game = HucklebuckGame(4, dealer=0, scores=[0, 5, 0, 0], deal=deal)
    assert game.to_act == 1 and game.phase is Phase.AUCTION
    obs = game.observation(1)
    assert MonteCarloPlayer(seed=1, inference=False).choose(obs) == Bid(1, 5)
    assert MonteCarloPlayer(seed=1).choose(obs) == Bid(1, 5)


def _record(tricks: list[int], bidder: int, bid: int) -> bytes:
    return bytes([t & 0xFF for t in tricks + [-1] * (8 - len(tricks))] + [bidder, bid, 0, 0])


def test_a_made_bid_from_the_hole_resets_to_zero_when_any_bid_does() -> None:
    """in_the_hole_reset_applies_to=any_bid: the search scores a made bid from a negative score
    as the game does (back to 0), not as its tricks."""
    for opt, after in (("any_bid", 0), ("moon_only", -8 + 3)):
        options = {"in_the_hole_reset_applies_to": opt}
        game = HucklebuckGame(4, dealer=3, scores=[-8, 3, 4, 1], options=options, seed=1)
        obs = game.observation(game.to_act)
        assert obs.seat == 0
        rec = _record([3, 1, 1, 0], 0, 2)  # seat 3 stayed and took nothing: -5
        scores = [after, 3 + 1, 4 + 1, 1 - 5]
        want = value.win_probabilities(GameKind.HUCKLEBUCK, scores, out=(), target=game.options.target)[0]
        assert hand_utility(GameKind.HUCKLEBUCK, rec, obs) == pytest.approx(want)


@pytest.mark.single_core  # a measuring tool, not a rule: once, on the faster core
def test_the_moon_measurement_reports() -> None:
    """``python -m hucklebuck.players.moon`` in miniature: one short game per kind."""
    rep = moon.measure("mc-blind", 3, 1, 3, 1, time.monotonic() + 600)  # (only a hang takes that long)
    assert rep.games == 1 and rep.decisions > 0
    text = "\n".join(rep.lines())
    assert text.startswith("mc-blind, 3 players: 1 games")
    for b in rep.bids:
        assert b.gain is not None and -1.0 <= b.gain <= 1.0


@pytest.mark.single_core  # a measuring tool, not a rule: once, on the faster core
def test_the_match_against_the_player_before_reports_and_restores() -> None:
    """``--versus-before`` in miniature: one game; the search's settings are put back after."""
    saved = (_search.stay_min, _search.win_bid, montecarlo.MOON_BIAS)
    n, share, half = moon.versus_before("mc-blind", 1, 1, time.monotonic() + 600)
    assert n == 1 and 0.0 <= share <= 1.0 and half >= 0.0
    assert (_search.stay_min, _search.win_bid, montecarlo.MOON_BIAS) == saved
