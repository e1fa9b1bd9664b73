"""Lint of the conformance cases: schema, unique ids, citations, option coverage."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

from .runner import bundled_suite_dir

__all__ = ["PROTOCOL_OPTIONS", "lint"]

#: Every option of protocol section 2 with its default; each must be set to a
#: non-default value by at least one case.
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
MIN_CASES: Final = 150
ID_RE: Final = re.compile(r"^(hucklebuck|buckem|deerpark)/[a-z0-9-]+/[a-z0-9-]+$")
DEF_RE: Final = re.compile(r"^DEF #\d+$")
SOURCE_RE: Final = re.compile(r"^(S0|S2|S3|S4|R\d+|protocol)[ :,]")


def lint(paths: Sequence[Path | str] = ()) -> list[str]:
    """Return the problems found (an empty list when the suite is clean)."""
    roots = [Path(p) for p in paths] or [bundled_suite_dir() / "cases"]
    problems: list[str] = []
    ids: Counter[str] = Counter()
    per_game: Counter[str] = Counter()
    exercised: dict[str, set[str]] = {g: set() for g in PROTOCOL_OPTIONS}
    files = [f for r in roots for f in (sorted(r.rglob("*.json")) if r.is_dir() else [r])]
    if not files:
        return [f"no case files under {', '.join(map(str, roots))}"]
    for f in files:
        try:
            data = json.loads(f.read_text(encoding="utf-8"))
        except ValueError as exc:
            problems.append(f"{f}: not JSON ({exc})")
            continue
        if not isinstance(data, dict) or not isinstance(data.get("cases"), list):
            problems.append(f"{f}: must be an object with a 'cases' list")
            continue
        for i, case in enumerate(data["cases"]):
            where = f"{f}#{i}"
            if not isinstance(case, dict):
                problems.append(f"{where}: a case must be an object")
                continue
            extra = set(case) - {"id", "title", "source", "decisions", "request", "expect"}
            if extra:
                problems.append(f"{where}: unknown keys {sorted(extra)}")
            cid = case.get("id")
            if not isinstance(cid, str) or not ID_RE.match(cid):
                problems.append(f"{where}: id {cid!r} must look like '<game>/<area>/<slug>'")
                continue
            where = f"{f}: {cid}"
            ids[cid] += 1
            game = cid.split("/")[0]
            if f.parent.name != game:
                problems.append(f"{where}: lives under {f.parent.name}/, not {game}/")
            if not isinstance(case.get("title"), str) or not case["title"]:
                problems.append(f"{where}: needs a title")
            source = case.get("source", [])
            decisions = case.get("decisions", [])
            if not isinstance(source, list) or not all(
                isinstance(s, str) and SOURCE_RE.match(s) for s in source
            ):
                problems.append(f"{where}: 'source' must be a list of citations starting with S0/S2/S3/S4")
            if not isinstance(decisions, list) or not all(
                isinstance(d, str) and DEF_RE.match(d) for d in decisions
            ):
                problems.append(f"{where}: 'decisions' must be a list like ['DEF #18']")
            if not source and not decisions:
                problems.append(f"{where}: cites neither a source nor a decision")
            req = case.get("request")
            if not isinstance(req, dict) or not isinstance(req.get("op"), str):
                problems.append(f"{where}: 'request' must be an object with an 'op'")
                continue
            if "id" in req:
                problems.append(f"{where}: the runner sets the request id; do not write one")
            if "expect" not in case:
                problems.append(f"{where}: needs 'expect'")
            if req.get("game") not in (None, game):
                problems.append(f"{where}: request game {req.get('game')!r} differs from the id's")
            per_game[game] += 1
            opts = req.get("options")
            if isinstance(opts, dict):
                for name, value in opts.items():
                    default = PROTOCOL_OPTIONS.get(game, {}).get(name, object())
                    if name in PROTOCOL_OPTIONS.get(game, {}) and value != default:
                        exercised[game].add(name)
    for cid, count in ids.items():
        if count > 1:
            problems.append(f"duplicate id {cid} ({count} times)")
    for game, names in PROTOCOL_OPTIONS.items():
        missing = sorted(set(names) - exercised[game])
        if missing:
            problems.append(
                f"{game}: no case sets these options to a non-default value: {', '.join(missing)}"
            )
        if per_game[game] < MIN_CASES:
            problems.append(f"{game}: {per_game[game]} cases, fewer than {MIN_CASES}")
    return problems
