"""The leak check: does an implementation's ``observe`` answer show anything the
seat may not know?  (``python -m hucklebuck.conformance run --leaks N``.)

For each game it plays ``N`` random games with our engine (random player
counts, protocol options and start positions: the simultaneous declare, the
deuce swap, scare cards, the removed-card trump, re-formed stocks and the rest;
see :mod:`~hucklebuck.conformance.twins`) and cuts each at random points.  At a
cut, for a random seat or an onlooker, it builds **twins**: the same request
with two cards transposed everywhere (in the deal, the re-formed stocks and the
action texts) that the viewer has not seen, or with one action the viewer sees
only in part replaced by another legal one, in the hand of the cut or in an
**earlier hand** of the same request.  A twin is kept only when every action
stays legal (the later hands' too), an onlooker's view is unchanged and the
seat's own hand is unchanged (checked with our engine), so the viewer cannot
tell the two games apart; the adapter's two ``observe`` answer **lines** must
then be identical, byte for byte (non-interference: a client reads the text,
so keys in another order or ``4.0`` for ``4`` tell the twins apart as surely
as another value).  It also transposes a card the viewer *does* see (one in
its hand, or a face-up card for an onlooker) and requires the answers to
differ: a view that hides everything is no view.  A leak is reported with the
shortest action prefix whose twins still tell apart.

A game whose ``observe`` the adapter refuses as ``unsupported`` (an option it
does not offer) is not checked; the report counts those games per game, and a
game with more than :data:`MAX_SKIPPED` of its games skipped fails the check
unless the caller accepts partial coverage (the reference checks them all).

>>> report = check_leaks(InProcessAdapter(), games=2, seed=1, only=("deerpark",))
>>> report.leaks, report.pairs["deerpark"] > 0, report.low_coverage()
([], True, [])
"""

from __future__ import annotations

import copy
import json
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from ..games.observe import view
from .casefile import RunnerError
from .connection import Adapter, AdapterFailure, InProcessAdapter
from .protocol import PROTOCOL, handle
from .runner import check_hello
from .spec import GAMES
from .twins import OVER, cards_in, cut, random_request, replay, twin

__all__ = ["MAX_SKIPPED", "Leak", "LeakReport", "check_leaks", "twin"]

#: Cut points per random game, and transpositions tried per cut.
CUTS: Final = 2
TRIES: Final = 6
#: Twins kept per cut (each one is a twin pair checked against the adapter).
TWINS: Final = 3
#: The share of a game's random games that may be skipped (refused as ``unsupported``)
#: before the check fails that game for low coverage (our adapter skips none).
MAX_SKIPPED: Final = 0.10


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
    """What a leak check did and found, per game: the random games played
    (``games``), those skipped because the adapter refused them as
    ``unsupported`` (``refused``, with the first refusal's message in
    ``refusals``), the twin pairs checked (``pairs``; ``earlier_pairs`` of them
    differ in an earlier hand than the cut's) and the seen-card pairs."""

    games: dict[str, int] = field(default_factory=dict)
    pairs: dict[str, int] = field(default_factory=dict)
    earlier_pairs: dict[str, int] = field(default_factory=dict)
    seen_pairs: dict[str, int] = field(default_factory=dict)
    refused: dict[str, int] = field(default_factory=dict)
    refusals: dict[str, str] = field(default_factory=dict)
    skipped: dict[str, str] = field(default_factory=dict)
    leaks: list[Leak] = field(default_factory=list)
    seconds: float = 0.0

    def low_coverage(self) -> list[str]:
        """The games of which more than :data:`MAX_SKIPPED` of the random games were skipped."""
        return [g for g, n in self.games.items() if n and self.refused.get(g, 0) > MAX_SKIPPED * n]

    def summary(self) -> str:
        """One line per game, then the verdict."""
        lines = []
        for g in self.games:
            if g in self.skipped:
                lines.append(f"{g}: skipped ({self.skipped[g]})")
                continue
            found = sum(1 for leak in self.leaks if leak.game == g)
            refused = self.refused.get(g, 0)
            checked = self.games[g] - refused
            lines.append(
                f"{g}: {checked} of {self.games[g]} games checked, {refused} skipped as unsupported, "
                f"{self.pairs[g]} twin pairs identical as required ({self.earlier_pairs[g]} differing in an "
                f"earlier hand), {self.seen_pairs[g]} seen-card pairs different as required, {found} leak(s)"
            )
            if refused:
                lines.append(f"  first refusal: {self.refusals[g][:200]}")
        for g in self.low_coverage():
            share = self.refused[g] / self.games[g]
            lines.append(
                f"LOW COVERAGE {g}: the adapter refused {share:.0%} of the games as unsupported "
                f"(the reference refuses none); the check of {g} proves little"
            )
        verdict = f"{len(self.leaks)} leak(s)" if self.leaks else "no leak found"
        lines.append(f"leak check: {verdict} in {self.seconds:.1f} s")
        return "\n".join(lines)


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


