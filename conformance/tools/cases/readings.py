"""Cases that pin a sentence of the protocol page that could be read two ways
(protocol version 3 settles each; the page says which reading holds):

* ``rake_shown`` under ``rake_hand: "after_swap"``: the trumps of the hand the
  rake test judged (after the deuce swap), not every trump dealt;
* a deuce swap under ``simultaneous_declare``: the swapper sees its own swap at
  once, the others only after the reveal;
* Deer Park ``locked`` once a hand is scored: a standing, computed from the
  scores after the hand, like ``scores``;
* ``stock_size`` when the exchange empties the stock exactly: 0 (a stock is
  re-formed only when a card is needed);
* a Hucklebuck seat already out is a seat of the game for ``observe``;
* the order of checks: a hand's deal is read when that hand starts (an illegal
  action in an earlier hand comes first, before a card dealt twice there), and ``start`` is checked whole, its
  types included, after the options;
* Hucklebuck ``active`` at a cut: the seats that have said ``stay`` so far;
* ``solve`` with one seat in play: a position, that seat taking every trick;
* ``start: null`` is ``{}``; a deal object may carry fields the page does not
  name; which lines are empty.

Where the answers come from: each expected answer is the library's, and each
builder asserts by hand the fact the case pins (building fails otherwise).
"""

from __future__ import annotations

import copy
from typing import Any

from hucklebuck.conformance.protocol import handle

from .buckem import bk
from .common import CASES, add, err
from .hucklebuck import hb
from .observe_common import View, case_request, observe
from .protocol_cases import add_raw

PK = "protocol: "


def _case(game: str, case_id: str) -> dict[str, Any]:
    for cases in CASES[game].values():
        for c in cases:
            if c["id"] == case_id:
                return copy.deepcopy(c["request"])
    raise KeyError(case_id)


def _answer(req: dict[str, Any]) -> Any:
    ans = handle(dict(req, id=0))
    return ans["result"] if ans["ok"] else {"error": ans["error"]}


def build() -> None:
    """Add the cases."""
    _buckem()
    _deerpark()
    _hucklebuck()
    _lines()


def _buckem() -> None:
    hands = ["2D 3D 4D 5D 6D", "2S QS 2C 3C 4C", "7D 8D 9D TD JD", "QD KD AD 7H 8H", "9H TH 5H 6H 7C"]
    lone = ["1 stay swap", "2 fold", "3 fold", "4 fold", "0 fold"]
    after = bk(hands, "KS", lone, options={"deuce_swap": True, "rake_hand": "after_swap"})

    def shows_the_judged_hand(v: View) -> None:
        assert v["rake_shown"] == ["QS", "KS"] and v["phase"] == "hand_over"  # KS taken up, 2S gone

    observe(
        "buckem", "rake-shown-after-swap",
        "under rake_hand=after_swap the raker shows the trumps of its hand after the swap (QS KS), not 2S",
        [PK + "observe, rake_shown: the trumps of the hand the rake test judged"], [88, 43],
        after, 2, shows_the_judged_hand,
    )  # fmt: skip
    both = {"deuce_swap": True, "simultaneous_declare": True}
    early = bk(hands, "KS", ["1 stay swap", "2 stay"], options=both)

    def swapper(v: View) -> None:
        assert v["upcard"] == "2S" and v["swapped_upcard"] == "KS"
        assert "KS" in v["hand"] and "2S" not in v["hand"]
        assert v["history"] == ["1 stay swap", "2 declared"]

    def other(v: View) -> None:
        assert v["upcard"] == "KS" and v["swapped_upcard"] is None
        assert v["history"] == ["1 declared", "2 stay"]

    rule = PK + "observe, upcard: under simultaneous_declare the swapper sees its own swap at once"
    observe(
        "buckem", "simultaneous-swapper-sees-own-swap",
        "before the reveal the swapper's view shows its swap done (upcard 2S, KS in hand)",
        [rule], [59, 54], early, 1, swapper,
    )  # fmt: skip
    observe(
        "buckem", "simultaneous-others-see-no-swap-yet",
        "before the reveal another seat sees the upcard KS and no swap",
        [rule], [59, 85], early, 2, other,
    )  # fmt: skip


def _deerpark() -> None:
    req = _case("deerpark", "deerpark/scoring/maker-set")
    req["start"] = {"scores": [40, 20, 20]}  # seat 0 is not locked in this hand; +5 brings it to 45

    def locked_after(v: View) -> None:
        assert v["phase"] == "hand_over" and v["scores"] == [45, 25, 16] and v["locked"] == [0]

    observe(
        "deerpark", "locked-after-a-scored-hand",
        "once a hand is scored, locked comes from the scores after it (seat 0 at 45): who may not call next",
        [PK + "observe, locked: a standing, from the scores after a scored hand"], [75],
        req, None, locked_after,
    )  # fmt: skip


