"""The tables a server holds: seats, connections, the game, and every change to it.

All of a table's state changes on the event loop, one message at a time.  An
accepted action is applied to the engine, committed to the store, and only
then broadcast: each connection gets the view of its own seat
(:func:`~hucklebuck.server.views.seat_view`).  Computer seats are clients of
the same kind (:mod:`hucklebuck.server.bots`).
"""

from __future__ import annotations

import asyncio
import hmac
import json
import secrets
import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from ..cli.common import GameSpec
from ..errors import HucklebuckError
from ..games.base import GameOverEvent, Phase, ScoreEvent
from ..games.engine import TrickGame
from ..packs import GameKind
from ..words.lines import score_reason
from ..words.narrator import Narrator
from ._seats import Connection, Seat, TableRefused, _AgentClient, token_digest
from .bots import GATHER, on_beat
from .config import ServerConfig
from .moves import MoveReader, action_text, chosen
from .protocol import ClientMessage, ProtocolError, error_message
from .store import DEAL, StoredTable
from .stored import Stored, StoredPoint, rebuild
from .views import HandLog, ViewText, hand_events, seat_view

if TYPE_CHECKING:
    from .manager import TableManager

__all__ = ["Connection", "Seat", "ServerTable", "TableRefused", "token_digest"]


class ServerTable:
    """One table (see the module docstring)."""

    def __init__(
        self,
        manager: TableManager,
        table_id: str,
        spec: GameSpec,
        game: TrickGame[Any, Any],
        seats: list[Seat],
        seq: int,
        fields: dict[str, Any],
    ) -> None:
        """A table as created or restored; :meth:`drive` sets it going."""
        self.manager = manager
        self.id = table_id
        self.spec = spec
        self.game = game
        self.seats = seats
        self.seq = seq
        self.fields = fields
        self.connections: set[Connection] = set()
        self.narrator = Narrator(game, [s.name for s in seats], lambda _line: None, show_all=False)
        self._thinking: dict[int, int] = {}  # seat -> the seq a computer decision started at
        self._forced: set[int] = set()  # seqs at which the turn timer handed one move to the computer
        self._timers: list[asyncio.TimerHandle] = []
        self._armed = -2  # the seq drive() last started things for
        self._hinting: set[Connection] = set()
        self._grace: dict[int, asyncio.TimerHandle] = {}
        self._presence_timer: asyncio.TimerHandle | None = None
        self._presence_sent = float("-inf")
        self._log_cache: tuple[int, HandLog, list[str]] = (-1, HandLog(), [])
        self._view_text = ViewText()
        self._reader: tuple[int, TrickGame[Any, Any], MoveReader] | None = None
        self._log = HandLog()
        self.fields_changed = False
        """The table's own fields changed since they were last stored (a hand ended)."""
        self.stored: Stored | None = None
        """What the store holds of the table (set by the manager; :mod:`~hucklebuck.server.stored`)."""
        self.stopped = False
        """Stopped (the server is closing, or another process plays the table now): it does nothing more."""

    # ------------------------------------------------------------ state out
    @property
    def config(self) -> ServerConfig:
        """The server's settings."""
        return self.manager.config

    @property
    def idle(self) -> bool:
        """Over, and nobody connected: the table may make room for a new one."""
        return self.over and not self.connections

    @property
    def over(self) -> bool:
        """Whether the game (or Buck 'Em session) has ended."""
        return self.fields.get("game_over") is not None

    def snapshot(self) -> StoredTable:
        """The table in stored form: the engine's save format, the seats, the table's own fields."""
        return StoredTable(
            self.id,
            self.seq,
            self.game.to_json(),
            json.dumps([s.stored() for s in self.seats]),
            json.dumps(self.fields),
        )

    def log(self) -> list[str]:
        """The hand's public lines (computed once per state)."""
        if self._log_cache[0] != self.seq:
            self._log_cache = (self.seq, self._log, self._log.update(self.game, self.narrator.names))
        return self._log_cache[2]

    def _extra(self) -> dict[str, Any]:
        return {
            "last_hand": self.fields.get("last_hand"),
            "game_over": self.fields.get("game_over"),
            "notices": self.fields.get("notices", [])[-self.config.notices :],
        }

    def view(self, seat: int | None) -> dict[str, Any]:
        """The VIEW for ``seat`` (``None``: a spectator)."""
        seats = [s.public() for s in self.seats]
        return seat_view(self.game, seat, self.narrator, seats, self.log(), self._extra())

    def state_text(self, seat: int | None) -> str:
        """The ``state`` message for ``seat`` as JSON text: ``encode`` of the message holding
        :meth:`view`, byte for byte, made with what the last views had in common reused."""
        return self.state_texts((seat,))[seat]

    def state_texts(self, seats: Iterable[int | None]) -> dict[int | None, str]:
        """:meth:`state_text` for each of ``seats`` (once each), with what every viewer's message
        holds alike (the log's text, the seats' table fields, the table's own fields) made once."""
        self.log()  # (the log brought up to this state: its text is the text of those lines)
        log = self._log_cache[1].text()
        infos = [s.public() for s in self.seats]
        extra = self._extra()
        head = f'{{"type":"state","seq":{int(self.seq)},"you":'
        texts: dict[int | None, str] = {}
        for seat in seats:
            if seat not in texts:
                view = self._view_text.text(self.game, seat, self.narrator, infos, log, extra)
                you = "null" if seat is None else str(int(seat))
                texts[seat] = f'{head}{you},"view":{view}}}'
        return texts

    def broadcast(self) -> None:
        """Send every connection the state of its own seat (each view built once)."""
        if self._presence_timer is not None:  # this state shows who is connected: no need to send it again
            self._presence_timer.cancel()
            self._presence_timer = None
        self._send_presence(None)

    def summary(self) -> dict[str, Any]:
        """The public summary of ``GET /api/tables/{id}``."""
        over = self.fields.get("game_over")
        return {
            "id": self.id,
            "game": self.spec.name,
            "title": self.spec.title,
            "players": self.game.players,
            "options": self.game.options.to_dict(),
            "seats": [{"seat": i} | s.public() for i, s in enumerate(self.seats)],
            "hand_number": self.game.hand_number,
            "standings": list(self.game.standings),
            "over": over is not None,
            "winners": over["winners"] if over else [],
            "seq": self.seq,
            "public": self.fields.get("public") is True,
        }

    # ------------------------------------------------------------- changes
    def notice(self, text: str) -> None:
        """Announce ``text`` to the table (kept with the table's recent notices)."""
        notices = self.fields.setdefault("notices", [])
        notices.append(text)
        del notices[: -self.config.notices]

    def undo_point(self) -> tuple[Any, ...]:
        """What :meth:`roll_back` needs to put the table back as it is now."""
        fields = dict(self.fields)  # values are replaced, never changed in place, but for the notices
        fields["notices"] = list(fields.get("notices", []))
        stored = self.stored  # at its stored form, the game is rebuilt from it if need be: no copy
        game = stored.point() if stored is not None and stored.seq == self.seq else self.game.copy()
        return (game, fields, self.seq, [s.away for s in self.seats])

    def roll_back(self, point: tuple[Any, ...]) -> None:
        """Put the table back as it was at :meth:`undo_point` (a batch failed to store)."""
        game, fields, seq, away = point
        if isinstance(game, StoredPoint):
            self.stored = game.stored(seq)
            game = rebuild(self.stored)
        elif self.stored is not None and self.stored.seq != seq:
            self.stored = None  # (not this state: the next change copies the game)
        self.game, self.fields, self.seq = game, fields, seq
        self._reader = None
        self.narrator.game = game
        self._log = HandLog()
        for s, was in zip(self.seats, away, strict=True):
            s.away = was
        self._armed = -2

    def _change(self, mutate: Callable[[], str | None], *, failed: Callable[[], None] | None = None) -> None:
        """Apply ``mutate``, count it, and queue it to be stored; the table tells everyone only once
        the batch is committed (:meth:`TableManager.flush`).  ``mutate`` returns the action's text
        (or :data:`~hucklebuck.server.store.DEAL`) when the change is that one move or deal, with
        at most the table's fields changed too (stored as a small row), else ``None`` (the table
        is stored whole).  ``failed`` is called if the batch cannot be stored (the table
        is then rolled back)."""
        self.manager.begin(self)
        self._reader = None
        try:
            move = mutate()
        finally:
            self._reader = None  # (a refused move changed nothing, but a reader is cheap to make)
        self.seq += 1
        self.manager.queue(self, move, failed)

    @property
    def reader(self) -> MoveReader:
        """Reads moves at the table's present state (made once per state: every change and every
        roll-back drops it, so a refusal always answers the state the table is in)."""
        kept = self._reader
        if kept is None or kept[0] != self.seq or kept[1] is not self.game:
            kept = self._reader = (self.seq, self.game, MoveReader(self.game))
        return kept[2]

    @property
    def pending(self) -> bool:
        """Whether the table has changes not yet committed (nobody may see them yet)."""
        return self.manager.is_pending(self)

    def seat_for_token(self, token: str) -> int | None:
        """The seat ``token`` opens, compared in constant time; ``None`` if none."""
        digest = token_digest(token)
        found = None
        for i, seat in enumerate(self.seats):
            if seat.digest is not None and hmac.compare_digest(digest, seat.digest):
                found = i
        return found

    def join(self, conn: Connection) -> None:
        """A client connects: it gets the state; a returning person takes their seat back."""
        seat = conn.seat
        if seat is not None:
            for old in [c for c in self.connections if c.seat == seat]:
                old.close(4001, "this seat was opened in another tab or device")  # the newest one plays
        self.connections.add(conn)
        if seat is not None:
            info = self.seats[seat]
            info.connections += 1
            if not info.opened:  # stored at once (no change of seq): a restart keeps it
                info.opened = True
                self._store_seats()
            timer = self._grace.pop(seat, None)
            info.grace_until = None
            if timer is not None:
                timer.cancel()
            if info.away and info.connections == 1:
                if seat in self._thinking:
                    info.returning = True  # handed back once the computer's move in progress lands
                else:
                    self._hand_back(seat)
                    return
        if self.pending:
            return  # the state goes out with the batch being stored
        conn.send_text(self.state_text(seat))
        if seat is not None:
            self.broadcast_presence(exclude=conn)

    def broadcast_presence(self, exclude: Connection | None = None) -> None:
        """Tell the others who is connected (no change of ``seq``: the game did not change).

        At most once every ``presence_pause`` seconds: changes within that time go out
        together at its end, so connecting and leaving in a loop costs the others one state
        per pause, not one per connection."""
        if self.pending:
            return  # the batch being stored tells everyone
        if self._presence_timer is not None:
            return  # already due: it will show this change too
        loop = asyncio.get_running_loop()
        wait = self._presence_sent + self.config.presence_pause - loop.time()
        if wait > 0:
            self._presence_timer = loop.call_later(wait, self._presence_due)
            return
        self._presence_sent = loop.time()
        self._send_presence(exclude)

    def _presence_due(self) -> None:
        self._presence_timer = None
        if self.manager.closing:
            return
        self._presence_sent = asyncio.get_running_loop().time()
        if not self.pending:
            self._send_presence(None)

    def _send_presence(self, exclude: Connection | None) -> None:
        """Send every connection but ``exclude`` the state of its own seat (each text made once)."""
        others = [c for c in self.connections if c is not exclude]
        texts = self.state_texts([c.seat for c in others])
        for other in others:
            other.send_text(texts[other.seat])

    def leave(self, conn: Connection) -> None:
        """A connection closed; a person's seat waits the grace period, then the computer plays it."""
        if conn not in self.connections:
            return
        self.connections.discard(conn)
        seat = conn.seat
        if seat is None:
            return
        info = self.seats[seat]
        info.connections -= 1
        if info.connections == 0 and not info.away:
            self.start_grace(seat)
        self.broadcast_presence()

    def start_grace(self, seat: int) -> None:
        """Start the grace period of a person's seat nobody is connected to (once: a second
        call while it runs, such as a connection closed twice over, changes nothing; none in a
        finished game, which has nothing to play and shows no countdown: a rematch starts it)."""
        if seat in self._grace or self.over:
            return
        loop = asyncio.get_running_loop()
        wait = self.config.grace if self.seats[seat].opened else self.first_wait
        self._grace[seat] = loop.call_later(wait, self._take_over, seat)
        self.seats[seat].grace_until = time.monotonic() + wait  # every view shows the countdown

    @property
    def first_wait(self) -> float:
        """Seconds a person's seat nobody has opened yet waits before the computer plays it."""
        wait = self.fields.get("first_wait")
        return float(wait) if isinstance(wait, int | float) else self.config.first_wait

    def _take_over(self, seat: int) -> None:
        self._grace.pop(seat, None)
        info = self.seats[seat]
        info.grace_until = None
        if info.connections or info.away or self.over or self.manager.closing:
            return  # (a finished game has no move to play: a rematch starts the grace again)

        def mutate() -> None:
            info.away = True
            if info.opened:
                self.notice(
                    f"{info.name}'s connection dropped: the computer plays for {info.name} until they return"
                )
            else:
                self.notice(
                    f"{info.name} has not opened their link yet: the computer plays for {info.name}"
                    " until they come"
                )

        self._safe_change(mutate)

    def _hand_back(self, seat: int) -> None:
        info = self.seats[seat]

        def mutate() -> None:
            info.away = False
            info.returning = False
            self.notice(f"{info.name} is back and plays again")

        self._safe_change(mutate)

    def _store_seats(self) -> None:
        """Store the table whole with the batch being written (the seats changed, not the game):
        everyone is sent the state once it is stored, as after any change."""
        self.manager.begin(self)
        self.manager.queue(self, None, None)

    def _safe_change(self, mutate: Callable[[], None]) -> None:
        """A change the server makes by itself (a deal, a takeover): stored whole."""
        self._change(mutate)

    # ------------------------------------------------------------ messages
    def client_message(self, conn: Connection, message: ClientMessage) -> None:
        """Handle a message from a connection; a refusal goes to that connection alone."""
        try:
            if message.type == "act":
                self._act(conn.seat, message, agent=False, conn=conn)
            elif message.type == "hint":
                self._hint(conn, message)
            else:
                self._rematch(conn.seat)
        except ProtocolError as exc:
            conn.send_text(json.dumps(error_message(exc.code, exc.message, self.seq)))

    def agent_message(self, seat: int, message: ClientMessage) -> None:
        """A computer seat's move: checked like a person's (a stale one is dropped)."""
        if self._thinking.get(seat) == message.seq:
            del self._thinking[seat]
        try:
            self._act(seat, message, agent=True)
        except ProtocolError:
            self.drive()  # the table moved on while it thought (a hand-back): start what is due now
        info = self.seats[seat]
        if info.returning and seat not in self._thinking:
            self._hand_back(seat)

    def _act(
        self, seat: int | None, message: ClientMessage, *, agent: bool, conn: Connection | None = None
    ) -> None:
        if seat is None:
            raise ProtocolError("spectator", "spectators watch: only a seated player may act")
        if self.over:
            raise ProtocolError("game_over", "the game is over (send rematch to play again)")
        if message.seq != self.seq:
            raise ProtocolError(
                "stale", f"that move answers state {message.seq}, but the table is at state {self.seq}"
            )
        game = self.game
        to_act = game.to_act
        if to_act is None:
            raise ProtocolError("not_your_turn", "nobody acts now: the next hand is about to be dealt")
        info = self.seats[seat]
        computer_turn = info.kind == "computer" or info.away or message.seq in self._forced
        if agent != computer_turn:
            raise ProtocolError("not_your_turn", "the computer is playing this seat's move")
        if to_act != seat:
            raise ProtocolError("not_your_turn", f"it is {self.seats[to_act].name}'s turn, not yours")
        action = self.reader.read(seat, message.action, self.narrator.names, chosen(message))
        phase_before = game.phase

        def mutate() -> str | None:
            game.apply(action)  # the engine checks it again and changes nothing if it refuses
            self._after_action(phase_before)
            return None if self.over else action_text(action)  # a finished game is stored whole

        def failed() -> None:
            if conn is not None:
                text = "the server could not store that move; send it again"
                conn.send_text(json.dumps(error_message("busy", text, self.seq)))

        try:  # (a person's move: the batch answers its table first, see TableManager.flush)
            self._change(mutate, failed=failed if conn is not None else None)
        except HucklebuckError as exc:  # refused by the engine: nothing changed
            raise ProtocolError("illegal", str(exc)) from None

    def _after_action(self, phase_before: Phase) -> None:
        """Record the end of a hand if this action ended it (in the table's fields)."""
        ended = (Phase.HAND_OVER, Phase.GAME_OVER)
        if self.game.phase in ended and phase_before not in ended:
            self._hand_ended()
            self.fields_changed = True

    def _hand_ended(self) -> None:
        game, names = self.game, self.narrator.names
        lines = []
        reason = ""
        for ev in hand_events(game)[1]:
            if isinstance(ev, ScoreEvent) and (ev.delta or ev.reason):
                text = f"{names[ev.seat]}: {score_reason(ev.reason)}"
                lines.append({"seat": ev.seat, "delta": ev.delta, "text": text})
            elif isinstance(ev, GameOverEvent):
                reason = ev.reason
        self.fields["last_hand"] = {
            "hand_number": game.hand_number,
            "lines": lines,
            "standings": self.narrator.standings_text(),
        }
        if game.phase is Phase.GAME_OVER:
            winners = list(game.winners)
            who = " and ".join(names[s] for s in winners)
            self.fields["game_over"] = {
                "winners": winners,
                "text": f"{who} wins. {self.narrator.why(winners, reason)}",
            }
        elif game.kind is GameKind.BUCKEM and game.hand_number >= self.fields.get("hands", 10):
            standings = game.standings
            top = max(standings)
            winners = [s for s in range(game.players) if standings[s] == top]
            who = " and ".join(names[s] for s in winners)
            self.fields["game_over"] = {
                "winners": winners,
                "text": f"The session of {game.hand_number} hands is over: "
                f"{who} has the biggest bankroll ({top}).",
            }

    def _hint(self, conn: Connection, message: ClientMessage) -> None:
        seat = conn.seat
        if seat is None:
            raise ProtocolError("spectator", "hints are for seated players")
        if message.seq != self.seq:
            raise ProtocolError(
                "stale", f"that asks about state {message.seq}, but the table is at {self.seq}"
            )
        if self.over or self.game.to_act != seat:
            raise ProtocolError("not_your_turn", "a hint is for your own turn")
        if conn in self._hinting:
            raise ProtocolError("busy", "the hint you asked for is still being worked out")
        seq, game = self.seq, self.game.copy()
        future = self.manager.bots.run(self.manager.hinter, game, seat)  # refused (busy) when hints pile up
        self._hinting.add(conn)  # one hint at a time per connection: the hints' pool is shared

        def done(f: asyncio.Future[Any]) -> None:
            self._hinting.discard(conn)
            if f.cancelled() or conn not in self.connections:
                return
            exc = f.exception()
            if exc is not None:
                conn.send_text(json.dumps(error_message("illegal", f"no hint: {exc}", self.seq)))
                return
            conn.send_text(json.dumps(f.result() | {"seq": seq}))

        future.add_done_callback(done)

    def _rematch(self, seat: int | None) -> None:
        if seat is None:
            raise ProtocolError("spectator", "spectators watch: only a seated player may ask for a rematch")
        if not self.over:
            raise ProtocolError("not_over", "a rematch can start only once the game is over")

        def mutate() -> None:
            game = self.spec.game_type(
                self.game.players, options=self.game.options, seed=secrets.randbits(64)
            )
            self.game = game
            self.narrator.game = game
            self._log = HandLog()
            self.fields["game_over"] = None
            self.fields["last_hand"] = None
            self.fields["game_number"] = self.fields.get("game_number", 1) + 1
            self.notice(f"{self.seats[seat].name} asked for a rematch: a new game begins")

        self._safe_change(mutate)
        for i, info in enumerate(self.seats):  # as at a new table: a seat nobody holds is taken over
            if info.kind == "human" and not info.connections and not info.away:
                self.start_grace(i)

    # -------------------------------------------------------------- driving
    def drive(self) -> None:
        """Start what the table does by itself now: a computer's move, the next deal, a turn timer."""
        if self.over or self.manager.closing or self.stopped:
            return
        game = self.game
        seat = game.to_act
        if self._armed != self.seq:  # timers are set once per state
            self._armed = self.seq
            self._forced = {q for q in self._forced if q >= self.seq}
            for t in self._timers:
                t.cancel()
            self._timers = []
            loop = self.manager.bots.running()
            if game.phase is Phase.HAND_OVER:
                pause = self.config.deal_pause
                due = on_beat(loop.time() + pause, min(GATHER, pause / 4))  # (with other tables' timers)
                self._timers.append(loop.call_at(due, self._deal, self.seq))
                return
            timer = self.fields.get("turn_timer")
            if seat is not None and timer and self.seats[seat].kind == "human" and not self.seats[seat].away:
                self._timers.append(loop.call_later(float(timer), self._time_up, self.seq, seat))
        if seat is None:
            return
        info = self.seats[seat]
        if info.away and info.returning and seat not in self._thinking:
            self._hand_back(seat)  # the person came back while the computer was moving for them
        elif info.kind == "computer" or info.away:
            self._start_agent(seat, info.player or self.config.takeover_player)
        elif self.seq in self._forced:
            self._start_agent(seat, self.config.takeover_player)

    def _start_agent(self, seat: int, kind: str) -> None:
        if self._thinking.get(seat) == self.seq:
            return
        self._thinking[seat] = self.seq
        seed = f"{self.id}:{self.fields.get('game_number', 1)}:{seat}:{self.seq}"
        stand_in = self.seats[seat].kind == "human"  # an absent person's seat, or their time ran out
        self.manager.bots.decide(_AgentClient(self, seat), kind, self.game.kind, seed, stand_in=stand_in)

    def _deal(self, seq: int) -> None:
        if seq != self.seq or self.game.phase is not Phase.HAND_OVER or self.over:
            return

        def mutate() -> str:
            self.game.next_hand()
            return DEAL

        self._change(mutate)

    def _time_up(self, seq: int, seat: int) -> None:
        if seq != self.seq or self.game.to_act != seat or self.over:
            return
        name = self.seats[seat].name
        self.notice(f"{name}'s time ran out: the computer made this move for {name}")
        self._forced.add(seq)
        self._start_agent(seat, self.config.takeover_player)

    def stop(self) -> None:
        """Cancel the table's timers (the server is stopping, or the table moved to another one)."""
        self.stopped = True
        for t in [*self._timers, *self._grace.values()]:
            t.cancel()
        if self._presence_timer is not None:
            self._presence_timer.cancel()
            self._presence_timer = None
        self._timers = []
        self._grace = {}
