"""The leak check: does an implementation's ``observe`` answer show anything the
seat may not know?  (``python -m hucklebuck.conformance run --leaks N``.)

For each game it plays ``N`` random games with our engine (random player
counts, protocol options and start positions: the simultaneous declare, the
deuce swap, scare cards, the removed-card trump, re-formed stocks and the rest)
and cuts each at random points.  At a cut, for a random seat or an onlooker, it
builds **twins**: the same request with two cards transposed everywhere (in the
deal, the re-formed stocks and the action texts) that the viewer has not seen
in that hand up to the cut.  A twin is kept only when every action stays legal,
an onlooker's view is unchanged and the seat's own hand is unchanged (checked
with our engine), so the viewer cannot tell the two games apart; the adapter's
two ``observe`` answers must then be identical (non-interference).  It also
transposes a card the viewer *does* see (one in its hand, or a face-up card for
an onlooker) and requires the answers to differ: a view that hides everything
is no view.  A leak is reported with the shortest action prefix whose twins
still tell apart.

>>> report = check_leaks(InProcessAdapter(), games=2, seed=1, only=("deerpark",))
>>> report.leaks, report.pairs["deerpark"] > 0
([], True)
"""

from __future__ import annotations

import copy
import json
import random
import re
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from ..cards import Card
from ..games.base import Phase
from ..games.buckem import BuckEmGame
from ..games.deerpark import DeerParkGame
from ..games.engine import TrickGame
from ..games.hucklebuck import HucklebuckGame
from ..games.observe import view
from .casefile import RunnerError
from .connection import Adapter, AdapterFailure, InProcessAdapter
from .protocol import PROTOCOL, handle
from .runner import check_hello
from .spec import GAMES

__all__ = ["Leak", "LeakReport", "check_leaks", "twin"]

_CARD: Final = re.compile(r"\b[2-9TJQKA][CDHS]\b")
_TYPES: Final[dict[str, Any]] = {  # the game classes, by protocol name
    "hucklebuck": HucklebuckGame,
    "buckem": BuckEmGame,
    "deerpark": DeerParkGame,
}
#: Cut points per random game, and transpositions tried per cut.
CUTS: Final = 2
TRIES: Final = 6
#: Twins kept per cut (each one is a twin pair checked against the adapter).
TWINS: Final = 3
_OVER: Final = (Phase.HAND_OVER, Phase.GAME_OVER)


@dataclass
class Leak:
    """Two requests that differ only in what ``seat`` may not see (or, with
    ``blind``, in a card it does see), the change between them, and the first
    difference of the answers."""

    game: str
    seat: int | None
    change: str
    requests: tuple[dict[str, Any], dict[str, Any]]
    difference: str
    blind: bool = False

    def describe(self) -> str:
        """The leak in a few lines: what differs, and the two requests."""
        who = "an onlooker" if self.seat is None else f"seat {self.seat}"
        acts = len(self.requests[0]["hands"][-1].get("actions", []))
        hand = len(self.requests[0]["hands"])
        where = f"after {acts} action(s) of hand {hand}"
        if self.blind:
            head = f"{self.game}: {who}'s view stays the same when a card it sees changes ({self.change}) "
            head += where
        else:
            head = f"{self.game}: {who} can tell apart two games that differ only in what it may not see "
            head += f"({self.change}) {where}: {self.difference}"
        return "\n".join([head, *(f"  request: {json.dumps(r)}" for r in self.requests)])


