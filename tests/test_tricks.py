"""The trick engine, run against each core (see conftest.py)."""

from __future__ import annotations

from array import array

import pytest

from hucklebuck import (
    Card,
    CardError,
    CoreInputError,
    Rank,
    Suit,
    effective_suit,
    legal_plays,
    legal_plays_batch,
    parse_cards,
    trick_winner,
    trick_winners,
)
from hucklebuck._core import get_core

PLAIN_GAMES = ["hucklebuck", "buckem"]


@pytest.mark.parametrize("game", [*PLAIN_GAMES, "deerpark"])
@pytest.mark.parametrize(
    ("trump", "cards", "winner"),
    [
        ("S", "KH AH 2H", 1),  # highest of the suit led (S2, S3)
        ("S", "KH AD QH", 0),  # a card of another suit never wins
        ("S", "KH 2S AH", 1),  # any trump beats the suit led
        ("S", "KH 2S 3S AH", 2),  # highest trump wins
        ("H", "2H AS KS", 0),  # trump led: highest trump
        ("C", "3D 2D 4D 5D 6D 7D 8D 9D", 7),  # eight cards (Buck 'Em, 8 seats)
        ("C", "QD", 0),
    ],
)
def test_trick_winner_plain_rules(game: str, trump: str, cards: str, winner: int) -> None:
    assert trick_winner(game, Suit.parse(trump), parse_cards(cards)) == winner


@pytest.mark.parametrize("game", PLAIN_GAMES)
def test_jacks_are_ordinary_outside_deerpark(game: str) -> None:
    assert trick_winner(game, Suit.HEARTS, parse_cards("AH JD JH")) == 0
    assert trick_winner(game, Suit.HEARTS, parse_cards("AD JD")) == 0


@pytest.mark.parametrize("trump", list(Suit))
def test_bowers_in_every_trump_suit(trump: Suit) -> None:
    right = Card(Rank.JACK, trump)
    left = Card(Rank.JACK, trump.partner)
    ace = Card(Rank.ACE, trump)
    off_ace = Card(Rank.ACE, trump.partner)
    # right bower > left bower > ace of trump
    assert trick_winner("deerpark", trump, [ace, left, right]) == 2
    assert trick_winner("deerpark", trump, [ace, left]) == 1
    # the left bower led counts as trump: the partner suit's ace does not follow it
    assert trick_winner("deerpark", trump, [left, off_ace]) == 0
    assert effective_suit("deerpark", trump, left) is trump
    assert effective_suit("hucklebuck", trump, left) is trump.partner
    # leading the partner suit: the left bower is not of that suit, but it trumps it
    king_partner = Card(Rank.KING, trump.partner)
    assert trick_winner("deerpark", trump, [king_partner, left, off_ace]) == 1
    # the other two jacks are plain cards of their suits
    for s in Suit:
        if s not in (trump, trump.partner):
            jack = Card(Rank.JACK, s)
            assert effective_suit("deerpark", trump, jack) is s
            assert trick_winner("deerpark", trump, [Card(Rank.QUEEN, s), jack]) == 0


@pytest.mark.parametrize("trump", list(Suit))
def test_left_bower_follows_trump_and_not_its_printed_suit(trump: Suit) -> None:
    left = Card(Rank.JACK, trump.partner)
    small_partner = Card(Rank.TEN, trump.partner)
    hand = [left, small_partner, Card(Rank.ACE, next(s for s in Suit if s not in (trump, trump.partner)))]
    # trump led: the left bower must follow (it is the only trump)
    led_trump = Card(Rank.KING, trump)
    assert list(legal_plays("deerpark", trump, hand, [led_trump])) == [left]
    # partner suit led: only the real partner-suit card follows
    led_partner = Card(Rank.ACE, trump.partner)
    assert list(legal_plays("deerpark", trump, hand, [led_partner])) == [small_partner]
    # in Hucklebuck the same jack is just a card of its suit
    assert set(legal_plays("hucklebuck", trump, hand, [led_partner])) == {left, small_partner}


@pytest.mark.parametrize("game", [*PLAIN_GAMES, "deerpark"])
def test_legal_plays_follow_else_anything(game: str) -> None:
    hand = parse_cards("2H 9H AS KC QD")
    assert str(legal_plays(game, Suit.SPADES, hand, parse_cards("KH"))) == "2H 9H"
    # void in the suit led: anything, trump included (no duty to trump, DEF #25, #61)
    assert len(legal_plays(game, Suit.SPADES, parse_cards("2H 9H KC"), parse_cards("AD"))) == 3
    # leading: anything
    assert len(legal_plays(game, Suit.SPADES, hand)) == 5


