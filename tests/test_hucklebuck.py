"""Hucklebuck rules, one test per rule of rules-decisions 1.1 and per variant.

Every test runs against both cores (conftest.py).  Each names its source (S0,
S2) or decision (DEF #n).
"""

from __future__ import annotations

import random

import pytest
from hb_helpers import HB22, SUITED, deal, moon_game, new_game, opts, run

from hucklebuck import (
    DealError,
    IllegalAction,
    OptionsError,
    PlayerCountError,
    Suit,
    parse_cards,
)
from hucklebuck.actions import Bid, Discard, Drop, Pass, Play, Stay
from hucklebuck.errors import ActionParseError, UnsupportedOption
from hucklebuck.games import HucklebuckGame, HucklebuckOptions, Phase


# ----------------------------------------------------------------- deal, seats
class TestDeal:
    def test_five_cards_each_rest_is_stock(self) -> None:  # S0, S2; DEF #1
        for n in range(3, 8):
            g = HucklebuckGame(n, seed=n)
            assert all(len(g.hand(s)) == 5 for s in range(n))
            assert g.stock_size == 52 - 5 * n

    def test_seeded_deal_is_reproducible_and_uses_no_global_rng(self) -> None:
        random.seed(1)
        a = HucklebuckGame(5, seed=42)
        random.seed(2)
        b = HucklebuckGame(5, seed=42)
        assert [a.hand(s) for s in range(5)] == [b.hand(s) for s in range(5)]
        assert HucklebuckGame(5, rng=random.Random(42)).hand(1) == a.hand(1)

    def test_deal_one_at_a_time_from_eldest(self) -> None:  # DEF #1
        # the shuffled order is dealt eldest first, one card per seat per round
        rng = random.Random(5)
        cards = list(FULL_PACK)
        random.Random(5).shuffle(cards)
        g = HucklebuckGame(4, rng=rng, dealer=2)
        assert cards[0] in g.hand(3) and cards[1] in g.hand(0) and cards[3] in g.hand(2)
        assert cards[4] in g.hand(3)

    @pytest.mark.parametrize("n", [2, 8])
    def test_player_count(self, n: int) -> None:  # S0, S2: 3-7
        with pytest.raises(PlayerCountError, match="3 to 7"):
            HucklebuckGame(n, seed=1)


FULL_PACK = parse_cards(" ".join(r + s for s in "CDHS" for r in "23456789TJQKA"))


