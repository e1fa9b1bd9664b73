"""Reading a client's move: an action id, the move's text as the view lists it,
its protocol form (``"2 play TH"``), or what a person would type (``10h``,
``bid 3``), read by the terminal's own reader.  A move that is not legal now
is refused with a reason drawn from what the acting seat may know only (DEF #90),
in the table's words."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, cast

from ..actions import Action, Order, Play, parse_action
from ..cards import Card, Suit
from ..errors import HucklebuckError
from ..games.engine import TrickGame
from ..games.ids import PLAY_BY_TEXT, PLAY_TEXT
from ..words.moves import move_text, parse_answer
from .protocol import ClientMessage, ProtocolError

__all__ = ["AgentAct", "MoveReader", "action_text", "chosen", "read_move", "why_illegal"]


def _norm(text: str) -> str:
    return " ".join(text.lower().split())


@dataclass(frozen=True)
class _Shown:
    """What a move's menu text depends on besides the move (see :func:`move_text`)."""

    kind: Any
    trump: Suit | None
    turned: Card | None


@lru_cache(maxsize=256)
def _menu(shown: _Shown, legal: tuple[Action, ...]) -> tuple[dict[str, Action], dict[str, Action]]:
    """The legal moves by their protocol form, and by every text that names them (normalized),
    the first move winning a text two would share.  Cached: every try at one decision (a person
    retyping, a hostile client sending thousands) reads the same menu, rendered once."""
    exact: dict[str, Action] = {}
    named: dict[str, Action] = {}
    for a in legal:
        exact.setdefault(str(a), a)
        text = _norm(move_text(a, shown))
        for form in (text, _norm(str(a)), *((f"play {text}",) if isinstance(a, Play) else ())):
            named.setdefault(form, a)
    return exact, named


@dataclass(frozen=True)
class AgentAct(ClientMessage):
    """A computer seat's act message: ``action`` is the move's protocol form, as any client
    sends it, and ``move`` the legal move the seat's player chose it from (so the table finds
    it among the legal moves without reading the text back)."""

    move: Action | None = field(default=None, compare=False, repr=False)
    """The move ``action`` names."""


def chosen(message: ClientMessage) -> Action | None:
    """The move a computer seat's :class:`AgentAct` carries; ``None`` for any other message."""
    return message.move if isinstance(message, AgentAct) else None


def action_text(action: Action) -> str:
    """``str(action)``, the protocol form: a play's from the shared table of them (most moves)."""
    if type(action) is Play and action.seat < len(PLAY_TEXT):
        return PLAY_TEXT[action.seat][action.card._index]
    return str(action)


def read_move(game: TrickGame[Any, Any], seat: int, move: int | str | None, names: Sequence[str]) -> Action:
    """The legal action ``move`` names for ``seat`` (who is to act); :class:`ProtocolError` otherwise."""
    return MoveReader(game).read(seat, move, names)


