"""The words of hints and of the terminal table (issue 39, points 10 and 11).

A hint's margin agrees with the rounded figures it shows and calls a toss-up one; a bid the
hand's count alone does not promise says so; cards read as the hand shows them (6♣, not 6C);
a fold worth more than nothing says why.  The terminal says "you do not hold", "You bid 5 (to
shoot the moon)", tells a card typed during the auction that no card is played now, names the
Deer Park leader by the nearer goal, mentions Buck 'Em's odd chip left in the pot, and the browser
writes a minus sign the way the rules' texts do.
"""

from __future__ import annotations

import io
import random
from pathlib import Path
from typing import Any

import pytest

from hucklebuck.actions import Bid, BuckStay, Fold, Play
from hucklebuck.cli.common import Output
from hucklebuck.cli.human import Human, Unreadable, parse_answer
from hucklebuck.cli.table import Table, describe_action, second_person
from hucklebuck.games import BuckEmGame, DeerParkGame, HucklebuckGame, Phase
from hucklebuck.packs import GameKind
from hucklebuck.players.hints import MoveHint, _reason, _why

ROOT = Path(__file__).resolve().parent.parent


# ------------------------------------------------------------------ hints (point 10)
def _auction() -> Any:
    game = HucklebuckGame(4, seed=1)
    assert game.phase is Phase.AUCTION
    return game.observation(game.to_act)


def _moves(seat: int, *values: float) -> tuple[MoveHint, ...]:
    return tuple(MoveHint(Bid(seat, 2 + i), v) for i, v in enumerate(values))


def test_the_margin_is_the_one_between_the_rounded_figures_shown() -> None:
    obs = _auction()
    reason = _reason(obs, GameKind.HUCKLEBUCK, _moves(obs.seat, 25.4, 23.6), "%")
    # shown as 25% and 24%: one point apart (not the 1.8 between the unrounded figures, "2 points")
    assert "gives you 25% to win, 1 percentage point more than the next best move." in reason


def test_a_toss_up_is_called_one() -> None:
    obs = _auction()
    reason = _reason(obs, GameKind.HUCKLEBUCK, _moves(obs.seat, 25.4, 24.6), "%")  # both shown as 25%
    assert reason.endswith("; it is a toss-up: the best move and the next best both give you 25% to win.")
    buck = BuckEmGame(5, seed=2)
    bobs = buck.observation(buck.to_act)
    moves = (MoveHint(Fold(bobs.seat), 0.404), MoveHint(BuckStay(bobs.seat, False), 0.396))  # +0.40 both
    assert "it is a toss-up" in _reason(bobs, GameKind.BUCKEM, moves, "chips")


def test_a_bid_above_the_hands_count_says_why_it_is_still_best() -> None:
    obs = _auction()
    text = _why(obs, GameKind.HUCKLEBUCK, Bid(obs.seat, 5))
    assert "only about" in text and "chance of winning the game" in text
    assert "you expect about" not in text  # not "Bid 5: you expect about 1.6 tricks"


def test_hint_cards_read_as_the_hand_shows_them() -> None:
    for seed in range(50):
        game = BuckEmGame(5, seed=seed)
        obs = game.observation(game.to_act)
        trumps = [c for c in obs.hand if c.suit is obs.trump]
        if trumps:
            break
    text = _why(obs, GameKind.BUCKEM, BuckStay(obs.seat, False))
    assert all(c.display in text and c.code not in text.split() for c in trumps), text
    play = _why(obs, GameKind.BUCKEM, Play(obs.seat, trumps[0]))
    assert play.startswith(trumps[0].display + ":")


def test_a_fold_says_what_its_figure_is() -> None:
    game = BuckEmGame(5, seed=2)
    obs = game.observation(game.to_act)
    text = _why(obs, GameKind.BUCKEM, Fold(obs.seat))
    assert "a fold costs nothing now" in text and "later rounds" in text


def test_the_table_and_the_terminal_hint_from_the_same_number_of_deals() -> None:
    # issue 58, point 8: one number of sampled deals, said once (the docs say it too)
    from hucklebuck.players.hints import DEFAULT_HINT_SAMPLES
    from hucklebuck.server.hints import HINT_SAMPLES

    assert HINT_SAMPLES == DEFAULT_HINT_SAMPLES
    text = " ".join((ROOT / "docs/server.rst").read_text().split())
    assert f"{HINT_SAMPLES} sampled deals" in text and "the same number as the terminal's" in text


