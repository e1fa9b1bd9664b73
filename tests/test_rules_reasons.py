"""Every reason text each game can give, pinned word for word (issue 61), on both cores.

A result's reasons (a score event's ``reason``, a game-over event's ``reason``) are
what players read in the terminal and at the browser table; the protocol does not
carry them, so the conformance suite cannot notice a changed word.  Each text is
pinned here once, on the bundled conformance case that produces it (replayed with
the library, so the events are seen), and three checks keep the list whole:

* every string a rule module builds a reason from appears in a pinned text;
* every game-over reason a rule module returns is pinned;
* every reason any bundled case produces has the shape of a pinned one.

The missed-moon texts (DEF #14), the one-trick burn (DEF #36) and their neighbours
have tests of their own below.
"""

from __future__ import annotations

import ast
import copy
import json
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from hucklebuck.games import BuckEmGame, DeerParkGame, HucklebuckGame
from hucklebuck.games.base import GameOverEvent, ScoreEvent
from hucklebuck.games.engine import TrickGame

ROOT = Path(__file__).resolve().parents[1]
GAMES: dict[str, type[TrickGame[Any, Any]]] = {
    "hucklebuck": HucklebuckGame,
    "buckem": BuckEmGame,
    "deerpark": DeerParkGame,
}
#: The modules that write reasons (scores, awards, antes, void rounds, game ends).
RULE_MODULES = (
    "hucklebuck/games/_hucklebuck_scoring.py",
    "hucklebuck/games/_hucklebuck_bidding.py",
    "hucklebuck/games/_buckem_settle.py",
    "hucklebuck/games/_buckem_deal.py",
    "hucklebuck/games/buckem.py",
    "hucklebuck/games/_deerpark_scoring.py",
)


@cache
def _cases() -> dict[str, dict[str, Any]]:
    out = {}
    for path in sorted((ROOT / "conformance" / "cases").rglob("*.json")):
        for case in json.loads(path.read_text(encoding="utf-8"))["cases"]:
            out[case["id"]] = case
    return out


def replay(request: dict[str, Any]) -> TrickGame[Any, Any]:
    """Play a conformance ``play`` request with the library itself."""
    cls = GAMES[request["game"]]
    game: TrickGame[Any, Any] | None = None
    for h in request["hands"]:
        if game is None:
            game = cls._from_start(request["players"], request["options"], request["start"], h["deal"])
        else:
            game.next_hand(h["deal"])
        for action in h["actions"]:
            game.apply(action)
    assert game is not None
    return game


def scores_of(game: TrickGame[Any, Any]) -> list[tuple[int, int, int, str]]:
    return [(e.hand, e.seat, e.delta, e.reason) for e in game.events if isinstance(e, ScoreEvent)]


