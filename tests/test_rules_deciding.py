"""The deciding case of each rule: the boundary that separates two outcomes,
tested on both sides (a conformance case pins each one too, named under
``deciding`` and checked by the suite lint).

Each test names its source (S0, S2, S3, S4) or decision (DEF #n).
"""

from __future__ import annotations

import pytest
from hb_helpers import new_game, play_lowest, run
from test_buckem import SPLIT_PLAY, TOP, all_fold_but, stand_pat
from test_buckem import game as bk_game
from test_deerpark import game as dp_game
from test_deerpark import opts as dp_opts

from hucklebuck.games import HucklebuckGame, HucklebuckOptions, Phase
from hucklebuck.games.base import ScoreEvent

HB22 = ["AD KD QD JD AC", "AS KS 2C 3C 4C", "AH KH QH JH TH"]
SUITED = ["AD KD QD JD TD", "AS KS QS JS TS", "AH KH QH JH TH"]
# Seat 1 bids 2 in spades and makes it with 2 tricks; seat 2 drops; seat 0 takes 3.
MADE = [
    "1 bid 2", "2 pass", "0 pass", "1 trump S", "2 drop", "0 stay 0", "1 stay 0",
    "1 play AS", "0 play JD", "1 play KS", "0 play QD", "1 play 2C", "0 play AC",
    "0 play AD", "1 play 3C", "0 play KD", "1 play 4C",
]  # fmt: skip
# Seat 1 bids 3 in spades and takes 2 (set); seat 0 takes 3; seat 2 stays and takes none.
SET = [
    "1 bid 3", "2 pass", "0 pass", "1 trump S", "2 stay 0", "0 stay 0", "1 stay 0",
    "1 play AS", "2 play TH", "0 play JD", "1 play KS", "2 play JH", "0 play QD",
    "1 play 2C", "2 play QH", "0 play AC", "0 play AD", "1 play 3C", "2 play KH",
    "0 play KD", "1 play 4C", "2 play AH",
]  # fmt: skip


def hb_opts(**kw: object) -> HucklebuckOptions:
    return HucklebuckOptions.from_dict(kw)


def made(scores: list[int], **kw: object) -> HucklebuckGame:
    return run(new_game(HB22, scores=scores, **kw), *MADE)  # type: ignore[arg-type]


# ------------------------------------------------- Hucklebuck: the target (DEF #17, #34)
class TestBidderFirst:
    """``tie_break=bidder_first`` (DEF #17 variant): the bidder wins if at the target; otherwise a
    lone player at the target wins, and several play on."""

    def test_lone_non_bidder_at_the_target_wins(self) -> None:
        g = made([12, 0, 0], options=hb_opts(tie_break="bidder_first"))
        assert g.scores == (15, 2, 0)  # seat 0 reaches exactly 15 (DEF #34); the bidder is at 2
        assert g.is_over and g.winners == (0,)

    def test_two_non_bidders_at_the_target_play_on(self) -> None:
        g = made([13, 0, 15], options=hb_opts(tie_break="bidder_first"))
        assert g.scores == (16, 2, 15)
        assert not g.is_over and g.phase is Phase.HAND_OVER and g.winners == ()
        # the default (highest score) ends the same hand for seat 0
        g = made([13, 0, 15])
        assert g.is_over and g.winners == (0,)

    def test_bidder_at_the_target_beats_a_higher_score(self) -> None:
        g = made([17, 13, 0], options=hb_opts(tie_break="bidder_first"))
        assert g.scores == (20, 15, 0) and g.winners == (1,)


# ------------------------------------------------- Hucklebuck: everyone out (DEF #16)
class TestEveryoneOut:
    def test_everyone_out_in_a_played_hand_highest_score_wins(self) -> None:
        g = run(new_game(HB22, scores=[-40, -40, -40]), *SET)
        assert g.results[-1].delta == (3, -5, -5)
        assert g.scores == (-37, -45, -45) and g.out == (0, 1, 2)
        assert g.is_over and g.winners == (0,)

    def test_everyone_out_after_an_all_pass_highest_score_wins_not_the_dealer(self) -> None:
        g = run(new_game(SUITED, scores=[-35, -26, -28]), "1 pass", "2 pass", "0 pass")
        assert g.scores == (-30, -26, -28) and g.out == (0, 1, 2)
        assert g.winners == (1,)  # the highest score, not the dealer who scored

    def test_one_left_wins_and_nobody_left_is_a_different_ending(self) -> None:
        g = run(new_game(SUITED, scores=[-35, -10, -28]), "1 pass", "2 pass", "0 pass")
        assert g.out == (0, 2) and g.winners == (1,)
        assert g.events[-1].reason == "last player not out"  # type: ignore[union-attr]


