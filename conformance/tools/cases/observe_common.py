"""What the ``observe`` cases share: ``observe`` records one case, ``cut`` shortens a
``play`` request to its first actions, ``case_request`` reuses the request of a
case written earlier, and ``cards_in`` lists the card codes a view shows.

Where the answers come from: each expected view is the library's answer
(:func:`hucklebuck.conformance.protocol.handle`), and each case carries a
``check`` that states, by hand and from the rules, what that seat must see and
what it must not (DEF #84-#91); building the suite fails if an answer does not
pass its check.  The checks are the reading of each answer against the rules.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable
from typing import Any

from hucklebuck.conformance.protocol import handle

from .common import CASES, add, err

CARD_RE = re.compile(r"\b[2-9TJQKA][CDHS]\b")
View = dict[str, Any]


def cut(req: dict[str, Any], k: int | None, hand: int = -1) -> dict[str, Any]:
    """``req`` with the actions of hand ``hand`` (default: the last) cut to the first ``k``."""
    out = copy.deepcopy(req)
    if k is not None:
        out["hands"][hand]["actions"] = out["hands"][hand]["actions"][:k]
    return out


def case_request(game: str, case_id: str) -> dict[str, Any]:
    """The request of a case already recorded (by an earlier builder)."""
    for cases in CASES[game].values():
        for c in cases:
            if c["id"] == case_id:
                return copy.deepcopy(c["request"])
    raise KeyError(case_id)


def cards_in(view: View) -> set[str]:
    """Every card code that appears anywhere in ``view``."""
    return set(CARD_RE.findall(json.dumps(view)))


def answer(req: dict[str, Any], seat: int | None) -> Any:
    """The library's answer to ``req`` as an ``observe`` of ``seat``."""
    ans = handle(dict(req, op="observe", seat=seat))
    return ans["result"] if ans["ok"] else {"error": ans["error"]}


def observe(
    game: str,
    slug: str,
    title: str,
    source: list[str],
    decisions: list[int],
    req: dict[str, Any],
    seat: int | None,
    check: Callable[[View], object],
    *,
    deciding: list[str] | None = None,
) -> View:
    """Record the case ``<game>/observe/<slug>``: the view of ``seat`` after ``req``'s
    actions, whose answer must pass ``check`` (assertions made by hand)."""
    view = answer(req, seat)
    assert "error" not in view, (slug, view)
    check(view)
    request = {k: v for k, v in req.items() if k != "op"}
    full = {"op": "observe", "seat": seat, **request}
    add(game, "observe", slug, title, source, decisions, full, view, deciding=deciding)
    return view


def observe_error(
    game: str, slug: str, title: str, req: dict[str, Any], seat: Any, code: str, **kw: Any
) -> None:
    """Record an ``observe`` case that must fail with ``code``."""
    request = {k: v for k, v in req.items() if k != "op"}
    full = {"op": "observe", "seat": seat, **request}
    if seat == "missing":
        del full["seat"]
    ans = handle(full)
    assert ans["ok"] is False and ans["error"]["code"] == code, (slug, ans)
    if code == "illegal_action":
        rule = "protocol: observe, actions: played as in play, an illegal one is illegal_action"
    elif seat == "missing":
        rule = "protocol: observe, seat: a request without seat is bad_request"
    else:
        rule = "protocol: observe, seat: a seat number of the game or null, anything else bad_request"
    add(game, "observe", slug, title, [rule], [], full, err(code, **kw))
