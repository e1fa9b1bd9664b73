"""OpenSpiel games for the three games (the ``openspiel`` extra).

Importing this module registers ``python_hucklebuck``, ``python_buckem`` and
``python_deerpark`` with :func:`pyspiel.register_game`, so
``pyspiel.load_game("python_deerpark(players=4,hands=2)")`` works and every
OpenSpiel algorithm written against the Python game API can play them.

Parameters
    ``players`` (default 4; Buck 'Em 5), ``hands`` (default 0: whole games, see
    Episodes; else 1 to :data:`MAX_HANDS`), ``seed`` (0), ``reward`` (``"progress"``, the default;
    ``"hand"``; ``"game"``) and every variant option of the game under
    its own name, as in the game's options class.  An option whose value may be
    "none" (Buck 'Em's ``pot_limit``) takes 0 for none.  OpenSpiel carries
    integer parameters in 32 bits, so every integer parameter must lie in
    ``-2**31 .. 2**31 - 1``.  A bad parameter raises the library's error
    (:class:`~hucklebuck.errors.OptionsError`, or
    :class:`~hucklebuck.errors.PlayerCountError` for ``players``) before
    OpenSpiel sees it; a parameter string OpenSpiel cannot read (a text where a
    number belongs, an unknown name) is refused by OpenSpiel itself.

Episodes
    By default (``hands=0``) an episode is a whole Hucklebuck or Deer Park
    game, so its returns (by default the game's result) teach winning; one
    still going after :data:`WHOLE_GAME_HANDS` hands (OpenSpiel needs a bound)
    ends there, paid its progress.  Buck 'Em: 10 rounds.  ``hands=K`` makes an
    episode K hands (fewer if the game ends first) and warns
    (:class:`~hucklebuck.vector.RewardWarning`).  The information-state tensor
    keeps every hand, so for whole games it is long: fixed-size learners use
    the observation tensor (see :doc:`/agents`).

Chance
    Each hand is dealt by chance nodes, one card at a time: the outcomes of a
    chance node are the cards of the game's pack not yet dealt, all equally
    likely, and the order they come out is the shuffled pack (hands one card at
    a time from eldest, then the stock, upcard or kitty exactly as
    :mod:`hucklebuck.games` lays a shuffled pack out).  In Buck 'Em with
    ``short_handed_trump=removed_card`` one more chance node turns the upcard
    from the removed cards.  Re-forming an exhausted stock (Hucklebuck DEF #18,
    Buck 'Em DEF #49) shuffles with the game's own random source seeded by the
    ``seed`` parameter: deterministic given the history, not a chance node.

Actions
    The integer action ids of :mod:`hucklebuck.games.ids` (chance outcomes are
    card numbers).  An action the rules forbid, a chance outcome that is not
    among :meth:`~SpielState.chance_outcomes`, and any action once the episode
    is over raise :class:`~hucklebuck.errors.IllegalAction` and change nothing
    (``rewards()`` included).  A non-integer is refused by OpenSpiel's own
    binding (a ``TypeError``), and ``-1`` (its ``kInvalidAction``) by OpenSpiel
    itself (``pyspiel.SpielError``), before the library sees them.

Observations
    The observation tensor is the game's own observation tensor
    (:mod:`hucklebuck.games.tensors`); the observation string names the seat's
    hand and the public state.  The information-state string (perfect recall)
    adds everything the seat has seen this episode: its dealt hands and each
    hand's actions as the seat saw them (others' discards hidden).  The
    information-state tensor is the observation tensor followed by, for each
    hand, the seat's dealt cards and one slot per action: the actor and the
    id, or a 'hidden' flag for another seat's private action.

Rewards
    ``reward="progress"`` (the default, as in the PettingZoo environments and
    the batched lane): when a hand is scored each seat is paid its move toward
    its goal (Hucklebuck: the target; Deer Park Euchre: the nearer of 0 and 50)
    over the distance every seat starts at, and the hand that ends the game
    pays 1.0 to each winner less what the earlier hands paid, so the returns of
    an episode that ends the game are its result (Buck 'Em: each round's
    chips).  ``reward="hand"``: each seat's score change in the hand
    (Hucklebuck points, Buck 'Em chips won from the pot less the ante and any
    burn payment, the fall of a Deer Park Euchre score, which counts down from
    20).  ``reward="game"``: 0 until the episode ends, then the game's
    ``returns()`` (refused for a Deer Park Euchre episode of fewer than 4
    hands, which can never end a game).  ``rewards()`` shows a hand's rewards from the
    action that scores it until the next decision; ``returns()`` is their sum
    over the episode.  The game type declares terminal rewards (the sum is final
    only at the end of the episode), which OpenSpiel's MCTS requires.

Serialisation uses OpenSpiel's default (the action history, replayed).  A
``clone()`` costs one engine copy of the game and a few list copies (a state
keeps everything in one attribute, which OpenSpiel deep-copies).
Nothing here is imported by ``import hucklebuck``.
"""