def _text_difference(a: str, b: str) -> str:
    """Where two answer lines of equal value differ as text (key order, number forms, spaces)."""
    i = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
    lo = max(0, i - 30)
    return (
        f"the answer lines differ as text though their values are equal, at character {i}: "
        f"{json.dumps(a[lo : i + 40])} versus {json.dumps(b[lo : i + 40])}"
    )


Answer = tuple[str, Any]
"""An ``observe`` answer: the line as the adapter wrote it, and its result."""


class _Checker:
    """Asks the adapter for views; a refusal raises :class:`_Refused`."""

    def __init__(self, adapter: Adapter) -> None:
        self.adapter = adapter
        self._line: Callable[[dict[str, Any]], tuple[str, dict[str, Any]]] | None = getattr(
            adapter, "request_line", None
        )

    def ask(self, req: dict[str, Any]) -> Answer:
        req = dict(req, op="observe", id="leaks")
        if self._line is not None:
            text, answer = self._line(req)
        else:  # an adapter object that gives values only: its canonical text
            answer = self.adapter.request(req)
            text = json.dumps(answer, separators=(",", ":"))
        if answer.get("ok") is not True:
            err = answer.get("error") or {}
            code = err.get("code") if isinstance(err, dict) else None
            raise _Refused(str(code), str(err.get("message", "")) if isinstance(err, dict) else "")
        return text, answer.get("result")


def _differ(x: Answer, y: Answer) -> str | None:
    """None when two answers are the same line; else the first difference."""
    if x[0] == y[0]:
        return None
    if x[1] != y[1]:
        return _first_difference(x[1], y[1])
    return _text_difference(x[0], y[0])