# ----------------------------------------------------------------------- auction
class TestAuction:
    def test_eldest_opens(self) -> None:  # S2, DEF #24
        g = new_game(SUITED)
        assert g.phase is Phase.AUCTION and g.to_act == 1
        g4 = HucklebuckGame(4, seed=1, dealer=3)
        assert g4.to_act == 0

    def test_minimum_bid_is_two(self) -> None:  # S0, S2
        g = new_game(SUITED)
        assert [str(a) for a in g.legal_actions()] == ["1 pass", "1 bid 2", "1 bid 3", "1 bid 4", "1 bid 5"]
        with pytest.raises(IllegalAction, match="lowest bid is 2"):
            g.apply(Bid(1, 1))

    def test_must_overcall(self) -> None:  # S0
        g = run(new_game(SUITED), "1 bid 3")
        for b in (2, 3):
            with pytest.raises(IllegalAction, match="must beat the current bid of 3"):
                g.apply(Bid(2, b))
        assert [str(a) for a in g.legal_actions()] == ["2 pass", "2 bid 4", "2 bid 5"]

    def test_more_than_one_circuit_and_a_pass_is_final(self) -> None:  # S0; DEF #21
        g = new_game(["AD KD QD JD TD", "AS KS QS JS TS", "AH KH QH JH TH", "AC KC QC JC TC"])
        run(g, "1 bid 2", "2 bid 3", "3 pass", "0 pass")
        assert g.to_act == 1  # second circuit: 3 and 0 have passed for good
        run(g, "1 bid 4")
        assert g.to_act == 2
        run(g, "2 pass")
        assert g.phase is Phase.TRUMP and g.bidder == 1 and g.bid == 4

    def test_moon_bid_ends_the_auction_at_once(self) -> None:  # S2; DEF #32
        g = run(new_game(SUITED), "1 bid 5")
        assert g.phase is Phase.TRUMP and g.to_act == 1 and g.bid == 5

    def test_all_pass_dealer_scores_five_without_play(self) -> None:  # S0; DEF #4, #33
        g = run(new_game(SUITED), "1 pass", "2 pass", "0 pass")
        assert g.phase is Phase.HAND_OVER
        r = g.results[-1]
        assert r.delta == (5, 0, 0) and r.active == () and r.tricks == () and r.bid is None
        assert g.dealer == 1  # the deal passes left

    def test_variant_dealer_must_bid(self) -> None:  # S2; DEF #4
        g = run(new_game(SUITED, options=opts(all_pass="dealer_must_bid")), "1 pass", "2 pass")
        assert all(isinstance(a, Bid) for a in g.legal_actions())
        before = g.to_dict()
        with pytest.raises(IllegalAction, match="dealer must bid"):
            g.apply(Pass(0))
        assert g.to_dict() == before
        run(g, "0 bid 2")
        assert g.phase is Phase.TRUMP and g.bidder == 0

    def test_dealer_must_bid_only_when_nobody_bid(self) -> None:
        g = run(new_game(SUITED, options=opts(all_pass="dealer_must_bid")), "1 bid 2", "2 pass")
        assert Pass(0) in g.legal_actions()

    def test_variant_auction_reentry(self) -> None:  # DEF #21 variant
        g = new_game(SUITED, options=opts(auction_reentry=True))
        run(g, "1 pass", "2 bid 2", "0 pass")
        assert g.to_act == 1  # 1 passed before but may come back in
        run(g, "1 bid 3", "2 pass")
        assert g.to_act == 0
        run(g, "0 pass")  # a full circuit after the bid of 3 without a new bid
        assert g.phase is Phase.TRUMP and g.bidder == 1 and g.bid == 3

    def test_reentry_all_pass(self) -> None:
        g = run(new_game(SUITED, options=opts(auction_reentry=True)), "1 pass", "2 pass", "0 pass")
        assert g.phase is Phase.HAND_OVER and g.results[-1].delta == (5, 0, 0)


# ------------------------------------------------------------------- trump, stay
class TestTrumpAndStaying:
    def test_bidder_names_trump(self) -> None:  # S0, S2; DEF #30
        g = run(new_game(SUITED), "1 bid 2", "2 pass", "0 pass")
        assert len(g.legal_actions()) == 4
        with pytest.raises(IllegalAction, match="seat 1's turn"):
            g.apply("2 trump H")
        run(g, "1 trump S")
        assert g.trump is Suit.SPADES

    def test_action_ids_match_the_actions_in_every_phase(self) -> None:  # S0, S2
        # The integer ids an agent sees are exactly the legal actions, in the auction, the
        # naming of trump, staying and the exchange (each phase lists its ids its own way).
        seen = set()
        for seed in range(12):
            g = HucklebuckGame(4, seed=seed, options=opts(auction_reentry=seed % 2 == 0))
            while g.to_act is not None and g.phase is not Phase.PLAY:
                seen.add(g.phase)
                ids = g.legal_action_ids()
                assert ids == sorted(g.action_id(a) for a in g.legal_actions())
                assert [g.action_from_id(i) for i in ids] == sorted(g.legal_actions(), key=g.action_id)
                g.apply_id(ids[seed % len(ids)])
        assert {Phase.AUCTION, Phase.TRUMP, Phase.DECLARE, Phase.EXCHANGE} <= seen

    def test_declare_order_bidder_left_and_bidder_last(self) -> None:  # S0, S2
        g = new_game(["AD KD QD JD TD", "AS KS QS JS TS", "AH KH QH JH TH", "AC KC QC JC TC"])
        run(g, "1 pass", "2 bid 2", "3 pass", "0 pass", "2 trump H")
        order = []
        while g.phase is Phase.DECLARE:
            order.append(g.to_act)
            g.apply(Stay(g.to_act, 0))  # type: ignore[arg-type]
        assert order == [3, 0, 1, 2]

    def test_players_who_passed_may_stay(self) -> None:  # DEF #28
        g = run(new_game(SUITED), "1 bid 2", "2 pass", "0 pass", "1 trump S")
        assert Stay(2, 0) in g.legal_actions() and Drop(2) in g.legal_actions()

    def test_bidder_cannot_drop(self) -> None:  # S2; DEF #26
        g = run(new_game(SUITED), "1 bid 2", "2 pass", "0 pass", "1 trump S", "2 stay 0", "0 stay 0")
        assert g.to_act == 1 and not any(isinstance(a, Drop) for a in g.legal_actions())
        before = g.to_dict()
        with pytest.raises(IllegalAction, match="bidder cannot drop"):
            g.apply("1 drop")
        assert g.to_dict() == before

    def test_exchange_count_range(self) -> None:  # S0: 0 to 5
        g = run(new_game(SUITED), "1 bid 2", "2 pass", "0 pass", "1 trump S")
        with pytest.raises(IllegalAction, match="0 to 5"):
            g.apply(Stay(2, 6))

    def test_everyone_else_drops_bidder_scores_five(self) -> None:  # S2; DEF #5
        g = run(new_game(SUITED), "1 bid 3", "2 pass", "0 pass", "1 trump S", "2 drop", "0 drop")
        assert g.phase is Phase.HAND_OVER
        r = g.results[-1]
        assert r.delta == (0, 5, 0) and r.active == () and r.tricks == ()

    def test_lone_moon_bidder_scores_five(self) -> None:  # DEF #6
        g = run(new_game(SUITED, scores=[0, 3, 0]), "1 bid 5", "1 trump S", "2 drop", "0 drop")
        assert g.results[-1].delta == (0, 5, 0) and not g.is_over

    def test_variant_lone_moon_bidder_wins_game(self) -> None:  # DEF #6 variant, protocol 6.7
        g = new_game(SUITED, scores=[0, -10, 0], options=opts(lone_moon_bidder="wins_game"))
        run(g, "1 bid 5", "1 trump S", "2 drop", "0 drop")
        assert g.is_over and g.winners == (1,)

    def test_lone_bidder_rule_needs_everyone_to_drop(self) -> None:
        g = run(new_game(SUITED), "1 bid 2", "2 pass", "0 pass", "1 trump S", "2 drop", "0 stay 0")
        assert g.phase is Phase.DECLARE and g.to_act == 1


