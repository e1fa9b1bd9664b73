"""The checked Python path of :func:`hucklebuck.evaluate.evaluate_hand` (import it from there).

:func:`evaluate_counts` checks every argument the same way on both cores, makes
the sample plan (:mod:`hucklebuck.parallel`), runs one core call per chunk and
merges the chunks' counts.  On the C core a plain playout evaluation skips all
of it: the compiled ``evaluate`` of :mod:`hucklebuck._fast` gives the same
answer from the arguments in one call, and anything else comes here.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from concurrent.futures import Executor
from functools import partial
from typing import Final, Literal

from . import _validate as v
from ._core import get_core
from .cards import Card, CardSet, Suit
from .errors import CardError, OptionsError
from .packs import GameKind, pack, player_range
from .parallel import Chunk, Progress, core_named, merge_counts, plan, run_chunks

__all__ = ["MAX_NODES", "Method", "cards_of", "check_workers", "evaluate_counts", "mc_chunk", "pack_table"]

Method = Literal["playout", "solver"]
#: Largest node budget (``node_limit``) a solve accepts.
MAX_NODES: Final = (1 << 63) - 1


def cards_of(hand: Iterable[Card] | CardSet, what: str) -> CardSet:
    """``hand`` as a :class:`CardSet`; a bad card is a :class:`CardError` naming ``what``."""
    try:
        return hand if isinstance(hand, CardSet) else CardSet(hand)
    except CardError as exc:
        raise CardError(f"{what}: {exc}") from None


def check_workers(workers: int) -> None:
    """``workers`` is a positive int, else :class:`OptionsError`."""
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise OptionsError(f"workers must be a positive integer, not {workers!r}")


# The chunk task: module-level (picklable for process pools and clusters); it resolves its
# core by name in the process it runs in.
def mc_chunk(
    core_name: str,
    game: int,
    trump: int,
    known: list[int],
    sizes: list[int],
    pool: int,
    leader: int,
    seat: int,
    mode: int,
    node_limit: int,
    chunk: Chunk,
) -> list[int]:
    """One chunk's trick histogram: one ``mc_eval`` call on the named core."""
    core = core_named(core_name)
    return core.mc_eval(
        game, trump, known, sizes, pool, leader, seat, chunk.seed, chunk.size, mode, node_limit
    )


@v.checked(
    v.evaluation_fits,
    game=v.GAME,
    trump=v.SUIT,
    hand=v.HAND,
    players=v.players_of(),
    seat=v.seat_of(),
    leader=v.seat_of(),
    seen=v.HAND,
    in_play=v.optional(v.seats_of()),
    samples=v.SAMPLES,
    seed=v.SEED,
    method=v.one_of("playout", "solver"),
    workers=v.WORKERS,
    short_handed=v.BOOL,
    node_limit=v.optional(v.int_in(1, MAX_NODES)),
)
def evaluate_counts(
    game: GameKind | str,
    trump: Suit | str,
    hand: Iterable[Card] | CardSet,
    *,
    players: int,
    seat: int = 0,
    leader: int = 0,
    seen: Iterable[Card] = (),
    in_play: Sequence[int] | None = None,
    samples: int = 10_000,
    seed: int = 0,
    method: Method = "playout",
    workers: int = 1,
    short_handed: bool = False,
    executor: Executor | None = None,
    chunk_size: int | None = None,
    progress: Progress | None = None,
    node_limit: int | None = None,
) -> tuple[tuple[int, ...], int]:
    """``(counts, samples)`` of :func:`~hucklebuck.evaluate.evaluate_hand`, every argument checked."""
    check_workers(workers)
    kind = GameKind.coerce(game)
    own = cards_of(hand, "hand")
    seen_set = cards_of(seen, "seen")
    if own & seen_set:
        raise CardError("a card is both in the hand and among the seen cards")
    full = pack(kind, players, short_handed=short_handed) if kind is GameKind.BUCKEM else pack(kind, players)
    if not own <= full:
        raise CardError(f"the hand holds cards outside the {kind.title} pack for {players} players")
    seats = list(in_play) if in_play is not None else list(range(players))
    sizes = [len(own) if s in seats else 0 for s in range(players)]
    known = [own.mask if s == seat else 0 for s in range(players)]
    pool = (full - own - seen_set).mask
    mode = {"playout": 0, "solver": 1}.get(method)
    if mode is None:
        raise OptionsError(f"method must be 'playout' or 'solver', not {method!r}")
    chunks = plan(samples, seed=seed, chunk_size=chunk_size, workers=workers)
    core = get_core().name
    task = partial(
        mc_chunk, core, kind.core_id, int(trump), known, sizes, pool, leader, seat, mode, node_limit or 0
    )
    hists = run_chunks(task, chunks, executor=executor, workers=workers, progress=progress)
    return tuple(merge_counts(hists, chunks, width=6, units=sum)), samples


def pack_table() -> tuple[int, ...]:
    """Every pack mask an evaluation can use, by core id, player count 0..8 and
    ``short_handed`` (0 where the game has no such count), for the compiled ``evaluate``."""
    masks: list[int] = []
    for kind in sorted(GameKind, key=lambda k: k.core_id):
        lo, hi = player_range(kind)
        for n in range(9):
            for short in (False, True):
                if not lo <= n <= hi:
                    masks.append(0)
                elif kind is GameKind.BUCKEM:
                    masks.append(pack(kind, n, short_handed=short).mask)
                else:
                    masks.append(pack(kind, n).mask)
    return tuple(masks)
