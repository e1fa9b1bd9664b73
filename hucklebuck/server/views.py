"""What one seat (or a spectator) sees of a table: the VIEW of the protocol.

Every view is built from the engine's ``observation(seat)`` (``observation(None)``
for a spectator: public facts only) and the game's public events, so it can hold
nothing the seat may not know (DEF #84-#91): no other hand, no private discard,
no Buck 'Em declaration (nor the card count that would show a fold) before
everyone has declared.  The words come from :mod:`hucklebuck.words`, the one narrator
the terminal uses too.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from ..actions import (
    Action,
    BuckStay,
    Discard,
    Draw,
    Fold,
    Order,
    Play,
    _ActionBase,
)
from ..cards import Card, CardSet, Suit
from ..games.base import ActionEvent, DealEvent, Phase, TrickEvent
from ..games.engine import TrickGame
from ..packs import GameKind
from ..words.cards import SUIT_NAMES, sort_hand
from ..words.lines import describe_action, order_up_line, trick_line
from ..words.moves import move_text
from ..words.narrator import Narrator
from ..words.people import computer_label

__all__ = ["HandLog", "hand_events", "hand_log", "legal_moves", "public_seat_fields", "seat_view"]

_STAY_FOLD = Phase.STAY_FOLD


def hand_log(game: TrickGame[Any, Any], names: Sequence[str]) -> list[str]:
    """The public events of the hand in progress, in the terminal's words."""
    return HandLog().update(game, names)


class HandLog:
    """:func:`hand_log` kept up to date one event at a time (a table's log is read after every change)."""

    def __init__(self) -> None:
        """An empty log."""
        self._key: tuple[int, bool] = (-1, False)
        self._seen = 0
        self._lines: list[str] = []

    def update(self, game: TrickGame[Any, Any], names: Sequence[str]) -> list[str]:
        """The log now: the lines of new events added to those already written."""
        raw, start = _hand_entries(game)
        hidden = (
            game.kind is GameKind.BUCKEM
            and bool(getattr(game.options, "simultaneous_declare", False))
            and game.phase is _STAY_FOLD
        )
        key = (game.hand_number, hidden)
        count = len(raw) - start
        up = getattr(game, "turned", None) if game.kind is GameKind.DEERPARK else None
        if key != self._key or count < self._seen:  # a new hand, or declarations revealed
            self._key, self._seen, self._lines = key, 0, []
            if up is not None and up.suit is Suit.CLUBS:  # no order or call: the log says why (S4)
                self._lines.append(f"{up.display} is turned: clubs are trump without calling")
        deal = raw[start - 1] if start else None
        dealer = deal.dealer if isinstance(deal, DealEvent) else game.dealer
        lines = self._lines
        for ev in raw[start + self._seen :]:  # only the entries added since the last update
            if isinstance(ev, TrickEvent):
                t = ev.trick
                lines.append(trick_line(ev.number, t.seats, t.cards, t.winner, names, game.trump, game.kind))
                continue
            if isinstance(ev, ActionEvent):
                action = ev.action
            elif isinstance(ev, _ActionBase):
                action = ev  # type: ignore[assignment]
            else:
                continue
            name = names[action.seat]
            if isinstance(action, Play):
                continue  # plays are shown in the trick and, once it is complete, its line
            if isinstance(action, Order) and up is not None:
                lines.append(order_up_line(name, up, names[dealer]))
            elif hidden and isinstance(action, BuckStay | Fold):
                lines.append(f"{name} has declared")
            else:
                lines.append(
                    describe_action(action, name, show_cards=False, trump=game.trump, kind=game.kind)
                )
        self._seen = count
        return list(lines)


def _hand_entries(game: TrickGame[Any, Any]) -> tuple[list[Any], int]:
    """The engine's own entries of the hand in progress (its events, and its actions as they are),
    and where those after the deal begin: read without building an event per action."""
    raw: list[Any] = game._events
    if raw and isinstance(raw[0], DealEvent):
        return raw, 1
    for i in range(len(raw) - 1, -1, -1):
        if isinstance(raw[i], DealEvent):
            return raw, i + 1
    return raw, 0


def hand_events(game: TrickGame[Any, Any]) -> tuple[DealEvent | None, list[Any]]:
    """The current hand's deal and the events after it (the hand's own list: no walk over the game)."""
    events = game._hand_events()
    if events and isinstance(events[0], DealEvent):
        return events[0], events[1:]
    for i in range(len(events) - 1, -1, -1):
        ev = events[i]
        if isinstance(ev, DealEvent):
            return ev, events[i + 1 :]
    return None, events