# (case, hand, seat, score change, reason): each reason text of each game at least once
SCORE_REASONS = [
    # Hucklebuck: stayers (S0, S2, DEF #10)
    ("hucklebuck/scoring/stayer-exactly-one-trick", 1, 0, 1, "stayed and took 1 trick: +1 (S0, S2)"),
    ("hucklebuck/scoring/bid-3-with-three", 1, 0, 2, "stayed and took 2 tricks: +2 (S0, S2)"),
    ("hucklebuck/end/out-at-minus-25", 1, 2, -5, "stayed and took no trick: -5 (S0, S2, DEF #10)"),
    # the bidder: made, set, stacked (DEF #7-#9, #13)
    ("hucklebuck/scoring/bid-3-with-three", 1, 1, 3, "made the bid of 3 with 3 tricks: +3 (S0, DEF #9)"),
    ("hucklebuck/scoring/made-bid-counts-every-trick", 1, 1, 5,
     "made the bid of 2 with 5 tricks: +5 (S0, DEF #9)"),
    ("hucklebuck/scoring/variant-in-the-hole-any-bid", 1, 1, 7,
     "made the bid of 2 from the hole: back to 0 (in_the_hole_reset_applies_to=any_bid, DEF #13)"),
    ("hucklebuck/scoring/bid-4-with-three", 1, 1, -5, "set: bid 4, took 3: -5 (S0, S2, DEF #7, #8)"),
    ("hucklebuck/end/tie-bidder-far-below-default", 1, 1, -5, "set: bid 2, took 0: -5 (S0, S2, DEF #7, #8)"),
    ("hucklebuck/scoring/variant-penalty-stacks", 1, 1, -10,
     "set: bid 2, took 0: -10 (S0, S2, DEF #7, stacked penalty, DEF #8)"),
    # the moon (DEF #12, #14, #15)
    ("hucklebuck/moon/wins-from-exactly-one", 1, 1, 5,
     "shot the moon from a positive score: wins the game (S0, S2, DEF #15)"),
    ("hucklebuck/moon/from-zero-win", 1, 1, 5,
     "shot the moon from 0: wins the game (moon_at_zero=win, DEF #12, #15)"),
    ("hucklebuck/moon/from-zero-score-normally", 1, 1, 5,
     "shot the moon from 0: scores 5 (moon_at_zero=score_normally, DEF #12)"),
    ("hucklebuck/moon/from-the-hole-resets", 1, 1, 12,
     "shot the moon from zero or below: back to 0 (S0, S2, DEF #12)"),
    ("hucklebuck/moon/missed-with-no-trick-flat", 1, 1, -15,
     "missed the moon with 0 tricks: -15 (S0, S2, DEF #14)"),
    ("hucklebuck/moon/missed-with-one-trick", 1, 1, -15,
     "missed the moon with 1 trick: -15 (S0, S2, DEF #14)"),
    ("hucklebuck/moon/missed-minus-fifteen", 1, 1, -15,
     "missed the moon with 2 tricks: -15 (S0, S2, DEF #14)"),
    ("hucklebuck/scoring/variant-penalty-stacks-moon", 1, 1, -20,
     "missed the moon with 0 tricks: -20 (S0, S2, stacked penalty, DEF #14)"),
    # hands without play (DEF #4-#6)
    ("hucklebuck/auction/all-pass-dealer-scores-5", 1, 0, 5,
     "everyone passed: the dealer scores 5 without play (S0, DEF #4)"),
    ("hucklebuck/declare/everyone-else-drops", 1, 1, 5,
     "everyone else dropped: the bidder scores 5 without play (S2, DEF #5, #6)"),
    ("hucklebuck/declare/variant-lone-moon-wins", 1, 1, 5,
     "everyone else dropped against a moon bid: the bidder wins the game "
     "(lone_moon_bidder=wins_game, DEF #6)"),
    # Buck 'Em: antes, rakes, void rounds, winners and burns (DEF #35-#48)
    ("buckem/ante/everyone-antes", 1, 0, -1, "ante 1 (S3, DEF #35)"),
    ("buckem/ante/variant-ante-2", 1, 0, -2, "ante 2 (S3, DEF #35)"),
    ("buckem/rake/king-pair", 1, 1, 5, "rakes 5, all of a single pot (S3, DEF #41-#46)"),
    ("buckem/rake/half-of-double", 1, 1, 3, "rakes 3, half of a double pot (S3, DEF #41-#46)"),
    ("buckem/rake/no-face", 1, 1, 0,
     "stayed alone without the rake cards: no play, the pot carries (S3, DEF #47)"),
    ("buckem/settle/burn-round-no-ante", 2, 1, 0, "nobody stayed: the pot carries over (S3, DEF #48)"),
    ("buckem/settle/one-winner-one-burn", 1, 1, 5, "took 5 tricks: wins 5 (S3)"),
    ("buckem/settle/equal-buckup", 1, 2, 3, "took 2 tricks: wins 3 (S3)"),
    ("buckem/settle/one-winner-one-burn", 1, 2, -5, "took 0 tricks: burned, pays 5 (S3, DEF #36)"),
    ("buckem/settle/two-two-one", 1, 3, -5, "took 1 trick: burned, pays 5 (S3, DEF #36)"),
    ("buckem/settle/variant-pot-limit", 1, 3, -3, "took 1 trick: burned, pays 3 (S3, DEF #36)"),
    # Deer Park: the maker and the defenders (DEF #65, #66)
    ("deerpark/scoring/maker-exactly-three", 1, 1, -3, "the maker needed 3 and took 3: -3 (S4, DEF #65)"),
    ("deerpark/end/reach-zero", 1, 1, -5, "the maker needed 3 and took 5: -5 (S4, DEF #65)"),
    ("deerpark/end/zero-and-fifty-play-on", 1, 1, 5, "the maker needed 3 and took 1: +5 (S4, DEF #66)"),
    ("deerpark/scoring/variant-failed-tricks-count", 1, 1, 4,
     "the maker needed 3 and took 1: +5 - 1 (failed_contract_tricks_count, DEF #66)"),
    ("deerpark/end/reach-zero", 1, 0, 5, "a defender needed 1 and took 0: +5 (S4, DEF #65)"),
    ("deerpark/lock/variant-permanent-reached-in-play", 2, 0, -1,
     "a defender needed 1 and took 1: -1 (S4, DEF #65)"),
    ("deerpark/end/zero-and-fifty-play-on", 1, 2, -4, "a defender needed 1 and took 4: -4 (S4, DEF #65)"),
]  # fmt: skip