class _Refused(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


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


Change = tuple[str, int, Any, Any]
"""A twin's difference in hand ``h`` (an index into the request's hands):
``("swap", h, a, b)`` transposes cards a and b there; ``("act", h, i, text)``
replaces its action ``i``, one the viewer sees only in part, by ``text``."""


def _apply(base: dict[str, Any], change: Change) -> dict[str, Any] | None:
    """The twin of ``base`` under ``change`` (None when the change lies past its actions)."""
    kind, h, x, y = change
    if h >= len(base["hands"]):
        return None
    if kind == "swap":
        return twin(base, x, y, h)
    actions = base["hands"][h]["actions"]
    if x >= len(actions):
        return None
    other = copy.deepcopy(base)
    other["hands"][h]["actions"][x] = y
    return other


def _label(base: dict[str, Any], change: Change) -> str:
    kind, h, x, y = change
    where = f" of hand {h + 1}" if h < len(base["hands"]) - 1 else ""
    if kind == "swap":
        return f"cards {x} <-> {y}{where}"
    return f"action {x + 1}{where} {base['hands'][h]['actions'][x]!r} -> {y!r}"


def _smallest(
    check: _Checker, req: dict[str, Any], hand: int, k: int, seat: int | None, change: Change
) -> Leak:
    """The leak of ``change`` at the shortest action prefix (of the cut hand) that shows it."""
    for j in range(k + 1):
        base = cut(req, hand, j, seat)
        other = _apply(base, change)
        if other is None or not _valid_twin(base, other, seat):
            continue
        x, y = check.ask(base), check.ask(other)
        found = _differ(x, y)
        if found is not None:
            return Leak(req["game"], seat, _label(base, change), (base, other), found)
    raise AssertionError("the leak vanished")  # pragma: no cover - the full prefix always shows it


def _study(req: dict[str, Any], seat: int | None, h: int) -> tuple[list[str], list[Change]]:
    """The dealt cards ``seat`` has not seen in hand ``h`` of ``req`` (as far as ``req``
    goes in it), and the changes of the actions it sees only in part there (another
    legal action of the same seat)."""
    upto = dict(req, hands=req["hands"][: h + 1])
    seen: set[str] = set()
    legal: list[list[str]] = []
    last: dict[str, Any] = {}
    for g in replay(upto):
        last = view(g, seat)
        seen |= cards_in(last)
        legal.append([] if g.phase in OVER else [str(a) for a in g.legal_actions()])
    deal = upto["hands"][-1]["deal"]
    unseen = sorted(cards_in({k: v for k, v in deal.items() if k != "restock"}) - seen)
    actions = upto["hands"][-1]["actions"]
    acts: list[Change] = [
        ("act", h, i, alt)
        for i, text in enumerate(actions)
        if last["history"][i] != text
        for alt in legal[i]
        if alt != text
    ]
    return unseen, acts


def _one_cut(check: _Checker, req: dict[str, Any], rng: random.Random, report: LeakReport) -> None:
    """Check one random cut of ``req`` for one random viewer: twins that differ in the
    hand of the cut or, half the time when there is one, in an earlier hand."""
    game = req["game"]
    hand = rng.randrange(len(req["hands"]))
    total = len(req["hands"][hand]["actions"])
    k = rng.randint(0, min(total, req["players"] + 1) if rng.random() < 0.3 else total)
    seat = None if rng.random() < 0.25 else rng.randrange(req["players"])
    base = cut(req, hand, k, seat)
    target = rng.randrange(hand) if hand and rng.random() < 0.5 else hand
    unseen, acts = _study(base, seat, target)
    known = (_ours(base, None), _ours(base, seat))
    answer: Answer | None = None
    kept = 0
    for t in range(TRIES):
        if kept >= TWINS:
            break
        change: Change
        if acts and (t % 2 or len(unseen) < 2):
            change = rng.choice(acts)
        elif len(unseen) >= 2:
            a, b = rng.sample(unseen, 2)
            change = ("swap", target, a, b)
        else:
            break
        other = _apply(base, change)
        if other is None or not _valid_twin(base, other, seat, known):
            continue
        if answer is None:
            answer = check.ask(base)
        kept += 1
        report.pairs[game] += 1
        report.earlier_pairs[game] += target < hand
        if _differ(check.ask(other), answer) is not None:
            leak = _smallest(check, req, hand, k, seat, change)
            if not any(old.requests == leak.requests for old in report.leaks):
                report.leaks.append(leak)
            return
    if target == hand:
        _seen_card(check, base, seat, unseen, rng, report, answer, known[1])


def _seen_card(
    check: _Checker,
    base: dict[str, Any],
    seat: int | None,
    unseen: list[str],
    rng: random.Random,
    report: LeakReport,
    answer: Answer | None,
    ours: Any,
) -> None:
    """A card the viewer sees now (its own, else a face-up one) changed: the answer must change."""
    if ours is None or not unseen:
        return
    shown = sorted(ours["hand"] or []) or sorted(cards_in(ours))
    for _ in range(TRIES):
        if not shown:
            return
        a, b = rng.choice(shown), rng.choice(unseen)
        change: Change = ("swap", len(base["hands"]) - 1, a, b)
        other = twin(base, a, b)
        mine = _ours(other, seat)
        if mine is None or mine == ours:  # an illegal twin, or the two cards lay side by side
            continue
        report.seen_pairs[base["game"]] += 1
        if check.ask(other)[1] == (answer if answer is not None else check.ask(base))[1]:
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
    than a view (``unsupported`` skips that random game, counted in ``refused``).
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
        report.earlier_pairs[game] = report.refused[game] = 0
        if ops and "observe" not in ops:
            report.skipped[game] = "the adapter does not offer observe"
            continue
        if offered and game not in offered:
            report.skipped[game] = "the adapter does not offer this game"
            continue
        rng = random.Random(f"{seed}/{game}")
        for _ in range(games):
            req = random_request(game, rng)
            report.games[game] += 1
            try:
                for _ in range(CUTS):
                    _one_cut(check, req, rng, report)
            except _Refused as exc:
                if exc.code == "unsupported":  # an option this adapter does not offer: not checked
                    report.refused[game] += 1
                    report.refusals.setdefault(game, f"{exc.message} (options {json.dumps(req['options'])})")
                    continue
                raise RunnerError(f"the adapter refused an observe request of a legal game: {exc}") from None
            except AdapterFailure as exc:
                raise RunnerError(f"the adapter failed during the leak check: {exc}") from None
            if sum(1 for leak in report.leaks if leak.game == game) >= max_leaks:
                break
        say(
            f"{game}: {report.games[game]} games ({report.refused[game]} skipped as unsupported), "
            f"{report.pairs[game]} twin pairs"
        )
    report.seconds = time.perf_counter() - began
    return report


def run_from_args(args: Any, out: Any) -> int:
    """``run --leaks N`` on the command line: 0 when no leak is found, 1 with leaks
    (each printed with its two requests) or with a game's coverage too low (unless
    ``--accept-partial``); :class:`RunnerError` when the run cannot be trusted."""
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
    low = report.low_coverage()
    if low and getattr(args, "accept_partial", False):
        print(f"coverage accepted as partial (--accept-partial): {', '.join(low)}", file=out)
        low = []
    elif low:
        games = ", ".join(low)
        print(f"leak check fails: too few games checked for {games} (--accept-partial to accept)", file=out)
    return 1 if report.leaks or low else 0
