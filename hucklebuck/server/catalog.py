"""The games a table can seat, and reading a request for a new table.

Options come from the same metadata and validation as ``hucklebuck options
GAME`` and ``--option NAME=VALUE`` (:meth:`OptionsBase.describe` and
:meth:`OptionsBase.from_assignments`), so names, values and messages agree.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..cli.common import GAMES, GameSpec, game_spec
from ..cli.common import CliError as _CliError
from ..errors import HucklebuckError
from ..games.options import OptionInfo
from ..players import PLAYER_KINDS
from ..players.seer import SEER_KINDS
from ..words.people import COMPUTER_KINDS, choice_label, default_name, offered_words, option_label
from .learned import OfferedPolicy
from .protocol import ProtocolError

__all__ = [
    "COMPUTER_PLAYERS",
    "DEFAULT_PLAYERS",
    "MAX_HANDS",
    "MAX_TURN_TIMER",
    "SeatRequest",
    "TableRequest",
    "games_listing",
    "option_entry",
    "read_table_request",
]

DEFAULT_PLAYERS = {"hucklebuck": 4, "deerpark": 4, "buckem": 5}
"""The player count a new table gets unless told (the terminal's defaults)."""

MAX_HANDS = 1000
"""Most rounds a Buck 'Em session may be asked to last."""

MAX_TURN_TIMER = 86_400
"""Longest turn timer in seconds (a day)."""

COMPUTER_PLAYERS: dict[str, str] = {kind: words[1] for kind, words in COMPUTER_KINDS.items()}
"""The computer player kinds (the names ``play --bots`` takes), each in a few words."""


def option_entry(info: OptionInfo) -> dict[str, Any]:
    """One option as ``/api/games`` lists it."""
    kind = info.kind
    doc = info.doc.replace("``", "")
    entry: dict[str, Any] = {
        "name": info.name,
        "label": option_label(info.name),
        "description": doc,
        "default": None,
    }
    if kind is bool:
        entry |= {"type": "bool", "choices": None, "default": info.default == "true"}
    elif kind is int or kind == (int | None):
        entry["default"] = None if info.default == "none" else int(info.default)
        if info.choices:
            entry |= {"type": "choice", "choices": [None if c == "none" else int(c) for c in info.choices]}
        else:
            entry |= {"type": "int", "choices": None}
            if info.minimum is not None:
                entry["min"] = info.minimum
            if info.maximum is not None:
                entry["max"] = info.maximum
        entry["nullable"] = kind is not int
    else:
        entry |= {"type": "choice", "choices": list(info.choices), "default": info.default}
        entry["choice_descriptions"] = {v: d.replace("``", "") for v, d in info.value_docs}
        entry["choice_labels"] = {v: choice_label(info.name, v) for v in info.choices}
    return entry


def games_listing(offers: Mapping[str, OfferedPolicy] | None = None) -> dict[str, Any]:
    """The body of ``GET /api/games``; ``offers``: the trained policies the server offers, each
    listed under its game with the one player count it plays (``players``)."""
    out = []
    for spec in GAMES.values():
        lo, hi = spec.player_range
        out.append(
            {
                "name": spec.name,
                "title": spec.title,
                "players": {"min": lo, "max": hi, "default": DEFAULT_PLAYERS[spec.name]},
                "options": [option_entry(i) for i in spec.options_type.describe()],
                "computer_players": [
                    {"name": k, "label": COMPUTER_KINDS[k][0], "description": COMPUTER_KINDS[k][1]}
                    for k in PLAYER_KINDS
                ]
                + [
                    {"name": o.name, "label": label, "description": doc, "players": o.players}
                    for o in (offers or {}).values()
                    if o.game is spec.kind
                    for label, doc in (offered_words(o.name),)
                ],
            }
        )
    most = max(spec.player_range[1] for spec in GAMES.values())
    names = {kind: [default_name(i, kind) for i in range(most)] for kind in ("human", "computer")}
    return {"games": out, "default_names": names}


@dataclass(frozen=True)
class SeatRequest:
    """One seat of a new table."""

    kind: str
    """``human`` or ``computer``."""
    name: str
    player: str | None
    """The computer player kind (``mc``, ``heuristic``...), for a computer seat."""


@dataclass(frozen=True)
class TableRequest:
    """A checked request for a new table."""

    spec: GameSpec
    players: int
    options: Any
    seats: tuple[SeatRequest, ...]
    turn_timer: float | None
    hands: int | None
    """Buck 'Em: how many rounds the session lasts."""
    public: bool = False
    """Open to everyone: listed by ``GET /api/tables`` (the lobby).  A table is private unless
    its host chose this: not listed, and watched only by those given its watch link."""
    first_wait: float | None = None
    """Seconds a person's seat nobody has opened yet waits for them (``None``: the server's setting)."""


def _bad(message: str) -> ProtocolError:
    return ProtocolError("bad_request", message)


def _unknown_player(player: str, offers: Mapping[str, OfferedPolicy]) -> str:
    """Why ``player`` names no computer player here, and the names that do."""
    names = ", ".join(PLAYER_KINDS)
    if offers:
        names += f"; or a trained policy this server offers: {', '.join(offers)}"
    shown = player if len(player) <= 40 else player[:40] + "..."
    if "/" in player or "\\" in player or "." in player:
        return (
            f"{shown!r} is not a computer player's name: a seat names a player from the server's list"
            f" (GET /api/games), never a file; the host chooses which trained policies to offer ({names})"
        )
    return f"unknown computer player {shown!r} (use {names})"


def clean_name(value: object, max_len: int, fallback: str) -> str:
    """A seat name as plain text: trimmed, no control characters, at most ``max_len`` characters."""
    if value is None:
        return fallback
    if not isinstance(value, str):
        raise _bad("a seat name must be text")
    name = " ".join(value.split())
    if any(unicodedata.category(ch).startswith("C") for ch in name):
        raise _bad("a seat name must be plain text (no control characters)")
    if len(name) > max_len:
        raise _bad(f"a seat name may have at most {max_len} characters")
    return name or fallback


def _option_text(value: object) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | str):
        return str(value)
    raise _bad(f"an option value must be true/false, a number, text or null, not {type(value).__name__}")


