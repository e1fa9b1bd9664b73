"""The state messages a table sends, made with what the last ones had in common reused: the same
bytes as the view built afresh, for every seat and the spectator, and less encoding per change.

Work is counted here, not timed (the speed is measured by ``python -m hucklebuck.bench server``).
"""

from __future__ import annotations

import json
import random
import types
from typing import Any

import pytest

from hucklebuck.cli.common import GAMES as SPECS
from hucklebuck.server import tables as tables_module
from hucklebuck.server import views
from hucklebuck.server._seats import Seat
from hucklebuck.server.config import ServerConfig
from hucklebuck.server.tables import ServerTable
from hucklebuck.server.views import hand_log, seat_view

SETUPS: list[tuple[str, int, dict[str, Any]]] = [
    ("deerpark", 4, {}),
    ("deerpark", 5, {}),
    ("hucklebuck", 4, {}),
    ("hucklebuck", 5, {}),
    ("buckem", 5, {}),
    ("buckem", 6, {"simultaneous_declare": True}),
]


def _table(name: str, players: int, options: dict[str, Any], seed: int, table_id: str) -> ServerTable:
    """A table as the server holds one (one person, computers elsewhere), without a server around it."""
    spec = next(s for s in SPECS.values() if s.kind.value == name)
    opts = spec.game_type.options_type.from_dict(options) if options else None
    game = spec.game_type(players, options=opts, seed=seed) if opts else spec.game_type(players, seed=seed)
    seats = [Seat(kind="human", name="Ann", player=None, digest=None, connections=1, opened=True)]
    seats += [
        Seat(kind="computer", name=f"Bot {i}", player="heuristic", digest=None) for i in range(1, players)
    ]
    manager: Any = types.SimpleNamespace(config=ServerConfig())
    return ServerTable(manager, table_id, spec, game, seats, 0, {"notices": []})


def _fresh_text(table: ServerTable, seat: int | None) -> str:
    """The state message built afresh: the view as :func:`seat_view` gives it, a log written from
    the start of the hand, and the whole message encoded at once by the standard library."""
    seats = [s.public() for s in table.seats]
    extra = table._extra() if hasattr(table, "_extra") else None
    if extra is None:
        extra = {
            "last_hand": table.fields.get("last_hand"),
            "game_over": table.fields.get("game_over"),
            "notices": table.fields.get("notices", [])[-table.config.notices :],
        }
    log = hand_log(table.game, table.narrator.names)
    view = seat_view(table.game, seat, table.narrator, seats, log, extra)
    state = {"type": "state", "seq": table.seq, "you": seat, "view": view}
    return json.dumps(state, separators=(",", ":"))


def _step(table: ServerTable, rng: random.Random) -> None:
    """One change, as the server makes it: a move (ending a hand records it), a deal, or a rematch."""
    game = table.game
    if table.over:
        table.fields["game_over"] = None
        table.fields["last_hand"] = None
        table.fields["game_number"] = table.fields.get("game_number", 1) + 1
        table.game = table.narrator.game = table.spec.game_type(
            game.players, options=game.options, seed=rng.randrange(9999)
        )
        table._log = views.HandLog()
        table.notice("Ann asked for a rematch: a new game begins")
    elif game.to_act is None:
        game.next_hand()
    else:
        before = game.phase
        game.apply(rng.choice(game.legal_actions()))
        table._after_action(before)
    table.seq += 1
    if rng.random() < 0.05:  # the seats' own fields change now and then (who is here, who is away)
        seat = table.seats[0]
        seat.connections = 1 - seat.connections
        seat.away = not seat.away
        table.notice(f"notice {table.seq}")


def test_every_state_text_is_the_view_built_afresh_byte_for_byte() -> None:
    """Tables of every game, played side by side through whole games (and into the next): at every
    state, every seat's and the spectator's text equals the view built afresh, whichever seats
    were sent a state before (so nothing made for one seat, hand or state reaches another)."""
    rng = random.Random(60)
    tables = [_table(n, p, o, 100 + i, f"t{i}") for i, (n, p, o) in enumerate(SETUPS)]
    compared = 0
    hands = [0] * len(tables)
    for _ in range(520):
        for i, table in enumerate(tables):
            _step(table, rng)
            hands[i] = max(hands[i], table.game.hand_number)
            viewers: list[int | None] = [*range(table.game.players), None]
            rng.shuffle(viewers)
            for seat in viewers[: rng.randint(1, len(viewers))]:  # some seats not every state
                assert table.state_text(seat) == _fresh_text(table, seat), (table.id, seat, table.seq)
                compared += 1
    assert compared > 8000
    assert min(hands) > 1  # every table went on to a later hand
    assert sum(t.fields.get("game_number", 1) for t in tables) > len(tables)  # and whole games ended


