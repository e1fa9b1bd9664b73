"""What the terminal table says, on fixed deals (no bots, so nothing here moves
when a computer player changes): the right player named on every scoring line,
Deer Park's wording and its marked left bower, Buck 'Em's ante told once,
citations only on request, menus in a sensible order, forced moves played for
you, and ``quit`` offering to save."""

from __future__ import annotations

import io
from collections.abc import Iterable
from typing import Any

import pytest

from hucklebuck.cli.common import Output
from hucklebuck.cli.human import Human, Quit
from hucklebuck.cli.table import Table, drop_citations
from hucklebuck.games import BuckEmGame, DeerParkGame, HucklebuckGame, Phase
from hucklebuck.games.base import ScoreEvent

pytestmark = pytest.mark.single_core

FULL = [r + s for s in "CDHS" for r in "23456789TJQKA"]


def buckem_deal(hands: list[list[str]], upcard: str) -> dict[str, object]:
    dealt = {c for h in hands for c in h} | {upcard}
    return {"hands": hands, "upcard": upcard, "stock": [c for c in FULL if c not in dealt]}


DEERPARK = {
    "hands": [
        ["KH", "TH", "AS", "KS", "TC"],
        ["AD", "KD", "QD", "AC", "KC"],
        ["JH", "JD", "AH", "QS", "JS"],
    ],
    "kitty": ["QH", "TD", "QC", "JC", "TS"],
}
DEERPARK_PLAY = ["1 pass", "2 order", "0 discard TC", "1 play AD", "2 play AH", "0 play KS", "2 play JH"]
DEERPARK_REST = ["0 play TH", "1 play KC", "2 play JD", "0 play QH", "1 play KD", "2 play QS", "0 play AS",
                 "1 play AC", "0 play KH"]  # fmt: skip


def narrate(game: Any, names: list[str], actions: Iterable[str], *, cite: bool = False, **view: Any) -> str:
    """The table's narration of ``actions`` from the deal, as ``play`` prints it."""
    buf = io.StringIO()
    view.setdefault("show_all", True)
    table = Table(game, names, Output(buf, ascii_only=False), cite=cite, **view)
    table.hand_start()
    in_play = game.phase is Phase.PLAY
    for text in actions:
        seat = game.to_act
        before = game.hand(seat)
        action = next(a for a in game.legal_actions() if str(a) == text)
        game.apply(action)
        table.action(seat, action, before)
        if game.phase is Phase.PLAY and not in_play:
            in_play = True
            table.announce_trump()
        if game.phase in (Phase.HAND_OVER, Phase.GAME_OVER):
            table.hand_end()
    return buf.getvalue()


NO_RAKE = [["2D", "3C", "4H", "6D", "8D"], ["AS", "KS", "4S", "7H", "2C"], ["QS", "JS", "AH", "KH", "3D"],
           ["TS", "AD", "KD", "5C", "2H"], ["3H", "5H", "6H", "7C", "4D"]]  # fmt: skip


def test_a_lone_stayer_without_the_rake_cards_is_named_not_the_dealer() -> None:
    game = BuckEmGame(5, deal=buckem_deal(NO_RAKE, "9C"))  # clubs trump: seat 1 holds only the 2
    out = narrate(game, ["P0", "You", "P2", "P3", "P4"], ["1 stay", "2 fold", "3 fold", "4 fold", "0 fold"])
    note = [ev for ev in game.events if isinstance(ev, ScoreEvent) and ev.delta == 0]
    assert [ev.seat for ev in note] == [1] and "seat" not in note[0].reason  # the engine names the stayer
    assert "You stayed alone without the rake cards: no play, the pot carries" in out
    assert "P0" not in out.split("Scoring of hand 1")[1].split("Bankrolls")[0]  # not the dealer's line
    assert "seat 1" not in out


def test_buckem_ante_is_told_once_and_the_header_shows_bankrolls_before_it() -> None:
    game = BuckEmGame(5, deal=buckem_deal(NO_RAKE, "9C"))
    out = narrate(game, [f"P{s}" for s in range(5)], ["1 stay", "2 fold", "3 fold", "4 fold", "0 fold"])
    header = out.splitlines()[1]
    assert header.endswith("Bankrolls: P0 0, P1 0, P2 0, P3 0, P4 0; pot 0"), header
    assert "  Everyone antes 1: the pot is 5" in out
    assert out.count("ante 1") == 1 and "Everyone    -1  ante 1 each, at the deal" in out


