"""The whole event stream of one hand of each kind, per game and per ending:
the deal, every action, every trick, every score change with its reason, the
end of the hand and the end of the game.

Each stream names its source (S0, S2, S3, S4) or decision (DEF #n).
"""

from __future__ import annotations

from typing import Any

from hb_helpers import new_game, play_lowest, run
from test_buckem import SPLIT_PLAY, TOP, all_fold_but, stand_pat
from test_buckem import game as bk_game
from test_deerpark import game as dp_game
from test_rules_deciding import B_ALL, DPB, HB22, SET, SUITED

from hucklebuck import pack, parse_cards
from hucklebuck.games.base import DealEvent
from hucklebuck.games.engine import TrickGame


def stream(g: TrickGame[Any, Any], hands: list[str], game: str) -> list[str]:
    """The events of the game's only hand, after checking the deal event against ``hands``."""
    deal, *rest = g.events
    assert isinstance(deal, DealEvent) and deal.hand == 1 and deal.dealer == 0
    assert deal.hands == tuple(tuple(parse_cards(h)) for h in hands)
    full = pack(game, len(hands))
    dealt = {c for h in deal.hands for c in h}
    assert set(deal.stock) | dealt == set(full) and not set(deal.stock) & dealt
    out = []
    for e in rest:
        d = e.to_dict()
        assert d.pop("hand") == 1
        kind = d.pop("event")
        if kind == "action":
            out.append(d["action"])
        elif kind == "trick":
            out.append(f"trick {d['number']}: {d['leader']} leads {' '.join(d['cards'])}, {d['winner']} wins")
        elif kind == "score":
            out.append(f"score {d['seat']} {d['delta']:+d}: {d['reason']}")
        elif kind == "hand_over":
            out.append(f"hand over {d['scores']} out {d['out']}")
        else:
            assert kind == "game_over"
            out.append(f"game over {d['winners']}: {d['reason']}")
    return out


NO_TRICK = "stayed and took no trick: -5 (S0, S2, DEF #10)"
MOON_PLAY = [
    "1 play TS", "2 play TH", "0 play TD", "trick 1: 1 leads TS TH TD, 1 wins",
    "1 play JS", "2 play JH", "0 play JD", "trick 2: 1 leads JS JH JD, 1 wins",
    "1 play QS", "2 play QH", "0 play QD", "trick 3: 1 leads QS QH QD, 1 wins",
    "1 play KS", "2 play KH", "0 play KD", "trick 4: 1 leads KS KH KD, 1 wins",
    "1 play AS", "2 play AH", "0 play AD", "trick 5: 1 leads AS AH AD, 1 wins",
]  # fmt: skip
MOON_BID = ["1 bid 5", "1 trump S", "2 stay 0", "0 stay 0", "1 stay 0"]


