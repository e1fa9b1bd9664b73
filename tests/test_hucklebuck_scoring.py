"""Hucklebuck rules at the end of a hand: scoring (a set, a made bid, the moon, the hole) and the
game's end (out at -25, the target, ties), split from ``test_hucklebuck.py``.

Every test runs against both cores (conftest.py).  Each names its source (S0,
S2) or decision (DEF #n).
"""

from __future__ import annotations

import pytest
from hb_helpers import HB22, SUITED, moon_game, new_game, opts, play_lowest, run

from hucklebuck import CardSet
from hucklebuck.games import HucklebuckGame, Phase
from hucklebuck.games.base import ScoreEvent


# ------------------------------------------------------------------------ scoring
def hb22(scores: list[int] | None = None, **kw: object) -> HucklebuckGame:
    """Seat 1 bids 3 with spades trump and takes 2; seat 0 takes 3; seat 2 none."""
    g = new_game(HB22, scores=scores or [0, 4, 0], **kw)  # type: ignore[arg-type]
    run(
        g,
        "1 bid 3",
        "2 pass",
        "0 pass",
        "1 trump S",
        "2 stay 0",
        "0 stay 0",
        "1 stay 0",
        "1 play AS",
        "2 play TH",
        "0 play JD",
        "1 play KS",
        "2 play JH",
        "0 play QD",
        "1 play 2C",
        "2 play QH",
        "0 play AC",
        "0 play AD",
        "1 play 3C",
        "2 play KH",
        "0 play KD",
        "1 play 4C",
        "2 play AH",
    )
    return g


class TestScoring:
    def test_set_bidder_loses_five_flat(self) -> None:  # S0, S2; DEF #7 (HB-22)
        g = hb22()
        r = g.results[-1]
        assert r.tricks_won == (3, 2, 0)
        assert r.delta == (3, -5, -5)  # bidder -5 flat; stayer +3; stayer with none -5
        assert g.scores == (3, -1, -5)

    def test_reasons_are_logged(self) -> None:
        g = hb22()
        reasons = {e.seat: e.reason for e in g.events if isinstance(e, ScoreEvent)}
        assert "set" in reasons[1] and "DEF #7" in reasons[1]
        assert "no trick" in reasons[2]

    def test_bidder_scores_every_trick_taken(self) -> None:  # DEF #9
        g = new_game(SUITED)
        run(g, "1 bid 2", "2 pass", "0 pass", "1 trump S", "2 stay 0", "0 stay 0", "1 stay 0")
        play_lowest(g)
        assert g.results[-1].delta == (-5, 5, -5)  # five tricks, not a moon: +5 (DEF #11)
        assert not g.is_over

    def test_bidder_with_no_trick_loses_five(self) -> None:  # DEF #8
        g = new_game(["AS KS QS JS TS", "2C 3C 4C 5C 6C", "AH KH QH JH TH"])
        run(g, "1 bid 2", "2 pass", "0 pass", "1 trump H", "2 stay 0", "0 stay 0", "1 stay 0")
        play_lowest(g)
        assert g.results[-1].tricks_won[1] == 0
        assert g.results[-1].delta[1] == -5

    def test_variant_penalty_stacks(self) -> None:  # DEF #8, #14 variant; protocol 6.7
        g = new_game(
            ["AS KS QS JS TS", "2C 3C 4C 5C 6C", "AH KH QH JH TH"],
            options=opts(bidder_zero_trick_penalty_stacks=True),
        )
        run(g, "1 bid 2", "2 pass", "0 pass", "1 trump H", "2 stay 0", "0 stay 0", "1 stay 0")
        play_lowest(g)
        assert g.results[-1].delta[1] == -10
        g = new_game(
            ["AS KS QS JS TS", "2C 3C 4C 5C 6C", "AH KH QH JH TH"],
            options=opts(bidder_zero_trick_penalty_stacks=True),
        )
        run(g, "1 bid 5", "1 trump H", "2 stay 0", "0 stay 0", "1 stay 0")
        play_lowest(g)
        assert g.results[-1].delta[1] == -20

    def test_moon_from_positive_score_wins(self) -> None:  # S0, S2; DEF #15
        g = moon_game([0, 3, 12])
        assert g.is_over and g.winners == (1,)
        assert g.scores == (-5, 8, 7)  # the others' hand scores still count

    def test_moon_from_the_hole_resets_to_zero(self) -> None:  # S0, S2; DEF #12
        g = moon_game([0, -12, 0])
        assert not g.is_over and g.scores[1] == 0

    @pytest.mark.parametrize(
        ("variant", "over", "score"),
        [("reset_to_zero", False, 0), ("win", True, 5), ("score_normally", False, 5)],
    )
    def test_moon_from_exactly_zero(self, variant: str, over: bool, score: int) -> None:  # DEF #12
        g = moon_game([0, 0, 0], options=opts(moon_at_zero=variant))
        assert g.is_over is over and g.scores[1] == score

    def test_missed_moon_loses_fifteen(self) -> None:  # S0, S2; DEF #14
        g = new_game(HB22, scores=[0, 4, 0])
        run(g, "1 bid 5", "1 trump S", "2 stay 0", "0 stay 0", "1 stay 0")
        play_lowest(g)
        assert g.results[-1].delta[1] == -15

    def test_in_the_hole_reset_only_for_the_moon_by_default(self) -> None:  # DEF #13
        g = hb22_made([0, -7, 0])
        assert g.results[-1].tricks_won[1] == 2 and g.results[-1].delta[1] == 2

    def test_variant_in_the_hole_reset_any_bid(self) -> None:  # DEF #13 variant
        g = hb22_made([0, -7, 0], options=opts(in_the_hole_reset_applies_to="any_bid"))
        assert g.scores[1] == 0