from __future__ import annotations

import dataclasses
from typing import Any

try:
    import numpy  # noqa: F401  (the extra's other half; the state's parts use it)
    import pyspiel  # type: ignore[import-not-found]
except ImportError as _exc:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        f"hucklebuck.openspiel needs the 'openspiel' extra ({_exc.name} is missing): "
        "pip install 'hucklebuck[openspiel]'"
    ) from _exc

from ._spiel_ismcts import ismcts_bot, resampler
from ._spiel_params import _option_defaults, _options_from_params, _utility_bounds
from ._spiel_parts import Episode, Observer, deal_of, hand_view
from .cards import Card, CardSet
from .errors import IllegalAction, OptionsError
from .games import BuckEmGame, DeerParkGame, HucklebuckGame, Phase
from .games.buckem import ShortHandedTrump
from .games.engine import TrickGame
from .games.ids import NUM_ACTIONS
from .packs import GameKind, player_range
from .vector._rewards import (
    BUCKEM_HANDS,
    DEFAULT_REWARD,
    RewardMode,
    check_reward,
    progress_rewards,
    warn_if_not_winning,
)

__all__ = [
    "GAME_NAMES",
    "MAX_HANDS",
    "WHOLE_GAME_HANDS",
    "BuckEmSpielGame",
    "DeerParkSpielGame",
    "HucklebuckSpielGame",
    "SpielState",
    "TrickSpielGame",
    "ismcts_bot",
    "load",
    "resampler",
]

MAX_HANDS = 10_000
"""The most hands an episode may hold (``hands``)."""
WHOLE_GAME_HANDS = 100
"""``hands=0`` (the default) plays whole games, cut at this many hands (OpenSpiel needs a bound)."""
_INT32 = (-(1 << 31), (1 << 31) - 1)
GAME_NAMES = {
    GameKind.HUCKLEBUCK: "python_hucklebuck",
    GameKind.BUCKEM: "python_buckem",
    GameKind.DEERPARK: "python_deerpark",
}
"""OpenSpiel short name of each game."""

_CLASSES: dict[GameKind, type[TrickGame[Any, Any]]] = {
    GameKind.HUCKLEBUCK: HucklebuckGame,
    GameKind.BUCKEM: BuckEmGame,
    GameKind.DEERPARK: DeerParkGame,
}
_FULL = CardSet(Card.from_index(i) for i in range(52))
_DEFAULT_PLAYERS = {GameKind.HUCKLEBUCK: 4, GameKind.BUCKEM: 5, GameKind.DEERPARK: 4}


def _game_type(kind: GameKind) -> Any:
    low, high = player_range(kind)
    if kind is GameKind.DEERPARK:
        high = 8  # with eight_player_turnup=dealer_last_card
    spec = {
        "players": _DEFAULT_PLAYERS[kind],
        "hands": 0,
        "seed": 0,
        "reward": DEFAULT_REWARD,
        **_option_defaults(kind),
    }
    return pyspiel.GameType(
        short_name=GAME_NAMES[kind],
        long_name=f"Python {kind.title} (hucklebuck)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=high,
        min_num_players=low,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=spec,
    )


def _check_params(kind: GameKind, full: dict[str, Any]) -> None:
    """The library's own checks of the parameters OpenSpiel cannot make (before it sees them)."""
    for name, value in full.items():
        if isinstance(value, int) and not isinstance(value, bool) and not _INT32[0] <= value <= _INT32[1]:
            raise OptionsError(f"{name} must fit in 32 bits for OpenSpiel (-2**31 .. 2**31-1), not {value}")
    for name in ("players", "hands", "seed"):
        value = full[name]
        if isinstance(value, bool) or not isinstance(value, int):
            raise OptionsError(f"{name} must be an integer, not {value!r}")
    if not 0 <= full["hands"] <= MAX_HANDS:
        raise OptionsError(
            f"hands must be an integer from 1 to {MAX_HANDS}, or 0 for whole games, not {full['hands']}"
        )