@dataclass
class LeakReport:
    """What a leak check did and found."""

    games: dict[str, int] = field(default_factory=dict)
    pairs: dict[str, int] = field(default_factory=dict)
    seen_pairs: dict[str, int] = field(default_factory=dict)
    skipped: dict[str, str] = field(default_factory=dict)
    leaks: list[Leak] = field(default_factory=list)
    seconds: float = 0.0

    def summary(self) -> str:
        """One line per game, then the verdict."""
        lines = []
        for g in self.games:
            if g in self.skipped:
                lines.append(f"{g}: skipped ({self.skipped[g]})")
                continue
            found = sum(1 for leak in self.leaks if leak.game == g)
            lines.append(
                f"{g}: {self.games[g]} games, {self.pairs[g]} twin pairs identical as required, "
                f"{self.seen_pairs[g]} seen-card pairs different as required, {found} leak(s)"
            )
        verdict = f"{len(self.leaks)} leak(s)" if self.leaks else "no leak found"
        lines.append(f"leak check: {verdict} in {self.seconds:.1f} s")
        return "\n".join(lines)


# ------------------------------------------------------------ random games
def _setup(game: str, rng: random.Random) -> tuple[int, dict[str, Any], dict[str, Any]]:
    """A random player count, protocol options and start position."""
    if game == "hucklebuck":
        n = rng.randint(3, 7)
        opts = {
            "target": rng.choice([15, 11]),
            "all_pass": rng.choice(["dealer_scores_5", "dealer_must_bid"]),
            "moon_at_zero": rng.choice(["reset_to_zero", "win", "score_normally"]),
            "tie_break": rng.choice(["highest_then_bidder", "bidder_first", "shared"]),
            "exchange_order": rng.choice(["bidder_left_bidder_last", "dealer_left_dealer_last"]),
            "auction_reentry": rng.random() < 0.3,
        }
        start = {"dealer": rng.randrange(n), "scores": [rng.randint(-20, 12) for _ in range(n)]}
        return n, opts, start
    if game == "deerpark":
        n = rng.randint(3, 7)
        opts = {
            "club_turnup_pickup": rng.random() < 0.3,
            "round2_excludes_turned_suit": rng.random() < 0.3,
            "failed_contract_tricks_count": rng.random() < 0.3,
            "first_lead": rng.choice(["eldest", "maker"]),
            "lock_at": rng.choice([45, 45, 40]),
        }
        return n, opts, {"dealer": rng.randrange(n), "scores": [rng.randint(4, 46) for _ in range(n)]}
    n = rng.randint(5, 8)
    short = n in (5, 6) and rng.random() < 0.4
    opts = {
        "ante": rng.choice([1, 1, 2]),
        "short_handed": short,
        "short_handed_trump": "removed_card" if short and rng.random() < 0.5 else "flip",
        "scare_cards": rng.random() < 0.3,
        "deuce_swap": rng.random() < 0.5,
        "simultaneous_declare": rng.random() < 0.5,
        "pot_limit": rng.choice([None, None, 20]),
        "split": rng.choice(["equal", "proportional"]),
        "rake_hand": rng.choice(["as_dealt", "after_swap"]),
    }
    return n, opts, {"dealer": rng.randrange(n)}


def _random_request(game: str, rng: random.Random) -> dict[str, Any]:
    """A ``play`` request of 1 to 3 whole hands chosen at random, all of them played out."""
    n, opts, start = _setup(game, rng)
    g = _TYPES[game](n, options=opts, rng=random.Random(rng.getrandbits(32)), **start)
    hands: list[dict[str, Any]] = []
    for h in range(rng.choice([1, 1, 2, 3])):
        if h:
            if g.is_over:
                break
            g.next_hand()
        assert g._deal is not None
        deal = g._deal.to_dict()
        actions: list[str] = []
        while g.phase not in _OVER:
            action = rng.choice(g.legal_actions())
            g.apply(action)
            actions.append(str(action))
        if g._restocks:
            deal["restock"] = [[c.code for c in r] for r in g._restocks]
        hands.append({"deal": deal, "actions": actions})
    return {"op": "observe", "game": game, "players": n, "options": opts, "start": start, "hands": hands}


def _cut(req: dict[str, Any], hand: int, k: int, seat: int | None) -> dict[str, Any]:
    """``req`` up to action ``k`` of hand ``hand``, observed by ``seat``."""
    hands = copy.deepcopy(req["hands"][: hand + 1])
    hands[-1]["actions"] = hands[-1]["actions"][:k]
    return dict(req, hands=hands, seat=seat)


