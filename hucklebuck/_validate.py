"""Argument checks shared by the public API, run once above both cores.

Every public function of :mod:`hucklebuck.tricks` and :mod:`hucklebuck.evaluate`
checks each of its arguments here before anything reaches a core, so the C
core and the pure-Python core only ever see valid input and both raise the
same error for the same bad argument.  (The C boundary keeps its own checks
as a second wall.)

The rules these checkers enforce:

* **Errors are the library's own.**  A wrong value *or a wrong Python type*
  for an argument raises a :class:`~hucklebuck.errors.HucklebuckError`
  subclass (which is also a :class:`ValueError`) whose message starts with the
  argument's name, never a bare :class:`TypeError`, :class:`AttributeError` or
  :class:`OverflowError`.  Only calling a function with a wrong *signature*
  (a missing or unknown keyword) raises Python's own :class:`TypeError`.
* **Suits** are given as a :class:`~hucklebuck.cards.Suit` or as the suit's
  protocol letter ``"C"``, ``"D"``, ``"H"`` or ``"S"``.  Plain numbers, other
  strings and floats are refused (:class:`~hucklebuck.errors.CardError`).
* **Cards** are :class:`~hucklebuck.cards.Card` objects and **hands** are a
  :class:`~hucklebuck.cards.CardSet` or an iterable of cards (not a string:
  use :func:`~hucklebuck.cards.parse_cards` first).
* **Integers** (seats, counts, seeds) are :class:`int` and not :class:`bool`;
  a float such as ``2.0`` is refused rather than truncated.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Iterable
from typing import Any, Final, ParamSpec, TypeVar

from .cards import Card, CardSet, Suit
from .errors import CardError, HucklebuckError, OptionsError, PlayerCountError, SeatError
from .packs import GameKind, pack, player_range

__all__ = [
    "ANTE",
    "BOOL",
    "CARD",
    "COUNT",
    "GAME",
    "HAND",
    "MAX_ANTE",
    "MAX_POT_LIMIT",
    "MAX_SEED",
    "POT_LIMIT",
    "SAMPLES",
    "SEED",
    "SUIT",
    "WORKERS",
    "Check",
    "Whole",
    "boolean",
    "card",
    "checked",
    "evaluation_fits",
    "game",
    "hand",
    "int_in",
    "integer",
    "one_of",
    "optional",
    "players",
    "players_of",
    "seat",
    "seat_hands",
    "seat_list",
    "seat_of",
    "seats_of",
    "seed",
    "shown",
    "solve_seats",
    "suit",
    "upcard_apart",
]

#: Seeds are 64-bit: 0 .. 2**64 - 1.
MAX_SEED: Final = (1 << 64) - 1
#: The largest Buck 'Em ante, the same at every entry point (the game's options, the
#: protocol, the command line, PettingZoo, OpenSpiel, the bulk simulation): 2**31 - 1.
MAX_ANTE: Final = (1 << 31) - 1
#: The largest Buck 'Em ``pot_limit``: 2**58 (the cores count chips in 64 bits).
MAX_POT_LIMIT: Final = 1 << 58
_LETTERS: Final = {"C": Suit.CLUBS, "D": Suit.DIAMONDS, "H": Suit.HEARTS, "S": Suit.SPADES}


def shown(value: object, limit: int = 60) -> str:
    """``repr(value)`` cut to ``limit`` characters, for error messages."""
    try:
        text = repr(value)
    except Exception:  # a hostile __repr__ must not replace the real error
        text = f"<{type(value).__name__} object>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def integer(
    value: object,
    name: str,
    lo: int,
    hi: int,
    error: type[HucklebuckError] = OptionsError,
) -> int:
    """``value`` as an int in ``lo..hi`` (inclusive), else ``error`` naming ``name``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise error(f"{name} must be an integer {lo}..{hi}, not {shown(value)} ({type(value).__name__})")
    if not lo <= value <= hi:
        raise error(f"{name} must be an integer {lo}..{hi}, not {shown(value)}")
    return int(value)


def boolean(value: object, name: str) -> bool:
    """``value`` if it is a bool, else :class:`OptionsError` naming ``name``."""
    if not isinstance(value, bool):
        raise OptionsError(f"{name} must be True or False, not {shown(value)}")
    return value


def seat(value: object, name: str, players: int) -> int:
    """A seat number ``0..players-1``, else :class:`SeatError` naming ``name``."""
    return integer(value, name, 0, players - 1, SeatError)


def seat_list(value: object, name: str, players: int) -> list[int]:
    """Distinct seats ``0..players-1`` in ascending order, from a list, tuple or set of ints."""
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise PlayerCountError(f"{name} must be a list of seats, not {shown(value)}")
    seats = [seat(s, f"{name} entry", players) for s in value]
    if len(set(seats)) != len(seats):
        raise PlayerCountError(f"{name} lists a seat twice: {shown(value)}")
    return sorted(seats)