def test_deerpark_order_up_and_maker_read_in_plain_english() -> None:
    out = narrate(DeerParkGame(3, deal=DEERPARK), ["You", "P1", "P2"], DEERPARK_PLAY[:3])
    assert "P2 orders up Q♥: hearts are trump; you pick it up" in out
    assert "You picks" not in out
    game = DeerParkGame(3, deal=DEERPARK)
    out = narrate(game, ["P0", "P1", "You"], DEERPARK_PLAY[:2], private=[2], show_all=False)
    assert "You order up Q♥: hearts are trump; P0 picks it up" in out
    buf = io.StringIO()
    say = Output(buf, ascii_only=False)
    game.apply("0 discard TC")
    game.apply("1 play AD")
    Human(
        Table(game, ["P0", "P1", "You"], say, show_all=False, private=[2]), say, lambda p: None, save=str
    ).screen(2)
    assert "Maker: you, needing 3 tricks; everyone else needs 1" in buf.getvalue()


def test_deerpark_left_bower_is_marked_and_explained() -> None:
    game = DeerParkGame(3, deal=DEERPARK)
    out = narrate(game, ["P0", "P1", "P2"], [*DEERPARK_PLAY, *DEERPARK_REST[:5]])
    assert "The left bower J♦* counts as a heart, the second-best trump (marked *)" in out
    assert "Trick 2: P2 J♥, P0 10♥, P1 K♣" in out
    assert "Trick 3: P2 J♦*, P0 Q♥, P1 K♦  -> P2 wins it" in out  # a trump lead, not a diamond


def test_deerpark_intro_makes_fifty_a_goal() -> None:
    buf = io.StringIO()
    Table(
        DeerParkGame(3, deal=DEERPARK), ["P0", "P1", "P2"], Output(buf, ascii_only=False), show_all=True
    ).intro("Deer Park Euchre", "Players:")
    text = " ".join(buf.getvalue().split())
    assert "pushed" not in text and "races to one of two goals" in text and "up to 50" in text


def test_citations_only_with_cite_and_explained() -> None:
    assert drop_citations("set: bid 3, took 1: -3 (S0, S2, DEF #7, #8)") == "set: bid 3, took 1: -3"
    assert (
        drop_citations("from 0 (moon_at_zero=score_normally, DEF #12)")
        == "from 0 (moon_at_zero=score_normally)"
    )
    assert drop_citations("rakes 2 (S3, DEF #41-#46)") == "rakes 2"
    assert drop_citations("took 2 (two of them)") == "took 2 (two of them)"
    plain = narrate(DeerParkGame(3, deal=DEERPARK), ["P0", "P1", "P2"], [])
    cited = narrate(DeerParkGame(3, deal=DEERPARK), ["P0", "P1", "P2"], [], cite=True)
    assert plain == cited  # nothing cited yet
    game = BuckEmGame(5, deal=buckem_deal(NO_RAKE, "9C"))
    acts = ["1 stay", "2 fold", "3 fold", "4 fold", "0 fold"]
    assert "(S3, DEF #47)" in narrate(game, [f"P{s}" for s in range(5)], acts, cite=True)
    game = BuckEmGame(5, deal=buckem_deal(NO_RAKE, "9C"))
    assert "S3" not in narrate(game, [f"P{s}" for s in range(5)], acts)


def _human(game: Any, seat: int, answers: list[str], **kw: Any) -> tuple[Human, io.StringIO, list[str]]:
    buf = io.StringIO()
    say = Output(buf, ascii_only=False)
    names = ["You" if s == seat else f"P{s}" for s in range(game.players)]
    saved: list[str] = []

    def save(path: str) -> str:
        saved.append(path)
        return f"Saved to {path}."

    queue = list(answers)

    def read(prompt: str) -> str | None:
        say(prompt + ":")
        return queue.pop(0) if queue else None

    person = Human(Table(game, names, say, show_all=False, private=[seat]), say, read, save=save, **kw)
    return person, buf, saved