class TestHucklebuck:
    def test_all_pass(self) -> None:  # S0; DEF #4
        g = run(new_game(SUITED), "1 pass", "2 pass", "0 pass")
        assert stream(g, SUITED, "hucklebuck") == [
            "1 pass", "2 pass", "0 pass",
            "score 0 +5: everyone passed: the dealer scores 5 without play (S0, DEF #4)",
            "hand over [5, 0, 0] out []",
        ]  # fmt: skip

    def test_lone_bidder(self) -> None:  # S2; DEF #5, #6
        g = run(new_game(SUITED), "1 bid 2", "2 pass", "0 pass", "1 trump S", "2 drop", "0 drop")
        assert stream(g, SUITED, "hucklebuck") == [
            "1 bid 2", "2 pass", "0 pass", "1 trump S", "2 drop", "0 drop",
            "score 1 +5: everyone else dropped: the bidder scores 5 without play (S2, DEF #5, #6)",
            "hand over [0, 5, 0] out []",
        ]  # fmt: skip

    def test_played_hand_with_a_set_bidder(self) -> None:  # S0, S2; DEF #7, #8, #10
        g = run(new_game(HB22, scores=[0, 4, 0]), *SET)
        assert stream(g, HB22, "hucklebuck") == [
            "1 bid 3", "2 pass", "0 pass", "1 trump S", "2 stay 0", "0 stay 0", "1 stay 0",
            "1 play AS", "2 play TH", "0 play JD", "trick 1: 1 leads AS TH JD, 1 wins",
            "1 play KS", "2 play JH", "0 play QD", "trick 2: 1 leads KS JH QD, 1 wins",
            "1 play 2C", "2 play QH", "0 play AC", "trick 3: 1 leads 2C QH AC, 0 wins",
            "0 play AD", "1 play 3C", "2 play KH", "trick 4: 0 leads AD 3C KH, 0 wins",
            "0 play KD", "1 play 4C", "2 play AH", "trick 5: 0 leads KD 4C AH, 0 wins",
            "score 0 +3: stayed and took 3 tricks: +3 (S0, S2)",
            "score 1 -5: set: bid 3, took 2: -5 (S0, S2, DEF #7, #8)",
            f"score 2 -5: {NO_TRICK}",
            "hand over [3, -1, -5] out []",
        ]  # fmt: skip

    def test_moon_from_zero_has_a_zero_score_event(self) -> None:  # S0, S2; DEF #12
        g = run(new_game(SUITED), *MOON_BID)
        play_lowest(g)
        assert stream(g, SUITED, "hucklebuck") == [
            *MOON_BID, *MOON_PLAY,
            f"score 0 -5: {NO_TRICK}",
            "score 1 +0: shot the moon from zero or below: back to 0 (S0, S2, DEF #12)",
            f"score 2 -5: {NO_TRICK}",
            "hand over [-5, 0, -5] out []",
        ]  # fmt: skip

    def test_moon_wins_the_game(self) -> None:  # S0, S2; DEF #15
        g = run(new_game(SUITED, scores=[0, 3, 12]), *MOON_BID)
        play_lowest(g)
        assert stream(g, SUITED, "hucklebuck") == [
            *MOON_BID, *MOON_PLAY,
            f"score 0 -5: {NO_TRICK}",
            "score 1 +5: shot the moon from a positive score: wins the game (S0, S2, DEF #15)",
            f"score 2 -5: {NO_TRICK}",
            "hand over [-5, 8, 7] out []",
            "game over [1]: moon",
        ]  # fmt: skip

    def test_target_and_everyone_out_endings(self) -> None:  # S0, S2; DEF #16, #34
        award = "score 0 +5: everyone passed: the dealer scores 5 without play (S0, DEF #4)"
        g = run(new_game(SUITED, scores=[10, 0, 0]), "1 pass", "2 pass", "0 pass")
        assert stream(g, SUITED, "hucklebuck") == [
            "1 pass", "2 pass", "0 pass", award, "hand over [15, 0, 0] out []", "game over [0]: target",
        ]  # fmt: skip
        g = run(new_game(SUITED, scores=[-35, -26, -28]), "1 pass", "2 pass", "0 pass")
        assert stream(g, SUITED, "hucklebuck") == [
            "1 pass", "2 pass", "0 pass", award,
            "hand over [-30, -26, -28] out [0, 1, 2]",
            "game over [1]: everyone out: highest score",
        ]  # fmt: skip
        g = run(new_game(SUITED, scores=[-35, -10, -28]), "1 pass", "2 pass", "0 pass")
        assert stream(g, SUITED, "hucklebuck") == [
            "1 pass", "2 pass", "0 pass", award,
            "hand over [-30, -10, -28] out [0, 2]",
            "game over [1]: last player not out",
        ]  # fmt: skip


ANTES = [f"score {s} -1: ante 1 (S3, DEF #35)" for s in range(5)]
FOLDS = ["2 fold", "3 fold", "4 fold", "0 fold"]