def game(value: object, name: str = "game") -> GameKind:
    """A :class:`GameKind` from itself or its protocol name."""
    if isinstance(value, GameKind):
        return value
    if not isinstance(value, str):
        raise OptionsError(
            f"{name} must be a GameKind or one of 'hucklebuck', 'buckem', 'deerpark', not {shown(value)}"
        )
    try:
        return GameKind.coerce(value)
    except OptionsError as exc:
        raise OptionsError(f"{name}: {exc}") from None


def suit(value: object, name: str = "trump") -> Suit:
    """A :class:`Suit` from itself or its protocol letter (the one rule for suit arguments)."""
    if isinstance(value, Suit):
        return value
    if isinstance(value, str):
        found = _LETTERS.get(value)
        if found is not None:
            return found
    raise CardError(f"{name}: {shown(value)} is not a suit (give a Suit or one of the letters C, D, H, S)")


def card(value: object, name: str) -> Card:
    """``value`` if it is a :class:`Card`, else :class:`CardError` naming ``name``."""
    if not isinstance(value, Card):
        hint = f" (use parse_card({value!r}))" if isinstance(value, str) and len(value) < 8 else ""
        raise CardError(f"{name} must be a Card, not {shown(value)}{hint}")
    return value


def hand(value: object, name: str) -> CardSet:
    """A :class:`CardSet` from itself or an iterable of distinct cards."""
    if isinstance(value, CardSet):
        return value
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise CardError(
            f"{name} must be a CardSet or a list of Cards, not {shown(value)} (parse text with parse_cards)"
        )
    mask = 0
    for i, c in enumerate(value):
        c = card(c, f"{name} item {i}")
        if mask & c.mask:
            raise CardError(f"{name}: card {c.code} appears twice")
        mask |= c.mask
    return CardSet.from_mask(mask)


def players(kind: GameKind, value: object, name: str = "players") -> int:
    """A player count the game supports, else :class:`PlayerCountError` naming ``name``."""
    lo, hi = player_range(kind)
    return integer(value, name, lo, hi, PlayerCountError)


def seed(value: object, name: str = "seed") -> int:
    """A 64-bit seed ``0..2**64-1``."""
    return integer(value, name, 0, MAX_SEED)


# ------------------------------------------------------- declarative checks
Check = Callable[[object, str, dict[str, Any]], object]
"""A checker: ``(value, argument name, the other arguments so far) -> normalised value``."""
Whole = Callable[[dict[str, Any]], None]
"""A check across arguments, run after every single-argument check."""
P = ParamSpec("P")
R = TypeVar("R")


