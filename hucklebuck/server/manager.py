"""The table manager: every table of a server, their limits, and storing their
changes.

Changes are stored in batches: every change made while the event loop handles
one round of messages is committed in one transaction at the end of that
round (a group commit), and only then does any table tell its clients.  So
each accepted action is durable before anyone hears of it, and a busy server
pays for one commit per round instead of one per move.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..cli.common import GAMES
from ..games.engine import TrickGame
from ..packs import GameKind
from ..players import PLAYER_KINDS
from ..words.people import seat_label
from .bots import FALLBACK_KIND, ComputerSeats
from .catalog import TableRequest
from .config import ServerConfig
from .learned import OfferedPolicy, load_offers
from .store import ENDED_KEPT, Store, StoredMove, StoredTable, StoreError
from .stored import Stored, note_commit, replay_moves
from .tables import Seat, ServerTable, TableRefused, token_digest

__all__ = ["TableManager", "replay_moves"]

_Entry = tuple[ServerTable, int, str | None, Callable[[], None] | None]
"""One change waiting for the commit: the table, its ``seq`` after the change, the move (``None``:
the table is stored whole) and what to call if the batch cannot be stored."""


TELL_AT_ONCE = 8
"""Tables a commit tells their clients (and sets going) in its own turn of the event loop at the
least; more while :data:`TELL_SLICE` lasts, the rest in the next turns (see
:meth:`TableManager.flush`).  The tables where a person waits for the answer to a move are always
told at once."""
TELL_SLICE = 0.002
"""Seconds of telling tables' clients that one turn of the event loop takes at most (past the
:data:`TELL_AT_ONCE` tables and the people's): a round of hundreds of computer moves is told in
slices, so that a person's move read meanwhile waits for a slice, not for the whole round."""


