"""Buck 'Em rules, one test per rule of rules-decisions 1.2 and per variant, on
both cores.  Each names its source (S3) or decision (DEF #n)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from thorough_kit import examples

from hucklebuck import (
    Card,
    CardSet,
    DealError,
    IllegalAction,
    OptionsError,
    PlayerCountError,
    Suit,
    parse_cards,
)
from hucklebuck.actions import BuckStay, Draw, Fold
from hucklebuck.errors import UnsupportedOption
from hucklebuck.games import BuckEmDeal, BuckEmGame, BuckEmOptions, Phase
from hucklebuck.packs import pack


def bk_deal(
    hands: list[str],
    upcard: str,
    stock_top: str = "",
    scare: str | None = None,
    short_handed: bool = False,
    removed: bool = False,
    restock: list[str] | None = None,
) -> BuckEmDeal:
    n = len(hands)
    hs = tuple(parse_cards(h) for h in hands)
    up = parse_cards(upcard)[0]
    top = parse_cards(stock_top)
    used = {c for h in hs for c in h} | set(top) | ({up} if not removed else set())
    rest = tuple(c for c in pack("buckem", n, short_handed=short_handed) if c not in used)
    return BuckEmDeal(
        hs,
        up,
        top + rest,
        None if scare is None else parse_cards(scare),
        None if restock is None else tuple(parse_cards(r) for r in restock),
    )


def game(
    hands: list[str],
    upcard: str,
    *,
    stock_top: str = "",
    scare: str | None = None,
    restock: list[str] | None = None,
    **kw: Any,
) -> BuckEmGame:
    o = kw.get("options") or {}
    short = bool(o.get("short_handed")) if isinstance(o, dict) else o.short_handed
    removed = (
        o.get("short_handed_trump") if isinstance(o, dict) else o.short_handed_trump.value
    ) == "removed_card"
    d = bk_deal(hands, upcard, stock_top, scare, short, removed, restock)
    return BuckEmGame(len(hands), deal=d, **kw)


def run(g: BuckEmGame, *actions: str) -> BuckEmGame:
    for a in actions:
        g.apply(a)
    return g


# Five seats, dealer 0, eldest 1; spades trump (upcard 9S).
# Seat 1 holds the top trumps; seat 2 the top hearts and two clubs.
TOP = ["2D 3D 4D 5D 6D", "AS KS QS 2C 3C", "AC KC QH JH TH", "7D 8D 9D TD JD", "2H 3H 4H 5H 6H"]
# Every seat wins exactly one trick when all stay (see test_no_winners).
ONE_EACH = ["5C 5H 5D 7C KH", "AC 2H 3D 8C 7H", "2C AH 2D 9C 8H", "3C 3H AD 6C 9H", "4C 4H 4D KC 6H"]
ONE_EACH_PLAY = [
    "1 play AC", "2 play 2C", "3 play 3C", "4 play 4C", "0 play 5C",
    "1 play 2H", "2 play AH", "3 play 3H", "4 play 4H", "0 play 5H",
    "2 play 2D", "3 play AD", "4 play 4D", "0 play 5D", "1 play 3D",
    "3 play 6C", "4 play KC", "0 play 7C", "1 play 8C", "2 play 9C",
    "4 play 6H", "0 play KH", "1 play 7H", "2 play 8H", "3 play 9H",
]  # fmt: skip
# Seats 1 and 2 stay; seat 1 takes 3 tricks and seat 2 takes 2.
SPLIT_PLAY = ["1 play AS", "2 play TH", "1 play KS", "2 play JH", "1 play QS", "2 play QH",
              "1 play 2C", "2 play KC", "2 play AC", "1 play 3C"]  # fmt: skip
# Seats 1, 2, 3 stay and take 2, 2 and 1.
TWO_TWO_ONE = ["AD KD QD JD TD", "AS KS 2H 2D 4D", "AH KH 3C 5D 6D", "AC 7D 8D 9D TC", "2C 4C 5C 6C 7C"]
TWO_TWO_ONE_PLAY = [
    "1 play AS", "2 play 5D", "3 play 7D", "1 play KS", "2 play 6D", "3 play 8D",
    "1 play 2H", "2 play AH", "3 play 9D", "2 play KH", "3 play TC", "1 play 2D",
    "2 play 3C", "3 play AC", "1 play 4D",
]  # fmt: skip


def all_fold_but(g: BuckEmGame, stayers: set[int]) -> BuckEmGame:
    while g.phase is Phase.STAY_FOLD:
        s = g.to_act
        assert s is not None
        g.apply(BuckStay(s) if s in stayers else Fold(s))
    return g


def stand_pat(g: BuckEmGame) -> BuckEmGame:
    while g.phase is Phase.DRAW:
        g.apply(Draw(g.to_act))  # type: ignore[arg-type]
    return g


class TestDealAndAnte:
    @pytest.mark.parametrize("n", range(5, 9))
    def test_deal_upcard_and_stock(self, n: int) -> None:  # S3; DEF #51
        g = BuckEmGame(n, seed=n)
        assert all(len(g.hand(s)) == 5 for s in range(n))
        assert g.stock_size == 52 - 5 * n - 1
        assert g.trump is g.upcard.suit
        assert g.upcard not in g.card_zones()["stock"]

    @pytest.mark.parametrize(("n", "size"), [(5, 44), (6, 48), (7, 52), (8, 52)])
    def test_short_handed_packs(self, n: int, size: int) -> None:  # S3; DEF #58
        g = BuckEmGame(n, seed=1, options=BuckEmOptions(short_handed=True))
        assert len(g._pack) == size and g.stock_size == size - 5 * n - 1

    def test_removed_card_trump(self) -> None:  # S3; DEF #58, protocol 6.3
        o = BuckEmOptions(short_handed=True, short_handed_trump="removed_card")  # type: ignore[arg-type]
        g = BuckEmGame(5, seed=3, options=o)
        assert g.upcard.rank in (2, 3) and g.stock_size == 44 - 25
        with pytest.raises(OptionsError, match="needs short_handed"):
            BuckEmOptions(short_handed_trump="removed_card")  # type: ignore[arg-type]
        with pytest.raises(OptionsError, match="keep all 52"):
            BuckEmGame(7, seed=1, options=o)
        hands = ["4D 5D 6D 7D 8D", "AS KS QS 4C 5C", "AC KC QH JH TH", "9D TD JD QD KD", "4H 5H 6H 7H 8H"]
        with pytest.raises(DealError, match="must be one of the removed cards"):
            game(hands, "AD", options=o)
        g = game(hands, "2S", options=o)
        assert g.trump is Suit.SPADES

    def test_players(self) -> None:  # S3: 5-8
        for n in (4, 9):
            with pytest.raises(PlayerCountError):
                BuckEmGame(n, seed=1)

    def test_everyone_antes_in_a_normal_round(self) -> None:  # S3; DEF #35, #41
        g = game(TOP, "9S", options={"ante": 2})
        assert g.pot == 10 and g.pot_units == 1 and g.bankrolls == (-2,) * 5
        assert not g.ante_due

    def test_bad_deals(self) -> None:
        with pytest.raises(DealError, match="appears twice"):
            BuckEmGame(
                5,
                deal={
                    "hands": [h.split() for h in TOP],
                    "upcard": "AS",
                    "stock": [c.code for c in bk_deal(TOP, "9S").stock],
                },
            )
        with pytest.raises(DealError, match="not in this game's pack"):
            short = ["4D 5D 6D 7D 8D", "AS KS QS 2C 5C", "AC KC QH JH TH", "9D TD JD QD KD", "4H 5H 6H 7H 8H"]
            BuckEmGame(
                5,
                options={"short_handed": True},
                deal={"hands": [h.split() for h in short], "upcard": "9S", "stock": []},
            )
        with pytest.raises(DealError, match="scare card"):
            game(TOP, "9S", scare="2D AS AC 7D 9H", options={"scare_cards": True})
        with pytest.raises(DealError, match="one scare card per seat"):
            game(TOP, "9S", options={"scare_cards": True})


class TestStayFold:
    def test_order_from_eldest_and_folders_sit_out(self) -> None:  # S3
        g = game(TOP, "9S")
        order = []
        while g.phase is Phase.STAY_FOLD:
            order.append(g.to_act)
            g.apply(BuckStay(g.to_act) if g.to_act in (1, 2) else Fold(g.to_act))  # type: ignore[arg-type]
        assert order == [1, 2, 3, 4, 0]
        assert g.phase is Phase.DRAW and g.stayers == (1, 2)
        assert len(g.hand(3)) == 0  # a folded hand is set aside

    def test_scare_card_trump_forces_a_stay(self) -> None:  # S3; DEF #55
        g = game(TOP, "9S", scare="2D AS AC 7D 2H", options={"scare_cards": True})
        run(g, "1 stay")
        g2 = game(TOP, "9S", scare="2D AS AC 7D 2H", options={"scare_cards": True})
        assert [str(a) for a in g2.legal_actions()] == ["1 stay"]
        before = g2.to_dict()
        with pytest.raises(IllegalAction, match="scare card AS is a trump"):
            g2.apply(Fold(1))
        assert g2.to_dict() == before
        assert g2.scare_card(2) == parse_cards("AC")[0]
        assert Fold(2) in [*run(g2, "1 stay").legal_actions()]

    def test_deuce_swap(self) -> None:  # S3; DEF #54
        hands = ["2D 3D 4D 5D 6D", "2S KS QS 2C 3C", "AC KC QH JH TH", "7D 8D 9D TD JD", "2H 3H 4H 5H 6H"]
        g = game(hands, "9S", options={"deuce_swap": True})
        assert "1 stay swap" in [str(a) for a in g.legal_actions()]
        run(g, "1 stay swap")
        assert g.upcard == parse_cards("2S")[0] and parse_cards("9S")[0] in g.hand(1)
        # the old upcard was face up: every seat may know who took it
        assert all(g.observation(s).swapped_upcard == parse_cards("9S")[0] for s in range(5))
        with pytest.raises(IllegalAction, match="only a player dealt the 2 of trump"):
            g.apply("2 stay swap")

    def test_no_swap_onto_the_trump_ace_or_without_the_option(self) -> None:  # S3; DEF #54
        hands = ["2D 3D 4D 5D 6D", "2S KS QS 2C 3C", "AC KC QH JH TH", "7D 8D 9D TD JD", "2H 3H 4H 5H 6H"]
        g = game(hands, "AS", options={"deuce_swap": True})
        with pytest.raises(IllegalAction, match="ace of trump"):
            g.apply("1 stay swap")
        g = game(hands, "9S")
        with pytest.raises(IllegalAction, match="not in play"):
            g.apply("1 stay swap")

    def test_deuce_swap_is_off_without_deuces(self) -> None:  # DEF #58
        g = BuckEmGame(6, seed=2, options={"short_handed": True, "deuce_swap": True})
        assert not any(isinstance(a, BuckStay) and a.swap for a in g.legal_actions())

    def test_simultaneous_declare_hides_decisions(self) -> None:  # S3; DEF #59
        g = game(TOP, "9S", options={"simultaneous_declare": True})
        run(g, "1 stay", "2 fold")
        obs = g.observation(3)
        assert obs.decisions == () and "1 declared" in obs.history
        run(g, "3 fold", "4 fold", "0 stay")
        assert g.observation(3).decisions == ((1, "stay"), (2, "fold"), (3, "fold"), (4, "fold"), (0, "stay"))

    def test_simultaneous_declare_hides_a_swap_until_all_have_declared(self) -> None:  # DEF #59
        hands = ["2D 3D 4D 5D 6D", "2S KS QS 2C 3C", "AC KC QH JH TH", "7D 8D 9D TD JD", "2H 3H 4H 5H 6H"]
        g = game(hands, "9S", options={"simultaneous_declare": True, "deuce_swap": True})
        run(g, "1 stay swap")
        assert g.upcard == parse_cards("2S")[0]
        assert g.observation(2).upcard == parse_cards("9S")[0]  # not revealed yet
        assert g.observation(2).swapped_upcard is None
        assert g.observation(1).upcard == parse_cards("2S")[0]  # the swapper knows
        assert g.observation(1).swapped_upcard == parse_cards("9S")[0]
        run(g, "2 fold", "3 fold", "4 fold", "0 stay")
        assert g.observation(2).upcard == parse_cards("2S")[0]
        assert g.observation(2).swapped_upcard == parse_cards("9S")[0]


class TestLoneStayerAndVoidRounds:
    def test_nobody_stays_pot_carries_and_ante_next(self) -> None:  # S3; DEF #48, #41
        g = all_fold_but(game(TOP, "9S"), set())
        assert g.phase is Phase.HAND_OVER and g.pot == 5 and g.ante_due
        g.next_hand()
        assert g.pot == 10 and g.pot_units == 2

    def test_variant_no_ante_after_a_void_round(self) -> None:  # DEF #47 variant
        g = all_fold_but(game(TOP, "9S", options={"after_void_round_ante": False}), set())
        assert not g.ante_due
        g.next_hand()
        assert g.pot == 5

    def test_lone_stayer_with_the_trump_ace_rakes_a_single_pot(self) -> None:  # S3; DEF #43, #44
        g = all_fold_but(game(TOP, "9S"), {1})
        r = g.results[-1]
        assert r.raked == 1 and r.winners == (1,) and r.payouts[1] == 5
        assert g.pot == 0 and g.ante_due and g.bankrolls[1] == 4

    def test_rake_half_of_a_double_pot_then_no_ante(self) -> None:  # S3; DEF #41, #45, #46
        g = all_fold_but(game(TOP, "9S", pot=6, pot_units=2, ante_due=False), {1})
        assert g.results[-1].payouts[1] == 3 and g.pot == 3 and g.pot_units == 1 and not g.ante_due
        g = all_fold_but(game(TOP, "9S", pot=7, pot_units=2, ante_due=False), {1})
        assert g.results[-1].payouts[1] == 3 and g.pot == 4  # floor
        g = all_fold_but(
            game(TOP, "9S", pot=7, pot_units=2, ante_due=False, options={"rake_rounding": "ceil"}), {1}
        )
        assert g.results[-1].payouts[1] == 4

    @pytest.mark.parametrize(("hand", "qualifies"), [
        ("KS 3S 2C 3C 4C", True),   # two trumps with a king
        ("JS 2S 2C 3C 4C", True),   # two trumps with a jack
        ("AS 2C 3C 4C 5C", True),   # the ace alone
        ("4S 3S 2C 3C 4C", False),  # two trumps, no face
        ("KS AC KC QC 4C", False),  # one trump face card only
        ("KH QH JH 2C 3C", False),  # off-suit faces do not count
    ])  # fmt: skip
    def test_rake_requirements(self, hand: str, qualifies: bool) -> None:  # S3; DEF #43
        hands = ["2D 3D 4D 5D 6D", hand, "7D 8D 9D TD JD", "QD KD AD 7H 8H", "9H TH 5H 6H 7C"]
        g = all_fold_but(game(hands, "9S"), {1})
        r = g.results[-1]
        assert (r.raked == 1) is qualifies
        if not qualifies:  # no rake, no play, nobody burned; the pot carries (DEF #47)
            assert r.burned == () and g.pot == 5 and g.ante_due and r.tricks == ()

    def test_rake_test_as_dealt_or_after_swap(self) -> None:  # DEF #42
        hands = ["2D 3D 4D 5D 6D", "2S 3S 2C 3C 4C", "7D 8D 9D TD JD", "QD KD AD 7H 8H", "9H TH 5H 6H 7C"]
        g = game(hands, "QS", options={"deuce_swap": True})
        run(g, "1 stay swap")
        all_fold_but(g, set())
        assert g.results[-1].raked is None  # as dealt: 2S 3S, no face card
        g = game(hands, "QS", options={"deuce_swap": True, "rake_hand": "after_swap"})
        run(g, "1 stay swap")
        all_fold_but(g, set())
        assert g.results[-1].raked == 1  # after the swap: QS 3S


class TestDraw:
    def test_draw_zero_to_three_in_order(self) -> None:  # S3; DEF #52, #53
        g = all_fold_but(game(TOP, "9S"), {0, 2, 4})
        assert g.phase is Phase.DRAW and g.to_act == 2  # eldest stayer first, dealer last
        before = g.to_dict()
        with pytest.raises(IllegalAction, match="at most 3"):
            g.apply("2 draw KC TH JH QH")
        with pytest.raises(IllegalAction, match="does not hold"):
            g.apply("2 draw AS")
        assert g.to_dict() == before
        top = g._stock[:3]
        run(g, "2 draw TH JH QH")
        assert set(top) <= set(g.hand(2))
        run(g, "4 draw", "0 draw 2D")
        assert g.phase is Phase.PLAY and g.to_act == 2  # first stayer left of the dealer leads (DEF #60)

    def test_depleted_deck_uses_folded_hands_then_discards(self) -> None:  # S3; DEF #49, #50
        g = BuckEmGame(8, seed=5)
        all_fold_but(g, {1, 2, 3, 4, 5, 6, 7})  # seven stay, one folds: 11 + 5 < 21
        folded = set(g.card_zones()["folded"])
        assert len(folded) == 5 and g.stock_size == 11
        formed = []
        while g.phase is Phase.DRAW:
            seat = g.to_act
            cards = sorted(g.hand(seat))[:3]  # type: ignore[arg-type]
            n_restock = len(g._restocks)
            g.apply(Draw(seat, tuple(cards)))  # type: ignore[arg-type]
            formed.extend(g._restocks[n_restock:])
            assert len(g.hand(seat)) == 5  # type: ignore[arg-type]
            assert not (set(cards) & set(g.hand(seat)))  # type: ignore[arg-type]
        assert set(formed[0]) == folded  # the folded hands first (S3)
        assert len(formed) == 2 and not (set(formed[1]) & folded)  # then earlier discards (R22)

    def test_explicit_restock_is_checked(self) -> None:  # protocol 6.6
        g = BuckEmGame(8, seed=5)
        all_fold_but(g, {1, 2, 3, 4, 5, 6, 7})
        saved = g.to_dict()
        deal = dict(saved["hands"][0]["deal"])
        deal["restock"] = [["2C", "3C"]]
        g2 = BuckEmGame(8, deal=deal)
        all_fold_but(g2, {1, 2, 3, 4, 5, 6, 7})
        with pytest.raises(DealError, match="restock 0 must be exactly"):
            while g2.phase is Phase.DRAW:
                g2.apply(Draw(g2.to_act, tuple(sorted(g2.hand(g2.to_act))[:3])))  # type: ignore[arg-type]


class TestSettlement:
    def test_single_winner_takes_the_pot_and_the_burned_match_it(self) -> None:  # S3; DEF #36
        hands = ["2D 3D 4D 5D 6D", "AS KS QS JS TS", "2C 3C 4C 5C 6C", "7D 8D 9D TD JD", "2H 3H 4H 5H 6H"]
        g = stand_pat(all_fold_but(game(hands, "9S"), {1, 2}))
        while g.phase is Phase.PLAY:
            g.apply(g.legal_actions()[0])
        r = g.results[-1]
        assert r.winners == (1,) and r.burned == (2,) and r.payouts[1] == 5
        assert r.delta == (-1, 4, -6, -1, -1)
        assert g.pot == 5 and g.pot_units == 1 and not g.ante_due  # a burn round follows
        g.next_hand()
        assert g.pot == 5 and g.bankrolls == (-1, 4, -6, -1, -1)  # nobody antes (S3, DEF #64)

    @pytest.mark.parametrize(("options", "payouts", "pot"), [
        ({}, (4, 3), 0),  # equal; the 3-trick winner takes the odd chip (DEF #37, R27)
        ({"odd_chip": "carry"}, (3, 3), 1),
        ({"odd_chip": "first_left_of_dealer"}, (4, 3), 0),
        ({"split": "proportional"}, (4, 2), 1),  # floor(7*3/5), floor(7*2/5) (protocol 6.7)
    ])  # fmt: skip
    def test_two_winners_split(self, options: dict[str, Any], payouts: tuple[int, int], pot: int) -> None:
        g = stand_pat(all_fold_but(game(TOP, "9S", pot=2, pot_units=1, options=options), {1, 2}))
        run(g, *SPLIT_PLAY)
        r = g.results[-1]
        assert r.tricks_won[1:3] == (3, 2) and r.winners == (1, 2) and r.burned == ()
        assert (r.payouts[1], r.payouts[2]) == payouts
        assert g.pot == pot and g.pot_units == 0 and g.ante_due

    def test_two_two_one(self) -> None:  # DEF #37, #63
        g = stand_pat(all_fold_but(game(TWO_TWO_ONE, "9S"), {1, 2, 3}))
        run(g, *TWO_TWO_ONE_PLAY)
        r = g.results[-1]
        assert r.tricks_won == (0, 2, 2, 1, 0) and r.payouts == (0, 2, 2, 0, 0)
        assert r.burned == (3,) and g.pot == 1 + 5 and g.pot_units == 1

    def test_pot_limit_caps_the_burn(self) -> None:  # DEF #57
        g = stand_pat(all_fold_but(game(TWO_TWO_ONE, "9S", options={"pot_limit": 3}), {1, 2, 3}))
        run(g, *TWO_TWO_ONE_PLAY)
        assert g.results[-1].delta[3] == -1 - 3 and g.pot == 1 + 3

    def test_no_winners(self) -> None:  # S3 "No Winners"; DEF #39, #63
        g = stand_pat(all_fold_but(game(ONE_EACH, "AS"), {0, 1, 2, 3, 4}))
        run(g, *ONE_EACH_PLAY)
        r = g.results[-1]
        assert r.tricks_won == (1,) * 5 and r.winners == () and r.burned == (0, 1, 2, 3, 4)
        assert g.pot == 5 + 5 * 5 and g.pot_units == 1 + 5  # the unwon pot carries, plus five matches
        assert g.bankrolls == (-6,) * 5

    def test_follow_suit_in_play(self) -> None:  # S3
        g = stand_pat(all_fold_but(game(TOP, "9S"), {1, 2}))
        run(g, "1 play 2C")
        before = g.to_dict()
        with pytest.raises(IllegalAction, match="must follow"):
            g.apply("2 play QH")
        assert g.to_dict() == before


class TestOptionsAndPersistence:
    def test_options(self) -> None:
        with pytest.raises(OptionsError, match="at least 1"):
            BuckEmOptions(ante=0)
        with pytest.raises(OptionsError, match="at least 1"):
            BuckEmOptions(pot_limit=0)
        with pytest.raises(UnsupportedOption):
            BuckEmOptions.from_dict({"split": "winner_takes_all"})
        with pytest.raises(OptionsError):
            BuckEmOptions.from_dict({"scare_cards": 1})

    def test_json_copy(self) -> None:
        g = BuckEmGame(7, seed=4, options={"scare_cards": True, "deuce_swap": True})
        rng = random.Random(2)
        for _ in range(60):
            if g.phase is Phase.HAND_OVER:
                g.next_hand()
            g.apply(rng.choice(g.legal_actions()))
        assert BuckEmGame.from_json(g.to_json()) == g
        c = g.copy()
        if c.legal_actions():
            c.apply(c.legal_actions()[0])
            assert c != g


options_st = st.fixed_dictionaries({
    "ante": st.integers(1, 3),
    "short_handed": st.booleans(),
    "scare_cards": st.booleans(),
    "deuce_swap": st.booleans(),
    "simultaneous_declare": st.booleans(),
    "pot_limit": st.none() | st.integers(1, 12),
    "odd_chip": st.sampled_from(["buckup", "carry", "first_left_of_dealer"]),
    "split": st.sampled_from(["equal", "proportional"]),
    "rake_hand": st.sampled_from(["as_dealt", "after_swap"]),
    "after_void_round_ante": st.booleans(),
})  # fmt: skip


@settings(max_examples=examples(120), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(5, 8), st.integers(0, 2**32), options_st, st.booleans())
def test_random_sessions_conserve_chips(n: int, seed: int, opts: dict[str, Any], removed: bool) -> None:
    if opts["short_handed"] and removed and n in (5, 6):
        opts = {**opts, "short_handed_trump": "removed_card"}
    g = BuckEmGame(n, seed=seed, options=opts, bankrolls=[10] * n)
    total = sum(g.bankrolls) + g.pot
    rng = random.Random(seed)
    for _ in range(8):
        while g.phase is not Phase.HAND_OVER:
            up = g.upcard
            g.apply(rng.choice(g.legal_actions()))
            assert sum(g.bankrolls) + g.pot == total  # chips are conserved
            zones = g.card_zones()
            cards = [c for z in zones.values() for c in z]
            assert len(cards) == len(set(cards)) == len(g._pack)
            if g.upcard == up and up in g._pack:
                assert all(up not in g.hand(s) for s in range(n))  # only a swap brings it into a hand
        r = g.results[-1]
        assert len(r.winners) <= 2
        if not r.winners and r.tricks:
            assert len(r.stayers) >= 5
        if r.tricks:
            assert sum(r.tricks_won) == 5
        if rng.random() < 0.3:
            assert BuckEmGame.from_json(g.to_json()) == g
        g.next_hand()
    assert not g.is_over


def test_upcard_is_never_drawn() -> None:  # DEF #51
    g = BuckEmGame(8, seed=9)
    up = g.upcard
    all_fold_but(g, set(range(8)))
    while g.phase is Phase.DRAW:
        g.apply(Draw(g.to_act, tuple(sorted(g.hand(g.to_act))[:3])))  # type: ignore[arg-type]
    assert all(up not in g.hand(s) for s in range(8))
    assert isinstance(up, Card) and up in CardSet(pack("buckem", 8))


def test_thousands_of_sessions_conserve_chips() -> None:
    """1,500 short sessions with random options (a quarter of them in quick runs); chips checked after
    every action."""
    rng = random.Random(2026)
    for i in range(examples(1500)):
        n = rng.randint(5, 8)
        opts: dict[str, Any] = {
            "ante": rng.randint(1, 3),
            "scare_cards": rng.random() < 0.4,
            "deuce_swap": rng.random() < 0.4,
            "pot_limit": rng.choice([None, 2, 9]),
            "split": rng.choice(["equal", "proportional"]),
            "odd_chip": rng.choice(["buckup", "carry", "first_left_of_dealer"]),
            "after_void_round_ante": rng.random() < 0.5,
        }
        g = BuckEmGame(n, seed=i, options=opts)
        total = sum(g.bankrolls) + g.pot
        for _ in range(3):
            while g.phase is not Phase.HAND_OVER:
                g.apply(rng.choice(g.legal_actions()))
                assert sum(g.bankrolls) + g.pot == total
            g.next_hand()
            assert sum(g.bankrolls) + g.pot == total