# ----------------------------------------------------------------------- exchange
class TestExchange:
    def start(self, **kw: object) -> HucklebuckGame:
        g = new_game(
            ["AD KD QD JD TD", "AS KS QS JS TS", "AH KH QH JH TH", "AC KC QC JC TC"],
            stock_top="2C 3C 4C 5C 6C 7C 8C 9C",
            **kw,  # type: ignore[arg-type]
        )
        return run(g, "1 pass", "2 bid 2", "3 pass", "0 pass", "2 trump H")

    def test_a_card_discarded_twice_is_refused(self) -> None:  # S0; DEF #19
        g = self.start()
        run(g, "3 stay 2", "0 stay 0", "1 stay 1", "2 stay 3")
        before = g.to_dict()
        tc = parse_cards("TC")[0]
        with pytest.raises(IllegalAction, match="a card is discarded twice"):
            g.apply(Discard(3, (tc, tc)))
        assert g.to_dict() == before

    def test_exchange_in_order_with_stated_counts(self) -> None:  # S0; DEF #19, #29
        g = self.start()
        run(g, "3 stay 2", "0 stay 0", "1 stay 1", "2 stay 3")
        assert g.phase is Phase.EXCHANGE and g.to_act == 3  # bidder's left first
        run(g, "3 discard TC JC")
        assert g.hand(3) == parse_cards_set("AC KC QC 2C 3C")  # dealt from the top
        assert g.to_act == 1  # seat 0 exchanges nothing and has no turn
        run(g, "1 discard TS", "2 discard TH JH QH")
        assert g.hand(2) == parse_cards_set("AH KH 5C 6C 7C")
        assert g.phase is Phase.PLAY and g.to_act == 2  # the bidder leads (S0, S2; DEF #23)

    def test_discard_must_match_the_stated_count(self) -> None:  # S0; DEF #29
        g = run(self.start(), "3 stay 2", "0 stay 0", "1 stay 1", "2 stay 3")
        before = g.to_dict()
        with pytest.raises(IllegalAction, match="exactly 2"):
            g.apply("3 discard JC")
        with pytest.raises(IllegalAction, match="does not hold 2H"):
            g.apply("3 discard TC 2H")
        assert g.to_dict() == before

    def test_variant_dealer_left_dealer_last(self) -> None:  # DEF #19 variant
        g = run(
            self.start(options=opts(exchange_order="dealer_left_dealer_last")),
            "3 stay 1",
            "0 stay 1",
            "1 stay 1",
            "2 stay 1",
        )
        order = []
        while g.phase is Phase.EXCHANGE:
            seat = g.to_act
            order.append(seat)
            g.apply(g.legal_actions()[0])
        assert order == [1, 2, 3, 0]

    def test_stock_runs_out_and_is_reformed(self) -> None:  # DEF #18
        hands = [
            "2D 3D 4D 5D 6D",
            "AS KS QS JS TS",
            "AH KH QH JH TH",
            "AC KC QC JC TC",
            "2S 3S 4S 5S 6S",
            "2H 3H 4H 5H 6H",
            "7D 8D 9D TD JD",
        ]
        g = new_game(hands)  # 7 players: a 17-card stock
        assert g.stock_size == 17
        run(g, "1 bid 2", "2 pass", "3 pass", "4 pass", "5 pass", "6 pass", "0 pass", "1 trump S")
        run(g, "2 stay 5", "3 stay 5", "4 stay 5", "5 stay 5", "6 drop", "0 drop", "1 stay 0")
        run(g, "2 discard TH JH QH KH AH", "3 discard TC JC QC KC AC", "4 discard 2S 3S 4S 5S 6S")
        assert g.stock_size == 2
        seat5 = g.hand(5)
        run(g, "5 discard 2H 3H 4H 5H 6H")
        formed = g.events[-1]
        # the new stock: dropped hands and earlier discards, not seat 5's own discards
        expected = set(
            parse_cards(hands[6] + " " + hands[0] + " " + hands[2] + " " + hands[3] + " " + hands[4])
        )
        restock = g.card_zones()
        assert len(g.hand(5)) == 5 and not (g.hand(5) & seat5)
        assert len(g.results) == 0 and g.phase is Phase.PLAY
        assert getattr(formed, "cards", None) is not None
        assert set(formed.cards) == expected  # type: ignore[union-attr]
        assert g.stock_size == 25 - 3
        assert set(restock["set_aside"]) == set(parse_cards("2H 3H 4H 5H 6H"))

    def test_explicit_restock_must_be_the_right_set(self) -> None:  # protocol 4 play, 6.6
        hands = [
            "2D 3D 4D 5D 6D",
            "AS KS QS JS TS",
            "AH KH QH JH TH",
            "AC KC QC JC TC",
            "2S 3S 4S 5S 6S",
            "2H 3H 4H 5H 6H",
            "7D 8D 9D TD JD",
        ]
        wrong = " ".join(hands[6:7] + hands[0:1])  # too few cards
        g = new_game(hands, restock=[wrong])
        run(
            g,
            "1 bid 2",
            "2 pass",
            "3 pass",
            "4 pass",
            "5 pass",
            "6 pass",
            "0 pass",
            "1 trump S",
            "2 stay 5",
            "3 stay 5",
            "4 stay 5",
            "5 stay 5",
            "6 drop",
            "0 drop",
            "1 stay 0",
            "2 discard TH JH QH KH AH",
            "3 discard TC JC QC KC AC",
            "4 discard 2S 3S 4S 5S 6S",
        )
        before = g.to_dict()
        with pytest.raises(DealError, match="restock 0 must be exactly"):
            g.apply("5 discard 2H 3H 4H 5H 6H")
        assert g.to_dict() == before
        right = " ".join([hands[2], hands[3], hands[4], hands[6], hands[0]])
        g2 = new_game(hands, restock=[right])
        run(g2, *[str(a) for a in before_actions(before)])
        run(g2, "5 discard 2H 3H 4H 5H 6H")
        assert g2.results == () and g2.phase is Phase.PLAY
        assert g2.to_dict()["hands"][0]["restock"] == [right.split()]