@dataclasses.dataclass(frozen=True)
class _Config:
    """What a state needs to know about its game (immutable; shared by clones)."""

    kind: GameKind
    players: int
    hands: int
    seed: int
    options: tuple[tuple[str, Any], ...]
    tensor_size: int
    pack: CardSet
    removed: tuple[int, ...]
    pack_ids: tuple[int, ...]
    """The pack's card numbers, ascending (the outcomes of a hand's first chance node)."""
    reward: RewardMode
    whole: bool = False
    """``hands=0``: whole games (``hands`` is then the bound, :data:`WHOLE_GAME_HANDS`)."""

    @property
    def slots(self) -> int:
        """Most player actions in one hand (a bound), the history slots per hand."""
        return 12 * self.players + 8

    @property
    def slot_width(self) -> int:
        """One history slot: the actor (relative seat), the action id, or 'hidden'."""
        return self.players + NUM_ACTIONS[self.kind] + 1

    @property
    def info_size(self) -> int:
        """Length of the information-state tensor."""
        return self.tensor_size + self.hands * (52 + self.slots * self.slot_width)

    def private(self, action: int) -> bool:
        """Whether other seats never see which action this id was (only that it was taken)."""
        if self.kind is GameKind.HUCKLEBUCK:
            return 68 <= action <= 99  # the exchange's discards
        if self.kind is GameKind.DEERPARK:
            return 52 <= action <= 103  # the dealer's discard
        if 55 <= action <= 86:  # Buck 'Em draws
            return True
        return 52 <= action <= 54 and bool(self.option_dict["simultaneous_declare"])

    def __deepcopy__(self, memo: dict[int, Any]) -> _Config:
        return self

    @property
    def option_dict(self) -> dict[str, Any]:
        """The game's options by name."""
        return dict(self.options)


_CONFIGS: dict[tuple[GameKind, str], _Config] = {}


def _config(kind: GameKind, params: dict[str, Any]) -> _Config:
    """The configuration for ``params`` (checked by building a game once)."""
    full = {
        "players": _DEFAULT_PLAYERS[kind],
        "hands": 0,
        "seed": 0,
        "reward": DEFAULT_REWARD,
        **_option_defaults(kind),
    }
    full.update(params)
    key = (kind, repr(sorted(full.items())))
    cfg = _CONFIGS.get(key)
    if cfg is not None:
        return cfg
    _check_params(kind, full)
    players, hands, seed = full["players"], full["hands"], full["seed"]
    whole = hands == 0
    if whole:
        hands = BUCKEM_HANDS if kind is GameKind.BUCKEM else WHOLE_GAME_HANDS
    options = _options_from_params(kind, full)
    probe = _CLASSES[kind](players, options=options, seed=seed)  # type: ignore[call-arg]  # checks everything
    the_pack: CardSet = probe._pack  # the game's pack for these players and options
    removed_mode = (
        kind is GameKind.BUCKEM and probe.options.short_handed_trump is ShortHandedTrump.REMOVED_CARD
    )
    removed = tuple(sorted(c.index for c in _FULL - the_pack)) if removed_mode else ()
    cfg = _Config(
        kind,
        players,
        hands,
        seed,
        tuple(sorted(options.items())),
        probe.observation_tensor_shape()[0],
        the_pack,
        removed,
        tuple(sorted(c.index for c in the_pack)),
        check_reward(full["reward"], kind, hands),
        whole,
    )
    warn_if_not_winning(kind, None if whole or kind is GameKind.BUCKEM else hands, cfg.reward, stacklevel=2)
    _CONFIGS[key] = cfg
    return cfg


