"""Facts of protocol version 3 that the runner, the lint and the adapter share.

* :data:`PROTOCOL_OPTIONS`: the options protocol version 3 names, per game,
  with their defaults and every value the protocol lists;
* :func:`extensions`: the options our games offer beyond those (each one an
  *extension*, announced in ``hello`` as ``"<game>.<option>"``), and the
  values beyond the listed ones of a protocol option (``"<game>.<option>=<value>"``);
* :data:`DEFS` and :data:`NOT_OBSERVABLE`: the numbered rule decisions
  (``DEF #1`` … ``DEF #91``) and the few that no request can observe.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from typing import Any, Final

__all__ = [
    "DEFS",
    "GAMES",
    "GROUPS",
    "NOT_OBSERVABLE",
    "OPS",
    "OPTION_VALUES",
    "PROTOCOL_OPTIONS",
    "PROTOCOL_SECTIONS",
    "case_extensions",
    "extensions",
    "option_needs",
]

GAMES: Final = ("hucklebuck", "buckem", "deerpark")

#: The operations of the protocol, in the order ``hello`` lists them.  The one
#: list the adapter, the runner (which ops a case may be skipped for), the
#: schemas' answer checks and the lint share: a new op is added here.
OPS: Final = ("hello", "deck", "trick_winner", "legal_plays", "play", "solve", "observe")

#: The groups of case ids (``<group>/<area>/<slug>``): each game, and
#: ``protocol`` for the cases every adapter must pass whatever it plays (the
#: framing of lines, the check of ``op`` and ``game``).
GROUPS: Final = ("protocol", *GAMES)

#: The sections of the protocol page a case may cite, as
#: ``"protocol: <section>[, <part>]: <the rule in a few words>"``.
PROTOCOL_SECTIONS: Final = (
    "transport and framing",
    "requests and answers",
    "notation",
    "options",
    "extensions",
    "actions",
    *OPS,
    "the order of checks",
)

#: Every option of protocol version 3 with its default value.
PROTOCOL_OPTIONS: Final[dict[str, dict[str, Any]]] = {
    "hucklebuck": {
        "target": 15, "all_pass": "dealer_scores_5", "moon_at_zero": "reset_to_zero",
        "lone_moon_bidder": "scores_5", "bidder_zero_trick_penalty_stacks": False,
        "tie_break": "highest_then_bidder", "exchange_order": "bidder_left_bidder_last",
        "auction_reentry": False,
    },
    "buckem": {
        "ante": 1, "short_handed": False, "short_handed_trump": "flip", "scare_cards": False,
        "deuce_swap": False, "simultaneous_declare": False, "pot_limit": None, "odd_chip": "buckup",
        "split": "equal", "rake_hand": "as_dealt", "after_void_round_ante": True,
    },
    "deerpark": {
        "club_turnup_pickup": False, "round2_excludes_turned_suit": False,
        "failed_contract_tricks_count": False, "first_lead": "eldest", "lock_at": 45,
        "tie_break": "distance_then_maker",
    },
}  # fmt: skip

#: The values of each protocol option that some case must set.  ``"int"``
#: stands for "any integer other than the default" (``ante``, ``pot_limit``,
#: ``lock_at``).
OPTION_VALUES: Final[dict[str, dict[str, tuple[Any, ...]]]] = {
    "hucklebuck": {
        "target": (15, 11), "all_pass": ("dealer_scores_5", "dealer_must_bid"),
        "moon_at_zero": ("reset_to_zero", "win", "score_normally"),
        "lone_moon_bidder": ("scores_5", "wins_game"), "bidder_zero_trick_penalty_stacks": (False, True),
        "tie_break": ("highest_then_bidder", "bidder_first", "shared"),
        "exchange_order": ("bidder_left_bidder_last", "dealer_left_dealer_last"),
        "auction_reentry": (False, True),
    },
    "buckem": {
        "ante": (1, "int"), "short_handed": (False, True), "short_handed_trump": ("flip", "removed_card"),
        "scare_cards": (False, True), "deuce_swap": (False, True), "simultaneous_declare": (False, True),
        "pot_limit": (None, "int"), "odd_chip": ("buckup", "carry"), "split": ("equal", "proportional"),
        "rake_hand": ("as_dealt", "after_swap"), "after_void_round_ante": (True, False),
    },
    "deerpark": {
        "club_turnup_pickup": (False, True), "round2_excludes_turned_suit": (False, True),
        "failed_contract_tricks_count": (False, True), "first_lead": ("eldest", "maker"),
        "lock_at": (45, "int"), "tie_break": ("distance_then_maker", "shared"),
    },
}  # fmt: skip

#: The numbered rule decisions.
DEFS: Final = tuple(range(1, 92))

#: Decisions no protocol request can observe, with the reason.
NOT_OBSERVABLE: Final[dict[int, str]] = {
    1: "the dealing convention: every play request gives the deal card by card",
    72: "Deer Park Euchre's dealing convention: every play request gives the deal card by card",
}


@functools.cache
def _extensions() -> tuple[str, ...]:
    from ..games.buckem import BuckEmOptions
    from ..games.deerpark import DeerParkOptions
    from ..games.hucklebuck import HucklebuckOptions

    out: list[str] = []
    for game, cls in (
        ("hucklebuck", HucklebuckOptions),
        ("buckem", BuckEmOptions),
        ("deerpark", DeerParkOptions),
    ):
        for info in cls.describe():
            if info.name not in PROTOCOL_OPTIONS[game]:
                out.append(f"{game}.{info.name}")
                continue
            listed = {str(v).lower() for v in OPTION_VALUES[game][info.name]}
            out.extend(f"{game}.{info.name}={c}" for c in info.choices if c not in listed)
    return tuple(sorted(out))


def extensions() -> list[str]:
    """The options our games offer beyond protocol version 3, as ``"<game>.<option>"``,
    and extra values of protocol options, as ``"<game>.<option>=<value>"``.

    These are what our adapter announces in ``hello`` under ``extensions``.
    """
    return list(_extensions())


def option_needs(request: Mapping[str, Any]) -> list[str]:
    """The protocol options a request sets to a value other than the default, as
    ``"<option>=<value>"`` (the value as JSON text; a string bare): what a case
    needs of an adapter beyond the defaults.  A value the option's list does not
    name is not a need (the answer to it is the point of such a case).

    >>> option_needs({"game": "buckem", "options": {"ante": 2, "split": "equal", "deuce_swap": True}})
    ['ante=2', 'deuce_swap=true']
    """
    game = request.get("game")
    opts = request.get("options")
    if not isinstance(game, str) or game not in PROTOCOL_OPTIONS or not isinstance(opts, Mapping):
        return []
    out = []
    for name, value in opts.items():
        if name not in PROTOCOL_OPTIONS[game]:
            continue
        default = PROTOCOL_OPTIONS[game][name]
        listed = OPTION_VALUES[game][name]
        named = any(value == v and type(value) is type(v) for v in listed if v != "int")
        if not (named or ("int" in listed and type(value) is int)):
            continue
        if value == default and type(value) is type(default):
            continue
        out.append(f"{name}={value if isinstance(value, str) else json.dumps(value)}")
    return sorted(out)


def case_extensions(request: Mapping[str, Any], declared: object = ()) -> set[str]:
    """The extensions a request needs: the known extension options it sets, plus
    any a case declares under ``"extensions"``.

    An option that is neither in protocol version 3 nor a known extension is
    just an unknown option (the answer to it is ``unsupported``).
    """
    need = {d for d in declared if isinstance(d, str)} if isinstance(declared, (list, tuple)) else set()
    game = request.get("game")
    opts = request.get("options")
    if isinstance(game, str) and game in PROTOCOL_OPTIONS and isinstance(opts, Mapping):
        known = set(_extensions())
        need |= {f"{game}.{name}" for name in opts} & known
        need |= {f"{game}.{name}={value}" for name, value in opts.items() if isinstance(value, str)} & known
    return need