def before_actions(saved: dict[str, object]) -> list[str]:
    return saved["hands"][0]["actions"]  # type: ignore[index, no-any-return]


def parse_cards_set(text: str) -> object:
    from hucklebuck import CardSet

    return CardSet.parse(text)


# --------------------------------------------------------------------------- play
class TestPlay:
    def test_follow_suit_else_anything(self) -> None:  # S0, S2; DEF #25
        g = run(
            new_game(HB22), "1 bid 3", "2 pass", "0 pass", "1 trump S", "2 stay 0", "0 stay 0", "1 stay 0"
        )
        run(g, "1 play 2C")
        assert len(g.legal_actions()) == 5  # void in clubs: any card
        run(g, "2 play JH")
        assert [str(a) for a in g.legal_actions()] == ["0 play AC"]  # must follow clubs
        before = g.to_dict()
        with pytest.raises(IllegalAction, match="must follow the suit led"):
            g.apply("0 play AD")
        with pytest.raises(IllegalAction, match="does not hold"):
            g.apply("0 play 5C")
        with pytest.raises(IllegalAction, match="seat 0's turn"):
            g.apply("1 play AS")
        assert g.to_dict() == before
        run(g, "0 play AC")
        assert g.tricks[-1].winner == 0 and g.to_act == 0  # the winner leads

    def test_trump_wins_and_highest_card_of_suit_led(self) -> None:  # S2
        g = run(
            new_game(HB22), "1 bid 3", "2 pass", "0 pass", "1 trump S", "2 stay 0", "0 stay 0", "1 stay 0"
        )
        run(g, "1 play 4C", "2 play AH", "0 play AC")
        assert g.tricks[0].winner == 0
        run(g, "0 play AD", "1 play AS", "2 play TH")
        assert g.tricks[1].winner == 1  # a void player may trump

    def test_wrong_phase(self) -> None:
        g = new_game(SUITED)
        with pytest.raises(IllegalAction, match="auction phase"):
            g.apply(Play(1, parse_cards("AS")[0]))


