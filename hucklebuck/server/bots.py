"""Computer seats: clients of a table like any other.

A computer seat reads its seat's observation through the seat interface
(:class:`SeatClient`), so it knows what that seat may know and nothing more
(DEF #91), and its random choices are seeded under a key only the server holds.
It thinks in a bounded thread pool (never on the event loop, so one table's
thinking never holds up another's messages; hints have a pool of their own), waits the
configured pause so people can follow the play, and then sends an ordinary
``act`` message carrying the ``seq`` it decided on.  The table checks that
message exactly as it checks a person's.
"""

from __future__ import annotations

import asyncio
import hashlib
import math
import secrets
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from logging import getLogger
from typing import Any, Protocol

from ..actions import Action
from ..errors import HucklebuckError
from ..packs import GameKind
from ..players import PLAYER_KINDS, make_player
from ..players.standin import StandIn
from .learned import OfferedPolicy
from .moves import AgentAct, action_text
from .protocol import ClientMessage, ProtocolError

__all__ = ["ComputerSeats", "RunningLoop", "SeatClient", "choose_move", "choose_or_fall_back", "on_beat"]

_LOG = getLogger(__name__)
FALLBACK_KIND = "heuristic"
"""The player that moves for a computer seat whose own player fails to decide."""


class SeatClient(Protocol):
    """What a computer seat may use of its table: its own observation and the act message."""

    def observation(self) -> tuple[int, Any]:
        """The current ``seq`` and this seat's observation."""
        ...

    def send(self, message: ClientMessage) -> None:
        """Send a client message for this seat (checked like a person's)."""
        ...

    def notice(self, text: str) -> None:
        """Tell the table something about this seat's computer player (after the seat's name)."""
        ...


def choose_move(
    player_kind: str,
    game: GameKind,
    seed: int,
    observation: Any,
    stand_in: bool = False,
    offers: Mapping[str, OfferedPolicy] | None = None,
) -> Action:
    """One decision of a fresh computer player seeded for this position (runs in the pool); with
    ``stand_in`` it plays for an absent person (:class:`~hucklebuck.players.standin.StandIn`).
    ``player_kind`` is a built-in kind or the name of one of ``offers`` (a trained policy)."""
    offered = (offers or {}).get(player_kind)
    if offered is not None:
        player = offered.player(seed)
    elif player_kind == _SHARED_KIND:
        key = (make_player, game)  # (the maker as it is now: one a test puts in place makes its own)
        player = _SHARED.get(key)
        if player is None:
            player = _SHARED[key] = make_player(player_kind, game, seed=seed)
    else:
        player = make_player(player_kind, game, seed=seed)
    action: Action = (StandIn(player) if stand_in else player).choose(observation)
    return action


_SHARED_KIND = "heuristic"
"""The player kind whose players keep no state and use no random source (its choice follows from
the observation alone): one player per game serves every decision, in any thread."""
_SHARED: dict[tuple[Any, GameKind], Any] = {}


def choose_or_fall_back(
    player_kind: str,
    game: GameKind,
    seed: int,
    observation: Any,
    stand_in: bool = False,
    offers: Mapping[str, OfferedPolicy] | None = None,
) -> tuple[Action, str | None]:
    """One decision that never leaves the table waiting: ``player_kind``'s move, or, if that
    player fails, the :data:`FALLBACK_KIND` player's, or else the first legal move (with
    ``stand_in``, each of them as a stand-in for an absent person: no risk that cannot help them).

    Returns the move and, when a fallback made it, a sentence for the table saying so (the
    failure is also logged, with its traceback when it is not one of the library's errors).
    """
    try:
        return choose_move(player_kind, game, seed, observation, stand_in, offers), None
    except Exception as exc:  # any failure: the table must go on
        if isinstance(exc, HucklebuckError):
            why = str(exc)
            _LOG.warning("computer player %r failed to decide: %s", player_kind, why)
        else:
            why = "an internal error"
            _LOG.exception("computer player %r failed to decide", player_kind)
    try:
        if player_kind == FALLBACK_KIND:
            raise HucklebuckError("the fallback is the player that failed")
        action = choose_move(FALLBACK_KIND, game, seed, observation, stand_in)
        instead = f"the {FALLBACK_KIND} player's move"
    except Exception:
        action = observation.legal_actions[0]  # a legal move, whatever happens (never a moon)
        instead = "the first legal move"
    text = f"the {player_kind} computer player could not decide ({why}), so {instead} was played instead"
    return action, text