def _listed(words: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


ENDED_MESSAGE = (
    "this table's game is over and the server has since removed it to make room for new tables"
)
"""What a link to a table removed to make room is told (the table existed, and its game ended)."""


def _people_first(batch: Sequence[_Entry], tables: list[ServerTable]) -> list[ServerTable]:
    """``tables`` with those where a person's move waits for its answer first (a move sent from a
    connection: its entry says whom to tell if it cannot be stored), the others after, each
    group in its order: a beat's batch of a hundred computer moves does not stand between a
    person and the answer to their move, and nobody is told anything before the commit."""
    waiting = {t.id for t, _seq, _m, failed in batch if failed is not None}
    if not waiting or len(waiting) == len(tables):
        return tables
    return [t for t in tables if t.id in waiting] + [t for t in tables if t.id not in waiting]


class TableManager:
    """Every table of a server: creating, restoring, looking up; the limits."""

    def __init__(
        self,
        config: ServerConfig,
        store: Store,
        *,
        report: Callable[[str], None] = lambda _m: None,
        hinter: Callable[[TrickGame[Any, Any], int], dict[str, Any]] | None = None,
        offers: Mapping[str, OfferedPolicy] | None = None,
    ) -> None:
        """Tables kept in ``store``; ``report`` tells the operator about trouble; ``offers``: the
        trained policies offered for computer seats (default: ``config.learned``, loaded)."""
        self.config = config
        self.store = store
        self.report = report
        if hinter is None:
            from .hints import hint_for

            hinter = hint_for
        self.hinter = hinter
        self.tables: dict[str, ServerTable] = {}
        self.broken: dict[str, str] = {}
        self.ended: dict[str, None] = {}
        """Finished tables removed to make room (the newest ``ENDED_KEPT``), so their links can say so."""
        self.connections = 0
        self.closing = False
        cfg = config
        self.offers = load_offers(cfg.learned) if offers is None else offers
        self.bots = ComputerSeats(
            cfg.bot_threads, cfg.bot_pause, cfg.hint_threads, cfg.hint_queue, offers=self.offers
        )
        self._undo: dict[str, tuple[ServerTable, tuple[Any, ...]]] = {}
        self._batch: list[_Entry] = []
        self._later: dict[str, ServerTable] = {}
        """Tables stored whose clients are told in a later turn of the event loop (by id)."""
        self._order: deque[ServerTable] = deque()
        """:attr:`_later`'s tables in the order they are told (one told early stays here, skipped)."""
        self._telling = False
        """A turn of :meth:`_tell_some` is due on the event loop."""
        self._held = False
        """Computers' changes queued while tables are being told wait for the telling to end (one
        commit for them all, not one a slice); a person's change sends them at once."""
        self._person_queued = False
        """A person's change is in :attr:`_batch`."""

    # ------------------------------------------------------- group commit
    def begin(self, table: ServerTable) -> None:
        """A change to ``table`` starts: remember how to undo the batch for it.  A table whose
        stored state its clients have not been told yet is told now, so that they see every state
        in order."""
        if self._later and self._later.pop(table.id, None) is not None:
            table.broadcast()  # (set going by the change's own commit, at its new state)
        if table.id not in self._undo:
            self._undo[table.id] = (table, table.undo_point())

    def is_pending(self, table: ServerTable) -> bool:
        """Whether ``table`` has changes waiting for the commit, or stored changes its clients have
        not been told yet (see :meth:`_tell_later`): a client joining meanwhile gets the state then."""
        return table.id in self._undo or table.id in self._later

    def queue(self, table: ServerTable, move: str | None, failed: Callable[[], None] | None) -> None:
        """Queue ``table``'s change (``move``: just that action) for the end of this round."""
        if failed is not None:
            self._person_queued = True
        if not self._batch or (failed is not None and self._held):
            self._held = False
            self.bots.running().call_soon(self.flush)
        self._batch.append((table, table.seq, move, failed))

    def flush(self) -> None:
        """Commit the round's changes in one transaction, then let each changed table tell its clients."""
        if self._telling and self._batch and not self._person_queued and not self.closing:
            self._held = True  # (sent when the telling ends, or with the next person's change)
            return
        batch, undo = self._batch, self._undo
        self._batch, self._undo = [], {}
        self._held = self._person_queued = False
        if not batch:
            return
        tables, rows, moves = self._rows(batch)
        try:
            self.store.commit(rows, moves)
            for table in tables:
                table.fields_changed = False
        except Exception as exc:
            self._refused(exc, batch, undo, tables)
            return
        note_commit(batch, rows)
        ordered = _people_first(batch, tables)
        people = len({t.id for t, _s, _m, failed in batch if failed is not None})  # (told first)
        start = time.perf_counter()
        for i, table in enumerate(ordered):
            late = i >= TELL_AT_ONCE and time.perf_counter() - start > TELL_SLICE
            if i >= people and (self._later or late):
                self._tell_later(ordered[i:])  # (after those told later already, in turn)
                return
            table.broadcast()
            table.drive()

    def _tell_later(self, tables: Sequence[ServerTable]) -> None:
        """Tell ``tables``' clients in the next turns of the event loop, a :data:`TELL_SLICE` a
        turn: a round of hundreds of computer moves and deals does not hold the loop for tens of
        milliseconds at once, and a person's move read meanwhile is stored and answered between
        two slices of it (their states are stored already: only the telling waits)."""
        if not self._telling:
            self._telling = True
            self.bots.running().call_soon(self._tell_some)
        for table in tables:
            self._later[table.id] = table
            self._order.append(table)

    def _tell_some(self) -> None:
        """Tell waiting tables' clients for a :data:`TELL_SLICE`; come back for the rest."""
        later, order = self._later, self._order
        start = time.perf_counter()
        while order:
            table = order.popleft()
            if later.get(table.id) is not table:
                continue  # told early (a change of its own came first), or told twice over
            del later[table.id]
            if not table.stopped:
                table.broadcast()
                table.drive()
            if time.perf_counter() - start > TELL_SLICE:
                break
        if later:
            self.bots.running().call_soon(self._tell_some)
        else:
            order.clear()
            self._telling = False
            if self._held:
                self._held = False
                self.bots.running().call_soon(self.flush)

    def tell_all(self) -> None:
        """Tell every table still waiting for it (see :meth:`_tell_later`) now."""
        while self._later:
            table = self._order.popleft()
            if self._later.get(table.id) is table:
                del self._later[table.id]
                if not table.stopped:
                    table.broadcast()
                    table.drive()
        self._order.clear()

    def _rows(self, batch: Sequence[_Entry]) -> tuple[list[ServerTable], list[StoredTable], list[StoredMove]]:
        """The tables a batch changed, and what to store: whole tables and single moves."""
        whole = {t.id for t, _seq, move, _f in batch if move is None}
        tables = list({t.id: t for t, _seq, _m, _f in batch}.values())
        rows = [t.snapshot() for t in tables if t.id in whole]
        fields = {t.id: json.dumps(t.fields) for t in tables if t.id not in whole and t.fields_changed}
        moves = [
            StoredMove(t.id, seq, m, fields.get(t.id))
            for t, seq, m, _f in batch
            if m is not None and t.id not in whole
        ]
        return tables, rows, moves

    def _refused(
        self,
        exc: BaseException,
        batch: Sequence[_Entry],
        undo: dict[str, tuple[ServerTable, tuple[Any, ...]]],
        tables: Sequence[ServerTable],
    ) -> None:
        """A batch could not be stored: put its tables back, tell whoever sent a move of it."""
        self.report(f"could not store {len(batch)} change(s): {exc}")
        for table, point in undo.values():
            table.roll_back(point)
        for _t, _seq, _m, failed in batch:
            if failed is not None:
                failed()
        loop = asyncio.get_running_loop()
        for table in tables:
            table.broadcast()  # the state as it was (clients that joined meanwhile get one too)
            loop.call_later(1.0, table.drive)  # computer seats try again, not in a tight loop

    def restore(self) -> None:
        """Load every stored table; one that cannot be restored is reported by id and kept aside."""
        self.ended = dict.fromkeys(self.store.removed())
        for row in self.store.load_all():
            try:
                self.tables[row.id] = self._restore(row)
            except Exception as exc:
                reason = " ".join(str(exc).split()) or type(exc).__name__
                self.broken[row.id] = reason
                self.report(f"table {row.id} cannot be restored: {reason}")

    def _restore(self, row: StoredTable) -> ServerTable:
        data = json.loads(row.game)
        spec = next((s for s in GAMES.values() if s.kind.value == data.get("game")), None)
        if spec is None:
            raise ValueError(f"unknown game {data.get('game')!r}")
        game = spec.game_type.from_dict(data)  # replays and checks every step
        base = game.copy()  # (kept as the stored form's game)
        replay_moves(game, row.moves)  # the moves (and deals) made after the snapshot
        seats = [
            Seat(
                s["kind"], s["name"], s.get("player"), s.get("digest"), bool(s.get("away")),
                opened=bool(s.get("opened", True)),  # a table stored before seats kept it: as before
            )
            for s in json.loads(row.seats)
        ]
        if len(seats) != game.players:
            raise ValueError(f"{len(seats)} seats for a {game.players}-player game")
        fields = json.loads(row.table)
        if not isinstance(fields, dict):
            raise ValueError("the table's fields are not an object")
        table = ServerTable(self, row.id, spec, game, seats, int(row.seq), fields)
        table.stored = Stored(base, row.moves, table.seq)
        self._check_policies(table)
        return table

    def _check_policies(self, table: ServerTable) -> None:
        """Say so, to the operator and at the table, when restored computer seats play a trained
        policy this server does not offer (or that no longer fits): the fallback player takes those
        seats until the server is started with the policy again (the seats keep its name for that)."""
        unplayed: dict[str, list[int]] = {}
        for i, seat in enumerate(table.seats):
            name = seat.player
            if seat.kind != "computer" or name is None or name in PLAYER_KINDS:
                continue
            offered = self.offers.get(name)
            why = (
                f"the trained policy {name!r} is not offered by this server"
                f" (start it with --learned {name}=PATH)"
                if offered is None
                else offered.fits(table.game.kind, table.game.players)
            )
            if why is not None:
                unplayed.setdefault(why, []).append(i)
        for why, seats in unplayed.items():
            where = _listed([seat_label(i) for i in seats])
            them = "it" if len(seats) == 1 else "them"
            self.report(f"table {table.id}, {where}: {why}; the {FALLBACK_KIND} player plays {them}")
            who = _listed([table.seats[i].name for i in seats])
            text = f"{who}: {why.split(' (')[0]}, so the {FALLBACK_KIND} player plays {them}"
            if text not in table.fields.get("notices", []):
                table.notice(text)

    def start(self) -> None:
        """Set every restored table going (on the event loop): computer seats, deals, grace periods."""
        for table in self.tables.values():
            for i, seat in enumerate(table.seats):
                if seat.kind == "human" and not seat.away:
                    table.start_grace(i)
            table.drive()

    def create(self, request: TableRequest) -> tuple[ServerTable, list[str | None]]:
        """A new table and each seat's token (``None`` for a computer seat)."""
        if len(self.tables) >= self.config.max_tables:
            self._make_room()
        if len(self.tables) >= self.config.max_tables:
            raise TableRefused(
                "full", f"this server holds {self.config.max_tables} tables already; try later"
            )
        table_id = secrets.token_urlsafe(9)
        tokens: list[str | None] = []
        seats = []
        for s in request.seats:
            token = secrets.token_urlsafe(24) if s.kind == "human" else None
            tokens.append(token)
            seats.append(Seat(s.kind, s.name, s.player, token_digest(token) if token else None))
        game = request.spec.game_type(request.players, options=request.options, seed=secrets.randbits(64))
        fields: dict[str, Any] = {
            "turn_timer": request.turn_timer,
            "first_wait": request.first_wait,
            "notices": [],
            "last_hand": None,
            "game_over": None,
            "game_number": 1,
            "public": request.public,  # listed in the lobby; every other table is private
        }
        if request.spec.kind is GameKind.BUCKEM:
            fields["hands"] = request.hands or self.config.buckem_hands
        table = ServerTable(self, table_id, request.spec, game, seats, 0, fields)
        self.store.commit([table.snapshot()], [])  # seq 0: stored before anyone hears of it
        table.stored = Stored(game.copy(), (), 0)
        self.tables[table_id] = table
        for i, seat in enumerate(table.seats):  # as after a restart: a seat nobody opens is taken over
            if seat.kind == "human":
                table.start_grace(i)
        table.drive()
        return table, tokens

    def _make_room(self) -> None:
        """Forget the oldest finished table nobody is watching, if there is one."""
        for table_id, table in self.tables.items():  # oldest first
            if table.idle and not self.is_pending(table):
                try:
                    self.store.delete(table_id)  # its id is kept there: a restart still knows it ended
                except StoreError as exc:
                    self.report(f"could not remove the finished table {table_id}: {exc}")
                    return
                table.stop()
                del self.tables[table_id]
                self.ended[table_id] = None
                while len(self.ended) > ENDED_KEPT:
                    del self.ended[next(iter(self.ended))]
                self.report(f"table {table_id} was finished and unwatched: removed to make room")
                return

    def get(self, table_id: str) -> ServerTable:
        """The table ``table_id``; :class:`TableRefused` if there is none (or it could not be restored)."""
        table = self.tables.get(table_id)
        if table is None:
            if table_id in self.broken:
                raise TableRefused("unrestorable", f"table {table_id} could not be restored after a restart")
            if table_id in self.ended:
                raise TableRefused("unknown_table", ENDED_MESSAGE)
            raise TableRefused("unknown_table", "there is no such table")
        return table

    def close(self) -> None:
        """Store what is queued, stop every table and the thinking pool, then close the store."""
        self.closing = True  # (what is queued is stored now, not held for a telling under way)
        self.flush()
        self.tell_all()
        for table in self.tables.values():
            table.stop()
        self.bots.close()
        self.store.close()
