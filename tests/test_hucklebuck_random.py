"""Random Hucklebuck games played to the end by random legal players, with the
invariants of rules-decisions section 4 checked after every action, and JSON
round trips at random points.  Runs against each core."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from thorough_kit import examples

from hucklebuck import CardSet
from hucklebuck.games import HucklebuckGame, HucklebuckOptions, Phase
from hucklebuck.games.base import TrickEvent

FULL = CardSet.from_mask((1 << 52) - 1)

options = st.builds(
    HucklebuckOptions,
    target=st.sampled_from([11, 15]),
    all_pass=st.sampled_from(["dealer_scores_5", "dealer_must_bid"]),
    moon_at_zero=st.sampled_from(["reset_to_zero", "win", "score_normally"]),
    lone_moon_bidder=st.sampled_from(["scores_5", "wins_game"]),
    bidder_zero_trick_penalty_stacks=st.booleans(),
    tie_break=st.sampled_from(["highest_then_bidder", "bidder_first", "shared"]),
    exchange_order=st.sampled_from(["bidder_left_bidder_last", "dealer_left_dealer_last"]),
    auction_reentry=st.booleans(),
    in_the_hole_reset_applies_to=st.sampled_from(["moon_only", "any_bid"]),
)

ALLOWED_DELTAS = {0, 1, 2, 3, 4, 5, -5, -10, -15, -20}


def check_cards(game: HucklebuckGame) -> None:
    zones = game.card_zones()
    total = 0
    union = CardSet()
    for z in zones.values():
        total += len(z)
        union = union | z
    assert total == 52 and union == FULL, zones  # every card once
    assert not zones["stock"] & zones["hands"]


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(3, 7), st.integers(0, 2**32), options, st.integers(0, 6))
def test_random_games_keep_the_invariants(
    players: int, seed: int, opts: HucklebuckOptions, dealer: int
) -> None:
    rng = random.Random(seed)
    game = HucklebuckGame(players, seed=seed, options=opts, dealer=dealer % players)
    roundtrip_at = rng.randrange(200)
    steps = 0
    while not game.is_over:
        if game.phase is Phase.HAND_OVER:
            prev_out = set(game.out)
            game.next_hand()
            assert game.dealer not in prev_out
            continue
        seat = game.to_act
        assert seat is not None and seat not in game.out  # out players never act
        legal = game.legal_actions()
        assert legal and all(a.seat == seat for a in legal)
        before_scores = game.scores
        before_hands = len(game.results)
        game.apply(rng.choice(legal))
        steps += 1
        check_cards(game)
        if len(game.results) > before_hands:
            r = game.results[-1]
            if r.tricks:
                assert len(r.tricks) == 5 and sum(r.tricks_won) == 5
                assert all(len(t.cards) == len(r.active) for t in r.tricks)
            for s in range(players):
                d = r.delta[s]
                # a change from the allowed set, or a reset of a negative score to 0
                assert d in ALLOWED_DELTAS or (before_scores[s] < 0 and before_scores[s] + d == 0)
                if d in (-15, -20):
                    assert s == r.bidder
        if steps == roundtrip_at:
            copy = HucklebuckGame.from_json(game.to_json())
            assert copy == game and copy.legal_actions() == game.legal_actions()
    assert game.winners
    trick_events = [e for e in game.events if isinstance(e, TrickEvent)]
    assert len(trick_events) == sum(len(r.tricks) for r in game.results)
    assert HucklebuckGame.from_json(game.to_json()) == game


@settings(max_examples=examples(10), deadline=None)
@given(st.integers(0, 2**32))
def test_thousands_of_random_games(seed: int) -> None:
    """200 games per example (2,000 per core), the card and turn invariants checked after every action."""
    rng = random.Random(seed)
    for _ in range(200):
        game = HucklebuckGame(rng.randint(3, 7), rng=random.Random(rng.getrandbits(32)))
        while not game.is_over:
            if game.phase is Phase.HAND_OVER:
                game.next_hand()
                continue
            seat = game.to_act
            assert seat is not None and seat not in game.out
            before = game.scores
            hands_done = len(game.results)
            game.apply(rng.choice(game.legal_actions()))
            check_cards(game)
            if len(game.results) > hands_done:
                r = game.results[-1]
                assert not r.tricks or (len(r.tricks) == 5 and sum(r.tricks_won) == 5)
                for s, d in enumerate(r.delta):
                    assert d in ALLOWED_DELTAS or (before[s] < 0 and before[s] + d == 0)
        assert len(game.winners) >= 1