class TestBuckEm:
    def test_nobody_stays(self) -> None:  # S3; DEF #48
        g = all_fold_but(bk_game(TOP, "9S"), set())
        assert stream(g, TOP, "buckem") == [
            *ANTES, "1 fold", *FOLDS,
            "score 0 +0: nobody stayed: the pot carries over (S3, DEF #48)",
            "hand over [-1, -1, -1, -1, -1] out []",
        ]  # fmt: skip
        r = g.results[-1]
        assert r.reasons == ("nobody stayed: the pot carries over (S3, DEF #48)",)
        assert r.raked is None and r.winners == () and r.burned == () and r.payouts == (0,) * 5

    def test_lone_stayer_without_the_rake_cards(self) -> None:  # S3; DEF #43, #47
        hands = ["2D 3D 4D 5D 6D", "4S 3S 2C 3C 4C", "7D 8D 9D TD JD", "QD KD AD 7H 8H", "9H TH 5H 6H 7C"]
        g = all_fold_but(bk_game(hands, "9S"), {1})
        why = "stayed alone without the rake cards: no play, the pot carries (S3, DEF #47)"
        assert stream(g, hands, "buckem") == [
            *ANTES, "1 stay", *FOLDS, f"score 1 +0: {why}", "hand over [-1, -1, -1, -1, -1] out []",
        ]  # fmt: skip
        assert g.results[-1].reasons == (why,) and g.results[-1].stayers == (1,)

    def test_rake_of_a_single_pot(self) -> None:  # S3; DEF #41, #44
        g = all_fold_but(bk_game(TOP, "9S"), {1})
        assert stream(g, TOP, "buckem") == [
            *ANTES, "1 stay", *FOLDS,
            "score 1 +5: rakes 5, all of a single pot (S3, DEF #41-#46)",
            "hand over [-1, 4, -1, -1, -1] out []",
        ]  # fmt: skip

    def test_rake_of_half_a_double_pot(self) -> None:  # S3; DEF #41, #45, #46
        g = all_fold_but(bk_game(TOP, "9S", pot=7, pot_units=2, ante_due=False), {1})
        assert stream(g, TOP, "buckem") == [
            "1 stay", *FOLDS,
            "score 1 +3: rakes 3, half of a double pot (S3, DEF #41-#46)",
            "hand over [0, 3, 0, 0, 0] out []",
        ]  # fmt: skip

    def test_played_round_split(self) -> None:  # S3; DEF #37, #38
        g = stand_pat(all_fold_but(bk_game(TOP, "9S", pot=2, pot_units=1), {1, 2}))
        run(g, *SPLIT_PLAY)
        assert stream(g, TOP, "buckem") == [
            *ANTES, "1 stay", "2 stay", "3 fold", "4 fold", "0 fold", "1 draw", "2 draw",
            "1 play AS", "2 play TH", "trick 1: 1 leads AS TH, 1 wins",
            "1 play KS", "2 play JH", "trick 2: 1 leads KS JH, 1 wins",
            "1 play QS", "2 play QH", "trick 3: 1 leads QS QH, 1 wins",
            "1 play 2C", "2 play KC", "trick 4: 1 leads 2C KC, 2 wins",
            "2 play AC", "1 play 3C", "trick 5: 2 leads AC 3C, 2 wins",
            "score 1 +4: took 3 tricks: wins 4 (S3)",
            "score 2 +3: took 2 tricks: wins 3 (S3)",
            "hand over [-1, 3, 2, -1, -1] out []",
        ]  # fmt: skip

    def test_played_round_with_a_burn(self) -> None:  # S3; DEF #36
        solo = ["1 play AS", "2 play 2C", "1 play KS", "2 play 3C", "1 play QS", "2 play 4C",
                "1 play JS", "2 play 5C", "1 play TS", "2 play 6C"]  # fmt: skip
        hands = ["2D 3D 4D 5D 6D", "AS KS QS JS TS", "2C 3C 4C 5C 6C", "7D 8D 9D TD JD", "2H 3H 4H 5H 6H"]
        g = stand_pat(all_fold_but(bk_game(hands, "9S"), {1, 2}))
        run(g, *solo)
        s = stream(g, hands, "buckem")
        assert s[-3:] == [
            "score 1 +5: took 5 tricks: wins 5 (S3)",
            "score 2 -5: took 0 tricks: burned, pays 5 (S3, DEF #36)",
            "hand over [-1, 4, -6, -1, -1] out []",
        ]
        assert [x for x in s if x.startswith("trick")] == [
            f"trick {i + 1}: 1 leads {c} {d}, 1 wins"
            for i, (c, d) in enumerate(zip("AS KS QS JS TS".split(), "2C 3C 4C 5C 6C".split(), strict=True))
        ]


