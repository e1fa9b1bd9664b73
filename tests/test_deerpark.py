"""Deer Park Euchre rules, one test per rule of rules-decisions 1.3 and per
variant, on both cores.  Each names its source (S4) or decision (DEF #n)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from thorough_kit import examples

from hucklebuck import (
    CardSet,
    DealError,
    IllegalAction,
    OptionsError,
    PlayerCountError,
    Suit,
    pack,
    parse_cards,
)
from hucklebuck.actions import Call, Order, Pass
from hucklebuck.errors import RestoreError, UnsupportedOption
from hucklebuck.games import DeerParkDeal, DeerParkGame, DeerParkOptions, Phase


def dp_deal(hands: list[str], kitty_top: str) -> DeerParkDeal:
    """A deal with these hands; the kitty is ``kitty_top`` then the rest of the pack."""
    n = len(hands)
    hs = tuple(parse_cards(h) for h in hands)
    top = parse_cards(kitty_top)
    used = {c for h in hs for c in h} | set(top)
    rest = tuple(c for c in pack("deerpark", n) if c not in used)
    return DeerParkDeal(hs, top + rest)


def game(hands: list[str], kitty_top: str, **kw: Any) -> DeerParkGame:
    return DeerParkGame(len(hands), deal=dp_deal(hands, kitty_top), **kw)


def run(g: DeerParkGame, *actions: str) -> DeerParkGame:
    for a in actions:
        g.apply(a)
    return g


def opts(**kw: object) -> DeerParkOptions:
    return DeerParkOptions.from_dict(kw)


def play_lowest(g: DeerParkGame) -> None:
    while g.phase is Phase.PLAY:
        g.apply(g.legal_actions()[0])


# Three players: 10-A.  Seat 1 (eldest) holds the hearts, seat 2 the spades,
# seat 0 (dealer) the diamonds; the clubs go to the kitty.
H3 = ["AD KD QD JD TD", "AH KH QH JH TH", "AS KS QS JS TS"]


class TestPackAndDeal:
    @pytest.mark.parametrize("n", range(3, 8))
    def test_pack_and_kitty(self, n: int) -> None:  # S4; DEF #70
        g = DeerParkGame(n, seed=n)
        assert all(len(g.hand(s)) == 5 for s in range(n))
        zones = g.card_zones()
        assert len(zones["kitty"]) + len(zones["hands"]) + len(zones["discarded"]) == 4 * (n + 2)
        assert len(pack("deerpark", n)) == 4 * (n + 2)
        assert g.scores == (20,) * n  # everyone starts at 20 (S4)

    def test_eight_players_need_the_variant(self) -> None:  # DEF #70
        with pytest.raises(PlayerCountError, match="3 to 7 players, not 8"):
            DeerParkGame(8, seed=1)
        g = DeerParkGame(8, seed=1, options=opts(eight_player_turnup="dealer_last_card"))
        assert len(g.card_zones()["kitty"]) == 0
        assert g.turned in g.hand(g.dealer)

    def test_eight_players_order_up_needs_no_exchange(self) -> None:
        for seed in range(30):
            g = DeerParkGame(8, seed=seed, options=opts(eight_player_turnup="dealer_last_card"))
            if g.phase is Phase.ORDER:
                g.apply(Order(g.to_act))  # type: ignore[arg-type]
                assert g.phase is Phase.PLAY and len(g.hand(g.dealer)) == 5
                return
        pytest.fail("no seed without a turned club")

    def test_wrong_pack_is_rejected(self) -> None:
        with pytest.raises(DealError, match="not in this game's pack"):
            DeerParkGame(
                3,
                deal={
                    "hands": [["9D", "KD", "QD", "JD", "TD"], H3[1].split(), H3[2].split()],
                    "kitty": ["AC", "KC", "QC", "JC", "TC"],
                },
            )
        with pytest.raises(DealError, match="kitty must hold 5"):
            DeerParkGame(3, deal={"hands": [h.split() for h in H3], "kitty": ["AC", "KC", "QC", "JC"]})
        with pytest.raises(DealError, match="appears twice"):
            DeerParkGame(3, deal={"hands": [h.split() for h in H3], "kitty": ["AC", "KC", "QC", "JC", "AD"]})
        with pytest.raises(PlayerCountError):
            DeerParkGame(2, seed=1)


class TestTrump:
    def test_turned_club_makes_clubs_trump_dealer_needs_two(self) -> None:  # S4; DEF #67, #76
        g = game(H3, "AC")
        assert g.phase is Phase.PLAY and g.trump is Suit.CLUBS
        assert g.maker == 0 and g.requirement == 2
        assert len(g.hand(0)) == 5 and parse_cards("AC")[0] in g.card_zones()["kitty"]
        assert g.to_act == 1  # eldest leads (DEF #71)

    def test_variant_club_turnup_pickup(self) -> None:  # DEF #67 variant
        g = game(H3, "AC", options=opts(club_turnup_pickup=True))
        assert g.phase is Phase.DEALER_DISCARD and g.to_act == 0 and len(g.hand(0)) == 6
        run(g, "0 discard TD")
        assert len(g.hand(0)) == 5 and g.phase is Phase.PLAY

    def test_round_one_orders_only_the_turned_suit(self) -> None:  # S4
        g = game(["AD KD QD JD TD", "AC KH QH JH TH", "AS KS QS JS TS"], "AH")
        assert g.phase is Phase.ORDER and g.to_act == 1
        assert [str(a) for a in g.legal_actions()] == ["1 order", "1 pass"]
        with pytest.raises(IllegalAction, match="order phase"):
            g.apply(Call(1, Suit.SPADES))

    def test_order_makes_a_maker_needing_three_and_the_dealer_picks_up(self) -> None:  # S4; DEF #77, #78
        g = game(["AD KD QD JD TD", "AC KH QH JH TH", "AS KS QS JS TS"], "AH")
        run(g, "1 order")
        assert g.maker == 1 and g.requirement == 3 and g.trump is Suit.HEARTS
        assert g.phase is Phase.DEALER_DISCARD and g.to_act == 0 and len(g.hand(0)) == 6
        with pytest.raises(IllegalAction, match="seat 0's turn"):
            g.apply("1 discard AC")
        run(g, "0 discard AH")  # may discard the card just picked up (DEF #77)
        assert len(g.hand(0)) == 5 and g.phase is Phase.PLAY and g.to_act == 1

    def test_dealer_ordering_is_voluntary(self) -> None:  # DEF #79
        g = game(["AH KD QD JD TD", "AC KH QH JH TH", "AS KS QS JS TS"], "AD")
        run(g, "1 pass", "2 pass", "0 order")
        assert g.maker == 0 and g.requirement == 3

    def test_round_two_any_suit_including_the_turned_one(self) -> None:  # S4; DEF #68, #69
        g = game(["AD KD QD JD TD", "AC KH QH JH TH", "AS KS QS JS TS"], "AH")
        run(g, "1 pass", "2 pass", "0 pass")
        assert g.phase is Phase.CALL and g.to_act == 1
        assert [str(a) for a in g.legal_actions()] == [
            "1 call C",
            "1 call D",
            "1 call H",
            "1 call S",
            "1 pass",
        ]
        run(g, "1 call H")
        assert g.maker == 1 and g.requirement == 3 and g.phase is Phase.PLAY
        assert len(g.hand(0)) == 5 and parse_cards("AH")[0] in g.card_zones()["kitty"]  # no pick-up

    def test_variant_round2_excludes_turned_suit(self) -> None:  # DEF #68 variant
        g = game(
            ["AD KD QD JD TD", "AC KH QH JH TH", "AS KS QS JS TS"],
            "AH",
            options=opts(round2_excludes_turned_suit=True),
        )
        run(g, "1 pass", "2 pass", "0 pass")
        before = g.to_dict()
        with pytest.raises(IllegalAction, match="turned-down suit"):
            g.apply("1 call H")
        assert g.to_dict() == before
        run(g, "1 pass", "2 pass")
        assert "0 call H" in [str(a) for a in g.legal_actions()]  # the stuck dealer may (R16)

    def test_stick_the_dealer(self) -> None:  # S4
        g = game(["AD KD QD JD TD", "AC KH QH JH TH", "AS KS QS JS TS"], "AH")
        run(g, "1 pass", "2 pass", "0 pass", "1 pass", "2 pass")
        assert g.to_act == 0 and all(isinstance(a, Call) for a in g.legal_actions())
        with pytest.raises(IllegalAction, match="dealer must name trump"):
            g.apply(Pass(0))
        run(g, "0 call S")
        assert g.maker == 0 and g.requirement == 2

    def test_the_45_rule(self) -> None:  # S4; DEF #75
        g = game(["AD KD QD JD TD", "AC KH QH JH TH", "AS KS QS JS TS"], "AH", scores=[47, 45, 44])
        assert [str(a) for a in g.legal_actions()] == ["1 pass"]
        before = g.to_dict()
        with pytest.raises(IllegalAction, match="45 rule"):
            g.apply(Order(1))
        assert g.to_dict() == before
        run(g, "1 pass", "2 order")  # 44 may still call
        assert g.maker == 2

    def test_the_45_rule_spares_the_stuck_dealer(self) -> None:  # S4; DEF #75 (iii)
        g = game(["AD KD QD JD TD", "AC KH QH JH TH", "AS KS QS JS TS"], "AH", scores=[48, 45, 46])
        run(g, "1 pass", "2 pass", "0 pass", "1 pass", "2 pass")
        assert len(g.legal_actions()) == 4
        run(g, "0 call D")
        assert g.maker == 0 and g.requirement == 2

    def test_the_45_rule_and_a_turned_club(self) -> None:  # DEF #75 (iv)
        g = game(H3, "AC", scores=[49, 20, 20])
        assert g.maker == 0 and g.requirement == 2

    def test_variant_lock_at(self) -> None:
        g = game(
            ["AD KD QD JD TD", "AC KH QH JH TH", "AS KS QS JS TS"],
            "AH",
            scores=[20, 41, 20],
            options=opts(lock_at=40),
        )
        assert [str(a) for a in g.legal_actions()] == ["1 pass"]

    def test_lock_lifts_and_variant_lock_permanent(self) -> None:  # DEF #75 (i)
        hands = ["AD KD QD JD TD", "AC KH QH JH TH", "AS KS QS JS TS"]
        g = game(hands, "AH", scores=[20, 44, 20])
        assert not g.locked(1)
        g = game(hands, "AH", scores=[20, 46, 20], options=opts(lock_permanent=True))
        assert g.locked(1)
        # seat 1 takes tricks and drops below 45; the lock stays under the variant
        run(g, "1 pass", "2 pass", "0 pass", "1 pass", "2 pass", "0 call H")
        play_lowest(g)
        assert g.scores[1] < 45 and g.locked(1)


class TestPlayAndScoring:
    def test_eldest_leads_and_variant_maker_leads(self) -> None:  # DEF #71
        hands = ["AD KD QD JD TD", "AC KH QH JH TH", "AS KS QS JS TS"]
        g = run(game(hands, "AH"), "1 pass", "2 order", "0 discard AH")
        assert g.to_act == 1
        g = run(game(hands, "AH", options=opts(first_lead="maker")), "1 pass", "2 order", "0 discard AH")
        assert g.to_act == 2

    def test_follow_the_effective_suit(self) -> None:  # S4 "normal rules for Euchre"
        # Hearts trump: JD is the left bower, a heart.
        g = game(["AD KD QD TD AS", "JD KH QC JH TH", "KS QS JS TS QH"], "AH")
        run(g, "1 pass", "2 pass", "0 order", "0 discard AH")
        run(g, "1 play JD")  # left bower led: hearts
        assert [str(a) for a in g.legal_actions()] == ["2 play QH"]
        before = g.to_dict()
        with pytest.raises(IllegalAction, match="left bower counts as trump"):
            g.apply("2 play KS")
        assert g.to_dict() == before
        run(g, "2 play QH")
        # the dealer has no heart: anything goes, diamonds included
        assert len(g.legal_actions()) == 5

    def test_turned_club_dealer_scoring(self) -> None:  # S4; DEF #65, #76
        g = game(["AD KD QD TD AS", "JD AH KH JH TH", "KS QS JS TS QH"], "KC")
        # clubs trump: nobody holds a club; seat 0 (maker, needs 2)
        play_lowest(g)
        r = g.results[-1]
        for s in range(3):
            t = r.tricks_won[s]
            need = 2 if s == 0 else 1
            assert r.delta[s] == (-t if t >= need else 5)
        assert sum(r.tricks_won) == 5

    def test_maker_failing_goes_up_five(self) -> None:  # S4; DEF #66
        g = game(["AD KD QD TD AC", "JD AH KH JH TH", "KS QS JS TS QH"], "AS")
        run(g, "1 pass", "2 pass", "0 pass", "1 pass", "2 call D")  # seat 2 calls diamonds, needs 3
        play_lowest(g)
        r = g.results[-1]
        assert r.maker == 2 and r.requirement == 3
        assert r.tricks_won[2] < 3 and r.delta[2] == 5

    def test_variant_failed_contract_tricks_count(self) -> None:  # DEF #66 variant
        deal = ["AD KD QD TD AC", "JD AH KH JH TH", "KS QS JS TS QH"]
        checked = 0
        for suit in "CDHS":  # find the trumps under which the stuck dealer takes exactly 1 trick
            deltas = []
            for variant in (False, True):
                g = game(deal, "AS", options=opts(failed_contract_tricks_count=variant))
                run(g, "1 pass", "2 pass", "0 pass", "1 pass", "2 pass", f"0 call {suit}")
                play_lowest(g)
                r = g.results[-1]
                deltas.append((r.requirement, r.tricks_won[0], r.delta[0]))
            if deltas[0][1] == 1:
                assert deltas == [(2, 1, 5), (2, 1, 4)]
                checked += 1
        assert checked

    def test_everyone_must_take_a_trick(self) -> None:  # S4
        g = game(["AD KD QD TD AC", "JD AH KH JH TH", "KS QS JS TS QH"], "AS")
        run(g, "1 pass", "2 pass", "0 pass", "1 call H")
        play_lowest(g)
        r = g.results[-1]
        for s in (0, 2):
            assert r.delta[s] == (5 if r.tricks_won[s] == 0 else -r.tricks_won[s])
        assert r.tricks_won[1] == 5 and r.delta[1] == -5  # no bonus for all five (DEF #83)


class TestGameEnd:
    def hand_with(self, scores: list[int], **kw: Any) -> DeerParkGame:
        # Seat 1 calls hearts and takes all five; seats 0 and 2 go up 5.
        g = game(["AD KD QD TD AC", "JD AH KH JH TH", "KS QS JS TS QH"], "AS", scores=scores, **kw)
        run(g, "1 pass", "2 pass", "0 pass", "1 call H")
        play_lowest(g)
        return g

    def test_reaching_zero_wins(self) -> None:  # S4; DEF #73
        g = self.hand_with([20, 3, 20])
        assert g.scores[1] == -2 and g.is_over and g.winners == (1,)

    def test_reaching_fifty_wins(self) -> None:  # S4; DEF #73
        g = self.hand_with([45, 30, 20])
        assert g.scores[0] == 50 and g.winners == (0,)

    def test_farthest_past_the_goal_wins(self) -> None:  # DEF #74
        g = self.hand_with([46, 4, 20])  # 51 (1 past) vs -1 (1 past) ... tie, maker 1 wins
        assert g.winners == (1,)
        g = self.hand_with([47, 4, 20])  # 52 is 2 past, -1 is 1 past
        assert g.winners == (0,)

    def test_tie_without_the_maker_plays_on(self) -> None:  # DEF #74
        g = self.hand_with([46, 30, 46])
        assert g.scores == (51, 25, 51) and not g.is_over
        assert g.dealer == 1  # the deal passes left (DEF #81)

    def test_variant_shared(self) -> None:  # DEF #74 variant
        g = self.hand_with([46, 30, 46], options=opts(tie_break="shared"))
        assert g.winners == (0, 2)


class TestPersistenceAndBadInput:
    def test_options(self) -> None:
        with pytest.raises(UnsupportedOption):
            DeerParkOptions.from_dict({"first_lead": "dealer"})
        with pytest.raises(OptionsError):
            DeerParkOptions(lock_at="45")  # type: ignore[arg-type]
        assert DeerParkOptions(lock_at=-3).lock_at == -3  # any integer (protocol 6.3)

    def test_observation_hides_the_discard(self) -> None:
        g = run(game(["AD KD QD JD TD", "AC KH QH JH TH", "AS KS QS JS TS"], "AH"), "1 order", "0 discard TD")
        obs = g.observation(1)
        assert "0 discard 1 card" in obs.history and obs.turned == parse_cards("AH")[0]
        assert "0 discard TD" in g.observation(0).history
        assert obs.hand == g.hand(1)

    def test_json_round_trip_and_copy(self) -> None:
        g = DeerParkGame(4, seed=9)
        rng = random.Random(1)
        for _ in range(30):
            if g.phase is Phase.HAND_OVER:
                g.next_hand()
            g.apply(rng.choice(g.legal_actions()))
        h = DeerParkGame.from_json(g.to_json())
        assert h == g and h.legal_actions() == g.legal_actions()
        c = g.copy()
        c.apply(c.legal_actions()[0])
        assert c != g and DeerParkGame.from_json(g.to_json()) == g
        with pytest.raises(RestoreError, match="not 'deerpark'"):
            DeerParkGame.from_dict({**g.to_dict(), "game": "hucklebuck"})


def check_invariants(g: DeerParkGame) -> None:
    zones = g.card_zones()
    total = sum(len(z) for z in zones.values())
    union = CardSet()
    for z in zones.values():
        union = union | z
    assert total == len(g._pack) and union == g._pack


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(3, 7),
    st.integers(0, 2**32),
    st.booleans(),
    st.booleans(),
    st.booleans(),
    st.sampled_from(["eldest", "maker"]),
    st.sampled_from(["distance_then_maker", "shared"]),
)
def test_random_games(
    n: int, seed: int, pickup: bool, excl: bool, tricks_count: bool, lead: str, tie: str
) -> None:
    o = DeerParkOptions(
        club_turnup_pickup=pickup,
        round2_excludes_turned_suit=excl,
        failed_contract_tricks_count=tricks_count,
        first_lead=lead,
        tie_break=tie,
    )  # type: ignore[arg-type]
    g = DeerParkGame(n, seed=seed, options=o)
    rng = random.Random(seed)
    while not g.is_over:
        if g.phase is Phase.HAND_OVER:
            g.next_hand()
            continue
        before = len(g.results)
        phase = g.phase
        dealer = g.dealer
        g.apply(rng.choice(g.legal_actions()))
        check_invariants(g)
        if phase is Phase.DEALER_DISCARD:
            assert len(g.hand(dealer)) == 5  # back to five after the discard
        if len(g.results) > before:
            r = g.results[-1]
            assert sum(r.tricks_won) == 5 and len(r.tricks) == 5
            for s in range(n):
                t = r.tricks_won[s]
                ok = {-t, 5} | ({5 - t} if tricks_count and s == r.maker else set())
                assert r.delta[s] in ok
    assert g.winners
    assert DeerParkGame.from_json(g.to_json()) == g