# -------------------------------------------------------------------- bad input
class TestBadInput:
    def test_malformed_deals(self) -> None:
        with pytest.raises(DealError, match="3 seats"):
            HucklebuckGame(3, deal=deal(SUITED + ["AC KC QC JC TC"]))
        with pytest.raises(DealError, match="must get 5 cards"):
            HucklebuckGame(3, deal=deal(["AD KD QD JD", "AS KS QS JS TS", "AH KH QH JH TH"]))
        with pytest.raises(DealError, match="appears twice"):
            HucklebuckGame.__call__ if False else HucklebuckGame(
                3,
                deal={
                    "hands": [h.split() for h in SUITED],
                    "stock": ["AS"] + [c.code for c in deal(SUITED).stock],
                },
            )
        with pytest.raises(DealError, match="missing"):
            HucklebuckGame(3, deal={"hands": [h.split() for h in SUITED], "stock": []})
        with pytest.raises(DealError, match="not a card"):
            HucklebuckGame(
                3,
                deal={
                    "hands": [["XX"] + SUITED[0].split()[1:]] + [h.split() for h in SUITED[1:]],
                    "stock": [],
                },
            )
        with pytest.raises(DealError, match="is out"):
            HucklebuckGame(4, out=[3], scores=[0, 0, 0, -30], deal=deal(SUITED + ["AC KC QC JC TC"]))

    def test_bad_options(self) -> None:
        with pytest.raises(OptionsError, match="true or false"):
            HucklebuckOptions(auction_reentry="yes")  # type: ignore[arg-type]
        with pytest.raises(UnsupportedOption, match="12 is not offered"):
            HucklebuckOptions(target=12)
        with pytest.raises(OptionsError, match="integer"):
            HucklebuckOptions(target=True)
        with pytest.raises(UnsupportedOption, match="'sometimes' is not offered"):
            HucklebuckOptions.from_dict({"all_pass": "sometimes"})
        with pytest.raises(UnsupportedOption, match="no option 'jokers'"):
            HucklebuckOptions.from_dict({"jokers": True})
        with pytest.raises(OptionsError, match="must be a string"):
            HucklebuckOptions.from_dict({"tie_break": 3})

    def test_bad_start(self) -> None:
        with pytest.raises(PlayerCountError, match="dealer"):
            HucklebuckGame(3, seed=1, dealer=3)
        with pytest.raises(PlayerCountError, match="out of the game"):
            HucklebuckGame(3, seed=1, dealer=1, out=[1])
        with pytest.raises(PlayerCountError, match="at least two"):
            HucklebuckGame(3, seed=1, out=[1, 2])
        with pytest.raises(OptionsError, match="scores"):
            HucklebuckGame(3, seed=1, scores=[0, 0])
        with pytest.raises(OptionsError, match="seed or rng"):
            HucklebuckGame(3, seed=1, rng=random.Random())

    def test_unreadable_and_illegal_action_text(self) -> None:
        g = new_game(SUITED)
        before = g.to_dict()
        for text, err in [
            ("1 bid x", ActionParseError),
            ("one bid 2", ActionParseError),
            ("1 bid", IllegalAction),
            ("1 fold", IllegalAction),
            ("1", ActionParseError),
            ("1 play ZZ", ActionParseError),
            ("2 bid 2", IllegalAction),
            ("1 bid 6", IllegalAction),
        ]:
            with pytest.raises(err):
                g.apply(text)
        assert g.to_dict() == before

    def test_actions_after_the_hand_or_game(self) -> None:
        g = run(new_game(SUITED), "1 pass", "2 pass", "0 pass")
        with pytest.raises(IllegalAction, match="hand is over"):
            g.apply("1 bid 2")
        g = moon_game([0, 3, 0])
        with pytest.raises(IllegalAction, match="game is over"):
            g.apply("1 bid 2")
        with pytest.raises(IllegalAction, match="hand is over"):
            g.next_hand()
        with pytest.raises(IllegalAction, match="only be dealt"):
            new_game(SUITED).next_hand()