class MoveReader:
    """Reads moves at one decision of ``game``: its legal moves, their ids, their menu texts and the
    reasons for refusals are worked out once, however many tries come.  A table keeps one per state
    (:meth:`ServerTable.reader <hucklebuck.server.tables.ServerTable.reader>`), so a client that
    sends thousands of moves costs a lookup each; a reader must not outlive its state."""

    __slots__ = ("_exact", "_game", "_ids", "_legal", "_menu", "_why")

    def __init__(self, game: TrickGame[Any, Any], legal: tuple[Action, ...] | None = None) -> None:
        """Read moves for ``game`` as it is now; ``legal``: its legal moves, if already listed
        (``tuple(game.legal_actions())`` at this very state, such as a seat's observation holds)."""
        self._game = game
        self._legal = tuple(game.legal_actions()) if legal is None else legal
        self._ids: dict[int, Action] | None = None
        self._exact: dict[str, Action] | None = None
        self._menu: tuple[dict[str, Action], dict[str, Action]] | None = None
        self._why: dict[tuple[Action, tuple[str, ...]], str] = {}

    def read(
        self, seat: int, move: int | str | None, names: Sequence[str], chosen: Action | None = None
    ) -> Action:
        """The legal action ``move`` names for ``seat`` (who is to act); :class:`ProtocolError` otherwise.
        ``chosen``: the move ``move`` was written from (a computer seat's), taken as it is when it
        is one of the legal moves; otherwise ``move`` is read as any client's."""
        game, legal = self._game, self._legal
        if chosen is not None and chosen in legal:
            return chosen
        if isinstance(move, int):
            if self._ids is None and legal and type(legal[0]) is not Play and type(move) is int:
                if move in game.legal_action_ids():  # (a draw's id follows from the hand: no list of ids)
                    return game.action_from_id(move)
                raise ProtocolError("illegal", f"move {move} is not one of your moves now")
            if self._ids is None:  # (a play's id is its card's number: no call to work it out)
                self._ids = {a.card._index if type(a) is Play else game.action_id(a): a for a in legal}
            action = self._ids.get(move)
            if action is not None:
                return action
            raise ProtocolError("illegal", f"move {move} is not one of your moves now")
        if not isinstance(move, str):
            raise ProtocolError("bad_message", 'an act message needs "action": a move\'s id or its text')
        play = PLAY_BY_TEXT.get(move)  # a play in protocol form (most moves): the shared play, if legal
        if play is not None and play in legal:
            return play
        exact = self._exact
        if exact is None and play is None and move[:1].isdigit():  # another move in protocol form
            try:  # (read as itself: a draw is one of some thirty, each worth a text otherwise)
                candidate = parse_action(game.kind, move)
            except (HucklebuckError, ValueError):
                candidate = None
            if candidate is not None and candidate in legal:
                return candidate
        if exact is None:  # the protocol form first (what programs and computer seats send): no menu
            exact = self._exact = {}
            for a in legal:
                exact.setdefault(str(a), a)
        found = exact.get(move)
        if found is not None:
            return found
        if self._menu is None:
            turned = (
                cast(Any, game).turned if any(isinstance(a, Order) for a in legal) else None
            )  # (Deer Park)
            self._menu = _menu(_Shown(game.kind, game.trump, turned), legal)
        named = self._menu[1]  # then the menu's words
        found = named.get(_norm(move))
        if found is not None:
            return found
        wanted = _norm(move)
        try:
            if (
                wanted[:1].isdigit()
                and " " in wanted
                and wanted.split()[1].isalpha()
                and len(wanted.split()) > 1
            ):
                candidate = parse_action(game.kind, move)
            else:
                words = wanted.removeprefix("play ")
                candidate = parse_answer(game.kind, game.phase, seat, words)
        except (HucklebuckError, ValueError) as exc:
            raise ProtocolError("illegal", f"cannot read {move!r} as a move: {exc}") from None
        if candidate in legal:
            return candidate
        key = (candidate, tuple(names))  # (a seat's name may change while the state does not)
        why = self._why.get(key)
        if why is None:
            why = self._why[key] = why_illegal(game, candidate, names)
        raise ProtocolError("illegal", f"not allowed: {why}")


def why_illegal(game: TrickGame[Any, Any], action: Action, names: Sequence[str]) -> str:
    """Why ``action`` is refused, from what its seat may know only (DEF #90): a move
    for another seat is refused for that alone, a card the seat does not hold for
    that alone, whatever any other seat holds; otherwise the engine's reason, with
    seats by name and cards as people write them."""
    to_act = game.to_act
    if action.seat != to_act:
        return "that is another seat's move"
    own = game.observation(to_act).hand
    if isinstance(action, Play) and action.card not in own:
        return f"{action.card.display} is not in your hand"
    trial = game.copy()
    try:
        trial.apply(action)
    except HucklebuckError as exc:
        text = str(exc)
        prefix = f"{action}: "
        text = text.removeprefix(prefix)
        text = re.sub(r"\bseat (\d+)", lambda m: _name(m, names), text)
        return re.sub(r"\b([2-9TJQKA][CDHS])\b", lambda m: Card.parse(m.group(1)).display, text)
    return "that is not one of your moves now"


def _name(m: re.Match[str], names: Sequence[str]) -> str:
    n = int(m.group(1))
    return names[n] if 0 <= n < len(names) else m.group(0)
