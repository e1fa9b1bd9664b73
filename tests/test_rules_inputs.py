"""The input checks of the trick engine at their boundary values, as explicit
examples (not left to chance): card index 0 (2C) and 51 (AS) in tricks and
hands, lead 51 / 52 / 254 / 255 at the cores, game ids 2 / 3 / 1.0, trump 3 / 4
in a batch, and the documented error classes of the public functions."""

from __future__ import annotations

from array import array
from typing import Any

import pytest

from hucklebuck import Card, CardSet, Suit, parse_cards
from hucklebuck._core import get_core
from hucklebuck.errors import CardError, CoreInputError
from hucklebuck.tricks import legal_plays, legal_plays_batch, pack_tricks, trick_winner, trick_winners

ALL = [Card.from_index(i) for i in range(52)]
GAMES = ("hucklebuck", "buckem", "deerpark")


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("where", [0, 1, 2])
def test_a_trick_holding_2c_is_not_a_duplicate(game: str, where: int) -> None:
    # 2C is card index 0, the lowest bit of the duplicate check.
    cards = list(parse_cards("3H 4H"))
    cards.insert(where, parse_cards("2C")[0])
    w = trick_winner(game, Suit.CLUBS, cards)
    assert w == where  # the only club, and clubs are trump
    assert trick_winners(game, [(Suit.CLUBS, cards)]) == [w]
    _, lens, packed = pack_tricks([(Suit.CLUBS, cards)])
    assert lens == b"\x03" and packed[:3] == bytes(c.index for c in cards)


@pytest.mark.parametrize("card", ALL, ids=[c.code for c in ALL])
def test_every_card_leads_a_two_card_trick(card: Card) -> None:
    other = parse_cards("KD" if card.code != "KD" else "QD")[0]
    assert trick_winner("hucklebuck", "D", [card, other]) in (0, 1)
    with pytest.raises(CardError, match=f"card {card.code} appears twice"):
        trick_winner("hucklebuck", "D", [card, other, card])


@pytest.mark.parametrize("game", GAMES)
def test_2c_on_the_table_and_in_the_hand(game: str) -> None:
    assert str(legal_plays(game, "S", parse_cards("3C AH"), parse_cards("2C"))) == "3C"
    assert str(legal_plays(game, "S", parse_cards("2C AH"), parse_cards("3C"))) == "2C"
    got = legal_plays_batch(game, [("S", parse_cards("3C AH"), parse_cards("2C")[0])])
    assert [str(s) for s in got] == ["3C"]
    with pytest.raises(CardError, match="card 2C is both in the hand and on the table"):
        legal_plays(game, "S", parse_cards("2C AH"), parse_cards("2C"))


@pytest.mark.parametrize("led", ["2C", "AS", "JH"])
def test_legal_plays_batch_refuses_a_led_card_in_the_hand_as_a_card_error(led: str) -> None:
    hand = parse_cards(f"{led} 7D") if led != "7D" else parse_cards("7D 8D")
    with pytest.raises(CardError, match=f"positions item 1: card {led} is both in the hand and on the table"):
        legal_plays_batch("hucklebuck", [("S", parse_cards("AD"), None), ("S", hand, parse_cards(led)[0])])


@pytest.mark.parametrize(
    ("positions", "message"),
    [
        ([("X", parse_cards("AD"), None)], "positions item 0 trump"),
        ([("S", ["AD"], None)], "positions item 0 hand"),
        ([("S", parse_cards("AD"), "KD")], "positions item 0 led card"),
        ([("S", parse_cards("AD"))], "positions item 0 must be a tuple of 3"),
    ],
)
def test_legal_plays_batch_errors_are_card_errors(positions: Any, message: str) -> None:
    with pytest.raises(CardError, match=message):
        legal_plays_batch("hucklebuck", positions)


# ------------------------------------------------------------------ the cores themselves
@pytest.mark.parametrize(
    ("lead", "hand", "legal"),
    [
        (51, (1 << 3) | (1 << 50), 1 << 50),  # AS led: follow with KS
        (0, (1 << 1) | (1 << 50), 1 << 1),  # 2C led: follow with 3C
        (255, (1 << 3) | (1 << 50), (1 << 3) | (1 << 50)),  # NO_LEAD: anything
    ],
)
def test_core_lead_in_range(lead: int, hand: int, legal: int) -> None:
    core = get_core()
    assert core.legal_mask(0, 0, lead, hand) == legal
    assert list(core.legal_masks(0, b"\x00", bytes([lead]), array("Q", [hand]))) == [legal]


