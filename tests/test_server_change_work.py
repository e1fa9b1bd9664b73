"""The Python work of one table change on the server's event loop, counted rather than timed:
a play is listed, read and sent without working out what another play, or another seat's play,
already gave (the speed itself is measured by ``python -m hucklebuck.bench server``)."""

from __future__ import annotations

import importlib.util
import random
from typing import Any

import pytest

from hucklebuck import actions
from hucklebuck.actions import Bid, Pass, Play
from hucklebuck.cards import Card
from hucklebuck.games import BuckEmGame, DeerParkGame, HucklebuckGame
from hucklebuck.server import moves, views

_HAS_LISTING = importlib.util.find_spec("hucklebuck.server.listing") is not None
GAMES: list[tuple[Any, int]] = [(DeerParkGame, 4), (HucklebuckGame, 4), (BuckEmGame, 5)]


def _to_play(game: Any, rng: random.Random) -> None:
    """Random moves until a seat is to play a card with more than one card to choose from."""
    for _ in range(500):
        if game.to_act is None:
            game.next_hand()
            continue
        legal = game.legal_actions()
        if len(legal) > 2 and all(type(a) is Play for a in legal):
            return
        game.apply(rng.choice(legal))
    raise AssertionError("no play with a choice was reached")


def _counting(monkeypatch: pytest.MonkeyPatch, module: Any, name: str, counter: list[int]) -> None:
    real = getattr(module, name, None)
    if real is None:
        return

    def counted(*args: Any, **kwargs: Any) -> Any:
        counter[0] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, counted)