DP_PLAY = [
    "1 play JD", "2 play QH", "0 play TD", "trick 1: 1 leads JD QH TD, 1 wins",
    "1 play TH", "2 play TS", "0 play QD", "trick 2: 1 leads TH TS QD, 1 wins",
    "1 play JH", "2 play QS", "0 play KD", "trick 3: 1 leads JH QS KD, 1 wins",
    "1 play KH", "2 play KS", "0 play AD", "trick 4: 1 leads KH KS AD, 1 wins",
    "1 play AH", "2 play JS", "0 play AC", "trick 5: 1 leads AH JS AC, 1 wins",
]  # fmt: skip
DP_SCORES = [
    "score 0 +5: a defender needed 1 and took 0: +5 (S4, DEF #65)",
    "score 1 -5: the maker needed 3 and took 5: -5 (S4, DEF #65)",
    "score 2 +5: a defender needed 1 and took 0: +5 (S4, DEF #65)",
]


class TestDeerPark:
    def test_played_hand(self) -> None:  # S4; DEF #65, #66, #68
        g = run(dp_game(DPB, "AS"), *B_ALL)
        assert stream(g, DPB, "deerpark") == [
            "1 pass", "2 pass", "0 pass", "1 call H", *DP_PLAY, *DP_SCORES, "hand over [25, 15, 25] out []",
        ]  # fmt: skip

    def test_goal_reached(self) -> None:  # S4; DEF #73
        g = run(dp_game(DPB, "AS", scores=[45, 30, 20]), *B_ALL)
        assert stream(g, DPB, "deerpark") == [
            "1 pass", "2 pass", "0 pass", "1 call H", *DP_PLAY, *DP_SCORES,
            "hand over [50, 25, 25] out []", "game over [0]: goal reached",
        ]  # fmt: skip
        for start, end, winner, why in (
            ([47, 4, 20], [52, -1, 25], 0, "goal reached, farthest past it"),  # 2 past 50 against 1 past 0
            ([46, 4, 20], [51, -1, 25], 1, "goal reached, tie broken for the maker"),  # DEF #74
        ):
            g = run(dp_game(DPB, "AS", scores=start), *B_ALL)
            tail = [f"hand over {end} out []", f"game over [{winner}]: {why}"]
            assert stream(g, DPB, "deerpark")[-2:] == tail

    def test_maker_set_and_failed_contract_reason(self) -> None:  # S4; DEF #66
        # Seat 1 calls spades in round two and takes one trick; seat 2 takes four.
        spade = ["1 pass", "2 pass", "0 pass", "1 call S"]
        for variant, maker in (
            (False, "+5 (S4, DEF #66)"),
            (True, "+5 - 1 (failed_contract_tricks_count, DEF #66)"),
        ):
            g = run(dp_game(DPB, "AS", options={"failed_contract_tricks_count": variant}), *spade)
            while g.to_act is not None:
                g.apply(g.legal_actions()[0])
            r = g.results[-1]
            assert r.tricks_won == (0, 1, 4)
            assert r.reasons[1] == f"the maker needed 3 and took 1: {maker}"
            assert r.reasons[2] == "a defender needed 1 and took 4: -4 (S4, DEF #65)"
            assert r.delta == ((5, 4, -4) if variant else (5, 5, -4))