def legal_moves(game: TrickGame[Any, Any], legal: Sequence[Action]) -> list[dict[str, Any]]:
    """The legal moves as the view lists them: id, the menu's text, kind, cards; plays by rank."""
    moves = tuple(legal)
    if not moves:
        return []
    seat = moves[0].seat
    turned = getattr(game, "turned", None) if any(isinstance(a, Order) for a in moves) else None
    hand = game.hand(seat).mask if any(isinstance(a, Discard | Draw) for a in moves) else None
    key = (game.kind, game.trump, turned, hand, moves)
    listed = _LISTED.get(key)
    if listed is None:
        if len(_LISTED) >= _LISTED_KEPT:
            _LISTED.clear()
        listed = _LISTED[key] = tuple(_list_moves(game, moves))
    return [{**m, "cards": list(m["cards"])} for m in listed]  # (the caller may change its copy)


_LISTED: dict[tuple[Any, ...], tuple[dict[str, Any], ...]] = {}
""":func:`legal_moves` by what its words and ids follow from (the game's kind, trump, the turned
card when an order is legal, the seat's hand when a discard or draw is, the moves themselves):
every table at the same decision with the same cards lists its moves alike."""
_LISTED_KEPT = 1024
"""Listings kept before the cache starts afresh (a few megabytes at most: a draw lists 32 moves)."""


def _list_moves(game: TrickGame[Any, Any], legal: Sequence[Action]) -> list[dict[str, Any]]:
    trump, kind = game.trump, game.kind
    moves = list(legal)
    if moves and isinstance(moves[0], Play):
        order = sort_hand([a.card for a in moves if isinstance(a, Play)], trump, kind)
        moves.sort(key=lambda a: order.index(a.card) if isinstance(a, Play) else 0)
    out = []
    for a in moves:
        cards: list[Card] = []
        if isinstance(a, Play):
            cards = [a.card]
        elif isinstance(a, Discard | Draw):
            cards = sort_hand(a.cards, trump, kind)
        text = move_text(a, game)
        if isinstance(a, Play):
            text = f"play {text}"
        out.append({"id": game.action_id(a), "text": text, "kind": a.verb, "cards": [c.code for c in cards]})
    return out


def _suit_words(suit: Suit) -> str:
    return f"{suit.glyph} {SUIT_NAMES[suit]}"


def public_seat_fields(game: TrickGame[Any, Any], obs: Any, names: Sequence[str]) -> dict[str, Any]:
    """Per-seat public words and the contract: ``status`` per seat, ``contract``, ``face_up``."""
    n = game.players
    status = [""] * n
    face_up: list[dict[str, Any]] = []
    contract: str | None = None
    kind = game.kind
    if kind is GameKind.HUCKLEBUCK:
        for seat, exchange in obs.declarations:
            status[seat] = "dropped" if exchange is None else "stayed"
        if obs.bidder is not None:
            status[obs.bidder] = "bidder"
            if obs.bid is not None:
                contract = f"{names[obs.bidder]} bid {obs.bid}"
                if obs.trump is not None:
                    contract += f": {_suit_words(obs.trump)} are trump"
        for seat in obs.out:
            status[seat] = "out"
    elif kind is GameKind.DEERPARK:
        phase = obs.phase
        label = {Phase.ORDER: "turned card", Phase.CALL: "turned card (turned down)"}.get(
            phase, "turned card"
        )
        face_up.append({"label": label, "cards": [obs.turned.code]})
        if obs.maker is not None:
            status[obs.maker] = "maker"
            if obs.trump is not None and obs.requirement is not None:
                who = names[obs.maker]
                contract = (
                    f"{who} is the maker: {_suit_words(obs.trump)} are trump, {who} must take "
                    f"{obs.requirement} tricks; everyone else needs 1"
                )
    else:
        face_up.append({"label": "upcard", "cards": [obs.upcard.code]})
        for seat, card in enumerate(obs.scare):
            if card is not None:
                face_up.append({"label": f"{names[seat]}'s scare card", "cards": [card.code]})
        for seat, word in obs.decisions:
            status[seat] = "folded" if word == "fold" else "stayed"
        contract = f"Trump is {_suit_words(obs.trump)}, the upcard's suit"
    return {"status": status, "face_up": face_up, "contract": contract}