# ------------------------------------- Hucklebuck: in_the_hole_reset_applies_to (DEF #13)
class TestInTheHoleAnyBid:
    @pytest.mark.parametrize(
        ("prior", "delta", "after"),
        [(-1, 1, 0), (0, 2, 2), (1, 2, 3)],  # only a score below 0 is "in the hole"
    )
    def test_any_bid_reset_boundary_at_zero(self, prior: int, delta: int, after: int) -> None:
        g = made([0, prior, 0], options=hb_opts(in_the_hole_reset_applies_to="any_bid"))
        assert g.results[-1].tricks_won[1] == 2
        assert g.results[-1].delta[1] == delta and g.scores[1] == after

    def test_reasons_of_the_two_outcomes(self) -> None:
        g = made([0, -7, 0], options=hb_opts(in_the_hole_reset_applies_to="any_bid"))
        assert g.results[-1].reasons[1] == (
            "made the bid of 2 from the hole: back to 0 (in_the_hole_reset_applies_to=any_bid, DEF #13)"
        )
        g = made([0, 0, 0], options=hb_opts(in_the_hole_reset_applies_to="any_bid"))
        assert g.results[-1].reasons[1] == "made the bid of 2 with 2 tricks: +2 (S0, DEF #9)"


# ------------------------------------------------ Deer Park: lock_permanent (DEF #75)
# Hand 1 (dealer 0): everyone passes, seat 1 calls hearts and takes all five; seats 0, 2 +5.
DPB = ["AD KD QD TD AC", "JD AH KH JH TH", "KS QS JS TS QH"]
B_ALL = [
    "1 pass", "2 pass", "0 pass", "1 call H", "1 play JD", "2 play QH", "0 play TD",
    "1 play TH", "2 play TS", "0 play QD", "1 play JH", "2 play QS", "0 play KD",
    "1 play KH", "2 play KS", "0 play AD", "1 play AH", "2 play JS", "0 play AC",
]  # fmt: skip
# Hand 2 (dealer 1): seat 1 orders up the TS; seat 0 takes one trick.
DP2 = ["TC QC TD KS AS", "KC JD QD JS QS", "AC AD TH JH AH"]
DP2_PLAY = [
    "2 pass", "0 pass", "1 order", "1 discard QD", "2 play AH", "0 play KS", "1 play JS",
    "1 play TS", "2 play JH", "0 play AS", "0 play TD", "1 play JD", "2 play AD",
    "2 play TH", "0 play TC", "1 play KC", "2 play AC", "0 play QC", "1 play QS",
]  # fmt: skip


class TestLockPermanent:
    def _two_hands(self, permanent: bool, start: int) -> tuple[int, int, bool]:
        from test_deerpark import dp_deal

        g = dp_game(DPB, "AS", scores=[start, 30, 20], options=dp_opts(lock_permanent=permanent))
        run(g, *B_ALL)
        first = g.scores[0]
        g.next_hand(dp_deal(DP2, "TS"))
        run(g, *DP2_PLAY)
        assert g.results[-1].tricks_won[0] == 1
        return first, g.scores[0], g.locked(0)

    def test_reached_in_play_at_exactly_lock_at_stays_locked(self) -> None:
        assert self._two_hands(True, 40) == (45, 44, True)

    def test_one_below_lock_at_never_locks(self) -> None:
        assert self._two_hands(True, 39) == (44, 43, False)

    def test_default_lock_lifts(self) -> None:
        assert self._two_hands(False, 40) == (45, 44, False)


# ------------------------------------------------- Deer Park: the goals (DEF #73)
@pytest.mark.parametrize(("start", "over"), [(5, True), (6, False), (4, True)])
def test_deerpark_goal_at_exactly_zero(start: int, over: bool) -> None:
    g = run(dp_game(DPB, "AS", scores=[20, start, 20]), *B_ALL)  # the maker, seat 1, takes all five
    assert g.scores == (25, start - 5, 25)
    assert g.is_over is over and g.winners == ((1,) if over else ())


@pytest.mark.parametrize(("start", "over"), [(45, True), (44, False)])
def test_deerpark_goal_at_exactly_fifty(start: int, over: bool) -> None:
    g = run(dp_game(DPB, "AS", scores=[start, 30, 20]), *B_ALL)  # seat 0 defends and takes none: +5
    assert g.scores[0] == start + 5 and g.is_over is over and g.winners == ((0,) if over else ())