def test_hucklebuck_discard_menu_puts_the_weakest_cards_first() -> None:
    hands = [["AS", "KS", "QS", "2H", "3D"], ["AH", "KH", "QH", "JH", "TH"],
             ["AD", "KD", "QD", "JD", "TD"], ["AC", "KC", "QC", "JC", "TC"]]  # fmt: skip
    dealt = {c for h in hands for c in h}
    game = HucklebuckGame(4, deal={"hands": hands, "stock": [c for c in FULL if c not in dealt]})
    for text in [
        "1 pass",
        "2 pass",
        "3 pass",
        "0 bid 2",
        "0 trump S",
        "1 stay 0",
        "2 drop",
        "3 drop",
        "0 stay 3",
    ]:
        game.apply(text)
    assert game.phase is Phase.EXCHANGE and game.to_act == 0
    person, buf, _ = _human(game, 0, [])
    legal = person.screen(0)
    first = person.game.legal_actions()
    assert len(legal) == len(first) == 10  # ten ways: all shown
    text = buf.getvalue()
    assert "1) discard Q♠ 2♥ 3♦" in text and "3) discard A♠ 2♥ 3♦" in text  # the plain cards first
    assert text.index("discard A♠ 2♥ 3♦") < text.index("discard K♠ Q♠ 2♥")  # one trump before two


def test_buckem_draw_menu_is_cut_and_typed_cards_still_work() -> None:
    game = BuckEmGame(5, deal=buckem_deal(NO_RAKE, "9C"))
    for text in ["1 stay", "2 stay", "3 fold", "4 fold", "0 fold", "1 draw"]:
        game.apply(text)
    person, buf, _ = _human(game, 2, ["draw 3d js kh"])
    shown = person.screen(2)
    text = buf.getvalue()
    assert len(shown) == 1 + Human.MENU_CARD_CHOICES < len(game.legal_actions())
    assert "2) draw 1 for 3♦" in text and "other ways to choose the cards: type the cards" in text
    action = person.ask(2)
    assert sorted(c.code for c in action.cards) == ["3D", "JS", "KH"]  # type: ignore[union-attr]


def test_a_forced_move_is_played_for_you_unless_asked_not_to() -> None:
    game = DeerParkGame(3, deal=DEERPARK)
    for text in [*DEERPARK_PLAY, *DEERPARK_REST]:
        game.apply(text)
    seat = game.to_act
    assert seat is not None and len(game.legal_actions()) == 1  # the last trick: one card left
    person, buf, _ = _human(game, seat, [], auto_forced=True)
    assert person.ask(seat) == game.legal_actions()[0]
    assert "(your only legal move: Q♦, played automatically)" in buf.getvalue()
    assert "Your moves:" not in buf.getvalue()
    person, buf, _ = _human(game, seat, ["1"], auto_forced=False)
    assert person.ask(seat) == game.legal_actions()[0] and "Your moves:" in buf.getvalue()


def test_quit_offers_to_save() -> None:
    game = HucklebuckGame(4, seed=1)
    seat = game.to_act
    person, buf, saved = _human(game, seat, ["quit", "later.json"], offer_save=True)
    with pytest.raises(Quit):
        person.ask(seat)
    assert saved == ["later.json"] and "Save the game first?" in buf.getvalue()
    person, buf, saved = _human(game, seat, ["quit", ""], offer_save=True)
    with pytest.raises(Quit):
        person.ask(seat)
    assert saved == []


def test_quit_right_after_a_save_leaves_without_asking_again() -> None:
    game = HucklebuckGame(4, seed=1)
    seat = game.to_act
    person, buf, saved = _human(game, seat, ["save now.json", "quit"], offer_save=True)
    with pytest.raises(Quit):
        person.ask(seat)
    assert saved == ["now.json"] and "Save the game first?" not in buf.getvalue()
    assert "The game is saved as it stands; leaving." in buf.getvalue()
    # a move after the save makes the save stale: quit asks again
    game = HucklebuckGame(4, seed=1)
    person, buf, saved = _human(game, seat, ["save now.json", "1", "quit", ""], offer_save=True)
    game.apply(person.ask(seat))
    with pytest.raises(Quit):
        person.ask(game.to_act)
    assert saved == ["now.json"] and "Save the game first?" in buf.getvalue()


def test_unicode_digits_are_an_unreadable_answer_not_a_crash() -> None:
    game = HucklebuckGame(4, seed=1)
    seat = game.to_act
    person, buf, _ = _human(game, seat, ["²", "٣", "1"])
    assert person.ask(seat) in game.legal_actions()
    assert buf.getvalue().count("There is no move") == 2