class TrickSpielGame(pyspiel.Game):  # type: ignore[misc]
    """An OpenSpiel game for one of the three games (see the module docs); the
    subclasses fix the game."""

    kind: GameKind = GameKind.HUCKLEBUCK

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        """Build the game from OpenSpiel parameters."""
        kind = self.kind
        cfg = _config(kind, dict(params or {}))
        chance_per_hand = len(cfg.pack) + (1 if cfg.removed else 0)
        low, high = _utility_bounds(kind, cfg.players, cfg.hands, cfg.option_dict, cfg.reward)
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS[kind],
            max_chance_outcomes=52,
            num_players=cfg.players,
            min_utility=low,
            max_utility=high,
            max_game_length=cfg.hands * (12 * cfg.players + 8 + chance_per_hand),
        )
        full = {
            "players": cfg.players,
            "hands": 0 if cfg.whole else cfg.hands,
            "seed": cfg.seed,
            "reward": cfg.reward,
            **_option_defaults(kind),
        }
        full.update(params or {})
        super().__init__(_game_type(kind), info, full)
        self._cfg = cfg

    @property
    def config(self) -> _Config:
        """This game's configuration (rebuilt from the parameters after unpickling)."""
        cfg: _Config | None = self.__dict__.get("_cfg")
        if cfg is None:
            cfg = self._cfg = _config(self.kind, dict(self.get_parameters()))
        return cfg

    def new_initial_state(self) -> SpielState:
        """The start of an episode: the first chance node of the first deal."""
        return SpielState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        """Observation (default) or, with perfect recall, information-state observer."""
        perfect = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return Observer(self.config, perfect, params)


class SpielState(pyspiel.State):  # type: ignore[misc]
    """A state of an episode: dealing (chance) or the game's own state."""

    def __init__(self, game: TrickSpielGame) -> None:
        """A fresh episode of ``game``."""
        super().__init__(game)
        self._ep = Episode(game.config)  # everything a clone copies, in one attribute

    @property
    def _spec(self) -> _Config:
        return self._ep.spec

    @property
    def _game(self) -> TrickGame[Any, Any] | None:
        return self._ep.game

    @_game.setter
    def _game(self, game: TrickGame[Any, Any] | None) -> None:
        self._ep.game = game

    @property
    def _hands_done(self) -> int:
        return self._ep.hands_done

    @_hands_done.setter
    def _hands_done(self, n: int) -> None:
        self._ep.hands_done = n

    @property
    def _over(self) -> bool:
        return self._ep.over

    @_over.setter
    def _over(self, over: bool) -> None:
        self._ep.over = over

    # ------------------------------------------------------------ structure
    def current_player(self) -> int:
        """The seat to act, or CHANCE while dealing, or TERMINAL."""
        if self._over:
            return int(pyspiel.PlayerId.TERMINAL)
        if self._game is None or self._game.phase is Phase.HAND_OVER:
            return int(pyspiel.PlayerId.CHANCE)
        seat = self._game.to_act
        assert seat is not None
        return seat

    def _legal_actions(self, player: int) -> list[int]:
        assert self._game is not None
        return self._game.legal_action_ids()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The cards not yet dealt (or the removed cards for the upcard), equally likely."""
        pool = self._ep.remaining if self._ep.remaining else self._spec.removed
        p = 1.0 / len(pool)
        return [(c, p) for c in pool]

    def _apply_action(self, action: int) -> None:
        if self._over:
            raise IllegalAction(f"action {action}: the episode is over (start a new one for more hands)")
        if self.is_chance_node():  # a hand's rewards stay visible until the next decision
            pool = self._ep.remaining if self._ep.remaining else self._spec.removed
            if action not in pool:
                raise IllegalAction(f"chance action {action} is not one of the cards still to deal")
            self._deal_card(int(action))
            return
        game = self._game
        assert game is not None
        actor = game.to_act
        game.apply_id(int(action))  # raises IllegalAction, the state unchanged: validate, then mutate
        self._ep.last = [0.0] * self._spec.players
        assert actor is not None
        hand = self._ep.log[-1]
        assert isinstance(hand, list)  # the hand under way
        hand.append((actor, int(action)))
        if game.phase in (Phase.HAND_OVER, Phase.GAME_OVER):
            self._hand_scored()

    def _deal_card(self, card: int) -> None:
        if self._ep.remaining:
            self._ep.remaining.remove(card)
            self._ep.dealing.append(card)
            if self._ep.remaining or self._spec.removed:
                return
            self._start_hand(None)
        else:
            self._start_hand(card)

    def _start_hand(self, removed_upcard: int | None) -> None:
        spec = self._spec
        cards = [Card.from_index(i) for i in self._ep.dealing]
        game = self._game
        deal = deal_of(spec, cards, game, removed_upcard)
        if game is None:
            self._game = _CLASSES[spec.kind](
                spec.players,
                options=spec.option_dict,
                seed=spec.seed,
                deal=deal,  # type: ignore[call-arg]
            )
        else:
            game.next_hand(deal)
        self._ep.dealt.append(tuple(tuple(c.index for c in h) for h in deal.hands))
        log = self._ep.log
        if log:
            log[-1] = tuple(log[-1])  # finished: shared by clones from now on
        log.append([])
        self._ep.dealing = []
        self._ep.remaining = list(spec.pack_ids)

    def _hand_scored(self) -> None:
        game = self._game
        assert game is not None
        spec = self._spec
        self._hands_done += 1
        ends = game.is_over or self._hands_done >= spec.hands
        if spec.reward == "progress":
            self._ep.last = progress_rewards(spec.kind, game)
        elif spec.reward == "hand":
            sign = -1.0 if spec.kind is GameKind.DEERPARK else 1.0
            self._ep.last = [sign * d + 0.0 for d in game.hand_returns()]
        elif ends:  # "game": the game's returns (Buck 'Em: the session's chips), at the end
            self._ep.last = [r + 0.0 for r in game.returns()]
        self._ep.totals = [t + r for t, r in zip(self._ep.totals, self._ep.last, strict=True)]
        self._ep.seen = tuple(past + (hand_view(game, s),) for s, past in enumerate(self._ep.seen))
        if ends:
            self._over = True

    # -------------------------------------------------------------- results
    def is_terminal(self) -> bool:
        """Whether the episode is over."""
        return self._over

    def rewards(self) -> list[float]:
        """Each seat's reward for the last transition (non-zero when a hand was scored)."""
        return list(self._ep.last)

    def returns(self) -> list[float]:
        """Each seat's total reward so far this episode."""
        return list(self._ep.totals)

    # -------------------------------------------------------------- strings
    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {Card.from_index(int(action)).code}"
        game = self._game
        if game is not None and game.to_act == player:
            try:
                return str(game.action_from_id(int(action)))
            except Exception:  # an id that means nothing here
                pass
        return f"{player} id {int(action)}"

    def __str__(self) -> str:
        """The public and private state, for debugging and serialisation checks."""
        game = self._game
        head = f"hands done {self._hands_done}; dealt {len(self._ep.dealing)}"
        if game is None:
            return head
        hands = " | ".join(" ".join(c.code for c in game.hand(s)) for s in range(self._spec.players))
        trick = " ".join(c.code for c in game.current_trick)
        return (
            f"{head}; hand {game.hand_number}; phase {game.phase.value}; to act {game.to_act}; "
            f"trump {game.trump}; trick [{trick}]; hands [{hands}]; standings {list(game.standings)}"
        )