def test_a_play_s_words_are_worked_out_once_whoever_plays_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two listings of plays under one trump that share cards word only the cards new to the second
    (a listing of plays is made of each card's entry, not kept whole for one set of moves)."""
    listing = importlib.import_module("hucklebuck.server.listing") if _HAS_LISTING else views
    for kept in ("_LISTED", "_PLAYS_LISTED"):
        getattr(listing, kept, {}).clear()
    rendered = [0]
    for module, name in ((views, "move_text"), (listing, "move_text"), (listing, "card_text")):
        _counting(monkeypatch, module, name, rendered)
    game = DeerParkGame(4, seed=3)
    _to_play(game, random.Random(2))
    legal = game.legal_actions()
    first = views.legal_moves(game, legal)
    assert rendered[0] == len(legal)
    other = (legal[0].seat + 1) % 4  # the same cards but one, and one more: another seat's plays
    known = [a.card for a in legal]
    extra = next(c for c in map(Card.from_index, range(52)) if c not in known)
    theirs = [Play(other, c) for c in [*known[1:], extra]]
    second = views.legal_moves(game, theirs)
    assert rendered[0] == len(legal) + 1  # only the card not listed before
    monkeypatch.undo()
    assert first == listing._list_moves(game, legal) and second == listing._list_moves(game, theirs)


@pytest.mark.parametrize(("cls", "players"), GAMES)
def test_a_play_sent_as_text_is_read_without_writing_the_other_moves(
    cls: Any, players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A play in protocol form (what computer seats send) is found without turning every legal
    move into its text; a play another seat would make is still refused as before."""
    game = cls(players, seed=99)
    _to_play(game, random.Random(4))
    legal = game.legal_actions()
    texts = [str(a) for a in legal]
    written = [0]
    _counting(monkeypatch, actions._ActionBase, "__str__", written)
    names = ["A", "B", "C", "D", "E"]
    for action, text in zip(legal, texts, strict=True):
        assert moves.MoveReader(game).read(action.seat, text, names) == action
    assert written[0] == 0
    monkeypatch.undo()
    other = Play((legal[0].seat + 1) % players, legal[0].card)
    with pytest.raises(moves.ProtocolError, match="another seat"):
        moves.MoveReader(game).read(legal[0].seat, str(other), names)


@pytest.mark.parametrize(("cls", "players"), GAMES)
def test_a_play_sent_by_id_is_read_without_working_out_every_id(
    cls: Any, players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A play's id is its card's number: reading one asks the game for no action's id."""
    game = cls(players, seed=7)
    _to_play(game, random.Random(8))
    legal = game.legal_actions()
    ids = [game.action_id(a) for a in legal]
    asked = [0]
    _counting(monkeypatch, type(game), "action_id", asked)
    for action, i in zip(legal, ids, strict=True):
        assert moves.MoveReader(game).read(action.seat, i, []) == action
    assert asked[0] == 0
    held = {a.card.index for a in legal}
    missing = next(i for i in range(52) if i not in held)
    with pytest.raises(moves.ProtocolError, match="not one of your moves"):
        moves.MoveReader(game).read(legal[0].seat, missing, [])


def test_a_computer_move_is_sent_in_its_protocol_form() -> None:
    """The text a computer seat sends is the action's own protocol text, plays and other moves."""
    for seat in range(8):
        for card in map(Card.from_index, range(52)):
            play = Play(seat, card)
            assert moves.action_text(play) == str(play) == f"{seat} play {card.code}"
    for other in (Pass(2), Bid(1, 3), actions.Order(3)):
        assert moves.action_text(other) == str(other)


def _to_draw(seed: int) -> BuckEmGame:
    """A Buck 'Em game at a seat's draw (some thirty choices of its cards)."""
    rng = random.Random(seed)
    for attempt in range(50):
        game = BuckEmGame(5, seed=seed + attempt)
        for _ in range(60):
            if game.to_act is None:
                game.next_hand()
                continue
            legal = game.legal_actions()
            if type(legal[0]).__name__ == "Draw":
                return game
            stay = [a for a in legal if type(a).__name__ == "BuckStay"]
            game.apply(stay[0] if stay else rng.choice(legal))
    raise AssertionError("no draw was reached")


def test_a_draw_is_listed_with_each_card_of_the_hand_worded_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A draw's listing (a new hand at every deal, nothing to reuse) words each card of the hand
    once, not once in every choice that holds it; the listing is the one a fresh rendering gives."""
    listing = importlib.import_module("hucklebuck.server.listing") if _HAS_LISTING else views
    game = _to_draw(11)
    legal = game.legal_actions()
    assert len(legal) > 20
    reference = listing._list_moves(game, legal)
    getattr(listing, "_LISTED", {}).clear()
    worded = [0]
    for module, name in ((views, "move_text"), (listing, "move_text"), (listing, "card_text")):
        _counting(monkeypatch, module, name, worded)
    listed = views.legal_moves(game, legal)
    assert worded[0] <= len(game.hand(game.to_act))
    assert listed == reference


def test_a_draw_sent_by_id_is_read_without_working_out_every_id(monkeypatch: pytest.MonkeyPatch) -> None:
    """A draw's id is read against the game's own list of legal ids, not by working out each
    choice's id; an id that is not one of the choices is refused as before."""
    game = _to_draw(23)
    legal = game.legal_actions()
    ids = [game.action_id(a) for a in legal]
    asked = [0]
    _counting(monkeypatch, type(game), "action_id", asked)
    for action, i in zip(legal, ids, strict=True):
        assert moves.MoveReader(game).read(action.seat, i, []) == action
    assert asked[0] == 0
    for wrong in (0, max(ids) + 1, -1, 10**9):
        with pytest.raises(moves.ProtocolError, match="not one of your moves"):
            moves.MoveReader(game).read(legal[0].seat, wrong, [])


def test_the_choices_of_a_hand_are_made_without_checking_each_one_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The draws and discards of a hand are made without running each one's checks (its cards
    come from the hand, in card order); they equal the actions their constructor makes."""
    from itertools import combinations

    from hucklebuck.actions import Discard, Draw
    from hucklebuck.games import ids

    checked = [0]
    for cls in (Draw, Discard):
        _counting(monkeypatch, cls, "__post_init__", checked)
    rng = random.Random(5)
    made = []
    for _ in range(200):
        hand = sum(1 << i for i in rng.sample(range(52), rng.randint(0, 8)))
        seat, low = rng.randrange(6), rng.randint(0, 2)
        for cls in (Draw, Discard):
            ids._CHOICES.clear()
            made.append((cls, seat, hand, low, ids.card_choices(cls, seat, hand, low, 3)))
    assert checked[0] == 0
    monkeypatch.undo()
    for cls, seat, hand, low, got in made:
        cards = [Card.from_index(i) for i in range(52) if hand >> i & 1]
        want = tuple(cls(seat, c) for k in range(low, 4) for c in combinations(cards, k))
        assert got == want and all(
            type(g) is cls and vars(g) == vars(w) for g, w in zip(got, want, strict=True)
        )
        assert [hash(g) for g in got] == [hash(w) for w in want]


def test_a_view_s_fixed_words_are_worked_out_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The game's name, the phase's words and the trump's letter are looked up, not worked out,
    at each view of a state seen before."""
    from hucklebuck.server._seats import Seat
    from hucklebuck.words.narrator import Narrator

    game = _to_draw(31)
    names = ["A", "B", "C", "D", "E"]
    narrator = Narrator(game, names, lambda _line: None, show_all=False)
    seats = [Seat(kind="human", name=n, player=None, digest=None).public() for n in names]
    extra = {"last_hand": None, "game_over": None, "notices": []}
    views.seat_view(game, 0, narrator, seats, [], extra)  # (this state's words known from here on)
    worded = [0]
    _counting(monkeypatch, narrator, "phase_name", worded)
    for seat in (0, 1, None, 2):
        views.seat_view(game, seat, narrator, seats, [], extra)
    assert worded[0] == 0


def test_a_draw_sent_as_text_is_read_without_writing_the_other_choices(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A computer seat's draw (protocol form) is read as itself, not by writing the text of each
    of the hand's thirty-odd choices; a draw of cards the seat does not hold is refused as before."""
    game = _to_draw(41)
    legal = game.legal_actions()
    texts = [str(a) for a in legal]
    written = [0]
    _counting(monkeypatch, actions._ActionBase, "__str__", written)
    for action, text in zip(legal, texts, strict=True):
        assert moves.MoveReader(game).read(action.seat, text, ["A", "B", "C", "D", "E"]) == action
    assert written[0] == 0
    monkeypatch.undo()
    seat = legal[0].seat
    foreign = next(c for c in map(Card.from_index, range(52)) if c not in game.hand(seat))
    with pytest.raises(moves.ProtocolError, match=r"^not allowed: "):
        moves.MoveReader(game).read(seat, f"{seat} draw {foreign.code}", ["A", "B", "C", "D", "E"])