def test_a_table_put_back_after_a_failed_commit_shows_the_state_it_went_back_to() -> None:
    """A batch that cannot be stored rolls the table back: the next texts are those of that state,
    not of the change taken back."""
    rng = random.Random(7)
    table = _table("deerpark", 4, {}, 11, "t")
    checked = 0
    for _ in range(400):
        point = table.undo_point()
        _step(table, rng)
        table.state_text(0)  # (made at the state that will be taken back)
        if rng.random() < 0.3:
            table.roll_back(point)
            for seat in [*range(table.game.players), None]:
                assert table.state_text(seat) == _fresh_text(table, seat)
                checked += 1
            _step(table, rng)
        assert table.state_text(0) == _fresh_text(table, 0)
    assert checked > 100


def test_a_change_encodes_only_what_changed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Over whole games with one person watching (one state a change, as at the bench's tables),
    the JSON encoder writes less than 12 % of the text sent: the seats' table fields, the log, the
    hand, the listed moves, the contract and the cards face up that did not change are not encoded
    again, and the numbers and plays that did are written from kept pieces."""
    written = [0]

    def counting(real: Any) -> Any:
        def encode(value: Any) -> str:
            text: str = real(value)
            written[0] += len(text)
            return text

        return encode

    for module, name in ((views, "encode"), (tables_module, "_encode")):  # (wherever states are encoded)
        real = getattr(module, name, None)
        if real is not None:
            monkeypatch.setattr(module, name, counting(real))
    rng = random.Random(3)
    sent = 0
    for i, (n, p, o) in enumerate(SETUPS):
        table = _table(n, p, o, 7 + i, f"t{i}")
        for _ in range(300):
            _step(table, rng)
            sent += len(table.state_text(0))
    assert written[0] > 0
    assert written[0] < 0.12 * sent, f"{written[0]:,} characters encoded for {sent:,} sent"


def test_a_seat_entry_is_the_same_text_whatever_its_fields_hold() -> None:
    """A seat's entry made from kept pieces equals the entry encoded whole, also where the pieces
    cannot be used: a table field named like one the entry adds, a score that is not a whole
    number, a status that is not text."""
    table = _table("deerpark", 4, {}, 5, "t")
    game, narrator = table.game, table.narrator
    extra = table._extra()
    log = views.HandLog()
    log.update(game, narrator.names)
    kept = views.ViewText()
    plain = [s.public() for s in table.seats]
    odd: list[dict[str, Any]] = [
        {**plain[0], "status": "mine"},  # (the entry's own status takes this field's place)
        {"seat": 9, **plain[1]},
        {**plain[2], "cards": "many"},
        plain[3],
    ]
    for seats in (plain, odd, plain):
        for seat in (0, 1, None):
            want = json.dumps(
                seat_view(game, seat, narrator, seats, log.update(game, narrator.names), extra),
                separators=(",", ":"),
            )
            assert kept.text(game, seat, narrator, seats, log.text(), extra) == want
    head = views._entry_head(plain[1], 1)
    for facts in ((13, 0, 2.5, "maker"), (13, True, 0, "maker"), (13, 0, 0, None), (13, 0, -4, "out")):
        want = json.dumps(views._seat_entry(plain[1], 1, *facts), separators=(",", ":"))
        assert views._entry_text(head, plain[1], 1, facts) == want


@pytest.mark.parametrize("name", ["deerpark", "hucklebuck", "buckem"])
def test_an_observation_is_only_of_a_seat_of_the_game_or_an_onlooker(name: str) -> None:
    """Asking what a seat may know checks the seat first, whatever the game: a flag, a number out of
    range or a seat written as text is refused; a seat's number is read as the seat."""
    from hucklebuck.errors import SeatError

    game = _table(name, 5, {}, 3, "t").game
    for bad in (True, False, -1, 5, "0", 1.0):
        with pytest.raises(SeatError, match="seat"):
            game.observation(bad)  # type: ignore[call-overload]
    for seat in (0, 4, None):
        assert game.observation(seat).seat == seat
