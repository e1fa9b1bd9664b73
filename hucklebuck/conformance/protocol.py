"""The conformance protocol, version 3: one request in, one answer out.

:func:`handle` answers a decoded request with the active core.  The reference
adapter (:mod:`hucklebuck.conformance.adapter`) wraps it in JSON Lines over
stdin/stdout; the runner can also call it in-process.  It never raises: every
problem becomes an error answer with the protocol's codes.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Final

from .. import __version__
from .._core import get_core
from .._core._api import NO_LEAD
from ..cards import Card, CardSet, Suit
from ..errors import (
    ActionParseError,
    CardError,
    CoreInputError,
    DealError,
    HucklebuckError,
    IllegalAction,
    OptionsError,
    PlayerCountError,
    RestoreError,
    SolveBudgetExceeded,
    UnsupportedOption,
)
from ..games.base import Phase
from ..games.buckem import BuckEmGame, BuckEmOptions
from ..games.deerpark import DeerParkGame, DeerParkOptions
from ..games.engine import TrickGame
from ..games.hucklebuck import HucklebuckGame, HucklebuckOptions
from ..games.observe import view
from ..packs import GameKind, pack
from .spec import OPS, extensions

__all__ = ["OPS", "PROTOCOL", "ProtocolError", "handle"]

PROTOCOL: Final = 3
#: A ``solve`` request searches at most this many nodes (both cores count alike) ...
SOLVE_NODES: Final = 2_000_000
#: ... and about this many seconds; past either it is answered ``unsupported``.
SOLVE_SECONDS: Final = 5.0


class ProtocolError(Exception):
    """An error answer: ``code`` is bad_request, illegal_action or unsupported."""

    def __init__(self, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.code = code
        self.extra = extra

    def to_dict(self) -> dict[str, Any]:
        """The ``error`` object of the answer."""
        return {"code": self.code, "message": str(self), **self.extra}


def _j(value: Any) -> str:
    """A value in JSON notation, as messages show values."""
    try:
        return json.dumps(value, ensure_ascii=False, allow_nan=False)[:200]
    except (TypeError, ValueError, RecursionError):
        return "a value that cannot be shown"


def _bad(message: str, **extra: Any) -> ProtocolError:
    return ProtocolError("bad_request", message, **extra)


def _field(req: Mapping[str, Any], name: str, kind: type | tuple[type, ...], what: str) -> Any:
    if name not in req:
        raise _bad(f"missing {_j(name)} ({what})")
    value = req[name]
    if isinstance(value, bool) and bool not in (kind if isinstance(kind, tuple) else (kind,)):
        raise _bad(f"{_j(name)} must be {what}, not {_j(value)}")
    if not isinstance(value, kind):
        raise _bad(f"{_j(name)} must be {what}, not {_j(value)}")
    return value


def _game(req: Mapping[str, Any]) -> GameKind:
    name = _field(req, "game", str, "a game name")
    try:
        return GameKind(name)
    except ValueError:
        raise ProtocolError("unsupported", f"unknown game {_j(name)}") from None


def _card(code: object, where: str) -> Card:
    if not isinstance(code, str):
        raise _bad(f"{where}: a card must be a string, not {_j(code)}")
    try:
        return Card.parse(code)
    except CardError as exc:
        raise _bad(f"{where}: {exc}") from None


def _cards(value: object, where: str) -> list[Card]:
    if not isinstance(value, list):
        raise _bad(f"{where} must be a list of cards")
    cards = [_card(c, where) for c in value]
    if len(set(cards)) != len(cards):
        raise _bad(f"{where} lists a card twice")
    return cards


def _trump(req: Mapping[str, Any]) -> Suit:
    s = _field(req, "trump", str, "a suit letter C, D, H or S")
    if s not in ("C", "D", "H", "S"):
        raise _bad(f"{_j(s)} is not a suit (C, D, H or S)")
    return Suit("CDHS".index(s))


OPTION_TYPES: Final[dict[GameKind, type]] = {
    GameKind.HUCKLEBUCK: HucklebuckOptions,
    GameKind.BUCKEM: BuckEmOptions,
    GameKind.DEERPARK: DeerParkOptions,
}


def _options(kind: GameKind, req: Mapping[str, Any]) -> Any:
    raw = req.get("options", {})
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        raise _bad('"options" must be an object')
    try:
        return OPTION_TYPES[kind].from_dict(raw)  # type: ignore[attr-defined]
    except UnsupportedOption as exc:
        raise ProtocolError("unsupported", str(exc)) from None
    except OptionsError as exc:
        raise _bad(str(exc)) from None


def _players(req: Mapping[str, Any]) -> int:
    n = _field(req, "players", int, "an integer")
    return int(n)


# ----------------------------------------------------------------- simple ops
def op_hello(req: Mapping[str, Any]) -> Any:
    """Name, version, protocol, games, ops and the extensions we support."""
    return {
        "name": "hucklebuck",
        "version": __version__,
        "protocol": PROTOCOL,
        "games": [g.value for g in GameKind],
        "ops": list(OPS),
        "extensions": extensions(),
        "core": get_core().name,
    }


def op_deck(req: Mapping[str, Any]) -> Any:
    """The sorted pack of a game for a player count and options."""
    kind = _game(req)
    players = _players(req)
    opts = _options(kind, req)
    try:
        if kind is GameKind.BUCKEM:
            cards = pack(kind, players, short_handed=opts.short_handed)
            if opts.short_handed_trump.value == "removed_card" and len(cards) == 52:
                raise _bad('short_handed_trump "removed_card" needs a short pack')
        elif kind is GameKind.DEERPARK:
            eight = opts.eight_player_turnup.value == "dealer_last_card"
            cards = pack(kind, players, eight_players=eight)
        else:
            cards = pack(kind, players)
    except PlayerCountError as exc:
        raise _bad(str(exc)) from None
    return cards.codes()


def op_trick_winner(req: Mapping[str, Any]) -> Any:
    """Index of the winning card of one trick."""
    kind = _game(req)
    trump = _trump(req)
    plays = _cards(_field(req, "plays", list, "a list of cards"), "plays")
    if not 2 <= len(plays) <= 8:
        raise _bad(f'"plays" holds 2 to 8 cards, not {len(plays)}')
    return get_core().trick_winner(kind.core_id, int(trump), bytes(c.index for c in plays))


def op_legal_plays(req: Mapping[str, Any]) -> Any:
    """The sorted cards of a hand that may be played to a trick."""
    kind = _game(req)
    trump = _trump(req)
    hand = _cards(_field(req, "hand", list, "a list of cards"), "hand")
    trick = _cards(req.get("trick", []), "trick")
    if not 1 <= len(hand) <= 5:
        raise _bad(f'"hand" holds 1 to 5 cards, not {len(hand)}')
    if len(trick) > 7:
        raise _bad('"trick" holds at most 7 cards')
    both = set(hand) & set(trick)
    if both:
        raise _bad(f"card {min(both).code} is both in the hand and on the table")
    lead = trick[0].index if trick else NO_LEAD
    mask = get_core().legal_mask(kind.core_id, int(trump), lead, CardSet(hand).mask)
    return CardSet.from_mask(mask).codes()


# ------------------------------------------------------------------- play op
def _int_list(value: object, n: int, where: str) -> list[int]:
    if (
        not isinstance(value, list)
        or len(value) != n
        or any(isinstance(v, bool) or not isinstance(v, int) for v in value)
    ):
        raise _bad(f"{where} must be a list of {n} integers")
    return list(value)


def _seat(value: object, n: int, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < n:
        raise _bad(f"{where} must be a seat 0..{n - 1}")
    return value


def _new_game(
    kind: GameKind, players: int, opts: Any, start: Mapping[str, Any], deal: Any
) -> TrickGame[Any, Any]:
    """Check ``start`` (bad_request) and build the game with its first deal."""
    dealer = _seat(start.get("dealer", 0), players, "start.dealer")
    if kind is GameKind.HUCKLEBUCK:
        scores = _int_list(start.get("scores", [0] * players), players, "start.scores")
        out_raw = start.get("out", [])
        if not isinstance(out_raw, list):
            raise _bad("start.out must be a list of seats")
        out = [_seat(s, players, "start.out") for s in out_raw]
        if dealer in out:
            raise _bad(f"start.dealer {dealer} is out of the game")
        if players - len(set(out)) < 2:
            raise _bad("at least two players must still be in the game")
        _checked_deal(kind, deal, 0)
        return HucklebuckGame(players, options=opts, dealer=dealer, scores=scores, out=out, deal=deal)
    if kind is GameKind.DEERPARK:
        scores = _int_list(start.get("scores", [20] * players), players, "start.scores")
        _checked_deal(kind, deal, 0)
        return DeerParkGame(players, options=opts, dealer=dealer, scores=scores, deal=deal)
    bankrolls = _int_list(start.get("bankrolls", [0] * players), players, "start.bankrolls")
    pot = start.get("pot", 0)
    units = start.get("pot_units", 0)
    for name, v in (("pot", pot), ("pot_units", units)):
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise _bad(f"start.{name} must be a non-negative integer")
    ante_due = start.get("ante_due", True)
    if not isinstance(ante_due, bool):
        raise _bad("start.ante_due must be true or false")
    _checked_deal(kind, deal, 0)
    return BuckEmGame(
        players,
        options=opts,
        dealer=dealer,
        bankrolls=bankrolls,
        pot=pot,
        pot_units=units,
        ante_due=ante_due,
        deal=deal,
    )


def _checked_deal(kind: GameKind, deal: object, index: int) -> None:
    if not isinstance(deal, Mapping):
        raise _bad(f"hands[{index}].deal must be an object")


def _cut_hand(game: TrickGame[Any, Any], kind: GameKind) -> dict[str, Any]:
    """The HAND of an unfinished hand (the state at a cut)."""
    n = game.players
    legal = sorted(str(a) for a in game.legal_actions())
    trump = game.trump
    out: dict[str, Any] = {
        "complete": False,
        "to_act": game.to_act,
        "legal": legal,
        "restock": [[c.code for c in r] for r in game._restocks],
        "dealer": game.dealer,
        "trump": None if trump is None else trump.symbol,
        "tricks": [t.to_dict() for t in game.tricks],
        "tricks_won": list(game.tricks_won),
    }
    if game.phase is Phase.PLAY and game.current_trick:
        out["current_trick"] = {"leader": game.trick_leader, "cards": [c.code for c in game.current_trick]}
    if isinstance(game, HucklebuckGame):
        fixed = game.phase not in (Phase.AUCTION,)
        out |= {
            "bidder": game.bidder if fixed else None,
            "bid": game.bid if fixed else None,
            "active": sorted(s for s, k in game.declarations() if k is not None),
            "delta": [0] * n,
            "scores": list(game.scores),
            "out": list(game.out),
        }
    elif isinstance(game, BuckEmGame):
        out |= {
            "stayers": list(game.stayers),
            "raked": None,
            "winners": [],
            "burned": [],
            "payouts": [0] * n,
            "delta": list(game._delta),
            "bankrolls": list(game.bankrolls),
            "pot": game.pot,
            "pot_units": game.pot_units,
            "ante_due": game.ante_due,
        }
    elif isinstance(game, DeerParkGame):
        out |= {
            "maker": game.maker,
            "requirement": game.requirement,
            "delta": [0] * n,
            "scores": list(game.scores),
        }
    return out


def _final(game: TrickGame[Any, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {
        "game_over": game.is_over,
        "winners": sorted(game.winners),
        "dealer": game.dealer,
    }
    if isinstance(game, HucklebuckGame):
        out |= {"scores": list(game.scores), "out": list(game.out)}
    elif isinstance(game, BuckEmGame):
        out |= {
            "bankrolls": list(game.bankrolls),
            "pot": game.pot,
            "pot_units": game.pot_units,
            "ante_due": game.ante_due,
        }
    elif isinstance(game, DeerParkGame):
        out |= {"scores": list(game.scores)}
    return out


def op_play(req: Mapping[str, Any]) -> Any:
    """Play scripted hands from a known position (the ``play`` operation)."""
    return _run_hands(req)[1]


def op_observe(req: Mapping[str, Any]) -> Any:
    """A ``play`` request plus ``seat``: what that seat (``null``: an onlooker) may
    know after the last listed action (the ``observe`` operation)."""
    _game(req)  # an unknown game is unsupported before any field is looked at
    if "seat" not in req:
        raise _bad('missing "seat" (a seat number, or null for an onlooker)')
    raw = req["seat"]
    if raw is not None and (isinstance(raw, bool) or not isinstance(raw, int)):
        raise _bad(f'"seat" must be a seat number, or null for an onlooker, not {_j(raw)}')
    seat = None if raw is None else _seat(raw, _players(req), '"seat"')  # the shape, before any action
    return view(_run_hands(req)[0], seat)


def _run_hands(req: Mapping[str, Any]) -> tuple[TrickGame[Any, Any], dict[str, Any]]:
    """The game after a ``play`` request's hands, and the ``play`` result."""
    kind = _game(req)
    players = _players(req)
    hands = _field(req, "hands", list, "a list of hands")
    start = req.get("start", {})
    if start is None:
        start = {}
    if not isinstance(start, dict):
        raise _bad('"start" must be an object')
    for i, h in enumerate(hands):
        if not isinstance(h, dict) or "deal" not in h:
            raise _bad(f"hands[{i}] must be an object with a 'deal'")
        if not isinstance(h.get("actions", []), list):
            raise _bad(f"hands[{i}].actions must be a list")
    try:
        lo, hi = (3, 8) if kind is GameKind.DEERPARK else ((5, 8) if kind is GameKind.BUCKEM else (3, 7))
        if not lo <= players <= hi:
            raise _bad(f"{kind.title} cannot be played by {players}")
        opts = _options(kind, req)
        if kind is GameKind.BUCKEM and opts.short_handed_trump.value == "removed_card":
            if len(pack(kind, players, short_handed=opts.short_handed)) == 52:
                raise _bad('short_handed_trump "removed_card" needs a short pack')
        if not hands:
            raise _bad('"hands" is empty')
        game: TrickGame[Any, Any] | None = None
        reports: list[dict[str, Any]] = []
        for i, h in enumerate(hands):
            deal = h["deal"]
            _checked_deal(kind, deal, i)
            try:
                if game is None:
                    game = _new_game(kind, players, opts, start, deal)
                else:
                    game.next_hand(deal)
            except (DealError, CardError) as exc:
                raise _bad(f"hands[{i}].deal: {exc}") from None
            except (PlayerCountError, OptionsError) as exc:
                raise _bad(str(exc)) from None
            for j, text in enumerate(h.get("actions", [])):
                if not isinstance(text, str):
                    raise _bad(f"hands[{i}].actions[{j}] must be a string", hand=i, action=j)
                try:
                    game.apply(text)
                except ActionParseError as exc:
                    raise _bad(str(exc), hand=i, action=j) from None
                except IllegalAction as exc:
                    raise ProtocolError("illegal_action", str(exc), hand=i, action=j) from None
                except DealError as exc:
                    raise _bad(f"hands[{i}].restock: {exc}", hand=i, action=j) from None
            if game.phase in (Phase.HAND_OVER, Phase.GAME_OVER):
                reports.append(game.results[-1].to_dict())  # type: ignore[attr-defined]
                if game.is_over:
                    break
            else:
                reports.append(_cut_hand(game, kind))
                final = _final(game)
                final["dealer"] = game.dealer
                return game, {"hands": reports, "final": final}
        assert game is not None
        return game, {"hands": reports, "final": _final(game)}
    except ProtocolError:
        raise
    except (DealError, CardError, OptionsError, PlayerCountError, RestoreError, CoreInputError) as exc:
        raise _bad(str(exc)) from None


