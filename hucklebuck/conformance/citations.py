"""Lint checks of what a case cites, and of raw-line cases.

Each case cites its own rule: a source (``S0`` … ``S4``), a decision
(``DEF #n``) or a point of the protocol page, written
``"protocol: <section>[, <part>]: <the rule in a few words>"`` where
``<section>`` is one of :data:`~hucklebuck.conformance.spec.PROTOCOL_SECTIONS`.
A case's *rule* is its first citation.  Two checks keep citations honest:

* a protocol rule states one outcome for the requests it refuses, so cases
  citing the same protocol rule first must not expect different outcomes:
  two error codes, or an error and no answer (a result may sit beside
  either, as the accepted side of the same boundary): such a shared
  citation is refused;
* some protocol rules can be recognised in the request itself (a card that is
  not in the notation, an op or game the protocol does not have, a missing
  game, a raw line): a case citing one of them must show it.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable
from typing import Any, Final

from .casefile import raw_bytes, show
from .spec import GAMES, OPS, PROTOCOL_SECTIONS

__all__ = ["CitationIndex", "check_raw", "protocol_citation_problem"]

_SECTION_RE: Final = re.compile(
    r"^protocol: (" + "|".join(re.escape(s) for s in PROTOCOL_SECTIONS) + r")(, [^:]+)?: \S"
)
_CARD_RE: Final = re.compile(r"^[2-9TJQKA][CDHS]$")
_CARD_FIELDS: Final = ("plays", "hand", "trick")


def protocol_citation_problem(citation: str) -> str | None:
    """Why a ``protocol`` citation is not of the required form (None when it is)."""
    if _SECTION_RE.match(citation):
        return None
    return (
        f'citation {show(citation)} must read "protocol: <section>[, <part>]: <the rule>", the section '
        f"one of: {', '.join(PROTOCOL_SECTIONS)}"
    )


def _card_lists(req: dict[str, Any]) -> list[Any]:
    lists = [req[f] for f in _CARD_FIELDS if f in req]
    if isinstance(req.get("hands"), list) and req.get("op") == "solve":
        lists.extend(req["hands"])
    return lists


def _has_bad_card(case: dict[str, Any]) -> bool:
    req = case.get("request") or {}
    for cards in _card_lists(req):
        if isinstance(cards, list) and any(not (isinstance(c, str) and _CARD_RE.match(c)) for c in cards):
            return True
    return False


def _has_duplicate(case: dict[str, Any]) -> bool:
    req = case.get("request") or {}
    return any(
        isinstance(cards, list) and len({show(c) for c in cards}) != len(cards) for cards in _card_lists(req)
    )


def _unknown_op(case: dict[str, Any]) -> bool:
    req = case.get("request") or {}
    return "op" in req and req["op"] not in OPS


def _unknown_game(case: dict[str, Any]) -> bool:
    req = case.get("request") or {}
    return isinstance(req.get("game"), str) and req["game"] not in GAMES


def _game_not_a_string(case: dict[str, Any]) -> bool:
    req = case.get("request") or {}
    return not isinstance(req.get("game"), str)


def _is_raw(case: dict[str, Any]) -> bool:
    return "raw" in case or "raw_b64" in case


#: Protocol rules (citation prefixes) that the request itself must show.
SHOWN_BY: Final[dict[str, tuple[str, Callable[[dict[str, Any]], bool]]]] = {
    "protocol: notation, cards:": ("a card that is not in the notation", _has_bad_card),
    "protocol: trick_winner: plays, no card twice": ("a card listed twice", _has_duplicate),
    "protocol: requests and answers: an unknown op": ("an op the protocol does not have", _unknown_op),
    "protocol: the order of checks: an unknown game": ("a game the protocol does not have", _unknown_game),
    "protocol: the order of checks: the game must be present": (
        "a missing game, or one not a string",
        _game_not_a_string,
    ),
    "protocol: transport and framing:": ("a raw line", _is_raw),
}


def outcome(case: dict[str, Any]) -> str:
    """What a case expects, in a word: an error code, ``result`` or ``no answer``."""
    if case.get("no_answer") is True:
        return "no answer"
    e = case.get("expect")
    if isinstance(e, dict) and set(e) == {"error"} and isinstance(e["error"], dict):
        return str(e["error"].get("code"))
    return "result"


class CitationIndex:
    """Collects the protocol rule each case cites, and reports the shared ones."""

    def __init__(self) -> None:
        """An empty index."""
        self._by_rule: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))

    def note(self, case_id: str, case: dict[str, Any], where: str, problems: list[str]) -> None:
        """Check one case's citations and remember the protocol rule it tests."""
        source = case.get("source")
        if not isinstance(source, list):
            return
        cited = [s for s in source if isinstance(s, str) and s.startswith("protocol")]
        for c in cited:
            why = protocol_citation_problem(c)
            if why is not None:
                problems.append(f"{where}: {why}")
        for prefix, (what, shows) in SHOWN_BY.items():
            if any(c.startswith(prefix) for c in cited) and not shows(case):
                problems.append(
                    f"{where}: cites {show(prefix.rstrip(':'))}, but its request does not show it "
                    f"(expected: {what})"
                )
        if _is_raw(case) and not any(
            c.startswith(("protocol: transport and framing:", "protocol: requests and answers:"))
            for c in cited
        ):
            problems.append(
                f"{where}: a raw line must cite the protocol's framing or its requests and answers"
            )
        if source and isinstance(source[0], str) and source[0].startswith("protocol"):
            self._by_rule[source[0]][outcome(case)].append(case_id)

    def problems(self) -> list[str]:
        """A protocol rule cited first by cases that expect different refusals."""
        out = []
        for rule, by_outcome in sorted(self._by_rule.items()):
            if len(set(by_outcome) - {"result"}) > 1:
                parts = "; ".join(f"{o}: {', '.join(ids[:3])}" for o, ids in sorted(by_outcome.items()))
                out.append(
                    f"citation {show(rule)} is shared by cases that test different rules ({parts}): "
                    "cite each case's own rule"
                )
        return out


def check_raw(case: dict[str, Any], where: str, problems: list[str]) -> bool:
    """Check the raw-line keys of a case; True when it is a raw-line case."""
    keys = [k for k in ("request", "raw", "raw_b64") if k in case]
    if len(keys) != 1:
        problems.append(f'{where}: give exactly one of "request", "raw" and "raw_b64", not {show(keys)}')
        return False
    if keys[0] == "request":
        for k in ("no_answer", "answer_id"):
            if k in case:
                problems.append(f'{where}: "{k}" belongs to a raw-line case only')
        return False
    try:
        line = raw_bytes(case)
    except ValueError as exc:
        problems.append(f"{where}: {exc}")
        return True
    assert line is not None
    if b"\n" in line:
        problems.append(f"{where}: a raw line cannot hold a newline")
    if "no_answer" in case:
        if case["no_answer"] is not True:
            problems.append(f'{where}: "no_answer" can only be true')
        elif line.strip():
            problems.append(f'{where}: "no_answer" is only for an empty or white-space line')
        if "expect" in case or "answer_id" in case:
            problems.append(f'{where}: a line with no answer has no "expect" or "answer_id"')
    elif "expect" not in case:
        problems.append(f'{where}: needs "expect" (or "no_answer": true)')
    if not case.get("id", "").startswith("protocol/"):
        problems.append(f"{where}: a raw line belongs to the protocol's cases (protocol/...)")
    return True