_CHUNK = 32
"""Decisions per pool job: enough to save hand-offs, few enough to keep the threads all busy."""
GATHER = 0.05
"""Seconds decisions are gathered before they go to the pool together (a quarter of the pause if
that is shorter, none without a pause): one thread hand-off for many decisions, and still well
within the pause people see before a computer's move."""


_Result = tuple[Action, str | None]


def on_beat(when: float, beat: float) -> float:
    """``when`` (event loop time) moved up to the next multiple of ``beat`` seconds: the server's
    paced timers (computer moves, their gathering, deals) fall due together, so one wake-up of
    the event loop serves many tables (and their changes share one commit).  The beat is
    :data:`GATHER`, or a quarter of a shorter pause (none without a pause)."""
    return max(when, math.ceil(when / beat) * beat) if beat > 0 else when


class RunningLoop:
    """The event loop running now, asked of asyncio once rather than at every change: Python
    3.11's ``asyncio.get_running_loop()`` makes a system call each time (``getpid``, to tell a
    forked process), a few of them a change, each costly at a quiet server whose every change
    finds the process cold.  Asked again once the loop kept is no longer running."""

    __slots__ = ("_loop",)

    def __init__(self) -> None:
        """None kept yet."""
        self._loop: asyncio.AbstractEventLoop | None = None

    def __call__(self) -> asyncio.AbstractEventLoop:
        """The running event loop (the caller is on it)."""
        loop = self._loop
        if loop is None or not loop.is_running():
            loop = self._loop = asyncio.get_running_loop()
        return loop


def _choose_all(
    jobs: list[tuple[str, GameKind, int, Any, bool]], offers: Mapping[str, OfferedPolicy]
) -> list[_Result | BaseException]:
    out: list[_Result | BaseException] = []
    for kind, game, seed, observation, stand_in in jobs:
        try:
            out.append(choose_or_fall_back(kind, game, seed, observation, stand_in, offers))
        except Exception as exc:  # no legal move at all: one bad decision does not sink the others
            out.append(exc)
    return out


class _Decision:
    """One computer move on its way: who asked, at which state and when, and what to think about."""

    __slots__ = ("client", "done", "job", "seq", "start")

    def __init__(
        self,
        client: SeatClient,
        seq: int,
        start: float,
        job: tuple[str, GameKind, int, Any, bool],
        done: Callable[[], None] | None,
    ) -> None:
        self.client, self.seq, self.start, self.done = client, seq, start, done
        self.job: tuple[str, GameKind, int, Any, bool] | None = job
        """What the pool thinks about (the observation): let go once it is handed to the pool."""