@pytest.mark.parametrize("lead", [52, 53, 254])
def test_core_lead_out_of_range_is_a_core_input_error(lead: int) -> None:
    core = get_core()
    with pytest.raises(CoreInputError, match=r"^item 0: card number outside 0\.\.51$"):
        core.legal_mask(0, 0, lead, 1 << 3)
    with pytest.raises(CoreInputError, match=r"^item 1: card number outside 0\.\.51$"):
        core.legal_masks(0, b"\x00\x00", bytes([255, lead]), array("Q", [8, 8]))


@pytest.mark.parametrize("card", [51, 52])
def test_core_card_number_boundary(card: int) -> None:
    core = get_core()
    if card <= 51:
        assert core.trick_winner(0, 3, bytes([0, card])) == 1  # AS beats 2C with spades trump
    else:
        with pytest.raises(CoreInputError, match=r"card number outside 0\.\.51"):
            core.trick_winner(0, 3, bytes([0, card]))


@pytest.mark.parametrize("game", [3, -1, 1.0, 2.0, "1", None])
def test_core_refuses_a_game_id_that_is_not_0_to_2(game: Any) -> None:
    core = get_core()
    msg = r"^item 0: game id out of range \(expected 0 hucklebuck, 1 buckem, 2 deerpark\)$"
    for call in (
        lambda: core.trick_winner(game, 0, b"\x00\x01"),
        lambda: core.legal_mask(game, 0, 255, 8),
        lambda: core.trick_winners(game, b"\x00", b"\x02", b"\x00\x01" + bytes(6)),
        lambda: core.legal_masks(game, b"\x00", b"\xff", array("Q", [8])),
    ):
        with pytest.raises(CoreInputError, match=msg):
            call()


def test_core_game_id_2_is_deerpark() -> None:
    # JD with hearts trump is the left bower in Deer Park only.
    jd, ah = parse_cards("JD AH")
    assert get_core().trick_winner(2, 2, bytes([ah.index, jd.index])) == 1
    assert get_core().trick_winner(0, 2, bytes([ah.index, jd.index])) == 0


@pytest.mark.parametrize("trump", [3, 4, 9, 255])
def test_core_batch_trump_boundary_and_message(trump: int) -> None:
    core = get_core()
    cards = bytes([0, 1] + [0] * 6 + [2, 3] + [0] * 6)
    if trump == 3:
        assert core.trick_winners(0, bytes([0, trump]), b"\x02\x02", cards) == b"\x01\x01"
        assert list(core.legal_masks(0, bytes([0, trump]), b"\xff\xff", array("Q", [1, 2]))) == [1, 2]
        return
    msg = r"^item 1: trump suit out of range \(expected 0\.\.3\)$"
    with pytest.raises(CoreInputError, match=msg) as info:
        core.trick_winners(0, bytes([0, trump]), b"\x02\x02", cards)
    assert info.value.index == 1
    with pytest.raises(CoreInputError, match=msg) as info:
        core.legal_masks(0, bytes([0, trump]), b"\xff\xff", array("Q", [1, 2]))
    assert info.value.index == 1


def test_public_batch_with_a_bad_trump_names_the_item() -> None:
    with pytest.raises(CardError, match="tricks item 1 trump"):
        trick_winners("hucklebuck", [("S", parse_cards("AS KS")), (4, parse_cards("AH KH"))])
    tricks = [("S", parse_cards("2C AS")), (Suit.SPADES, parse_cards("AH KH"))]
    assert trick_winners("hucklebuck", tricks) == [1, 0]
    assert str(CardSet(parse_cards("2C"))) == "2C"


@pytest.mark.parametrize("bad", ["AS KS", b"AS", 7, None])
def test_a_trick_that_is_not_a_sequence_of_cards(bad: Any) -> None:
    shown = {"AS KS": "'AS KS'", b"AS": "b'AS'", 7: "7", None: "None"}[bad]
    with pytest.raises(CardError, match=f"^cards must be a sequence of Cards, not {shown}"):
        trick_winner("hucklebuck", "S", bad)
    with pytest.raises(CardError, match=f"^trick must be a sequence of Cards, not {shown}"):
        legal_plays("hucklebuck", "S", parse_cards("AS"), bad)