# (case, winners, reason): every game-over reason
GAME_OVER_REASONS = [
    ("hucklebuck/declare/variant-lone-moon-wins", (1,), "moon"),
    ("hucklebuck/moon/wins-from-exactly-one", (1,), "moon"),
    ("hucklebuck/end/target-exactly", (0,), "target"),
    ("hucklebuck/end/tie-bidder-wins", (1,), "target, tie broken for the bidder"),
    ("hucklebuck/end/variant-bidder-first", (1,), "target, bidder first"),
    ("hucklebuck/end/bidder-first-lone-non-bidder", (0,), "target"),
    ("hucklebuck/end/variant-shared", (0, 1), "target, shared"),
    ("hucklebuck/end/sole-survivor", (0,), "last player not out"),
    ("hucklebuck/end/everyone-out-played-hand", (0,), "everyone out: highest score"),
    ("deerpark/end/reach-zero", (1,), "goal reached"),
    ("deerpark/end/farthest-wins", (0,), "goal reached, farthest past it"),
    ("deerpark/end/equal-distance-maker", (1,), "goal reached, tie broken for the maker"),
    ("deerpark/end/variant-shared", (0, 2), "goal reached, shared"),
]


@pytest.mark.parametrize(
    ("case", "hand", "seat", "delta", "reason"), SCORE_REASONS, ids=[r[4] for r in SCORE_REASONS]
)
def test_each_score_reason_word_for_word(case: str, hand: int, seat: int, delta: int, reason: str) -> None:
    # catches: a reason deleted, its words swapped (stacked / plain penalty, maker / defender,
    # single / double pot), a wrong plural ("took 1 tricks"), a citation dropped
    game = replay(_cases()[case]["request"])
    mine = [(d, r) for h, s, d, r in scores_of(game) if (h, s) == (hand, seat)]
    assert (delta, reason) in mine, mine


@pytest.mark.parametrize(
    ("case", "winners", "reason"), GAME_OVER_REASONS, ids=[r[0] for r in GAME_OVER_REASONS]
)
def test_each_game_over_reason_word_for_word(case: str, winners: tuple[int, ...], reason: str) -> None:
    game = replay(_cases()[case]["request"])
    over = [(e.winners, e.reason) for e in game.events if isinstance(e, GameOverEvent)]
    assert over == [(winners, reason)]


# ------------------------------------------------------------------ the list is whole
_CITED = re.compile(r"DEF #|\(S[0-4]\b")
#: Names a reason is assembled from in a statement of its own (the rake's kind, the
#: Deer Park role, the Buck 'Em trick count, the citation chosen).
_PARTS = {"kind", "role", "took", "cite"}


def _fragments(path: str) -> set[str]:
    """The strings (3 characters or more) a rule module builds reasons from: those in a
    statement that cites a source or a decision, in an assignment to one of ``_PARTS``,
    or returned by the trick-count helper."""
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    found: set[str] = set()
    for fn in ast.walk(tree):
        if not isinstance(fn, ast.FunctionDef):
            continue
        for node in ast.walk(fn):
            if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
                continue  # a docstring
            if not isinstance(node, (ast.Assign, ast.Return, ast.Expr)):
                continue
            named = isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id in _PARTS for t in node.targets
            )
            if (
                named
                or _CITED.search(ast.unparse(node))
                or (fn.name == "_tricks" and isinstance(node, ast.Return))
            ):
                for n in ast.walk(node):
                    if isinstance(n, ast.Constant) and isinstance(n.value, str) and len(n.value) >= 3:
                        found.add(n.value)
    return found


@pytest.mark.single_core
def test_every_reason_fragment_of_the_rule_modules_is_in_a_pinned_text() -> None:
    pinned = [r[4] for r in SCORE_REASONS]
    missing = {
        (path, frag)
        for path in RULE_MODULES
        for frag in _fragments(path)
        if not any(frag in p for p in pinned)
    }
    assert missing == set(), "pin a reason holding each of these in SCORE_REASONS"
    assert len(_fragments("hucklebuck/games/_hucklebuck_scoring.py")) > 20  # the search finds them