def hb22_made(scores: list[int], **kw: object) -> HucklebuckGame:
    """Seat 1 bids 2 (spades) and makes it with 2 tricks; seat 2 drops; seat 0 takes 3."""
    g = new_game(HB22, scores=scores, **kw)  # type: ignore[arg-type]
    run(
        g,
        "1 bid 2",
        "2 pass",
        "0 pass",
        "1 trump S",
        "2 drop",
        "0 stay 0",
        "1 stay 0",
        "1 play AS",
        "0 play JD",
        "1 play KS",
        "0 play QD",
        "1 play 2C",
        "0 play AC",
        "0 play AD",
        "1 play 3C",
        "0 play KD",
        "1 play 4C",
    )
    if g.phase is Phase.PLAY:
        play_lowest(g)
    return g


# ------------------------------------------------------------------ out, game end
class TestGameEnd:
    def test_out_at_minus_25_inclusive_and_skipped(self) -> None:  # S0, S2; DEF #16, #31
        g = hb22(scores=[0, -20, 0])
        assert g.scores[1] == -25 and g.out == (1,)
        assert g.dealer == 2  # next dealer
        g.next_hand()
        assert g.hand(1) == CardSet.parse("")  # an out seat gets no cards
        assert g.to_act == 0  # eldest skips nobody here; the auction skips seat 1
        run(g, "0 pass")
        assert g.to_act == 2

    def test_dealer_rotation_skips_out_players(self) -> None:  # DEF #31
        g = HucklebuckGame(4, seed=3, dealer=0, out=[1], scores=[0, -30, 0, 0])
        run(g, "2 pass", "3 pass", "0 pass")
        assert g.dealer == 2

    def test_sole_survivor_wins(self) -> None:  # DEF #16
        g = hb22(scores=[0, -20, -21])
        assert g.out == (1, 2) and g.is_over and g.winners == (0,)

    def test_target_reached_exactly_wins(self) -> None:  # S0, S2; DEF #34
        g = hb22(scores=[12, 4, 0])
        assert g.scores[0] == 15 and g.is_over and g.winners == (0,)

    def test_variant_target_11(self) -> None:  # DEF #20
        g = hb22(scores=[8, 4, 0], options=opts(target=11))
        assert g.is_over and g.winners == (0,)
        assert not hb22(scores=[8, 4, 0]).is_over

    def test_tie_break_highest_then_bidder(self) -> None:  # DEF #17
        g = all_pass_tie([10, 15, 12])  # dealer +5 reaches 15, tied with seat 1
        assert not g.is_over  # no bidder in an all-pass hand: play on
        g = hb22(scores=[12, 4, 15])  # seat 0 to 15, seat 2 falls to 10
        assert g.winners == (0,)

    def test_bidder_wins_a_tie(self) -> None:  # DEF #17
        g = hb22_made([12, 13, 0])
        assert g.is_over and g.scores[1] == 15 and g.winners == (1,)

    def test_variant_bidder_first(self) -> None:  # DEF #17 variant (R36), protocol 6.7
        g = hb22_made([17, 13, 0], options=opts(tie_break="bidder_first"))
        assert g.winners == (1,)  # the bidder at the target wins although 0 is higher
        g = hb22_made([17, 13, 0])
        assert g.winners == (0,)

    def test_variant_shared(self) -> None:  # DEF #17 variant
        g = all_pass_tie([10, 15, 12], options=opts(tie_break="shared"))
        assert g.is_over and g.winners == (0, 1)


def all_pass_tie(scores: list[int], **kw: object) -> HucklebuckGame:
    g = new_game(SUITED, scores=scores, **kw)  # type: ignore[arg-type]
    return run(g, "1 pass", "2 pass", "0 pass")
