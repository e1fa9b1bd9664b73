# Type stub of the compiled one-call functions (built from csrc/py/hb_calls*.c).
# Each returns None when the call is not a plain, valid call on the C core.
from array import array
from collections.abc import Callable
from contextvars import ContextVar
from typing import Any, TypeVar

from .cards import Card, CardSet, Suit
from .evaluate import TrickDistribution
from .packs import GameKind

T = TypeVar("T")

VERSION: int

def trick_winner(game: object, trump: object, cards: object, /) -> int | None: ...
def legal_plays(game: object, trump: object, hand: object, trick: object, /) -> CardSet | None: ...
def parse_cards(text: object, /) -> tuple[Card, ...] | None: ...
def pick(mask: object, items: tuple[T, ...], /) -> list[T] | None: ...
def shuffle(getrandbits: Callable[[int], int], cards: list[Any], /) -> bool | None: ...
def play(game: object, action: object, /) -> bool | None: ...
def play_id(game: object, i: object, /) -> bool | None: ...
def hand_masks(hands: object, /) -> list[int] | None: ...
def link_play(
    phase: object, play_type: type, trick_type: type, plays: tuple[tuple[Any, ...], ...], /
) -> None: ...
def solve(game: object, trump: object, hands: object, leader: object, seat: object, /) -> int | None: ...
def evaluate(
    game: object,
    trump: object,
    hand: object,
    players: object,
    seat: object,
    leader: object,
    seen: object,
    in_play: object,
    samples: object,
    seed: object,
    method: object,
    workers: object,
    short_handed: object,
    executor: object,
    chunk_size: object,
    progress: object,
    node_limit: object,
    /,
) -> TrickDistribution | None: ...
def link_evaluate(result_type: type[TrickDistribution], packs: tuple[int, ...], /) -> None: ...
def link_core(override: ContextVar[Any], core_globals: dict[str, Any], c_core: object, /) -> None: ...
def link_cards(
    card: type[Card], card_set: type[CardSet], cards: tuple[Card, ...], suits: tuple[Suit, ...], /
) -> None: ...
def link_games(members: tuple[GameKind, ...], names: tuple[str, ...], /) -> None: ...

class VecCalls:
    """A C lane's sample_legal and step, each in one C call."""

    def sample(self, seed: object, /) -> array[int] | None: ...
    def step(self, actions: object, /) -> bool | None: ...

def vec_calls(
    sample: int,
    step: int,
    pool: int,
    cfg: int,
    envs: int,
    env_bytes: int,
    n: int,
    io: int,
    bad: int,
    bad_id: int,
    zeros: array[int],
    /,
) -> VecCalls: ...