def read_options(spec: GameSpec, data: object) -> Any:
    """The game's options from ``{NAME: VALUE}``, by the terminal's ``--option`` rules and messages."""
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise _bad('"options" must be an object of NAME: VALUE')
    known = len(spec.options_type.describe())
    if len(data) > known:
        raise _bad(f"{spec.title} has {known} options, not {len(data)}")
    items = [f"{name}={_option_text(value)}" for name, value in data.items()]
    try:
        return spec.options_type.from_assignments(items)
    except HucklebuckError as exc:
        raise _bad(str(exc)) from None


def read_table_request(
    body: object, max_name: int, offers: Mapping[str, OfferedPolicy] | None = None
) -> TableRequest:
    """Check a ``POST /api/tables`` body; :class:`ProtocolError` (``bad_request``) says what is wrong.

    A computer seat's ``player`` is one of :data:`~hucklebuck.players.PLAYER_KINDS` or the name of
    one of ``offers`` (the trained policies the host offers) that plays this game and table size."""
    offers = offers or {}
    if not isinstance(body, dict):
        raise _bad("the request body must be a JSON object")
    try:
        spec = game_spec(str(body.get("game", "")))
    except _CliError as exc:
        raise _bad(str(exc)) from None
    options = read_options(spec, body.get("options"))
    players = body.get("players", DEFAULT_PLAYERS[spec.name])
    lo, hi = spec.player_range
    if isinstance(players, bool) or not isinstance(players, int):
        raise _bad('"players" must be a whole number')
    if not lo <= players <= hi:  # before anything is built for that many seats
        raise _bad(f"{spec.title} is played by {lo} to {hi} players, not {players}")
    raw_seats = body.get("seats")
    if raw_seats is None:
        raw_seats = [{"kind": "human"}] + [{"kind": "computer"}] * (players - 1)
    if not isinstance(raw_seats, list) or len(raw_seats) != players:
        raise _bad(f'"seats" must list {players} seats, one per player')
    seats = []
    for i, raw in enumerate(raw_seats):
        if not isinstance(raw, dict):
            raise _bad(f'seat {i} must be an object with a "kind"')
        kind = raw.get("kind")
        if kind == "human":
            seats.append(SeatRequest("human", clean_name(raw.get("name"), max_name, default_name(i)), None))
        elif kind == "computer":
            player = raw.get("player", "mc")
            if player in SEER_KINDS:
                raise _bad(
                    f"seat {i}: {player!r} reads every hand, a research tool for measuring players:"
                    " it never sits at a table of people"
                )
            if not isinstance(player, str):
                raise _bad(f"seat {i}: a computer seat's player is the name of a computer player")
            if player in offers:
                unfit = offers[player].fits(spec.kind, players)
                if unfit is not None:
                    raise _bad(f"seat {i}: {unfit}")
            elif player not in PLAYER_KINDS:
                raise _bad(f"seat {i}: {_unknown_player(player, offers)}")
            name = clean_name(raw.get("name"), max_name, default_name(i, "computer"))
            seats.append(SeatRequest("computer", name, player))
        else:
            raise _bad(f'seat {i}: "kind" must be "human" or "computer"')
    timer = body.get("turn_timer")
    if timer is not None and (
        isinstance(timer, bool) or not isinstance(timer, int | float) or not 0 < timer <= MAX_TURN_TIMER
    ):
        raise _bad(f'"turn_timer" must be a number of seconds above 0 and at most {MAX_TURN_TIMER}, or null')
    first_wait = body.get("first_wait")
    if first_wait is not None and (
        isinstance(first_wait, bool)
        or not isinstance(first_wait, int | float)
        or not 0 < first_wait <= MAX_TURN_TIMER
    ):
        raise _bad(f'"first_wait" must be a number of seconds above 0 and at most {MAX_TURN_TIMER}, or null')
    hands = body.get("hands")
    if hands is not None and (
        isinstance(hands, bool) or not isinstance(hands, int) or not 1 <= hands <= MAX_HANDS
    ):
        raise _bad(f'"hands" must be a whole number from 1 to {MAX_HANDS}, or null')
    public = body.get("public", False)
    if not isinstance(public, bool):
        raise _bad('"public" must be true (open to everyone: listed in the lobby) or false (the default)')
    try:
        spec.game_type(
            players, options=options, seed=0
        )  # the engine checks the player count for these options
    except HucklebuckError as exc:
        raise _bad(str(exc)) from None
    return TableRequest(
        spec,
        players,
        options,
        tuple(seats),
        None if timer is None else float(timer),
        hands,
        public,
        None if first_wait is None else float(first_wait),
    )