def checked(*whole: Whole, **checks: Check) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Decorate a public function so each named argument is checked (and normalised) first.

    Checks run in the order given, each seeing the arguments already
    normalised (so ``seat`` can be checked against ``players``); then the
    ``whole`` checks run on all of them (they only look: a whole check raises
    or returns ``None``).  Wrong signatures still raise Python's own
    :class:`TypeError` from the call itself.

    The wrapper is compiled once, when the function is decorated: a plain
    function with the same parameters and defaults that runs the checks in
    line and calls the original, so a call costs the checks themselves and
    no signature binding.
    """

    def wrap(fn: Callable[P, R]) -> Callable[P, R]:
        sig = inspect.signature(fn)
        for name in checks:
            if name not in sig.parameters:  # pragma: no cover - a typo in a decorator
                raise AssertionError(f"{fn.__name__} has no argument {name!r}")
        return functools.wraps(fn)(_compile(fn, sig, whole, checks))

    return wrap


_SIMPLE = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)


def _compile(
    fn: Callable[..., Any], sig: inspect.Signature, whole: tuple[Whole, ...], checks: dict[str, Check]
) -> Callable[..., Any]:
    """The checking wrapper of ``fn``, built as source once and compiled."""
    params = list(sig.parameters.values())
    if any(p.kind not in _SIMPLE or not p.name.isidentifier() or p.name.startswith("_") for p in params):
        raise AssertionError(f"{fn.__name__}: only plain and keyword-only arguments can be checked")
    env: dict[str, Any] = {"_fn": fn}
    head: list[str] = []
    star = False
    for p in params:
        if p.kind is inspect.Parameter.KEYWORD_ONLY and not star:
            head.append("*")
            star = True
        if p.default is inspect.Parameter.empty:
            head.append(p.name)
        else:
            env[f"_d_{p.name}"] = p.default
            head.append(f"{p.name}=_d_{p.name}")
    names = [p.name for p in params]
    lines = [f"def run({', '.join(head)}):"]
    lines.append("    _a = {" + ", ".join(f"{n!r}: {n}" for n in names) + "}")
    for i, (name, check) in enumerate(checks.items()):
        env[f"_c{i}"] = check
        lines.append(f"    _a[{name!r}] = {name} = _c{i}({name}, {name!r}, _a)")
    for i, w in enumerate(whole):
        env[f"_w{i}"] = w
        lines.append(f"    _w{i}(_a)")
    keyword = inspect.Parameter.KEYWORD_ONLY
    call = [f"{p.name}={p.name}" if p.kind is keyword else p.name for p in params]
    lines.append(f"    return _fn({', '.join(call)})")
    exec(compile("\n".join(lines), f"<checked {fn.__qualname__}>", "exec"), env)
    run: Callable[..., Any] = env["run"]
    return run


def optional(check: Check) -> Check:
    """``None`` passes unchanged; anything else goes to ``check``."""
    return lambda value, name, args: None if value is None else check(value, name, args)


def int_in(lo: int, hi: int, error: type[HucklebuckError] = OptionsError) -> Check:
    """An integer ``lo..hi``."""
    return lambda value, name, args: integer(value, name, lo, hi, error)


def one_of(*choices: str) -> Check:
    """One of the given strings."""

    def check(value: object, name: str, args: dict[str, Any]) -> object:
        if not isinstance(value, str) or value not in choices:
            raise OptionsError(f"{name} must be one of {', '.join(map(repr, choices))}, not {shown(value)}")
        return value

    return check


def players_of(kind: GameKind | None = None, game_arg: str = "game") -> Check:
    """A player count of ``kind`` (or of the game named by argument ``game_arg``)."""
    return lambda value, name, args: players(kind or args[game_arg], value, name)


def seat_of(players_arg: str = "players") -> Check:
    """A seat of the player count in argument ``players_arg``."""
    return lambda value, name, args: seat(value, name, args[players_arg])


def seats_of(players_arg: str = "players") -> Check:
    """A list of distinct seats of the player count in argument ``players_arg``."""
    return lambda value, name, args: seat_list(value, name, args[players_arg])


def _plain(fn: Callable[[Any, str], object]) -> Check:
    return lambda value, name, args: fn(value, name)


GAME: Final[Check] = _plain(game)
SUIT: Final[Check] = _plain(suit)
CARD: Final[Check] = _plain(card)
HAND: Final[Check] = _plain(hand)
BOOL: Final[Check] = _plain(boolean)
SEED: Final[Check] = _plain(seed)
#: A count of samples or hands for one call (the cores count in 32 bits).
COUNT: Final[Check] = int_in(0, (1 << 32) - 1)
SAMPLES: Final[Check] = int_in(1, (1 << 32) - 1)
WORKERS: Final[Check] = int_in(1, 1024)
#: Chips are counted in 64 bits; the cores stop a pot at 2**58.
ANTE: Final[Check] = int_in(1, MAX_ANTE)
POT_LIMIT: Final[Check] = optional(int_in(1, MAX_POT_LIMIT))


def seat_hands(value: object, name: str, args: dict[str, Any]) -> list[CardSet]:
    """One hand per seat (2-8 seats), no card in two hands."""
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise CardError(f"{name} must be a list of hands, one per seat, not {shown(value)}")
    hands = [hand(h, f"{name}[{i}]") for i, h in enumerate(value)]
    if not 2 <= len(hands) <= 8:
        raise PlayerCountError(f"{name} must list 2 to 8 seats, not {len(hands)}")
    seen = 0
    for i, h in enumerate(hands):
        if seen & h.mask:
            raise CardError(f"{name}[{i}] holds a card that is also in another hand")
        seen |= h.mask
    sizes = {len(h) for h in hands if h}
    if len(sizes) != 1 or not 1 <= min(sizes) <= 5:
        raise CardError(f"{name}: the seats in play must hold the same number of cards, 1 to 5")
    return hands


def solve_seats(args: dict[str, Any]) -> None:
    """``leader`` and ``seat`` of a solve are seats in play."""
    hands: list[CardSet] = args["hands"]
    for name in ("leader", "seat"):
        s = seat(args[name], name, len(hands))
        if not hands[s]:
            raise PlayerCountError(f"{name} {s} is not in play (its hand is empty)")


def evaluation_fits(args: dict[str, Any]) -> None:
    """The hand, seats in play and seen cards of an evaluation make a possible deal."""
    own: CardSet = args["hand"]
    if not 1 <= len(own) <= 5:
        raise CardError(f"hand must hold 1 to 5 cards, not {len(own)}")
    n: int = args["players"]
    seats: list[int] = args["in_play"] if args["in_play"] is not None else list(range(n))
    for name in ("seat", "leader"):
        if args[name] not in seats:
            raise PlayerCountError(f"in_play {seats} must include the {name}, {args[name]}")
    if len(seats) < 2:
        raise PlayerCountError(f"in_play must hold at least 2 seats, not {seats}")
    seen: CardSet = args["seen"]
    if own & seen:
        raise CardError("seen: a card is both in the hand and among the seen cards")
    kind: GameKind = args["game"]
    full = pack(kind, n, short_handed=args["short_handed"]) if kind is GameKind.BUCKEM else pack(kind, n)
    if not own <= full or not seen <= full:
        raise CardError(f"hand and seen must be cards of the {kind.title} pack for {n} players")
    unseen = len(full - own - seen)
    if unseen < (len(seats) - 1) * len(own):
        raise CardError(
            f"seen: only {unseen} unseen cards are left, too few to deal {len(own)} to each of "
            f"{len(seats) - 1} other seats"
        )


def upcard_apart(args: dict[str, Any]) -> None:
    """Buck 'Em advice: the upcard is not one of the hand's cards."""
    if args["upcard"] in args["hand"]:
        raise CardError(f"upcard {args['upcard'].code} is also in the hand")
