"""Fuzz the reference adapter against deliberately weakened copies of it, and ask
whether the suite notices each weakening.

``python conformance/tools/weakened.py [--games N] [--seed S]`` plays ``N``
random ``play`` requests per weakening (the leak check's random games, see
:mod:`hucklebuck.conformance.twins`) through our library twice, as it is and
with one rule weakened, and prints how many answers differ (with the first
such request); then it runs the bundled suite's cases of that game against the
weakened library and prints how many fail.  A weakening the fuzz tells apart
that no case fails is a rule the suite does not pin: add a case for it.

Each weakening is what an implementation might plausibly get wrong, and most
touch only the hand that ends a game:

``out-not-at-game-end``
    Hucklebuck: a player at -25 or lower goes out in every hand except the one
    that ends the game by a moon or the target (the rule: players go out in that
    hand too, S0/S2, DEF #16).
``out-below-minus-25``
    Hucklebuck: a player goes out only below -25, not at -25 exactly.
``everyone-out-no-winner``
    Hucklebuck: when the last players go out together, nobody wins (the rule:
    the highest score wins).
``no-last-survivor``
    Hucklebuck: the last player not out does not win; the game goes on.
``zero-not-a-goal``
    Deer Park Euchre: only 50 ends the game, not 0.
``goal-reached-by-maker-only``
    Deer Park Euchre: a defender who reaches a goal in the maker's hand does not
    end the game (only the maker's score is looked at).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from hucklebuck.conformance import InProcessAdapter, load_cases, run_cases
from hucklebuck.conformance.protocol import handle
from hucklebuck.games import _deerpark_scoring as dp_scoring
from hucklebuck.games import _hucklebuck_scoring as hb_scoring
from hucklebuck.games import deerpark as dp_game
from hucklebuck.games import hucklebuck as hb_game


@contextlib.contextmanager
def _out_not_at_game_end() -> Iterator[None]:
    finish = hb_scoring.finish_hand

    def weak(game: Any, delta: list[int], reasons: list[str], *, active: Any, winner_by_moon: Any) -> None:
        target = game._options.target
        ends = winner_by_moon is not None or any(
            not game._out[s] and game._scores[s] + delta[s] >= target for s in range(game._n)
        )
        saved = hb_game.OUT_AT
        if ends:
            hb_game.OUT_AT = -(10**9)  # type: ignore[misc]
        try:
            finish(game, delta, reasons, active=active, winner_by_moon=winner_by_moon)
        finally:
            hb_game.OUT_AT = saved  # type: ignore[misc]

    hb_scoring.finish_hand = weak  # type: ignore[assignment]
    try:
        yield
    finally:
        hb_scoring.finish_hand = finish  # type: ignore[assignment]


@contextlib.contextmanager
def _out_below_minus_25() -> Iterator[None]:
    saved = hb_game.OUT_AT
    hb_game.OUT_AT = -26  # type: ignore[misc]
    try:
        yield
    finally:
        hb_game.OUT_AT = saved  # type: ignore[misc]


@contextlib.contextmanager
def _everyone_out_no_winner() -> Iterator[None]:
    end = hb_scoring._game_end

    def weak(game: Any, moon: Any) -> tuple[tuple[int, ...], str]:
        winners, why = end(game, moon)
        return ((), "") if why.startswith("everyone out") else (winners, why)

    hb_scoring._game_end = weak  # type: ignore[assignment]
    try:
        yield
    finally:
        hb_scoring._game_end = end  # type: ignore[assignment]


@contextlib.contextmanager
def _no_last_survivor() -> Iterator[None]:
    end = hb_scoring._game_end

    def weak(game: Any, moon: Any) -> tuple[tuple[int, ...], str]:
        winners, why = end(game, moon)
        return ((), "") if why.startswith("last player") else (winners, why)

    hb_scoring._game_end = weak  # type: ignore[assignment]
    try:
        yield
    finally:
        hb_scoring._game_end = end  # type: ignore[assignment]


@contextlib.contextmanager
def _zero_not_a_goal() -> Iterator[None]:
    saved = dp_game.LOW_GOAL
    dp_game.LOW_GOAL = -(10**9)  # type: ignore[misc]
    try:
        yield
    finally:
        dp_game.LOW_GOAL = saved  # type: ignore[misc]


@contextlib.contextmanager
def _goal_reached_by_maker_only() -> Iterator[None]:
    end = dp_scoring.game_end

    def weak(game: Any) -> tuple[tuple[int, ...], str]:
        winners, why = end(game)
        maker = game._maker
        return (winners, why) if maker is None or maker in winners else ((), "")

    dp_scoring.game_end = weak  # type: ignore[assignment]
    try:
        yield
    finally:
        dp_scoring.game_end = end  # type: ignore[assignment]


#: Each weakening: the game it touches and a context manager that applies it to our library.
WEAKENINGS: dict[str, tuple[str, Callable[[], contextlib.AbstractContextManager[None]]]] = {
    "out-not-at-game-end": ("hucklebuck", _out_not_at_game_end),
    "out-below-minus-25": ("hucklebuck", _out_below_minus_25),
    "everyone-out-no-winner": ("hucklebuck", _everyone_out_no_winner),
    "no-last-survivor": ("hucklebuck", _no_last_survivor),
    "zero-not-a-goal": ("deerpark", _zero_not_a_goal),
    "goal-reached-by-maker-only": ("deerpark", _goal_reached_by_maker_only),
}


def fuzz(name: str, games: int, seed: int = 0) -> tuple[int, dict[str, Any] | None]:
    """How many of ``games`` random ``play`` requests the weakening ``name`` answers
    differently, and the first such request."""
    from hucklebuck.conformance.twins import random_request

    game, weakening = WEAKENINGS[name]
    rng = random.Random(f"{seed}/{name}")
    differ, first = 0, None
    for _ in range(games):
        req = dict(random_request(game, rng), op="play", id=0)
        right = handle(req)
        with weakening():
            wrong = handle(req)
        if right != wrong:
            differ += 1
            first = first or req
    return differ, first


def suite_failures(name: str) -> list[str]:
    """The ids of the bundled cases of the weakening's game that fail against it."""
    game, weakening = WEAKENINGS[name]
    cases = [c for c in load_cases() if c.group == game]
    with weakening():
        report = run_cases(cases, InProcessAdapter())
    return [case_id for case_id, _ in report.failed]


def main(argv: list[str] | None = None) -> int:
    """Fuzz every weakening and run the suite against it; 1 when the suite misses one."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=400, help="random games per weakening (default 400)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    missed = 0
    for name in WEAKENINGS:
        differ, first = fuzz(name, args.games, args.seed)
        failed = suite_failures(name)
        told = f"the fuzz tells it apart in {differ} of {args.games} games"
        print(f"{name}: {told}; {len(failed)} case(s) fail")
        for case_id in failed[:5]:
            print(f"  fails: {case_id}")
        if differ and not failed:
            missed += 1
            print(f"  NOT PINNED by the suite; a request that shows it: {json.dumps(first)}")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
