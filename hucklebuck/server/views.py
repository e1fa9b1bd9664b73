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
from typing import Any, NamedTuple

from ..actions import (
    Action,
    BuckStay,
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
from ..words.narrator import Narrator
from ..words.people import computer_label
from .listing import encode, legal_moves, legal_text

__all__ = [
    "HandLog",
    "ViewText",
    "encode",
    "hand_events",
    "hand_log",
    "legal_moves",
    "public_seat_fields",
    "seat_view",
]

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
        self._coded: list[str] = []  # each line's JSON text, encoded once in the life of the line

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
            self._key, self._seen, self._lines, self._coded = key, 0, [], []
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

    def text(self) -> str:
        """The log as of the last :meth:`update`, as JSON text: only lines added since are encoded."""
        coded, lines = self._coded, self._lines
        for line in lines[len(coded) :]:
            coded.append(encode(line))
        return "[" + ",".join(coded) + "]"


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


class _Fields(NamedTuple):
    """A view's fields but the seats' entries, the log and the lists of cards (see :func:`_view_fields`)."""

    head: tuple[Any, ...]
    """The values of ``game`` to ``trump`` (:data:`_HEAD_NAMES`), in the view's order."""
    hand: tuple[int, Suit | None, GameKind] | None
    """The seat's own hand (mask, trump, kind); ``None`` for a spectator."""
    seat: tuple[list[int], list[int], list[int], list[str]]
    """Per seat, as far as this seat may know: cards held, tricks won, score, status."""
    middle: tuple[Any, ...]
    """``score_label``, ``pot``, ``face_up``, ``contract``, the trick in progress (seat and card
    code per play) and ``trick_leader``."""
    last_trick: tuple[tuple[int, ...], tuple[Card, ...], int] | None
    """The last complete trick of the hand (seats, cards, winner), if any."""
    legal: Sequence[Action]
    """The moves this seat may make now (none unless it is this seat's turn)."""
    tail: dict[str, Any]
    """``last_hand``, ``game_over``, ``notices``."""


_HEAD_NAMES = ("game", "title", "players", "hand_number", "dealer", "phase", "phase_text", "to_act", "trump")
"""The names of a view's first fields, in its order (:attr:`_Fields.head`)."""
_MIDDLE_NAMES = ("score_label", "pot", "face_up", "contract", "current_trick", "trick_leader")
"""The names of the fields after ``seats``, in the view's order (:attr:`_Fields.middle`)."""

_HEAD_WORDS: dict[tuple[GameKind, Phase, Suit | None], tuple[Any, ...]] = {}
"""The view's words for a game, phase and trump (the game's name and title, the phase's name and
words, the trump's letter): a handful of them, the same at every table."""


def _view_fields(
    game: TrickGame[Any, Any], seat: int | None, narrator: Narrator, extra: dict[str, Any]
) -> _Fields:
    """What ``seat`` (``None``: a spectator) may see of the table, read once for both forms of the
    view (:func:`seat_view` and :class:`ViewText`): the one definition of what goes in it."""
    names = narrator.names
    obs = game.observation(seat)  # None: the onlooker's view, public facts only (DEF #89)
    public = public_seat_fields(game, obs, names)
    kind = game.kind
    trump = obs.trump
    standings = obs.bankrolls if kind is GameKind.BUCKEM else obs.scores
    to_act = obs.to_act
    over = extra.get("game_over") is not None
    tricks = obs.tricks
    last_trick = (tuple(tricks[-1].seats), tuple(tricks[-1].cards), tricks[-1].winner) if tricks else None
    phase = obs.phase
    words = _HEAD_WORDS.get((kind, phase, trump))
    if words is None:  # (the narrator words the game's phase, the one observed)
        words = _HEAD_WORDS[(kind, phase, trump)] = (
            kind.value,
            kind.title,
            phase.value,
            narrator.phase_name(),
            trump.symbol if trump is not None else None,
        )
    head = (
        words[0],
        words[1],
        game.players,
        obs.hand_number,
        _hand_dealer(game, obs),
        words[2],
        words[3],
        None if over else to_act,
        words[4],
    )
    middle = (
        "chips" if kind is GameKind.BUCKEM else "points",
        getattr(obs, "pot", None),
        public["face_up"],
        public["contract"],
        _current_pairs(obs),
        obs.trick_leader,
    )
    tail = {
        "last_hand": extra.get("last_hand"),
        "game_over": extra.get("game_over"),
        "notices": extra.get("notices", []),
    }
    legal = obs.legal_actions if seat is not None and to_act == seat and not over else ()
    hand = (obs.hand.mask, trump, kind) if seat is not None else None
    # cards held: as far as this seat may know (a hidden fold keeps its cards)
    per_seat = (obs.hand_sizes, obs.tricks_won, standings, public["status"])
    return _Fields(head, hand, per_seat, middle, last_trick, legal, tail)


def _last_trick(seats: tuple[int, ...], cards: tuple[Card, ...], winner: int) -> dict[str, Any]:
    """The view's ``last_trick``: the last complete trick, who played each card, who won it."""
    return {
        "cards": [{"seat": s, "card": c.code} for s, c in zip(seats, cards, strict=True)],
        "winner": winner,
    }


@lru_cache(maxsize=4096)
def _last_trick_text(seats: tuple[int, ...], cards: tuple[Card, ...], winner: int) -> str:
    """:func:`_last_trick` as JSON text (a trick is shown until the next one is complete)."""
    return encode(_last_trick(seats, cards, winner))


def _seat_entry(
    info: dict[str, Any], s: int, cards: int, tricks: int, score: int, status: str
) -> dict[str, Any]:
    """One seat's entry in ``seats``: its table fields, then what the viewer may know of its game."""
    return {
        **info,
        "seat": s,
        "player_text": _label(info.get("player")) if info.get("kind") == "computer" else None,
        "cards": cards,
        "tricks": tricks,
        "score": score,
        "status": status,
    }


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
    f = _view_fields(game, seat, narrator, extra)
    cards, tricks, scores, status = f.seat
    out_seats = [
        _seat_entry(info, s, cards[s], tricks[s], scores[s], status[s])
        for s, info in enumerate(seats[: game.players])
    ]
    middle = dict(zip(_MIDDLE_NAMES, f.middle, strict=True))
    middle["current_trick"] = [{"seat": s, "card": c} for s, c in f.middle[4]]
    return {
        **dict(zip(_HEAD_NAMES, f.head, strict=True)),
        "hand": list(_hand_codes(*f.hand)) if f.hand is not None else [],
        "seats": out_seats,
        **middle,
        "last_trick": _last_trick(*f.last_trick) if f.last_trick is not None else None,
        "legal": legal_moves(game, f.legal) if f.legal else [],
        "log": log,
        **f.tail,
    }


_REPLACED_WHOLE = frozenset({"last_hand", "game_over"})
"""The table's fields a view shows that the table replaces whole and never changes in place."""
_NAME_TEXT = {name: f'"{name}":' for name in ("last_hand", "game_over", "notices")}
"""A field's name as JSON text with its colon (plain ASCII names: the text is the name quoted)."""


class ViewText:
    """A table's views as JSON text, the same bytes as ``encode(seat_view(...))``, with what did not
    change since the last view reused rather than encoded again (a table's change alters a seat or
    two, a line of the log, a hand).

    Every piece kept is found again only under a key made of everything it was made from (a seat's
    entry: the viewer's knowledge of that seat and the seat's own table fields; a listing of moves:
    the moves and the cards they follow from; a hand: its cards, trump and game; the log: its own
    lines), so a piece made for one seat, hand or state can never stand in another's view.
    """

    def __init__(self) -> None:
        """Nothing kept yet."""
        self._entries: dict[int, tuple[tuple[Any, ...] | None, dict[str, Any], str | None, str]] = {}
        self._whole: dict[str, tuple[Any, str]] = {}
        self._middle: tuple[tuple[Any, ...], str] | None = None
        self._tail: tuple[Any, Any, tuple[str, ...], str] | None = None

    def _middle_text(self, middle: tuple[Any, ...]) -> str:
        """``middle``'s fields as JSON text (without braces).  The first four (the score's word,
        the pot, the cards face up, the contract) change a few times a hand, not at every move:
        their text is kept while they do not change.  Their values are text, whole numbers,
        ``None`` and lists and objects of those, never a ``True`` that would compare equal to a 1,
        so equal fields are the same text.  The trick in progress is put together from each
        play's text, and whose lead it is written as the number it is."""
        label, pot, face_up, contract, plays, leader = middle
        key = (label, pot, face_up, contract)
        kept = self._middle
        if kept is None or kept[0] != key:
            fields = {"score_label": label, "pot": pot, "face_up": face_up, "contract": contract}
            kept = self._middle = (key, encode(fields)[1:-1])
        trick = "[" + ",".join([_play_text(s, c) for s, c in plays]) + "]" if plays else "[]"
        lead = "null" if leader is None else str(leader) if type(leader) is int else encode(leader)
        return f'{kept[1]},"current_trick":{trick},"trick_leader":{lead}'

    def _tail_kept(self, tail: dict[str, Any]) -> str:
        """:meth:`_tail_text`, kept while the table's ``last_hand`` and ``game_over`` are the same
        objects (replaced whole, never changed in place) and the notices the same texts."""
        last_hand, game_over, notices = tail.get("last_hand"), tail.get("game_over"), tail.get("notices")
        if len(tail) != 3 or type(notices) is not list:
            return self._tail_text(tail)
        key = tuple(notices)
        kept = self._tail
        if kept is not None and kept[0] is last_hand and kept[1] is game_over and kept[2] == key:
            return kept[3]  # (a key kept holds texts only: one equal to it is the same texts)
        if not all([type(v) is str for v in key]):
            return self._tail_text(tail)
        kept = self._tail = (last_hand, game_over, key, self._tail_text(tail))
        return kept[3]

    def _tail_text(self, tail: dict[str, Any]) -> str:
        """``tail``'s fields as JSON text (without braces): the table's ``last_hand`` and
        ``game_over`` are encoded once per object, as the table replaces them whole and never
        changes them in place (:meth:`~hucklebuck.server.tables.ServerTable.undo_point` relies on
        it too); the object is kept, so that another cannot take its place under its identity.
        The notices are encoded once per list of texts (a tuple of strings: its own key)."""
        parts = []
        whole = self._whole
        for name, value in tail.items():
            if name in _REPLACED_WHOLE and value is not None:
                kept = whole.get(name)
                if kept is None or kept[0] is not value:
                    kept = whole[name] = (value, encode(value))
                text = kept[1]
            elif name == "notices" and type(value) is list and all(type(v) is str for v in value):
                key = tuple(value)
                kept = whole.get(name)
                if kept is None or kept[0] != key:
                    kept = whole[name] = (key, encode(value))
                text = kept[1]
            else:
                text = encode(value)
            parts.append(_NAME_TEXT.get(name) or encode(name) + ":")
            parts.append(text)
            parts.append(",")
        parts.pop()
        return "".join(parts)

    def text(
        self,
        game: TrickGame[Any, Any],
        seat: int | None,
        narrator: Narrator,
        seats: Sequence[dict[str, Any]],
        log: str,
        extra: dict[str, Any],
    ) -> str:
        """The VIEW for ``seat`` as JSON text (the arguments as :func:`seat_view`'s, with the log
        as JSON text: :meth:`HandLog.text`)."""
        f = _view_fields(game, seat, narrator, extra)
        cards, tricks, scores, status = f.seat
        kept = self._entries  # the latest entry of each seat only: a table's memory stays small
        entries = []
        for s, info in enumerate(seats[: game.players]):
            facts = (cards[s], tricks[s], scores[s], status[s])
            found = kept.get(s)
            if found is None or found[1] != info:  # the seat's table fields: their text made anew
                found = kept[s] = (None, dict(info), _entry_head(info, s), "")
            if found[0] != facts:  # what the viewer knows of its game: only that part written
                found = kept[s] = (facts, found[1], found[2], _entry_text(found[2], info, s, facts))
            entries.append(found[3])
        hand = _hand_text(*f.hand) if f.hand is not None else "[]"
        return "".join(
            (
                _head_text(f.head),
                ',"hand":',
                hand,
                ',"seats":[',
                ",".join(entries),
                "],",
                self._middle_text(f.middle),
                ',"last_trick":',
                _last_trick_text(*f.last_trick) if f.last_trick is not None else "null",
                ',"legal":',
                legal_text(game, f.legal) if f.legal else "[]",
                ',"log":',
                log,
                ",",
                self._tail_kept(f.tail),
                "}",
            )
        )


@lru_cache(maxsize=4096)
def _head_text(fields: tuple[Any, ...]) -> str:
    """The view's first fields (their values, in the view's order) as JSON text: the opening
    brace and the fields, without the closing brace.  Their values are text, whole numbers and
    ``None`` (never a ``True`` equal to a 1), so equal fields are the same text; a handful of
    them recur at every table (the game, the phase, whose turn it is, the hand's number)."""
    return encode(dict(zip(_HEAD_NAMES, fields, strict=True)))[:-1]


_ENTRY_OWN = frozenset({"seat", "player_text", "cards", "tricks", "score", "status"})
"""The fields a seat's entry adds to the seat's table fields."""


def _entry_head(info: dict[str, Any], s: int) -> str | None:
    """A seat's entry as JSON text up to what the viewer knows of its game (the table fields, its
    number, the computer's words), without the closing brace; ``None`` if a table field has the
    name of one the entry adds (its place in the entry would then be the table field's)."""
    if not _ENTRY_OWN.isdisjoint(info):
        return None
    return encode(
        {
            **info,
            "seat": s,
            "player_text": _label(info.get("player")) if info.get("kind") == "computer" else None,
        }
    )[:-1]


def _entry_text(head: str | None, info: dict[str, Any], s: int, facts: tuple[Any, ...]) -> str:
    """A seat's entry as JSON text: ``head`` (:func:`_entry_head`) and the cards, tricks, score
    and status, whole numbers written as themselves; anything else encoded whole."""
    cards, tricks, score, status = facts
    if head is None or type(cards) is not int or type(tricks) is not int or type(score) is not int:
        return encode(_seat_entry(info, s, *facts))
    if type(status) is not str:
        return encode(_seat_entry(info, s, *facts))
    return f'{head},"cards":{cards},"tricks":{tricks},"score":{score},"status":{_word_text(status)}}}'


@lru_cache(maxsize=64)
def _word_text(word: str) -> str:
    """A seat's status (a handful of words) as JSON text."""
    return encode(word)


@lru_cache(maxsize=1024)
def _play_text(seat: int, code: str) -> str:
    """One play of the trick in progress as JSON text (by seat and card: a few hundred at most)."""
    return encode({"seat": seat, "card": code})


@lru_cache(maxsize=4096)
def _hand_codes(mask: int, trump: Suit | None, kind: GameKind) -> tuple[str, ...]:
    """A hand's cards (by mask) as the view shows them, in :func:`sort_hand`'s order."""
    return tuple(c.code for c in sort_hand(CardSet.from_mask(mask), trump, kind))


@lru_cache(maxsize=4096)
def _hand_text(mask: int, trump: Suit | None, kind: GameKind) -> str:
    """:func:`_hand_codes` as JSON text (worked out by itself: the server asks for the text only)."""
    return encode([c.code for c in sort_hand(CardSet.from_mask(mask), trump, kind)])


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


def _current_pairs(obs: Any) -> tuple[tuple[int, str], ...]:
    """The trick in progress: who played each card and the card's code (seats follow the leader,
    skipping absent ones)."""
    cards = obs.current_trick
    if not cards:
        return ()
    seats = _trick_seats(obs)
    return tuple([(s, c.code) for s, c in zip(seats, cards, strict=False)])


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