def _game_end_reasons(path: str) -> set[str]:
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    return {
        str(node.value.elts[1].value)
        for fn in ast.walk(tree)
        if isinstance(fn, ast.FunctionDef) and fn.name in ("_game_end", "game_end")
        for node in ast.walk(fn)
        if isinstance(node, ast.Return)
        and isinstance(node.value, ast.Tuple)
        and len(node.value.elts) == 2
        and isinstance(node.value.elts[1], ast.Constant)
        and node.value.elts[1].value
    }


@pytest.mark.single_core
def test_every_game_over_reason_of_the_rule_modules_is_pinned() -> None:
    returned = _game_end_reasons("hucklebuck/games/_hucklebuck_scoring.py")
    returned |= _game_end_reasons("hucklebuck/games/_deerpark_scoring.py")
    assert returned == {r[2] for r in GAME_OVER_REASONS}


def _shape(text: str) -> str:
    return re.sub(r"(?<![#S])\d+", "N", text)


def test_every_reason_the_suite_produces_has_a_pinned_shape() -> None:
    # a changed word in any case's reason shows here even where no exact pin looks
    shapes = {_shape(r[4]) for r in SCORE_REASONS} | {r[2] for r in GAME_OVER_REASONS}
    unknown = set()
    plays = 0
    for case in _cases().values():
        req = case.get("request")
        if not isinstance(req, dict) or req.get("op") != "play" or "error" in (case["expect"] or {}):
            continue
        try:
            game = replay(req)
        except Exception:  # a case whose actions stop at a refusal
            continue
        plays += 1
        for e in game.events:
            if isinstance(e, (ScoreEvent, GameOverEvent)) and e.reason and _shape(e.reason) not in shapes:
                unknown.add((case["id"], e.reason))
    assert plays > 100 and unknown == set()


# ------------------------------------------------------------------ DEF #14, #36 and neighbours
def test_a_missed_moon_is_minus_15_flat_whatever_the_tricks() -> None:
    # catches: the missed-moon reason deleted, or the stacked and plain wordings swapped
    for case, t in (
        ("hucklebuck/moon/missed-with-no-trick-flat", "0 tricks"),
        ("hucklebuck/moon/missed-with-one-trick", "1 trick"),
        ("hucklebuck/moon/missed-minus-fifteen", "2 tricks"),
    ):
        game = replay(_cases()[case]["request"])
        bidder = [(d, r) for h, s, d, r in scores_of(game) if s == 1]
        assert bidder == [(-15, f"missed the moon with {t}: -15 (S0, S2, DEF #14)")], case
    stacked = replay(_cases()["hucklebuck/scoring/variant-penalty-stacks-moon"]["request"])
    assert [(d, r) for h, s, d, r in scores_of(stacked) if s == 1] == [
        (-20, "missed the moon with 0 tricks: -20 (S0, S2, stacked penalty, DEF #14)")
    ]


def test_a_one_trick_burn_reads_one_trick() -> None:
    # catches: "took 1 tricks" (the plural's test moved or dropped)
    game = replay(_cases()["buckem/settle/two-two-one"]["request"])
    burns = [(s, r) for h, s, d, r in scores_of(game) if "burned" in r]
    assert burns == [(3, "took 1 trick: burned, pays 5 (S3, DEF #36)")]
    game = replay(_cases()["buckem/settle/one-winner-one-burn"]["request"])
    assert [(s, r) for h, s, d, r in scores_of(game) if "burned" in r] == [
        (2, "took 0 tricks: burned, pays 5 (S3, DEF #36)")
    ]


@pytest.mark.parametrize(
    ("pot", "units", "rounding", "take", "kind"),
    [
        (5, 1, "floor", 5, "all of a single pot"),
        (1, 1, "ceil", 1, "all of a single pot"),
        (7, 2, "ceil", 4, "half of a double pot"),
        (1, 2, "ceil", 1, "half of a double pot"),  # half of 1, rounded up, is all of it: still a double pot
        (1, 3, "floor", 0, "half of a double pot"),
    ],
)
def test_the_rake_says_which_pot_it_was(pot: int, units: int, rounding: str, take: int, kind: str) -> None:
    # the description follows the pot's units (DEF #41), not whether the take emptied it
    req = copy.deepcopy(_cases()["buckem/rake/half-of-double"]["request"])
    req["start"].update(pot=pot, pot_units=units)
    req["options"]["rake_rounding"] = rounding
    game = replay(req)
    assert scores_of(game) == [(1, 1, take, f"rakes {take}, {kind} (S3, DEF #41-#46)")]