def _replay(req: dict[str, Any]) -> Iterator[TrickGame[Any, Any]]:
    """Our engine's game after each action of the last hand of ``req`` (and before the first)."""
    first = req["hands"][0]["deal"]
    g = _TYPES[req["game"]](req["players"], options=req["options"], deal=first, **req["start"])
    for i, h in enumerate(req["hands"]):
        if i:
            g.next_hand(h["deal"])
        last = i == len(req["hands"]) - 1
        if last:
            yield g
        for text in h["actions"]:
            g.apply(text)
            if last:
                yield g


def _cards(value: Any) -> set[str]:
    return set(_CARD.findall(json.dumps(value)))


# ------------------------------------------------------------------ twins
def twin(req: dict[str, Any], a: str, b: str, hand: int = -1) -> dict[str, Any]:
    """``req`` with cards ``a`` and ``b`` transposed in hand ``hand``: in its deal
    (re-formed stocks included) and in its action texts, whose cards are then put
    back in canonical order."""
    swap = {a: b, b: a}

    def deal_map(v: Any) -> Any:
        if isinstance(v, str):
            return swap.get(v, v)
        if isinstance(v, list):
            return [deal_map(x) for x in v]
        if isinstance(v, dict):
            return {k: deal_map(x) for k, x in v.items()}
        return v

    def action_map(text: str) -> str:
        words = text.split(" ")
        head = [w for w in words if not _CARD.fullmatch(w)]
        cards = [swap.get(w, w) for w in words if _CARD.fullmatch(w)]
        cards.sort(key=lambda c: Card.parse(c).index)
        return " ".join(head + cards)

    out = copy.deepcopy(req)
    h = out["hands"][hand]
    h["deal"] = deal_map(h["deal"])
    h["actions"] = [action_map(t) for t in h.get("actions", [])]
    return out


def _ours(req: dict[str, Any], seat: int | None) -> dict[str, Any] | None:
    """Our engine's view of ``seat`` for ``req``, or None when an action is not legal."""
    ans = handle(dict(req, seat=seat))
    return ans["result"] if ans.get("ok") is True else None


def _first_difference(a: Any, b: Any, path: str = "$") -> str:
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                return f"{path}.{k}: only in {'the second' if k not in a else 'the first'} answer"
            if a[k] != b[k]:
                return _first_difference(a[k], b[k], f"{path}.{k}")
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y:
                return _first_difference(x, y, f"{path}[{i}]")
    return f"{path}: {json.dumps(a)[:120]} versus {json.dumps(b)[:120]}"


class _Checker:
    """Asks the adapter for views; a refusal raises :class:`_Refused`."""

    def __init__(self, adapter: Adapter) -> None:
        self.adapter = adapter

    def ask(self, req: dict[str, Any]) -> Any:
        answer = self.adapter.request(dict(req, op="observe", id="leaks"))
        if answer.get("ok") is not True:
            err = answer.get("error") or {}
            code = err.get("code") if isinstance(err, dict) else None
            raise _Refused(str(code), str(err.get("message", "")) if isinstance(err, dict) else "")
        return answer.get("result")


