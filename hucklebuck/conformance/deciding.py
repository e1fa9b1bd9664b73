"""The deciding boundaries of the rules: for each rule decision (``DEF #n``) or
option value whose outcome turns on a boundary, the case that sits on it.

A *boundary* is the smallest situation that separates two outcomes of a rule:
a score of exactly 0 against -1, a pot of 8 against 7, a lock reached during
play at exactly ``lock_at``.  Each one is declared here, and the suite must
hold a case that names it under ``"deciding"``; the lint reports a boundary no
case names, a case naming a boundary that is not declared, and a case that
names a boundary without citing its decision or setting its option.

Every non-default value of a protocol option is a boundary of its own (named
``"<game>.<option>=<value>"``, ``int`` for "another integer"): its case is one
whose answer changes when the option is left at its default.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Final

from .spec import OPTION_VALUES

__all__ = ["BOUNDARIES", "NOT_DECIDABLE", "Boundary"]


@dataclass(frozen=True)
class Boundary:
    """One deciding boundary."""

    #: What separates the two outcomes, in a sentence.
    what: str
    #: Decisions a case naming it must cite (any one of them).
    defs: tuple[int, ...] = ()
    #: An option ``(name, value)`` a case naming it must set (``"int"``: any
    #: integer other than the default).
    option: tuple[str, Any] | None = None


def _rule_boundaries() -> dict[str, Boundary]:
    b = Boundary
    return {
        # Hucklebuck: the target and its tie-breaks (DEF #17, #34)
        "hucklebuck/def-34-target-exactly": b("a score of exactly the target wins", (34,)),
        "hucklebuck/def-17-tie-bidder-wins": b("a tie at the top that includes the bidder", (17,)),
        "hucklebuck/def-17-tie-without-bidder": b("a tie at the top without the bidder plays on", (17,)),
        "hucklebuck/def-17-bidder-first-lone-non-bidder": b(
            "tie_break=bidder_first: a lone non-bidder at the target wins",
            (17,),
            ("tie_break", "bidder_first"),
        ),
        "hucklebuck/def-17-bidder-first-non-bidders-play-on": b(
            "tie_break=bidder_first: two non-bidders at the target play on, whoever is higher",
            (17,),
            ("tie_break", "bidder_first"),
        ),
        # Hucklebuck: out at -25 (DEF #16)
        "hucklebuck/def-16-out-at-exactly-minus-25": b("a score of exactly -25 is out", (16,)),
        "hucklebuck/def-16-sole-survivor": b("one player left not out wins", (16,)),
        "hucklebuck/def-16-everyone-out": b("everyone out in the same hand: the highest score wins", (16,)),
        # Hucklebuck: the moon and the hole (DEF #12, #13, #15)
        "hucklebuck/def-15-moon-from-positive": b("a made moon from a positive score wins", (15,)),
        "hucklebuck/def-12-moon-from-exactly-zero": b(
            "a made moon from exactly 0 goes back to 0 (a zero delta)", (12,)
        ),
        "hucklebuck/def-13-any-bid-at-exactly-zero": b(
            "in_the_hole_reset_applies_to=any_bid: a bidder at exactly 0 is not in the hole",
            (13,),
            ("in_the_hole_reset_applies_to", "any_bid"),
        ),
        "hucklebuck/def-13-any-bid-from-the-hole": b(
            "in_the_hole_reset_applies_to=any_bid: a bidder below 0 who makes the bid goes back to 0",
            (13,),
            ("in_the_hole_reset_applies_to", "any_bid"),
        ),
        # Buck 'Em: the split, the rake and what is left (DEF #37, #41, #45, #46)
        "buckem/def-37-odd-pot-three-two": b(
            "an odd pot split 3-2: the odd chip to the 3-trick winner", (37,)
        ),
        "buckem/def-37-even-pot-three-two": b("an even pot split 3-2 has no odd chip", (37,)),
        "buckem/def-41-single-pot-raked-whole": b("a single pot (one unit) is raked whole", (41, 44)),
        "buckem/def-45-half-of-double": b("a double pot is raked by half, rounded down", (45,)),
        "buckem/def-46-one-chip-left": b(
            "a rake that leaves exactly one chip: a single pot and no ante", (46,)
        ),
        "buckem/def-43-rake-needs-a-face": b("two trumps without a K, Q or J do not rake", (43,)),
        # Deer Park: the 45 rule and the goals (DEF #73, #75)
        "deerpark/def-75-lock-at-45": b("a score of exactly 45 is locked", (75,)),
        "deerpark/def-75-44-may-call": b("a score of 44 may call", (75,)),
        "deerpark/def-75-lock-permanent-in-play": b(
            "lock_permanent: a lock reached by scoring at exactly lock_at stays after the score drops",
            (75,),
            ("lock_permanent", True),
        ),
        "deerpark/def-73-reach-zero": b("a score of 0 or less reaches a goal", (73,)),
        "deerpark/def-73-reach-exactly-zero": b("a score of exactly 0 reaches the goal; 1 does not", (73,)),
        "deerpark/def-73-reach-fifty": b("a score of 50 or more reaches a goal", (73,)),
        "deerpark/def-74-equal-distance-maker": b("equal distance past a goal goes to the maker", (74,)),
        "deerpark/def-74-zero-and-fifty-play-on": b(
            "one seat on exactly 0 and another on exactly 50, neither the maker: no winner yet", (74,)
        ),
        "deerpark/def-74-zero-and-fifty-maker": b(
            "the maker on exactly 0 and another seat on exactly 50: the maker wins", (74,)
        ),
        "deerpark/def-65-maker-exactly-requirement": b(
            "a maker who takes exactly the tricks required makes the contract", (65,)
        ),
        "deerpark/def-74-fifty-and-minus-one": b(
            "exactly 50 against -1: the one at -1 is farther, and wins", (74,)
        ),
        # Hucklebuck: the hand's scores (DEF #7, #9, #10), the moon (DEF #15), the stock (DEF #18)
        "hucklebuck/def-10-stayer-one-trick": b(
            "a non-bidder who stays and takes exactly one trick scores +1 (with none, -5)", (10,)
        ),
        "hucklebuck/def-9-bid-made-exactly": b("a bidder who takes exactly the bid scores it", (9,)),
        "hucklebuck/def-7-one-short": b("a bidder one trick short of the bid is set: -5", (7,)),
        "hucklebuck/def-15-moon-from-exactly-one": b(
            "a made moon from exactly 1, a positive score, wins", (15,)
        ),
        "hucklebuck/def-18-stock-re-formed-twice": b(
            "the stock runs out twice in one exchange: the second new stock holds only what was set aside "
            "since the first, never the discards of the player being served",
            (18,),
        ),
        # Buck 'Em: the odd chip under the extension value (DEF #37)
        "buckem/def-37-odd-chip-first-left": b(
            "odd_chip=first_left_of_dealer: the odd chip goes to the winner first from the dealer's left, "
            "not to the 3-trick winner",
            (37,),
            ("odd_chip", "first_left_of_dealer"),
        ),
    }


#: Option values no answer can tell from the default, with the reason (a case
#: still sets each one; see :mod:`~hucklebuck.conformance.lint`).
#: (None since protocol version 2: ``simultaneous_declare`` changes what an
#: ``observe`` answer shows.)
NOT_DECIDABLE: Final[dict[str, str]] = {}


def _option_boundaries() -> dict[str, Boundary]:
    out: dict[str, Boundary] = {}
    for game, options in OPTION_VALUES.items():
        for name, values in options.items():
            for v in values[1:]:
                shown = str(v).lower()
                if f"{game}.{name}={shown}" in NOT_DECIDABLE:
                    continue
                out[f"{game}.{name}={shown}"] = Boundary(
                    f"{name}={shown} changes the answer from the default {json.dumps(values[0])}",
                    (),
                    (name, v),
                )
    return out


#: Every declared boundary, by the name cases use under ``"deciding"``.
BOUNDARIES: Final[dict[str, Boundary]] = {**_rule_boundaries(), **_option_boundaries()}
