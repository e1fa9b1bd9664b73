"""Which rules decide each field of an answer, so that a failure names the rule
behind the field that differs before the rule the case cites first.

A case that pins a whole hand or a whole view cites the rule it was written
for (often a scoring rule), while the field an implementation gets wrong may be
about trick play or the dealer.  :func:`field_rules` reads the path of the first
mismatch (``$.hands[1].dealer``) and returns the decisions (``DEF #n``) and
protocol sections that fix that field in that game.

>>> field_rules("hucklebuck", "$.hands[1].dealer: expected 2, got 1")
('dealer', ('DEF #3', 'DEF #31', 'protocol: play, HAND dealer', 'protocol: observe, dealer'))
>>> field_rules("deerpark", "$: expected a result") is None
True
"""

from __future__ import annotations

import re
from typing import Final

__all__ = ["FIELD_RULES", "field_rules"]

_VIEW: Final = ("DEF #84", "DEF #85", "DEF #86", "DEF #87", "DEF #90")
_DEALER: Final = ("protocol: play, HAND dealer", "protocol: observe, dealer")

#: Per game, each answer field and the rules that decide it (the most specific first).
FIELD_RULES: Final[dict[str, dict[str, tuple[str, ...]]]] = {
    "hucklebuck": {
        "dealer": ("DEF #3", "DEF #31", *_DEALER),
        "to_act": ("DEF #24", "DEF #19", "DEF #23"),
        "legal": ("DEF #21", "DEF #25", "DEF #26", "DEF #29", "DEF #91"),
        "tricks": ("DEF #23", "DEF #25", "DEF #30"),
        "winner": ("DEF #25", "DEF #30"),
        "leader": ("DEF #23",),
        "tricks_won": ("DEF #23", "DEF #25"),
        "current_trick": ("DEF #23", "DEF #25"),
        "trump": ("DEF #30",),
        "bidder": ("DEF #21", "DEF #24", "DEF #32"),
        "bid": ("DEF #21", "DEF #32"),
        "active": ("DEF #26", "DEF #27", "DEF #28", "DEF #5"),
        "restock": ("DEF #18",),
        "stock_size": ("DEF #18",),
        "delta": ("DEF #4", "DEF #5", "DEF #7", "DEF #8", "DEF #9", "DEF #10", "DEF #11", "DEF #12",
                  "DEF #14"),
        "scores": ("DEF #7", "DEF #9", "DEF #10", "DEF #12", "DEF #14", "DEF #15"),
        "out": ("DEF #16",),
        "winners": ("DEF #15", "DEF #17", "DEF #34", "DEF #16"),
        "game_over": ("DEF #15", "DEF #17", "DEF #34", "DEF #16"),
        "declarations": ("DEF #19", "DEF #29", "DEF #85"),
    },
    "buckem": {
        "dealer": ("DEF #3", *_DEALER),
        "to_act": ("DEF #52", "DEF #59", "DEF #60"),
        "legal": ("DEF #54", "DEF #53", "DEF #61", "DEF #91"),
        "tricks": ("DEF #60", "DEF #61"),
        "winner": ("DEF #61",),
        "leader": ("DEF #60",),
        "tricks_won": ("DEF #60", "DEF #61"),
        "current_trick": ("DEF #60", "DEF #61"),
        "stayers": ("DEF #40", "DEF #59"),
        "raked": ("DEF #42", "DEF #43", "DEF #44"),
        "rake_shown": ("DEF #43", "DEF #88"),
        "winners": ("DEF #63",),
        "burned": ("DEF #36", "DEF #40"),
        "payouts": ("DEF #37", "DEF #38", "DEF #39", "DEF #63"),
        "delta": ("DEF #35", "DEF #36", "DEF #62"),
        "bankrolls": ("DEF #35", "DEF #62"),
        "pot": ("DEF #36", "DEF #37", "DEF #39", "DEF #46", "DEF #47", "DEF #48"),
        "pot_units": ("DEF #41", "DEF #46"),
        "ante_due": ("DEF #46", "DEF #47", "DEF #48"),
        "restock": ("DEF #50", "DEF #51"),
        "stock_size": ("DEF #50", "DEF #51"),
        "upcard": ("DEF #51", "DEF #54"),
        "swapped_upcard": ("DEF #54", "DEF #59"),
        "scare": ("DEF #55",),
        "decisions": ("DEF #59", "DEF #85"),
    },
    "deerpark": {
        "dealer": ("DEF #3", "DEF #81", *_DEALER),
        "to_act": ("DEF #71", "DEF #68"),
        "legal": ("DEF #67", "DEF #68", "DEF #69", "DEF #75", "DEF #77", "DEF #91"),
        "tricks": ("DEF #71", "DEF #80"),
        "winner": ("DEF #80",),
        "leader": ("DEF #71",),
        "tricks_won": ("DEF #71",),
        "current_trick": ("DEF #71",),
        "trump": ("DEF #67", "DEF #68", "DEF #69"),
        "maker": ("DEF #76", "DEF #79"),
        "requirement": ("DEF #76", "DEF #79"),
        "delta": ("DEF #65", "DEF #66", "DEF #83"),
        "scores": ("DEF #65", "DEF #66", "DEF #83"),
        "winners": ("DEF #73", "DEF #74"),
        "game_over": ("DEF #73", "DEF #74"),
        "locked": ("DEF #75",),
        "turned": ("DEF #82",),
    },
}
#: Fields of a view that every game shares: what a seat may know.
_COMMON: Final[dict[str, tuple[str, ...]]] = {
    "hand": ("DEF #84",),
    "hand_sizes": ("DEF #84", "DEF #86"),
    "history": ("DEF #85", "DEF #86"),
}
_STEP: Final = re.compile(r"\.([A-Za-z_]+)")


def field_rules(game: str | None, problem: str) -> tuple[str, tuple[str, ...]] | None:
    """The field named deepest in the path that starts ``problem`` (a mismatch such
    as ``"$.hands[0].tricks[2].winner: expected 1, got 2"``) that has rules in
    ``game``, and those rules; None when the path names no such field."""
    if not problem.startswith("$") or game not in FIELD_RULES:
        return None
    path = problem.split(":", 1)[0].split(" ", 1)[0]
    rules = FIELD_RULES[game]
    for name in reversed(_STEP.findall(path)):
        found = rules.get(name) or _COMMON.get(name)
        if found:
            return name, found
    return None