def op_solve(req: Mapping[str, Any]) -> Any:
    """The most tricks ``seat`` can be sure of with every card open."""
    kind = _game(req)
    trump = _trump(req)
    raw = _field(req, "hands", list, "a list of card lists")
    if not 2 <= len(raw) <= 8:
        raise _bad('"hands" lists 2 to 8 seats')
    hands = [_cards(h, f"hands[{i}]") for i, h in enumerate(raw)]
    seen: set[Card] = set()
    for h in hands:
        if seen & set(h):
            raise _bad("a card is in two hands")
        seen |= set(h)
    sizes = {len(h) for h in hands if h}
    if len(sizes) != 1 or not 1 <= next(iter(sizes)) <= 5:
        raise _bad("every seat in play must hold the same number of cards, 1 to 5")
    n = len(hands)
    leader = _seat(req.get("leader"), n, '"leader"')
    seat = _seat(req.get("seat"), n, '"seat"')
    if not hands[leader] or not hands[seat]:
        raise _bad('"leader" and "seat" must be seats in play')
    masks = [CardSet(h).mask for h in hands]
    try:
        return get_core().solve(kind.core_id, int(trump), masks, leader, seat, SOLVE_NODES, SOLVE_SECONDS)
    except SolveBudgetExceeded as exc:  # "unsupported ... for positions too large", never a blocked adapter
        raise ProtocolError("unsupported", f"position too large for this adapter: {exc}") from None


