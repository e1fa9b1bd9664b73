"""``observe`` cases that pin one field, ``dealer``, once a hand is scored: a view
describes one hand, so at ``hand_over`` and ``game_over`` its dealer is the
dealer of the hand just scored, not of the next one (which ``play`` reports in
its FINAL).  Each case's first citation is that rule, so a failure names it."""

from __future__ import annotations

from typing import Any

from hucklebuck.conformance.protocol import handle

from .observe_common import View, case_request, observe

HAND_OVER = "at hand_over the dealer is the scored hand's (0), not the next (1)"
ROUND_OVER = "at hand_over the dealer is the scored round's (0), not the next (1)"
GAME_OVER = "at game_over the dealer is the last hand's, though no hand follows"
RULE = "protocol: observe, dealer: once a hand is scored, the dealer of the hand just scored"


def _dealer_case(game: str, slug: str, title: str, req: dict[str, Any], seat: int | None, phase: str) -> None:
    req = {k: v for k, v in req.items() if k not in ("seat", "op")}
    played = handle(dict(req, op="play", id=0))
    assert played["ok"], played
    hands = played["result"]["hands"]
    scored = hands[-1]["dealer"]
    after = played["result"]["final"]["dealer"]

    def check(v: View) -> None:
        assert v["phase"] == phase and v["hand_number"] == len(hands)
        assert v["dealer"] == scored, (slug, v["dealer"], scored)
        assert phase == "game_over" or after != scored  # the next hand's dealer would differ

    observe(game, slug, title, [RULE], [], req, seat, check)


def build() -> None:
    """Add the dealer cases of each game."""
    hb = case_request("hucklebuck", "hucklebuck/observe/end-of-hand-nothing-turned-up")
    _dealer_case(
        "hucklebuck", "dealer-at-hand-over", HAND_OVER,
        hb, 3, "hand_over",
    )  # fmt: skip
    end = case_request("hucklebuck", "hucklebuck/observe/end-of-game-nothing-turned-up")
    _dealer_case(
        "hucklebuck", "dealer-at-game-over", GAME_OVER,
        end, None, "game_over",
    )  # fmt: skip
    bk = case_request("buckem", "buckem/observe/end-of-round-nothing-turned-up")
    _dealer_case(
        "buckem", "dealer-at-hand-over", ROUND_OVER,
        bk, 2, "hand_over",
    )  # fmt: skip
    dp = case_request("deerpark", "deerpark/observe/end-of-game-onlooker")
    _dealer_case(
        "deerpark", "dealer-at-game-over", GAME_OVER,
        dp, 1, "game_over",
    )  # fmt: skip
    two = case_request("deerpark", "deerpark/scoring/maker-set")
    _dealer_case(
        "deerpark", "dealer-at-hand-over", HAND_OVER,
        two, None, "hand_over",
    )  # fmt: skip