# --------------------------------------------------- Buck 'Em: the odd chip (DEF #37)
class TestOddChip:
    @pytest.mark.parametrize(
        ("pot", "payouts", "left"),
        [
            (4, (2, 2), 0),  # even pots split evenly, whatever the trick counts
            (6, (3, 3), 0),
            (8, (4, 4), 0),
            (10, (5, 5), 0),
            (7, (4, 3), 0),  # odd: the 3-trick winner takes the odd chip (buckup)
            (9, (5, 4), 0),
        ],
    )
    def test_even_and_odd_pots_three_two(self, pot: int, payouts: tuple[int, int], left: int) -> None:
        g = bk_game(TOP, "9S", pot=pot, pot_units=1, ante_due=False)
        stand_pat(all_fold_but(g, {1, 2}))
        run(g, *SPLIT_PLAY)
        r = g.results[-1]
        assert r.tricks_won[1:3] == (3, 2)
        assert (r.payouts[1], r.payouts[2]) == payouts and sum(r.payouts) == pot
        assert g.pot == left and g.pot_units == 0 and g.ante_due

    @pytest.mark.parametrize("pot", [4, 8, 10])
    def test_even_pot_carry_variant_leaves_nothing(self, pot: int) -> None:
        g = bk_game(TOP, "9S", pot=pot, pot_units=1, ante_due=False, options={"odd_chip": "carry"})
        stand_pat(all_fold_but(g, {1, 2}))
        run(g, *SPLIT_PLAY)
        assert g.results[-1].payouts[1:3] == (pot // 2, pot // 2) and g.pot == 0


# --------------------------------------------- Buck 'Em: a one-chip rake leftover (DEF #46)
class TestRakeLeftover:
    def test_one_chip_left_counts_as_a_single_pot_and_no_ante(self) -> None:
        g = all_fold_but(bk_game(TOP, "9S", pot=2, pot_units=2, ante_due=False), {1})
        r = g.results[-1]
        assert r.raked == 1 and r.payouts == (0, 1, 0, 0, 0)  # half of a double pot of 2 (DEF #45)
        assert (r.pot, r.pot_units, r.ante_due) == (1, 1, False)
        assert (g.pot, g.pot_units, g.ante_due) == (1, 1, False)
        assert r.reasons == ("",)
        rake = [e for e in g.events if isinstance(e, ScoreEvent)]
        assert rake == [ScoreEvent(1, 1, 1, "rakes 1, half of a double pot (S3, DEF #41-#46)")]
        g.next_hand()
        assert g.pot == 1 and g.bankrolls == (0, 1, 0, 0, 0)  # nobody antes (S3)

    def test_emptied_pot_means_an_ante(self) -> None:
        g = all_fold_but(bk_game(TOP, "9S", pot=1, pot_units=1, ante_due=False), {1})
        r = g.results[-1]
        assert r.payouts == (0, 1, 0, 0, 0) and (r.pot, r.pot_units, r.ante_due) == (0, 0, True)
        rake = [e for e in g.events if isinstance(e, ScoreEvent)]
        assert rake == [ScoreEvent(1, 1, 1, "rakes 1, all of a single pot (S3, DEF #41-#46)")]

    def test_an_empty_pot_after_a_void_round_has_no_units(self) -> None:  # DEF #41
        g = all_fold_but(bk_game(TOP, "9S", pot=0, pot_units=2, ante_due=False), set())
        assert (g.pot, g.pot_units, g.ante_due) == (0, 0, True)

    @pytest.mark.parametrize(("pot", "take"), [(7, 4), (6, 3), (2, 1)])
    def test_rake_rounding_ceil(self, pot: int, take: int) -> None:  # DEF #45 variant
        g = bk_game(TOP, "9S", pot=pot, pot_units=2, ante_due=False, options={"rake_rounding": "ceil"})
        r = all_fold_but(g, {1}).results[-1]
        assert r.payouts == (0, take, 0, 0, 0) and r.pot == pot - take

    def test_one_chip_carried_by_a_void_round_keeps_its_unit(self) -> None:
        g = all_fold_but(bk_game(TOP, "9S", pot=1, pot_units=1, ante_due=False), set())
        assert (g.pot, g.pot_units, g.ante_due) == (1, 1, True)


@pytest.mark.parametrize("dealer", [0, 3, 4])
@pytest.mark.parametrize("stayers", [set(), {1}, {1, 2}])
def test_buckem_deal_passes_one_seat_clockwise(dealer: int, stayers: set[int]) -> None:  # S3
    g = stand_pat(all_fold_but(bk_game(TOP, "9S", dealer=dealer), stayers))
    while g.to_act is not None:
        g.apply(g.legal_actions()[0])
    assert g.results[-1].dealer == dealer and g.dealer == (dealer + 1) % 5


# ------------------------------------------- results of hands with no play: tricks_won
class TestNoPlayResults:
    def test_hucklebuck_all_pass_and_lone_bidder(self) -> None:
        g = run(new_game(SUITED), "1 pass", "2 pass", "0 pass")
        r = g.results[-1]
        assert r.tricks_won == (0, 0, 0) and r.tricks == () and r.active == ()
        g = run(new_game(SUITED), "1 bid 2", "2 pass", "0 pass", "1 trump S", "2 drop", "0 drop")
        r = g.results[-1]
        assert r.tricks_won == (0, 0, 0) and r.tricks == () and r.delta == (0, 5, 0)

    def test_buckem_void_and_raked_rounds(self) -> None:
        for stayers in (set(), {1}):
            g = all_fold_but(bk_game(TOP, "9S"), stayers)
            r = g.results[-1]
            assert r.tricks_won == (0,) * 5 and r.tricks == ()

    def test_hucklebuck_moon_from_zero_keeps_a_zero_delta_score_event(self) -> None:  # DEF #12
        g = run(new_game(SUITED), "1 bid 5", "1 trump S", "2 stay 0", "0 stay 0", "1 stay 0")
        play_lowest(g)
        scores = [e for e in g.events if isinstance(e, ScoreEvent)]
        assert ScoreEvent(1, 1, 0, "shot the moon from zero or below: back to 0 (S0, S2, DEF #12)") in scores
        assert g.results[-1].delta == (-5, 0, -5)