def _hucklebuck() -> None:
    # seven players: the stock holds 17 cards, and 5 + 5 + 5 + 2 exchanged empties it exactly
    pack = [r + s for s in "CDHS" for r in "23456789TJQKA"]
    hands = [" ".join(pack[5 * i : 5 * i + 5]) for i in range(7)]
    dealt = [h.split() for h in hands]
    acts = ["1 bid 2", "2 pass", "3 pass", "4 pass", "5 pass", "6 pass", "0 pass", "1 trump S"]
    acts += ["2 stay 5", "3 stay 5", "4 stay 5", "5 stay 2", "6 drop", "0 drop", "1 stay 0"]
    acts += [f"2 discard {' '.join(dealt[2])}", f"3 discard {' '.join(dealt[3])}"]
    acts += [f"4 discard {' '.join(dealt[4])}", f"5 discard {' '.join(dealt[5][:2])}"]
    req = hb(hands, acts)

    def empty(v: View) -> None:
        assert v["phase"] == "play" and v["stock_size"] == 0 and v["hand_sizes"] == [0, 5, 5, 5, 5, 5, 0]

    observe(
        "hucklebuck", "stock-emptied-exactly",
        "an exchange taking the stock's last card leaves stock_size 0: nothing is re-formed until needed",
        [PK + "observe, stock_size: 0 when emptied exactly, re-formed only when a card is needed"], [18],
        req, 1, empty,
    )  # fmt: skip
    assert _answer(req)["hands"][0]["restock"] == []
    out = case_request("hucklebuck", "hucklebuck/end/out-at-minus-25")

    def out_seat(v: View) -> None:
        assert v["seat"] == 1 and v["hand"] == [] and v["out"] == [1] and v["legal"] == []

    observe(
        "hucklebuck", "seat-already-out",
        "a seat already out of the game is a seat of the game: its view is the public one and its empty hand",
        [PK + "observe, seat: a seat already out is a seat of the game"], [16, 84],
        out, 1, out_seat,
    )  # fmt: skip
    two = _case("hucklebuck", "hucklebuck/end/out-at-minus-25")
    two["hands"][0]["actions"][0] = "2 bid 2"  # not seat 2's turn: illegal in hand 0
    assert two["hands"][1]["deal"]["hands"][2][0] == "AH"
    two["hands"][1]["deal"]["hands"][0][0] = "AH"  # hand 1 deals the ace of hearts twice
    expect = err("illegal_action", hand=0, action=0)
    assert _answer(two) == {"error": {**expect["error"], "message": _answer(two)["error"]["message"]}}
    add(
        "hucklebuck", "order", "earlier-illegal-action-before-later-deal",
        "an illegal action of hand 0 is answered before a card dealt twice in hand 1's deal",
        [PK + "the order of checks: a hand's deal is read when that hand starts"], [], two, expect,
    )  # fmt: skip
    late = _case("hucklebuck", "hucklebuck/end/out-at-minus-25")
    late["start"] = {"scores": "high"}
    late["options"] = {"target": 12}
    assert _answer(late)["error"]["code"] == "unsupported"
    add(
        "hucklebuck", "order", "options-before-start-types",
        "an option value not offered (target 12) is answered before a start of the wrong type",
        [PK + "the order of checks: start, its types included, comes after the options"], [],
        late, err("unsupported"),
    )  # fmt: skip
    cut = _case("hucklebuck", "hucklebuck/observe/end-of-hand-nothing-turned-up")
    cut = {k: v for k, v in cut.items() if k != "seat"} | {"op": "play"}
    cut["hands"][0]["actions"] = cut["hands"][0]["actions"][:9]  # ... "3 stay 2", "0 drop", "1 stay 1"
    assert _answer(cut)["hands"][0]["active"] == [1, 3]
    add(
        "hucklebuck", "play", "active-at-a-cut",
        "at a cut in the declaring, active lists the seats that said stay so far; the bidder once it spoke",
        [PK + "play, state at a cut: active is the seats that have said stay so far"], [19],
        cut, {"hands": [{"complete": False, "active": [1, 3], "bidder": 2}]},
    )  # fmt: skip
    null = _case("hucklebuck", "hucklebuck/end/target-exactly")
    null["start"] = None
    plain = dict(null, start={})
    assert _answer(null) == _answer(plain)
    add(
        "hucklebuck", "shape", "start-null-is-every-default",
        "start: null is the same as {}: every default (dealer 0, all scores 0)",
        [PK + "play, start: null or missing means every default"], [],
        null, {"final": _answer(plain)["final"]},
    )  # fmt: skip
    alone = {"op": "solve", "game": "hucklebuck", "trump": "S", "hands": [["2C", "AS", "3H"], [], []],
             "leader": 0, "seat": 0}  # fmt: skip
    assert _answer(alone) == 3
    add(
        "hucklebuck", "solve", "one-seat-in-play",
        "a position with one seat in play is one: that seat takes every remaining trick (3)",
        [PK + "solve, hands: one seat in play takes every remaining trick"], [], alone, 3,
    )  # fmt: skip
    extra = _case("hucklebuck", "hucklebuck/end/target-exactly")
    extra["hands"][0]["deal"]["note"] = "shuffled by hand"
    assert _answer(extra) == _answer(_case("hucklebuck", "hucklebuck/end/target-exactly"))
    add(
        "hucklebuck", "shape", "deal-extra-field-ignored",
        "a deal object may carry a field the page does not name: it is ignored",
        [PK + "requests and answers: a field the page does not name is ignored"], [],
        extra, {"final": _answer(extra)["final"]},
    )  # fmt: skip


def _lines() -> None:
    blank = PK + "transport and framing: a line of nothing but space, tab, CR, LF, VT or FF is empty"
    other = PK + "transport and framing: any other character, a no-break space too, makes a line not empty"
    add_raw("vertical-tab-line", "a line of a vertical tab and a form feed is empty: no answer", blank,
            "\x0b\x0c", no_answer=True)  # fmt: skip
    add_raw("no-break-space-line", "a line holding a no-break space is not empty: bad_request", other,
            "\u00a0")  # fmt: skip
