"""Inference reads the suit a Hucklebuck bidder or a Deer Park caller names as trump, and a
Hucklebuck player names trump and discards without inference."""

from __future__ import annotations

import pytest

from hucklebuck.actions import Bid, Call, NameTrump, Pass, Stay
from hucklebuck.cards import CardSet, Suit
from hucklebuck.games import DeerParkGame, HucklebuckGame
from hucklebuck.games.base import Phase
from hucklebuck.packs import GameKind
from hucklebuck.players import MonteCarloPlayer, inference, likelihood
from hucklebuck.players.montecarlo import UNREAD


def _mask(codes: str) -> int:
    return CardSet.parse(codes).mask


def _to_act(game: HucklebuckGame) -> int:
    seat = game.to_act
    assert seat is not None
    return seat


def _named_hucklebuck() -> tuple[HucklebuckGame, int]:
    """Four seats: eldest bids 2 and names spades, the others pass."""
    game = HucklebuckGame(4, seed=5)
    bidder = game.to_act
    assert bidder is not None
    game.apply(Bid(bidder, 2))
    for k in (1, 2, 3):
        game.apply(Pass((bidder + k) % 4))
    game.apply(NameTrump(bidder, Suit.SPADES))
    assert game.phase is Phase.DECLARE
    return game, bidder


def _tests_of(obs: object, game: GameKind, seat: int) -> list[inference._Test]:
    found = inference.readings(obs, game)
    assert found is not None
    return [t for s, t in found.tests if s == seat]


def test_a_named_trump_weighs_the_bidder_hand_by_its_best_suit() -> None:
    game, bidder = _named_hucklebuck()
    tests = _tests_of(game.observation(_to_act(game)), GameKind.HUCKLEBUCK, bidder)
    assert len(tests) == 2  # its bid, and the suit it named
    named = tests[1]
    match = likelihood.suit_match(GameKind.HUCKLEBUCK, False, False)
    assert match is not None and 0.8 < match < 0.95  # measured: the default player names its best suit
    spades = _mask("AS KS QS 4H 3D")  # best as trump in spades
    hearts = _mask("AH KH QH 4S 3D")  # best as trump in hearts
    assert named(spades) == pytest.approx(match)
    assert named(hearts) == pytest.approx((1 - match) / 3)
    tie = _mask("AS KS AH KH 2C")  # spades and hearts equally good: the chance is shared
    assert named(tie) == pytest.approx(match / 2)
    # the weight of a whole deal carries it: the same deal with the bidder's hand swapped
    found = inference.readings(game.observation(_to_act(game)), GameKind.HUCKLEBUCK)
    assert found is not None
    rest = [0] * 8
    w = inference.weigh(
        found,
        [
            [spades if s == bidder else m for s, m in enumerate(rest)],
            [hearts if s == bidder else m for s, m in enumerate(rest)],
        ],
    )
    assert w is not None
    auction = tests[0]
    assert w[0] / w[1] == pytest.approx(auction(spades) * named(spades) / (auction(hearts) * named(hearts)))


def test_the_named_suit_is_read_only_while_the_bidder_holds_the_hand_it_named_with() -> None:
    game, bidder = _named_hucklebuck()
    bot = MonteCarloPlayer(samples=8, seed=1)
    other = (bidder + 1) % 4
    while game.phase is not Phase.PLAY:
        seat = game.to_act
        assert seat is not None
        if game.phase is Phase.DECLARE and seat == bidder:
            game.apply(Stay(bidder, 2))
            # the bidder has said what it exchanges but still holds the hand it named with
            assert len(_tests_of(game.observation(other), GameKind.HUCKLEBUCK, bidder)) == 3
            continue
        game.apply(bot.choose(game.observation(seat)))
    tests = _tests_of(game.observation(other), GameKind.HUCKLEBUCK, bidder)
    assert len(tests) == 1  # after its exchange: only what it kept