@pytest.mark.parametrize("bad", ["AS KS", b"AS", 7, None])
def test_a_batch_that_is_not_an_iterable_of_tuples(bad: Any) -> None:
    shown = {"AS KS": "'AS KS'", b"AS": "b'AS'", 7: "7", None: "None"}[bad]
    with pytest.raises(CardError, match=f"^tricks must be an iterable of tuples, not {shown}"):
        trick_winners("hucklebuck", bad)
    with pytest.raises(CardError, match=f"^positions must be an iterable of tuples, not {shown}"):
        legal_plays_batch("hucklebuck", bad)


@pytest.mark.parametrize(
    ("items", "where", "shown"),
    [
        (["AS", "KS"], 0, "'AS'"),
        ([parse_cards("AS")[0], 5], 1, "5"),
        ([parse_cards("AS")[0], None], 1, "None"),
    ],
)
def test_each_trick_item_must_be_a_card(items: list[Any], where: int, shown: str) -> None:
    with pytest.raises(CardError, match=f"^cards item {where} must be a Card, not {shown}"):
        trick_winner("hucklebuck", "S", items)
    with pytest.raises(CardError, match=f"^trick item {where} must be a Card, not {shown}"):
        legal_plays("hucklebuck", "S", parse_cards("2H"), items)
    with pytest.raises(CardError, match=f"^tricks item 0 cards item {where} must be a Card"):
        trick_winners("hucklebuck", [("S", items)])


def test_a_card_both_in_hand_and_trick_names_the_first_in_play_order() -> None:
    with pytest.raises(CardError, match=r"^card KS is both in the hand and on the table$"):
        legal_plays("hucklebuck", "S", parse_cards("AS KS 2H"), parse_cards("KS AS"))
    with pytest.raises(CardError, match=r"^card AS is both in the hand and on the table$"):
        legal_plays("hucklebuck", "S", parse_cards("AS KS 2H"), parse_cards("AS KS"))


# ------------------------------------------------------------------ the cores' other entry points
@pytest.mark.parametrize("length", [1, 2, 7, 8])
def test_core_trick_lengths_in_range(length: int) -> None:
    core = get_core()
    cards = bytes(range(length))  # 2C 3C ...: the highest club wins
    assert core.trick_winner(1, 0, cards) == length - 1
    packed = cards + bytes(8 - length)
    assert core.trick_winners(1, b"\x00", bytes([length]), packed) == bytes([length - 1])
    twice = cards[:-1] + cards[:1] if length > 1 else cards
    if length > 1:  # a full-length trick with a card twice is refused for the card, not the length
        with pytest.raises(CoreInputError, match=r"^item 0: the same card appears twice in one trick$"):
            core.trick_winner(1, 0, twice)
        with pytest.raises(CoreInputError, match=r"^item 0: the same card appears twice in one trick$"):
            core.trick_winners(1, b"\x00", bytes([length]), twice + bytes(8 - length))


@pytest.mark.parametrize("length", [0, 9])
def test_core_trick_lengths_out_of_range(length: int) -> None:
    core = get_core()
    with pytest.raises(CoreInputError, match=r"^item 0: trick length outside 1\.\.8$"):
        core.trick_winner(1, 0, bytes(range(length)))
    if length == 0:
        with pytest.raises(CoreInputError, match=r"^item 0: trick length outside 1\.\.8$"):
            core.trick_winners(1, b"\x00", b"\x00", bytes(8))


def test_core_prng_entry_points() -> None:
    core = get_core()
    a = core.rng_fill(5, 4)
    assert len(a) == 4 and a == core.rng_fill(5, 4) and a != core.rng_fill(6, 4)
    cards = bytes(range(52))
    shuffled = core.rng_shuffle(5, cards)
    assert sorted(shuffled) == list(cards) and shuffled != cards and shuffled == core.rng_shuffle(5, cards)


def test_core_mc_eval_has_no_node_limit_by_default() -> None:
    core = get_core()
    known = [0b11111 << 26, 0, 0]
    pool = ((1 << 52) - 1) & ~known[0]
    default = core.mc_eval(0, 3, known, [5, 5, 5], pool, 0, 0, 1, 4, 1)
    assert default == core.mc_eval(0, 3, known, [5, 5, 5], pool, 0, 0, 1, 4, 1, 0)
    assert sum(default) == 4 and len(default) == 6