class ComputerSeats:
    """The thinking pool shared by every table of a server.

    No task waits per computer seat: decisions are gathered, thought out in
    the pool a batch at a time, and the batch's moves are then sent together by
    one timer of the event loop once the last of their pauses is over.
    """

    def __init__(
        self,
        threads: int,
        pause: float,
        hint_threads: int = 1,
        hint_queue: int = 8,
        offers: Mapping[str, OfferedPolicy] | None = None,
    ) -> None:
        """A pool of ``threads`` threads; each move is sent ``pause`` seconds or more after its turn began.

        ``offers``: the trained policies the server offers, by name; a seat whose player is neither
        a built-in kind nor one of them (its policy is not offered since a restart) is played by
        the :data:`FALLBACK_KIND` player (the table was told when it was restored).

        Hints (:meth:`run`) have a pool of their own, ``hint_threads`` threads with at most
        ``hint_queue`` hints waiting: so a table's computer seats never wait behind
        anyone's hints, and a flood of hints is refused rather than queued."""
        self._pool = ThreadPoolExecutor(max_workers=max(1, threads), thread_name_prefix="hucklebuck-bot")
        self._hint_pool = ThreadPoolExecutor(
            max_workers=max(1, hint_threads), thread_name_prefix="hucklebuck-hint"
        )
        self.hint_limit = max(1, hint_threads) + max(0, hint_queue)
        self.hints = 0
        """Hints being worked out or waiting for a thread."""
        self.pause = pause
        self.offers: Mapping[str, OfferedPolicy] = dict(offers or {})
        self._queue: list[_Decision] = []
        self.running = RunningLoop()
        """The event loop the seats' callers run on (asked for once)."""
        self._closed = False
        self._secret = secrets.token_bytes(32)
        """The key of every computer seat's seed: kept by the server, never sent, new each start,
        so no player can replay a computer's decision for each hand it might hold (DEF #91)."""

    def decide(
        self,
        client: SeatClient,
        player_kind: str,
        game: GameKind,
        seed_text: str,
        done: Callable[[], None] | None = None,
        stand_in: bool = False,
    ) -> None:
        """Start one decision for ``client``'s seat (the caller is on the event loop); ``done`` is
        called once the move is sent or dropped; ``stand_in``: the seat is an absent person's."""
        loop = self.running()
        seq, observation = client.observation()
        seed = _seed(seed_text, self._secret)
        if player_kind not in PLAYER_KINDS and player_kind not in self.offers:
            player_kind = FALLBACK_KIND  # a trained policy this server does not offer (any more)
        if not self._queue:
            gather = min(GATHER, self.pause / 4)
            if gather > 0:
                loop.call_at(on_beat(loop.time() + gather, gather), self._submit)
            else:
                loop.call_soon(self._submit)
        job = (player_kind, game, seed, observation, stand_in)
        self._queue.append(_Decision(client, seq, loop.time(), job, done))

    def _submit(self) -> None:
        """Send the gathered decisions to the pool (one thread hand-off per chunk, not one each)."""
        batch, self._queue = self._queue, []
        if self._closed:
            for d in batch:
                _finish(d)
            return
        loop = asyncio.get_running_loop()
        for start in range(0, len(batch), _CHUNK):
            part = batch[start : start + _CHUNK]
            jobs = [d.job for d in part if d.job is not None]
            for d in part:  # (the pool's list holds them until decided: the observations die then,
                d.job = None  # young, rather than after the pause, which the cycle collector notices)
            job = loop.run_in_executor(self._pool, _choose_all, jobs, self.offers)
            job.add_done_callback(lambda j, part=part: self._decided(j, part))  # type: ignore[misc]

    def _decided(self, job: asyncio.Future[list[_Result | BaseException]], part: list[_Decision]) -> None:
        results: list[_Result | BaseException]
        if job.cancelled():
            results = [asyncio.CancelledError()] * len(part)
        elif job.exception() is not None:
            results = [job.exception() or Exception()] * len(part)
        else:
            results = job.result()
        loop = asyncio.get_running_loop()
        ready: list[tuple[_Decision, _Result]] = []
        for d, result in zip(part, results, strict=True):
            if isinstance(result, BaseException) or self._closed:
                _finish(d)  # no move: the table asks again at its next change
            else:
                ready.append((d, result))
        if not ready:
            return
        # one timer for the batch, once the last of its pauses is over: its decisions began within
        # the gathering time of each other, so none waits more than that beyond its pause, and
        # their moves land together (one commit, one round of broadcasts)
        at = on_beat(max(d.start for d, _r in ready) + self.pause, min(GATHER, self.pause / 4))
        if at > loop.time():
            loop.call_at(at, self._send_all, ready)
        else:
            self._send_all(ready)

    def _send_all(self, ready: list[tuple[_Decision, _Result]]) -> None:
        for d, result in ready:
            try:
                self._send(d, result)
            except Exception:  # (as a timer of its own would: reported, and the others still go)
                _LOG.exception("a computer seat's move could not be sent")

    def _send(self, d: _Decision, result: _Result) -> None:
        action, note = result
        try:
            if not self._closed:
                if note is not None:
                    d.client.notice(note)
                d.client.send(AgentAct("act", d.seq, action_text(action), action))
        finally:
            _finish(d)

    def run(self, fn: Callable[..., Any], *args: Any) -> asyncio.Future[Any]:
        """Run ``fn(*args)`` in the hints' own pool; :class:`ProtocolError` (``busy``) when as many
        hints as it takes are being worked out or waiting already."""
        if self.hints >= self.hint_limit:
            raise ProtocolError("busy", "the server is working out other hints; ask again in a moment")
        self.hints += 1
        future = asyncio.get_running_loop().run_in_executor(self._hint_pool, fn, *args)
        future.add_done_callback(self._hint_done)
        return future

    def _hint_done(self, _future: asyncio.Future[Any]) -> None:
        self.hints -= 1

    def close(self) -> None:
        """Stop thinking: pending decisions are dropped (they are recomputed after a restart)."""
        self._closed = True
        self._pool.shutdown(wait=False, cancel_futures=True)
        self._hint_pool.shutdown(wait=False, cancel_futures=True)


def _seed(text: str, key: bytes) -> int:
    """A 63-bit seed that follows from ``text`` under the secret ``key`` (a keyed hash: nobody
    without the key can tell the seed from the position, which is all a player knows)."""
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8, key=key).digest(), "big") >> 1


def _finish(d: _Decision) -> None:
    if d.done is not None:
        d.done()