def seat_view(
    game: TrickGame[Any, Any],
    seat: int | None,
    narrator: Narrator,
    seats: Sequence[dict[str, Any]],
    log: list[str],
    extra: dict[str, Any],
) -> dict[str, Any]:
    """The VIEW for ``seat`` (``None``: a spectator).

    ``seats`` holds each seat's table fields (name, kind, player, connected,
    away); ``log`` the hand's public lines; ``extra`` the table's
    ``last_hand``, ``game_over`` and ``notices``.
    """
    names = narrator.names
    obs = game.observation(seat)  # None: the onlooker's view, public facts only (DEF #89)
    public = public_seat_fields(game, obs, names)
    kind = game.kind
    trump = obs.trump
    tricks_won = obs.tricks_won
    standings = obs.bankrolls if kind is GameKind.BUCKEM else obs.scores
    status, sizes = public["status"], obs.hand_sizes
    out_seats = [
        {
            **info,
            "seat": s,
            "player_text": _label(info.get("player")) if info.get("kind") == "computer" else None,
            "cards": sizes[s],  # as far as this seat may know: a hidden fold keeps its cards
            "tricks": tricks_won[s],
            "score": standings[s],
            "status": status[s],
        }
        for s, info in enumerate(seats[: game.players])
    ]
    to_act = obs.to_act
    over = extra.get("game_over") is not None
    plays = _current_plays(obs)
    tricks = obs.tricks
    last_trick = None
    if tricks:
        t = tricks[-1]
        last_trick = {
            "cards": [{"seat": s, "card": c.code} for s, c in zip(t.seats, t.cards, strict=True)],
            "winner": t.winner,
        }
    legal = legal_moves(game, obs.legal_actions) if seat is not None and to_act == seat and not over else []
    hand = list(_hand_codes(obs.hand.mask, trump, kind)) if seat is not None else []
    return {
        "game": kind.value,
        "title": kind.title,
        "players": game.players,
        "hand_number": obs.hand_number,
        "dealer": _hand_dealer(game, obs),
        "phase": obs.phase.value,
        "phase_text": narrator.phase_name(),
        "to_act": None if over else to_act,
        "trump": trump.symbol if trump is not None else None,
        "hand": hand,
        "seats": out_seats,
        "score_label": "chips" if kind is GameKind.BUCKEM else "points",
        "pot": getattr(obs, "pot", None),
        "face_up": public["face_up"],
        "contract": public["contract"],
        "current_trick": plays,
        "trick_leader": obs.trick_leader,
        "last_trick": last_trick,
        "legal": legal,
        "log": log,
        "last_hand": extra.get("last_hand"),
        "game_over": extra.get("game_over"),
        "notices": extra.get("notices", []),
    }


@lru_cache(maxsize=4096)
def _hand_codes(mask: int, trump: Suit | None, kind: GameKind) -> tuple[str, ...]:
    """A hand's cards (by mask) as the view shows them, in :func:`sort_hand`'s order."""
    return tuple(c.code for c in sort_hand(CardSet.from_mask(mask), trump, kind))


@lru_cache(maxsize=64)
def _label(kind: str | None) -> str:
    return computer_label(kind)


def _hand_dealer(game: TrickGame[Any, Any], obs: Any) -> int:
    """The dealer of the hand shown: once a hand ends the game already names the next dealer."""
    if obs.phase in (Phase.HAND_OVER, Phase.GAME_OVER):
        raw, start = _hand_entries(game)  # (the hand's deal, read without building its events)
        deal = raw[start - 1] if start else None
        if isinstance(deal, DealEvent):
            return int(deal.dealer)
    return int(obs.dealer)


def _current_plays(obs: Any) -> list[dict[str, Any]]:
    """The trick in progress with who played each card (seats follow the leader, skipping absent ones)."""
    cards = obs.current_trick
    if not cards:
        return []
    seats = _trick_seats(obs)
    return [{"seat": s, "card": c.code} for s, c in zip(seats, cards, strict=False)]


def _trick_seats(obs: Any) -> list[int]:
    """Seats in this trick's play order, read from the end of the hand's public history."""
    count = len(obs.current_trick)
    plays: list[int] = []
    if not count:
        return plays
    for text in reversed(obs.history):  # the trick's plays are the hand's last ones
        seat, _, rest = text.partition(" ")
        if rest.startswith("play "):
            plays.append(int(seat))
            if len(plays) == count:
                break
    plays.reverse()
    return plays
