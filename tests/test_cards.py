from __future__ import annotations

import copy
import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hucklebuck import Card, CardError, CardSet, Rank, Suit, parse_card, parse_cards, parse_suit


def test_canonical_codes_round_trip_for_all_52_cards() -> None:
    codes = [r + s for s in "CDHS" for r in "23456789TJQKA"]
    cards = [Card.parse(c) for c in codes]
    assert [c.code for c in cards] == codes
    assert [c.index for c in cards] == list(range(52))
    assert sorted(cards) == cards  # canonical order: suit C D H S, then rank 2..A


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("10h", "TH"),
        ("10♥", "TH"),
        ("ah", "AH"),
        ("Qs", "QS"),
        (" 2c ", "2C"),
        ("t♦", "TD"),
        ("K♤", "KS"),
        ("TH", "TH"),
    ],
)
def test_lenient_parsing_accepts_what_people_type(text: str, code: str) -> None:
    assert parse_card(text).code == code


@pytest.mark.parametrize("text", ["th", "10H", "1H", "AX", "", "A", "HA", "ZZ", "TTH"])
def test_strict_parse_rejects_anything_but_protocol_notation(text: str) -> None:
    with pytest.raises(CardError) as info:
        Card.parse(text)
    assert repr(text) in str(info.value)  # the message names the bad input


@pytest.mark.parametrize("text", ["1h", "11h", "xs", "A", "♥", "10", "Aq"])
def test_lenient_parse_errors_name_the_input(text: str) -> None:
    with pytest.raises(CardError, match="is not a card"):
        parse_card(text)


def test_non_string_is_rejected_with_its_type() -> None:
    with pytest.raises(CardError, match="int"):
        parse_card(12)  # type: ignore[arg-type]


def test_display_form() -> None:
    assert parse_card("TH").display == "10♥"
    assert parse_card("as").display == "A♠"
    assert str(parse_card("10c")) == "TC"
    assert repr(parse_card("10c")) == "Card('TC')"


def test_card_is_immutable_hashable_and_a_singleton() -> None:
    c = Card(Rank.ACE, Suit.SPADES)
    assert c is Card.parse("AS") is Card.from_index(51)
    assert {c: 1}[parse_card("as")] == 1
    with pytest.raises(AttributeError):
        c._index = 3  # type: ignore[misc]
    assert pickle.loads(pickle.dumps(c)) is c
    assert copy.deepcopy(c) is c


def test_card_constructor_and_index_bounds() -> None:
    with pytest.raises(CardError):
        Card(15, Suit.SPADES)
    with pytest.raises(CardError):
        Card(Rank.ACE, 4)
    with pytest.raises(CardError):
        Card.from_index(52)
    with pytest.raises(CardError):
        Card.from_index(True)


def test_suits() -> None:
    assert parse_suit("♥") is Suit.HEARTS
    assert Suit.parse("s") is Suit.SPADES
    assert Suit.CLUBS.partner is Suit.SPADES and Suit.HEARTS.partner is Suit.DIAMONDS
    with pytest.raises(CardError, match="'X' is not a suit"):
        parse_suit("X")


def test_cardset_operations() -> None:
    a = CardSet.parse("AS KS 2C")
    b = CardSet.parse("KS QH")
    assert str(a) == "2C KS AS" and len(a) == 3
    assert str(a | b) == "2C QH KS AS"
    assert str(a & b) == "KS"
    assert str(a - b) == "2C AS"
    assert parse_card("AS") in a and parse_card("QH") not in a
    assert a.add(parse_card("QH")) == CardSet.parse("QH AS KS 2C")
    assert str(a.remove(parse_card("AS"))) == "2C KS"
    assert str(a.of_suit(Suit.SPADES)) == "KS AS"
    with pytest.raises(CardError, match="AH is not in the set"):
        a.remove(parse_card("AH"))
    with pytest.raises(CardError, match="appears twice"):
        CardSet(parse_cards("AS as"))
    with pytest.raises(CardError):
        CardSet.from_mask(1 << 52)
    assert pickle.loads(pickle.dumps(a)) == a


@given(st.integers(min_value=0, max_value=(1 << 52) - 1))
def test_cardset_mask_round_trip(mask: int) -> None:
    s = CardSet.from_mask(mask)
    assert CardSet(list(s)).mask == mask
    assert list(s) == sorted(s)
    assert CardSet.parse(str(s)) == s


def test_every_card_displays_as_its_rank_and_suit_glyph() -> None:
    """Each card's friendly form is its rank's (``10`` for the ten) followed by its suit's glyph,
    the same for a card parsed, made from its index or taken from a set."""
    from hucklebuck.cards import Card, CardSet, Rank, Suit

    seen = set()
    for card in CardSet.from_mask((1 << 52) - 1):
        want = ("10" if card.rank is Rank.TEN else card.rank.symbol) + "♣♦♥♠"[card.suit.value]
        assert card.display == want == Card.parse(card.code).display
        seen.add(card.display)
    assert len(seen) == 52
    assert Card.parse("TH").display == "10♥" and Card(Rank.ACE, Suit.SPADES).display == "A♠"
