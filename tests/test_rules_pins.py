"""Behaviours a mutation study found pinned by nothing (issue 61), on both cores:

* a tie at the top past the Hucklebuck target under each ``tie_break``, with the
  hand's bidder in the tie, at the target below it, and far below it (DEF #17);
* hand masks of 53 bits and more: refused alike by both cores' batch
  ``legal_masks`` and, in the user's words, by ``legal_plays`` and
  ``legal_plays_batch`` given a ``CardSet`` forced past its own checks;
* the raw ``legal_mask`` of each core given int subclasses at its bounds (255,
  "no lead", is accepted);
* an empty trick, in every input form, gets "a trick holds 1 to 8 cards" from
  ``trick_winner``, ``pack_tricks`` and ``trick_winners``.

Each test names the small change to the code it catches (``hucklebuck.bench.mutation.KNOWN``
holds them as known mutants).
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterable
from typing import Any

import pytest

import hucklebuck
from hucklebuck import Card, CardError, CardSet, Suit, parse_cards
from hucklebuck._core import get_core, using
from hucklebuck.errors import CoreInputError
from hucklebuck.games import HucklebuckGame
from hucklebuck.games.base import GameOverEvent
from hucklebuck.tricks import legal_plays, legal_plays_batch, pack_tricks, trick_winner, trick_winners

HAS_C = "c" in hucklebuck.available()

# ------------------------------------------------------------------ a tie at the top (DEF #17)
#: Five players, dealer 0: seat 1 bids 2 and names spades, seat 4 drops.  Seat 1 (the
#: bidder) takes no trick (-5), seats 2 and 3 two each (+2), seat 0 one (+1).  The same
#: hand is the conformance cases ``hucklebuck/end/tie-*``.
TIE5 = ["AH KH 2D 3D 4C", "2H 3H 4H 2C 3C", "AS KS 4D 5D 6D", "QS JS 7D 8D TC", "AC KC QC JC 9H"]
TIE5_ACTIONS = [
    *("1 bid 2", "2 pass", "3 pass", "4 pass", "0 pass", "1 trump S"),
    *("2 stay 0", "3 stay 0", "4 drop", "0 stay 0", "1 stay 0"),
    *("1 play 2H", "2 play 4D", "3 play TC", "0 play AH"),
    *("0 play KH", "1 play 3H", "2 play AS", "3 play 7D"),
    *("2 play KS", "3 play QS", "0 play 4C", "1 play 4H"),
    *("2 play 5D", "3 play 8D", "0 play 2D", "1 play 2C"),
    *("3 play JS", "0 play 3D", "1 play 3C", "2 play 6D"),
]
DELTA = (1, -5, 2, 2, 0)
FAR_BELOW = [0, 4, 13, 13, -5]  # ends [1, -1, 15, 15, -5]: the bidder on -1, seats 2 and 3 tied on 15
BELOW_TIE = [0, 20, 14, 14, -5]  # ends [1, 15, 16, 16, -5]: the bidder at the target, below the tie
IN_TIE = [0, 20, 13, 13, -5]  # ends [1, 15, 15, 15, -5]: the bidder in a three-way tie


def _deal(hands: list[str]) -> dict[str, Any]:
    used = {c for h in hands for c in h.split()}
    stock = [Card.from_index(i).code for i in range(52) if Card.from_index(i).code not in used]
    return {"hands": [h.split() for h in hands], "stock": stock}


def _play_tie(start: list[int], options: dict[str, str], actions: list[str] = TIE5_ACTIONS) -> HucklebuckGame:
    game = HucklebuckGame(5, scores=start, options=options, deal=_deal(TIE5))
    for a in actions:
        game.apply(a)
    return game


@pytest.mark.parametrize(
    ("tie_break", "start", "winners", "why"),
    [
        # highest_then_bidder (the default): the bidder wins a tie only from inside it
        ("highest_then_bidder", FAR_BELOW, (), None),
        ("highest_then_bidder", BELOW_TIE, (), None),
        ("highest_then_bidder", IN_TIE, (1,), "target, tie broken for the bidder"),
        # bidder_first: the bidder at the target wins, tie or not; else a lone player there
        ("bidder_first", FAR_BELOW, (), None),
        ("bidder_first", BELOW_TIE, (1,), "target, bidder first"),
        ("bidder_first", IN_TIE, (1,), "target, bidder first"),
        # shared: everyone tied at the top, bidder or not, and only them
        ("shared", FAR_BELOW, (2, 3), "target, shared"),
        ("shared", BELOW_TIE, (2, 3), "target, shared"),
        ("shared", IN_TIE, (1, 2, 3), "target, shared"),
    ],
)
def test_a_tie_at_the_top_under_each_tie_break(
    tie_break: str, start: list[int], winners: tuple[int, ...], why: str | None
) -> None:
    # catches: "bidder in tied" widened to any bidder (or to a bidder at the target), and
    # "shared" widened to everyone at the target
    game = _play_tie(start, {"tie_break": tie_break})
    result = game.results[-1]
    assert result.bidder == 1 and result.delta == DELTA
    assert result.scores == tuple(a + d for a, d in zip(start, DELTA, strict=True))
    assert game.winners == winners and game.is_over is bool(winners)
    over = [e for e in game.events if isinstance(e, GameOverEvent)]
    assert [(e.winners, e.reason) for e in over] == ([(winners, why)] if winners else [])


def test_the_issues_hand_plays_on_by_default() -> None:
    game = _play_tie(FAR_BELOW, {})
    assert game.results[-1].scores == (1, -1, 15, 15, -5)
    assert not game.is_over and game.winners == ()
    game.next_hand()  # play goes on with another hand
    assert game.to_act is not None


def test_a_lone_bidder_far_below_a_tie_does_not_win_it() -> None:
    drops = [*TIE5_ACTIONS[:6], "2 drop", "3 drop", "4 drop", "0 drop"]
    game = _play_tie([1, -6, 15, 15, -5], {}, drops)
    assert game.results[-1].scores == (1, -1, 15, 15, -5) and game.results[-1].bidder == 1
    assert not game.is_over


# ------------------------------------------------------------------ masks of 53 bits and more
WIDE = [1 << 52, (1 << 52) | 8, (1 << 53) - 1, 1 << 53, 1 << 63, (1 << 64) - 1]


def _raw_set(mask: object) -> CardSet:
    """A CardSet forced past its own checks (as a careless caller could build one)."""
    cards = object.__new__(CardSet)
    object.__setattr__(cards, "_mask", mask)
    return cards


@pytest.mark.parametrize("hand", WIDE, ids=hex)
@pytest.mark.parametrize("lead", [255, 51])
def test_each_core_batch_refuses_a_hand_above_52_bits(hand: int, lead: int) -> None:
    # catches: the Python core's "all cards" constant widened to 53 bits
    core = get_core()
    good = 1 << 3
    with pytest.raises(CoreInputError, match=r"^item 1: hand mask has bits above 51$") as info:
        core.legal_masks(0, b"\x00\x00", bytes([255, lead]), array("Q", [good, hand]))
    assert info.value.index == 1
    with pytest.raises(CoreInputError, match=r"^item 0: hand mask has bits above 51$"):
        core.legal_mask(0, 0, lead, hand)
    top = (1 << 52) - 1 - (1 << 51 if lead == 51 else 0)  # the most a hand may hold beside the lead
    assert list(core.legal_masks(0, b"\x00", bytes([lead]), array("Q", [top]))) == [
        core.legal_mask(0, 0, lead, top)
    ]


@pytest.mark.single_core
@pytest.mark.skipif(not HAS_C, reason="needs both cores to compare")
def test_both_cores_answer_the_batch_alike_around_bit_52() -> None:
    hands = [0, 1, (1 << 52) - 1, *WIDE]
    answers = {}
    for name in ("c", "python"):
        with using(name):
            core = get_core()
            got: list[object] = []
            for hand in hands:
                for lead in (255, 0, 51):
                    leads = bytes([255, lead])
                    try:
                        got.append(list(core.legal_masks(2, b"\x01\x02", leads, array("Q", [2, hand]))))
                    except CoreInputError as e:
                        got.append([str(e), e.index])
            answers[name] = got
    assert answers["c"] == answers["python"]


@pytest.mark.parametrize("mask", [1 << 52, (1 << 52) | 1, (1 << 53) - 1, 1 << 63, True, -1])
@pytest.mark.parametrize("trick", ["", "2C", "AS"])
def test_legal_plays_refuses_a_cardset_above_52_bits_in_the_users_words(mask: int, trick: str) -> None:
    # catches: tricks' "all cards" constant widened to 53 bits (a core error, or "both in the
    # hand and on the table", came instead)
    message = f"hand is not a valid set of cards (its mask is {mask!r}, not 52 bits)"
    with pytest.raises(CardError) as info:
        legal_plays("hucklebuck", Suit.SPADES, _raw_set(mask), parse_cards(trick))
    assert str(info.value) == message
    with pytest.raises(CardError) as info:
        legal_plays_batch(
            "hucklebuck",
            [("S", parse_cards("AH"), None), ("S", _raw_set(mask), parse_cards(trick)[0] if trick else None)],
        )
    assert str(info.value) == f"positions item 1 {message}"


def test_legal_plays_takes_the_whole_52_bit_hand() -> None:
    everything = _raw_set((1 << 52) - 1)
    assert legal_plays("buckem", "S", everything) == CardSet.from_mask((1 << 52) - 1)
    assert legal_plays_batch("buckem", [("S", everything, None)]) == [CardSet.from_mask((1 << 52) - 1)]


# ------------------------------------------------------------------ the raw legal_mask at its bounds
class _Int(int):
    """An int subclass, as an IntEnum member or a numpy-free wrapper would be."""


@pytest.mark.parametrize(
    ("args", "answer"),
    [
        ((0, 0, 255, 8), 8),  # no lead: the whole hand
        ((0, 0, 254, 8), "item 0: card number outside 0..51"),
        ((0, 0, 256, 8), "item 0: card number outside 0..51"),
        ((0, 0, 51, (1 << 52) - 1 - (1 << 51)), (1 << 51) - (1 << 39)),  # AS led: the other spades
        ((0, 0, 52, 8), "item 0: card number outside 0..51"),
        ((0, 0, 255, (1 << 52) - 1), (1 << 52) - 1),
        ((0, 0, 255, 1 << 52), "item 0: hand mask has bits above 51"),
        ((2, 3, 255, 8), 8),
        ((3, 0, 255, 8), "item 0: game id out of range (expected 0 hucklebuck, 1 buckem, 2 deerpark)"),
        ((0, 4, 255, 8), "item 0: trump suit out of range (expected 0..3)"),
    ],
)
def test_each_core_legal_mask_takes_int_subclasses_like_ints(args: tuple[int, ...], answer: object) -> None:
    # catches: the Python core's bound for the lead (255) or the hand (2**52 - 1) moved by one
    core = get_core()
    for form in (args, tuple(_Int(a) for a in args)):
        if isinstance(answer, int):
            assert core.legal_mask(*form) == answer
        else:
            with pytest.raises(CoreInputError) as info:
                core.legal_mask(*form)
            assert str(info.value) == answer


# ------------------------------------------------------------------ an empty trick, every form
EMPTY_FORMS: dict[str, Callable[[], Iterable[Card]]] = {
    "list": list,
    "tuple": tuple,
    "iterator": lambda: iter(()),
    "generator": lambda: (c for c in ()),  # type: ignore[var-annotated]
    "CardSet": CardSet,
}


@pytest.mark.parametrize("form", EMPTY_FORMS)
def test_an_empty_trick_holds_1_to_8_cards_in_every_form(form: str) -> None:
    # catches: the packing of tricks no longer checking for at least one card
    empty = EMPTY_FORMS[form]
    with pytest.raises(CardError) as info:
        trick_winner("deerpark", Suit.HEARTS, empty())
    assert str(info.value) == "cards: a trick holds 1 to 8 cards, not 0"
    with pytest.raises(CardError) as info:
        pack_tricks([("S", parse_cards("AS KS")), ("S", empty())])  # type: ignore[list-item]
    assert str(info.value) == "tricks item 1 cards: a trick holds 1 to 8 cards, not 0"
    for game in ("hucklebuck", "buckem", "deerpark"):
        with pytest.raises(CardError) as info:
            trick_winners(game, [("H", empty())])  # type: ignore[list-item]
        assert str(info.value) == "tricks item 0 cards: a trick holds 1 to 8 cards, not 0"


@pytest.mark.parametrize("form", ["list", "tuple", "iterator", "generator", "CardSet"])
def test_one_to_eight_cards_are_a_trick_and_nine_are_not_in_every_form(form: str) -> None:
    makers: dict[str, Callable[[Iterable[Card]], Any]] = {
        "list": list, "tuple": tuple, "iterator": iter,
        "generator": lambda cs: (c for c in cs), "CardSet": CardSet,
    }  # fmt: skip
    make = makers[form]
    one = parse_cards("2C")  # card 0: the lowest bit
    assert trick_winner("buckem", "S", make(one)) == 0
    assert trick_winners("buckem", [("S", make(one))]) == [0]
    assert pack_tricks([("S", make(one))]) == (b"\x03", b"\x01", bytes(8))
    nine = parse_cards("2C 3C 4C 5C 6C 7C 8C 9C TC")
    eight = nine[:8]  # Buck 'Em seats eight
    assert trick_winner("buckem", "S", make(eight)) == 7
    assert trick_winners("buckem", [("S", make(eight))]) == [7]
    assert legal_plays("buckem", "S", parse_cards("AC AS"), make(eight)) == CardSet(parse_cards("AC"))
    with pytest.raises(CardError) as info:
        legal_plays("buckem", "S", parse_cards("AS"), make(nine))
    assert str(info.value) == "trick: a trick holds 0 to 8 cards, not 9"
    with pytest.raises(CardError) as info:
        trick_winner("buckem", "S", make(nine))
    assert str(info.value) == "cards: a trick holds 1 to 8 cards, not 9"
    with pytest.raises(CardError) as info:
        pack_tricks([("S", make(nine))])
    assert str(info.value) == "tricks item 0 cards: a trick holds 1 to 8 cards, not 9"


@pytest.mark.parametrize("form", ["list", "tuple", "iterator", "generator", "CardSet"])
def test_an_empty_trick_is_fine_for_legal_plays(form: str) -> None:
    # the one place a trick may be empty: nobody has led yet
    empty = EMPTY_FORMS[form]
    assert legal_plays("hucklebuck", "S", parse_cards("2H AS"), empty()) == CardSet(parse_cards("2H AS"))


def test_an_empty_batch_is_an_empty_answer() -> None:
    # the batch functions' other boundary: no tricks, no positions (each core sizes its buffers)
    assert trick_winners("hucklebuck", []) == [] and legal_plays_batch("deerpark", []) == []
    assert pack_tricks([]) == (b"", b"", b"")
    core = get_core()
    assert core.trick_winners(0, b"", b"", b"") == b""
    assert list(core.legal_masks(0, b"", b"", array("Q"))) == []