def test_bad_trick_input_is_a_clear_error() -> None:
    with pytest.raises(CardError, match="appears twice"):
        trick_winner("hucklebuck", Suit.SPADES, parse_cards("AS AS"))
    with pytest.raises(CardError, match="1 to 8 cards"):
        trick_winner("hucklebuck", Suit.SPADES, [])
    with pytest.raises(CardError, match="both in the hand and on the table"):
        legal_plays("hucklebuck", Suit.SPADES, parse_cards("AS KS"), parse_cards("AS"))
    with pytest.raises(CardError, match="trump: 7 is not a suit"):
        trick_winner("hucklebuck", 7, parse_cards("AS"))
    with pytest.raises(ValueError, match="not a game"):
        trick_winner("bridge", Suit.SPADES, parse_cards("AS"))


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda c: c.trick_winner(3, 0, b"\x00\x01"), "game id"),
        (lambda c: c.trick_winner(0, 4, b"\x00\x01"), "trump"),
        (lambda c: c.trick_winner(0, 0, b"\x00\x34"), "card number"),
        (lambda c: c.trick_winner(0, 0, b""), "trick length"),
        (lambda c: c.trick_winner(0, 0, bytes(9)), "trick length"),
        (lambda c: c.trick_winner(0, 0, b"\x05\x05"), "twice"),
        (lambda c: c.legal_mask(0, 0, 60, 1), "card number"),
        (lambda c: c.legal_mask(0, 0, 255, 1 << 52), "bits above 51"),
        (lambda c: c.legal_mask(0, 0, 255, -1), "bits above 51"),
        (lambda c: c.legal_mask(0, 0, 3, 1 << 3), "also in the hand"),
        (lambda c: c.trick_winners(0, b"\x00\x00", b"\x01", bytes(16)), "missing"),
        (lambda c: c.trick_winners(0, b"\x00", b"\x01", bytes(4)), "missing"),
        (lambda c: c.legal_masks(0, b"\x00", b"", array("Q", [1])), "missing"),
    ],
)
def test_core_boundary_rejects_bad_input(call: object, message: str) -> None:
    with pytest.raises(CoreInputError, match=message):
        call(get_core())  # type: ignore[operator]


def test_batch_error_reports_the_bad_item() -> None:
    core = get_core()
    cards = bytes([0, 1] + [0] * 6 + [5, 5] + [0] * 6)
    with pytest.raises(CoreInputError) as info:
        core.trick_winners(0, b"\x00\x00", b"\x02\x02", cards)
    assert info.value.index == 1
    with pytest.raises(CoreInputError) as info:
        core.legal_masks(2, b"\x00\x09", b"\xff\xff", array("Q", [1, 2]))
    assert info.value.index == 1 and "trump" in str(info.value)


def test_batches_agree_with_single_calls() -> None:
    tricks = [
        (Suit.HEARTS, parse_cards("AH JD KH")),
        (Suit.CLUBS, parse_cards("AH JS KH")),
        (Suit.SPADES, parse_cards("QD KD 2S")),
    ]
    for game in ("hucklebuck", "deerpark"):
        assert trick_winners(game, tricks) == [trick_winner(game, t, c) for t, c in tricks]
    positions = [
        (Suit.HEARTS, parse_cards("JD 2C"), parse_cards("AH")[0]),
        (Suit.HEARTS, parse_cards("JD 2C"), None),
    ]
    from hucklebuck import CardSet

    sets = [(t, CardSet(h), led) for t, h, led in positions]
    got = legal_plays_batch("deerpark", sets)
    assert [str(s) for s in got] == ["JD", "2C JD"]
    assert trick_winners("deerpark", []) == []


@pytest.mark.single_core
@pytest.mark.skipif("c" not in __import__("hucklebuck").available(), reason="C core not built")
def test_rules_tables_agree_between_cores() -> None:
    import hucklebuck
    from hucklebuck._core._py import PythonCore

    with hucklebuck.using("c") as c_core:
        for game in range(3):
            for trump in range(4):
                assert c_core.rules(game, trump) == PythonCore().rules(game, trump)


@pytest.mark.parametrize("trump", list(Suit))
@pytest.mark.parametrize("players", [3, 7])
def test_standard_euchre_order_in_every_trump_suit(trump: Suit, players: int) -> None:
    """Right bower, left bower, then A K Q 10 9 ... of trump; the same-colour suit has no jack;
    any trump beats any plain card (standard Euchre, R7, R14, R15)."""
    from hucklebuck import pack

    deck = pack("deerpark", players)
    low_ranks = sorted({c.rank for c in deck}, reverse=True)
    trump_order = [Card(Rank.JACK, trump), Card(Rank.JACK, trump.partner)] + [
        Card(r, trump) for r in low_ranks if r != Rank.JACK
    ]
    for i, high in enumerate(trump_order):
        for low in trump_order[i + 1 :]:
            assert trick_winner("deerpark", trump, [low, high]) == 1
            assert trick_winner("deerpark", trump, [high, low]) == 0
    weakest_trump = trump_order[-1]
    for plain in deck:
        if plain not in trump_order:
            assert trick_winner("deerpark", trump, [plain, weakest_trump]) == 1
    partner_suit = [c for c in deck if c.suit is trump.partner and c.rank != Rank.JACK]
    assert Card(Rank.JACK, trump.partner) not in legal_plays(
        "deerpark", trump, [*partner_suit[:1], Card(Rank.JACK, trump.partner)], [partner_suit[1]]
    )