# --------------------------------------------------------- observation, JSON, copy
class TestObservationAndPersistence:
    def test_observation_hides_other_hands_and_discards(self) -> None:
        g = new_game(["AD KD QD JD TD", "AS KS QS JS TS", "AH KH QH JH TH", "AC KC QC JC TC"])
        run(
            g,
            "1 pass",
            "2 bid 2",
            "3 pass",
            "0 pass",
            "2 trump H",
            "3 stay 2",
            "0 stay 0",
            "1 drop",
            "2 stay 1",
            "3 discard TC JC",
        )
        obs = g.observation(0)
        assert obs.hand == g.hand(0) and obs.to_act == 2 and obs.legal_actions == ()
        assert "3 discard 2 cards" in obs.history and "3 discard TC JC" not in obs.history
        assert obs.declarations == ((3, 2), (0, 0), (1, None), (2, 1))
        mine = g.observation(3)
        assert "3 discard TC JC" in mine.history
        hidden = {c for s in (1, 2, 3) for c in g.hand(s)}
        public = {c for c in obs.current_trick} | set(obs.hand)
        assert not hidden & public
        assert g.observation(2).legal_actions == tuple(g.legal_actions())

    def test_json_round_trip_mid_hand_and_continue(self) -> None:
        g = HucklebuckGame(5, seed=11)
        rng = random.Random(3)
        for _ in range(40):
            if g.phase is Phase.HAND_OVER:
                g.next_hand()
            if g.is_over:
                break
            g.apply(rng.choice(g.legal_actions()))
        h = HucklebuckGame.from_json(g.to_json())
        assert h == g and h.to_json() == g.to_json()
        assert h.legal_actions() == g.legal_actions() and h.events == g.events
        # both continue identically, random deals included
        for _ in range(200):
            if g.is_over:
                break
            if g.phase is Phase.HAND_OVER:
                g.next_hand()
                h.next_hand()
                continue
            a = rng.choice(g.legal_actions())
            g.apply(a)
            h.apply(a)
        assert h == g

    def test_restore_validates(self) -> None:
        from hucklebuck import RestoreError

        g = run(new_game(SUITED), "1 bid 2", "2 pass")
        data = g.to_dict()
        data["hands"][0]["actions"][1] = "2 bid 2"  # not a legal overcall
        with pytest.raises(RestoreError, match="must beat"):
            HucklebuckGame.from_dict(data)
        data = g.to_dict()
        data["hands"][0]["deal"]["stock"] = data["hands"][0]["deal"]["stock"][:-1]
        with pytest.raises(RestoreError, match="missing"):
            HucklebuckGame.from_dict(data)
        with pytest.raises(RestoreError, match="not JSON"):
            HucklebuckGame.from_json("{")
        with pytest.raises(RestoreError, match="format"):
            HucklebuckGame.from_dict({"format": "chess"})

    def test_copy_is_independent(self) -> None:
        g = run(
            new_game(SUITED), "1 bid 2", "2 pass", "0 pass", "1 trump S", "2 stay 0", "0 stay 0", "1 stay 0"
        )
        c = g.copy()
        c.apply(c.legal_actions()[0])
        assert len(c.current_trick) == 1 and len(g.current_trick) == 0
        assert g.hand(1) != c.hand(1)
        assert g.copy() == g