HANDLERS: Final = {
    "hello": op_hello,
    "deck": op_deck,
    "trick_winner": op_trick_winner,
    "legal_plays": op_legal_plays,
    "play": op_play,
    "solve": op_solve,
    "observe": op_observe,
}


def handle(req: object) -> dict[str, Any]:
    """Answer one decoded request (any JSON value) with a protocol answer object."""
    if not isinstance(req, dict) or "op" not in req:
        return {
            "id": None,
            "ok": False,
            "error": {"code": "bad_request", "message": 'a request is an object with "op"'},
        }
    rid = req.get("id")
    op = req["op"]
    handler = HANDLERS.get(op) if isinstance(op, str) else None
    if handler is None:
        return {"id": rid, "ok": False, "error": {"code": "unsupported", "message": f"unknown op {_j(op)}"}}
    try:
        return {"id": rid, "ok": True, "result": handler(req)}
    except ProtocolError as exc:
        return {"id": rid, "ok": False, "error": exc.to_dict()}
    except HucklebuckError as exc:  # anything the checks above did not name
        return {"id": rid, "ok": False, "error": {"code": "bad_request", "message": str(exc)}}
    except Exception as exc:  # the adapter must never die
        return {
            "id": rid,
            "ok": False,
            "error": {"code": "bad_request", "message": f"this request could not be answered: {exc}"},
        }