class _Refused(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code


def _valid_twin(
    base: dict[str, Any], other: dict[str, Any], seat: int | None, known: tuple[Any, Any] | None = None
) -> bool:
    """Every action legal, an onlooker's view unchanged and the seat's own hand unchanged
    (``known``: our onlooker's and seat's views of ``base``, when already at hand)."""
    public, mine = known if known is not None else (_ours(base, None), _ours(base, seat))
    if public is None or _ours(other, None) != public:
        return False
    if seat is None:
        return True
    theirs = _ours(other, seat)
    return mine is not None and theirs is not None and mine["hand"] == theirs["hand"]


Change = tuple[str, Any, Any]
"""A twin's difference: ``("swap", a, b)`` transposes cards a and b; ``("act", i, text)``
replaces action ``i`` of the cut hand, one the viewer sees only in part, by ``text``."""


def _apply(base: dict[str, Any], change: Change) -> dict[str, Any] | None:
    """The twin of ``base`` under ``change`` (None when the change lies past its actions)."""
    kind, x, y = change
    if kind == "swap":
        return twin(base, x, y)
    actions = base["hands"][-1]["actions"]
    if x >= len(actions):
        return None
    other = copy.deepcopy(base)
    other["hands"][-1]["actions"][x] = y
    return other


def _label(base: dict[str, Any], change: Change) -> str:
    kind, x, y = change
    if kind == "swap":
        return f"cards {x} <-> {y}"
    return f"action {x + 1} {base['hands'][-1]['actions'][x]!r} -> {y!r}"


def _smallest(
    check: _Checker, req: dict[str, Any], hand: int, k: int, seat: int | None, change: Change
) -> Leak:
    """The leak of ``change`` at the shortest action prefix that shows it."""
    for j in range(k + 1):
        base = _cut(req, hand, j, seat)
        other = _apply(base, change)
        if other is None or not _valid_twin(base, other, seat):
            continue
        x, y = check.ask(base), check.ask(other)
        if x != y:
            return Leak(req["game"], seat, _label(base, change), (base, other), _first_difference(x, y))
    raise AssertionError("the leak vanished")  # pragma: no cover - the full prefix always shows it


def _study(base: dict[str, Any], seat: int | None) -> tuple[list[str], list[Change]]:
    """The dealt cards ``seat`` has not seen in the cut hand, and the changes of the
    actions it sees only in part (another legal action of the same seat there)."""
    seen: set[str] = set()
    legal: list[list[str]] = []
    last: dict[str, Any] = {}
    for g in _replay(base):
        last = view(g, seat)
        seen |= _cards(last)
        legal.append([] if g.phase in _OVER else [str(a) for a in g.legal_actions()])
    deal = base["hands"][-1]["deal"]
    unseen = sorted(_cards({k: v for k, v in deal.items() if k != "restock"}) - seen)
    actions = base["hands"][-1]["actions"]
    acts: list[Change] = [
        ("act", i, alt)
        for i, text in enumerate(actions)
        if last["history"][i] != text
        for alt in legal[i]
        if alt != text
    ]
    return unseen, acts


def _one_cut(check: _Checker, req: dict[str, Any], rng: random.Random, report: LeakReport) -> None:
    """Check one random cut of ``req`` for one random viewer."""
    game = req["game"]
    hand = rng.randrange(len(req["hands"]))
    total = len(req["hands"][hand]["actions"])
    k = rng.randint(0, min(total, req["players"] + 1) if rng.random() < 0.3 else total)
    seat = None if rng.random() < 0.25 else rng.randrange(req["players"])
    base = _cut(req, hand, k, seat)
    unseen, acts = _study(base, seat)
    known = (_ours(base, None), _ours(base, seat))
    answer: Any = None
    kept = 0
    for t in range(TRIES):
        if kept >= TWINS:
            break
        change: Change
        if acts and (t % 2 or len(unseen) < 2):
            change = rng.choice(acts)
        elif len(unseen) >= 2:
            a, b = rng.sample(unseen, 2)
            change = ("swap", a, b)
        else:
            break
        other = _apply(base, change)
        if other is None or not _valid_twin(base, other, seat, known):
            continue
        if answer is None:
            answer = check.ask(base)
        kept += 1
        report.pairs[game] += 1
        if check.ask(other) != answer:
            leak = _smallest(check, req, hand, k, seat, change)
            if not any(old.requests == leak.requests for old in report.leaks):
                report.leaks.append(leak)
            return
    _seen_card(check, base, seat, unseen, rng, report, answer, known[1])


def _seen_card(
    check: _Checker,
    base: dict[str, Any],
    seat: int | None,
    unseen: list[str],
    rng: random.Random,
    report: LeakReport,
    answer: Any,
    ours: Any,
) -> None:
    """A card the viewer sees now (its own, else a face-up one) changed: the answer must change."""
    if ours is None or not unseen:
        return
    shown = sorted(ours["hand"] or []) or sorted(_cards(ours))
    for _ in range(TRIES):
        if not shown:
            return
        change: Change = ("swap", rng.choice(shown), rng.choice(unseen))
        other = twin(base, change[1], change[2])
        mine = _ours(other, seat)
        if mine is None or mine == ours:  # an illegal twin, or the two cards lay side by side
            continue
        report.seen_pairs[base["game"]] += 1
        if check.ask(other) == (answer if answer is not None else check.ask(base)):
            what = _label(base, change)
            same = "the answers are identical"
            report.leaks.append(Leak(base["game"], seat, what, (base, other), same, blind=True))
        return


def check_leaks(
    adapter: Adapter,
    games: int,
    *,
    seed: int = 0,
    only: Sequence[str] = (),
    log: Callable[[str], object] | None = None,
    max_leaks: int = 5,
) -> LeakReport:
    """Run the leak check: ``games`` random games per game the adapter supports
    (``only``: these games), stopping a game after ``max_leaks`` leaks.

    Raises :class:`RunnerError` when the adapter does not answer ``hello`` with
    this protocol version or answers an ``observe`` request with something other
    than a view (``unsupported`` skips that game).
    """
    say = log or (lambda _line: None)
    began = time.perf_counter()
    hello = check_hello(adapter, PROTOCOL)
    ops = {o for o in hello.get("ops") or [] if isinstance(o, str)}
    offered = {g for g in hello.get("games") or [] if isinstance(g, str)}
    report = LeakReport()
    check = _Checker(adapter)
    for game in only or GAMES:
        report.games[game] = report.pairs[game] = report.seen_pairs[game] = 0
        if ops and "observe" not in ops:
            report.skipped[game] = "the adapter does not offer observe"
            continue
        if offered and game not in offered:
            report.skipped[game] = "the adapter does not offer this game"
            continue
        rng = random.Random(f"{seed}/{game}")
        for _ in range(games):
            req = _random_request(game, rng)
            report.games[game] += 1
            try:
                for _ in range(CUTS):
                    _one_cut(check, req, rng, report)
            except _Refused as exc:
                if exc.code == "unsupported":
                    continue  # an option this adapter does not offer: that game is not checked
                raise RunnerError(f"the adapter refused an observe request of a legal game: {exc}") from None
            except AdapterFailure as exc:
                raise RunnerError(f"the adapter failed during the leak check: {exc}") from None
            if sum(1 for leak in report.leaks if leak.game == game) >= max_leaks:
                break
        say(f"{game}: {report.games[game]} games, {report.pairs[game]} twin pairs")
    report.seconds = time.perf_counter() - began
    return report


def run_from_args(args: Any, out: Any) -> int:
    """``run --leaks N`` on the command line: 0 when no leak is found, 1 with leaks
    (each printed with its two requests); :class:`RunnerError` when the run cannot
    be trusted."""
    from .runner import SubprocessAdapter

    if args.leaks < 1:
        raise RunnerError(f"--leaks must be at least 1, not {args.leaks}")
    adapter: Adapter = (
        SubprocessAdapter(args.adapter, args.timeout) if args.adapter else InProcessAdapter(args.backend)
    )
    target = args.adapter or f"in-process core {args.backend or 'active'}"
    print(f"leak check: {args.leaks} random games per game against {target} (seed {args.seed})", file=out)
    try:
        report = check_leaks(
            adapter, args.leaks, seed=args.seed, only=args.game or (), log=lambda s: print(s, file=out)
        )
    finally:
        adapter.close()
    for leak in report.leaks:
        print(f"LEAK {leak.describe()}", file=out)
    print(report.summary(), file=out)
    return 1 if report.leaks else 0