# ------------------------------------------------------------------ the terminal (point 11)
def _person(game: Any, seat: int, answers: list[str]) -> tuple[Human, io.StringIO]:
    buf = io.StringIO()
    say = Output(buf, ascii_only=False)
    names = ["You" if s == seat else f"P{s}" for s in range(game.players)]
    queue = list(answers)

    def read(prompt: str) -> str | None:
        say(prompt + ":")
        return queue.pop(0) if queue else None

    return Human(
        Table(game, names, say, show_all=False, private=[seat]), say, read, save=lambda path: ""
    ), buf


def test_you_do_not_hold_a_card() -> None:
    game = HucklebuckGame(4, seed=2)
    seat = game.to_act
    assert seat is not None
    person, _buf = _person(game, seat, [])
    # the engine's refusal of a discard of a card not held, as the terminal retells it to "you"
    said = person._personal(f"seat {seat} does not hold 6D")
    assert said == "you do not hold 6♦"
    assert person._personal(f"it is seat {seat}'s turn") == "it is your turn"
    other = (seat + 1) % 4
    assert person._personal(f"seat {other} does not hold 6D") == f"P{other} does not hold 6♦"


def test_you_bid_five_to_shoot_the_moon() -> None:
    assert second_person(describe_action(Bid(1, 5), "You")) == "You bid 5 (to shoot the moon)"
    assert describe_action(Bid(1, 5), "Ann") == "Ann bids 5 (to shoot the moon)"


def test_a_card_typed_during_the_auction_is_told_no_card_is_played_now() -> None:
    with pytest.raises(Unreadable, match=r"^no card is played now, during the auction; \? lists your moves$"):
        parse_answer(GameKind.HUCKLEBUCK, Phase.AUCTION, 1, "10h")
    with pytest.raises(Unreadable, match=r"^that is not a move$"):
        parse_answer(GameKind.HUCKLEBUCK, Phase.AUCTION, 1, "frobnicate")


@pytest.mark.parametrize(
    ("scores", "leading"),
    [
        ([3, 20, 44], "P0, 3 points from the goal of 0"),
        ([12, 20, 47], "P2, 3 points from the goal of 50"),
        ([1, 25, 49], "P0 and P2, 1 point from the goal of 0 or 50"),
    ],
)
def test_a_stopped_deer_park_game_names_the_leader_by_the_nearer_goal(
    scores: list[int], leading: str
) -> None:
    game = DeerParkGame(3, seed=1, scores=scores)
    buf = io.StringIO()
    Table(game, ["P0", "P1", "P2"], Output(buf, ascii_only=False), show_all=True).game_end()
    assert f"Leading: {leading}." in buf.getvalue()
    assert "biggest score" not in buf.getvalue()


def test_buckem_says_when_the_odd_chip_stays_in_the_pot() -> None:
    said = quiet = 0
    for seed in range(300):
        game = BuckEmGame(5, seed=seed)  # five antes: an odd pot
        rng = random.Random(seed)
        buf = io.StringIO()
        table = Table(game, [f"P{s}" for s in range(5)], Output(buf, ascii_only=False), show_all=True)
        table.hand_start()
        pot = game.pot
        while game.phase not in (Phase.HAND_OVER, Phase.GAME_OVER):
            seat = game.to_act
            before = game.hand(seat)
            pot = game.pot  # the pot the round is played for
            action = rng.choice(game.legal_actions())
            game.apply(action)
            table.action(seat, action, before)
        table.hand_end()
        result = game.results[-1]
        won = [result.tricks_won[s] for s in result.winners]
        odd_left = len(won) == 2 and won[0] == won[1] and pot % 2 == 1  # halves of an odd pot
        noted = "1 chip stays in the pot: an even split leaves the odd chip there" in buf.getvalue()
        assert noted == odd_left, (seed, won, pot, buf.getvalue())
        said += noted
        quiet += bool(result.winners) and not noted
        if said and quiet >= 5:
            return
    raise AssertionError(f"not enough splits in the games tried ({said} with the odd chip, {quiet} without)")
