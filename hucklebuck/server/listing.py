"""The legal moves as a table's view lists them (id, the menu's words, kind, cards), and the JSON
text the server sends (:func:`encode`).

A listing is worked out once and kept: a play's entry per game, trump and card (it is the same
whoever plays it), any other decision's whole listing by everything its words and ids follow from.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from operator import itemgetter
from typing import Any, cast

from ..actions import Action, Discard, Draw, Order, Play
from ..cards import Card, Suit
from ..games import ids as _ids
from ..games.engine import TrickGame
from ..packs import GameKind
from ..words.cards import _sort_keys, card_text, sort_hand
from ..words.moves import move_text

__all__ = ["encode", "legal_moves", "legal_text"]

_ENCODER = json.JSONEncoder(separators=(",", ":"), check_circular=False)
_MAKE_ENCODER: Any = getattr(json.encoder, "c_make_encoder", None)  # (None without the C accelerator)
_C_ENCODER: Any = (
    None
    if _MAKE_ENCODER is None
    else _MAKE_ENCODER(
        None, _ENCODER.default, json.encoder.encode_basestring_ascii, None, ":", ",", False, False, True
    )
)


def encode(value: Any) -> str:
    """JSON text as the server sends it: compact, and ASCII (``\\u2660`` for a suit symbol), which
    the C encoder writes faster than the same text with the symbols themselves; a view is a tree
    built afresh for each message, so the encoder need not watch for cycles.  The same text as
    ``json.JSONEncoder(separators=(",", ":"), check_circular=False).encode``, from one C encoder
    made once rather than one per call (a view is sent in a few pieces)."""
    if _C_ENCODER is None:
        return _ENCODER.encode(value)
    return "".join(_C_ENCODER(value, 0))


def legal_moves(game: TrickGame[Any, Any], legal: Sequence[Action]) -> list[dict[str, Any]]:
    """The legal moves as the view lists them: id, the menu's text, kind, cards; plays by rank."""
    moves = tuple(legal)
    if not moves:
        return []
    listed = _listing(game, moves)[0]
    return [{**m, "cards": list(m["cards"])} for m in listed]  # (the caller may change its copy)


def _listing(game: TrickGame[Any, Any], moves: tuple[Action, ...]) -> tuple[tuple[dict[str, Any], ...], str]:
    """The listing of ``moves`` (not empty) and its JSON text: plays alone from each card's entry
    (:func:`_play_entries`), a draw or a Hucklebuck discard from its hand's cards
    (:func:`_choices`), other moves from :data:`_LISTED`, one lookup (the key holds every move,
    and each move hashes and compares in Python)."""
    if all([type(a) is Play for a in moves]):
        picked = sorted(_play_entries(game.kind, game.trump, cast("tuple[Play, ...]", moves)), key=_FIRST)
        return tuple([e[1] for e in picked]), "[" + ",".join([e[2] for e in picked]) + "]"
    seat = moves[0].seat
    first = type(moves[0])
    if (first is Draw or first is Discard) and game.kind is not GameKind.DEERPARK:
        chosen = _choices(game, cast("tuple[Draw | Discard, ...]", moves), first)
        if chosen is not None:
            return chosen, encode(chosen)
    turned = getattr(game, "turned", None) if any(isinstance(a, Order) for a in moves) else None
    hand = game.hand(seat).mask if any(isinstance(a, Discard | Draw) for a in moves) else None
    key = (game.kind, game.trump, turned, hand, moves)
    found = _LISTED.get(key)
    if found is None:
        if len(_LISTED) >= _LISTED_KEPT:
            _LISTED.clear()
        listed = tuple(_list_moves(game, moves))
        found = _LISTED[key] = (listed, encode(listed))
    return found


def _choices(
    game: TrickGame[Any, Any], moves: tuple[Draw | Discard, ...], cls: type[Draw | Discard]
) -> tuple[dict[str, Any], ...] | None:
    """The listing of a Buck 'Em draw or a Hucklebuck discard (every move of class ``cls``): each
    card of the hand worded once, each choice's words, cards and id put together from its cards'
    (a draw lists some thirty choices of a hand that is new at every deal, so nothing is kept).
    ``None`` where an id is not a hand's first five cards' (the full path then says why)."""
    if not all([type(a) is cls for a in moves]):
        return None
    trump, kind = game.trump, game.kind
    held = game.hand(moves[0].seat)
    shown = sort_hand(held, trump, kind)
    place = {c._index: i for i, c in enumerate(shown)}  # a card's place in the view's order
    bit = {c._index: 1 << i for i, c in enumerate(held)}  # its bit in an id (the hand in card order)
    texts = [card_text(c, trump, kind) for c in shown]
    codes = [c.code for c in shown]
    base = _ids.BE_DRAW if cls is Draw else _ids.HB_DISCARD
    out = []
    for a in moves:
        order = sorted([place[c._index] for c in a.cards])
        bits = sum([bit[c._index] for c in a.cards])
        if bits >= 32:
            return None
        words = " ".join([texts[i] for i in order]) or "(none)"
        if cls is Discard:
            text = f"discard {words}"
        else:
            text = f"draw {len(order)} for {words}" if order else "stand pat"
        out.append({"id": base + bits, "text": text, "kind": cls.verb, "cards": [codes[i] for i in order]})
    return tuple(out)


def legal_text(game: TrickGame[Any, Any], legal: Sequence[Action]) -> str:
    """:func:`legal_moves` as JSON text, encoded once per listing (kept with it)."""
    moves = tuple(legal)
    if not moves:
        return "[]"
    return _listing(game, moves)[1]


_FIRST = itemgetter(0)


def _play_entries(kind: GameKind, trump: Suit | None, moves: tuple[Play, ...]) -> list[tuple[Any, ...]]:
    """Each play's place in :func:`sort_hand`'s order, its entry in a listing of moves, and that
    entry as JSON text, kept per card for each game and trump (:data:`_PLAYS_LISTED`): a play's id,
    words and card follow from the card, the trump and the game alone, whoever plays it."""
    kept = _PLAYS_LISTED.get((kind, trump))
    if kept is None:
        kept = _PLAYS_LISTED[(kind, trump)] = [None] * 52
    out = []
    for a in moves:
        i = a.card._index
        found = kept[i]
        if found is None:
            card = a.card
            entry = {
                "id": i,
                "text": f"play {card_text(card, trump, kind)}",
                "kind": Play.verb,
                "cards": [card.code],
            }
            found = kept[i] = (_sort_keys(trump, kind)[card], entry, encode(entry))
        out.append(found)
    return out


_PLAYS_LISTED: dict[tuple[GameKind, Suit | None], list[tuple[Any, ...] | None]] = {}
"""Per game and trump, per card: its play's entry in a listing (see :func:`_play_entries`)."""


_LISTED: dict[tuple[Any, ...], tuple[tuple[dict[str, Any], ...], str]] = {}
""":func:`legal_moves` and its JSON text by what its words and ids follow from (the game's kind,
trump, the turned card when an order is legal, the seat's hand when a discard or draw is, the moves
themselves): every table at the same decision with the same cards lists its moves alike."""
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