class HucklebuckSpielGame(TrickSpielGame):
    """OpenSpiel Hucklebuck (``python_hucklebuck``)."""

    kind = GameKind.HUCKLEBUCK


class BuckEmSpielGame(TrickSpielGame):
    """OpenSpiel Buck 'Em (``python_buckem``)."""

    kind = GameKind.BUCKEM


class DeerParkSpielGame(TrickSpielGame):
    """OpenSpiel Deer Park Euchre (``python_deerpark``)."""

    kind = GameKind.DEERPARK


for _cls in (HucklebuckSpielGame, BuckEmSpielGame, DeerParkSpielGame):
    pyspiel.register_game(_game_type(_cls.kind), _cls)


def load(game: GameKind | str, **params: Any) -> Any:
    """``pyspiel.load_game`` for one of the three games: ``load("deerpark", players=3)``.

    The parameters are checked first (see the module docs), so a value OpenSpiel
    cannot carry is the library's :class:`~hucklebuck.errors.OptionsError`.
    """
    kind = GameKind.coerce(game)
    for name, value in params.items():
        if isinstance(value, int) and not isinstance(value, bool) and not _INT32[0] <= value <= _INT32[1]:
            raise OptionsError(f"{name} must fit in 32 bits for OpenSpiel (-2**31 .. 2**31-1), not {value}")
    return pyspiel.load_game(GAME_NAMES[kind], params)