def _round_two(seed: int) -> DeerParkGame:
    """A four-seat Deer Park game in its call round (everyone passed the turned card)."""
    game = DeerParkGame(4, seed=seed)
    while game.phase is Phase.ORDER:
        seat = game.to_act
        assert seat is not None
        game.apply(Pass(seat))
    return game


def _calling_game() -> DeerParkGame:
    for seed in range(100):
        game = DeerParkGame(4, seed=seed)
        if game.phase is Phase.ORDER:
            return _round_two(seed)
    raise AssertionError("no deal turns a card other than a club")


def test_a_call_weighs_the_caller_hand_by_the_suit_it_named() -> None:
    game = _calling_game()
    caller = game.to_act
    assert caller is not None
    suit = next(s for s in Suit if any(isinstance(a, Call) and a.suit is s for a in game.legal_actions()))
    game.apply(Call(caller, suit))
    obs = game.observation((caller + 1) % 4)
    high = obs.scores[caller] >= 14  # a seat on 14 or more plays for 50 at four players
    tests = _tests_of(obs, GameKind.DEERPARK, caller)
    assert len(tests) == 3  # its pass of the turned card, its call, the suit it named
    match = likelihood.suit_match(GameKind.DEERPARK, high, False)
    assert match is not None
    named = tests[2]
    excluded = int(obs.turned.suit) if obs.options.round2_excludes_turned_suit else -1
    allowed = [t for t in range(4) if t != excluded]
    for hand in ("JS JC AS KS 9D", "JH JD AH KH 9C", "AC KC QC TS 9H", "9S TD QD 9H TC"):
        mask = _mask(hand)
        values = [inference._dp_strength(mask, t) for t in range(4)]
        best = likelihood.best_suits(values, allowed, high)
        want = match / len(best) if int(suit) in best else (1 - match) / (len(allowed) - len(best))
        assert named(mask) == pytest.approx(want)


def test_a_stuck_dealer_is_read_by_its_suit_alone() -> None:
    game = _calling_game()
    dealer = game.dealer
    while game.to_act != dealer:
        seat = game.to_act
        assert seat is not None
        game.apply(Pass(seat))
    assert not any(isinstance(a, Pass) for a in game.legal_actions())  # stuck
    game.apply(next(a for a in game.legal_actions() if isinstance(a, Call)))
    tests = _tests_of(game.observation((dealer + 1) % 4), GameKind.DEERPARK, dealer)
    stuck = likelihood.suit_match(GameKind.DEERPARK, game.scores[dealer] >= 14, True)
    assert len(tests) == (2 if stuck is not None else 1)  # its pass of the turned card (and its suit)


def test_a_hucklebucker_names_trump_and_discards_without_inference() -> None:
    assert UNREAD == {(GameKind.HUCKLEBUCK, Phase.TRUMP), (GameKind.HUCKLEBUCK, Phase.EXCHANGE)}
    seen: set[Phase] = set()
    for seed in range(40):
        game = HucklebuckGame(4, seed=seed)
        bot = MonteCarloPlayer(samples=12, seed=seed)
        while game.phase not in (Phase.PLAY, Phase.HAND_OVER):
            seat = game.to_act
            assert seat is not None
            obs = game.observation(seat)
            if obs.phase in (Phase.TRUMP, Phase.EXCHANGE, Phase.DECLARE) and len(obs.legal_actions) > 1:
                read = MonteCarloPlayer(samples=12, seed=seed).analyse(obs)
                blind = MonteCarloPlayer(samples=12, seed=seed, inference=False).analyse(obs)
                if obs.phase is Phase.DECLARE:
                    if read != blind:
                        seen.add(Phase.DECLARE)  # staying is read: the values can differ
                else:
                    assert read == blind
                    seen.add(obs.phase)
            game.apply(bot.choose(obs))
        if len(seen) == 3:
            break
    assert seen == {Phase.TRUMP, Phase.EXCHANGE, Phase.DECLARE}
