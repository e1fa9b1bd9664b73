"""The reward modes the learning interfaces share (the batched lane, PettingZoo,
OpenSpiel), computed from a game object at the end of a hand.

``"progress"`` (the default everywhere)
    At each hand's end, each seat's move toward its goal: in Hucklebuck the
    target (``target - score``, 0 at or past it), in Deer Park Euchre the
    *nearer* of its two goals, 0 and 50 (``min(score, 50 - score)``, 0 at or
    past either), divided by the distance every seat starts at (the target; 20),
    so one whole game's worth of approach is 1.0.  The hand that ends the game
    pays instead 1.0 to each winner plus the seat's distance before that hand
    less its starting distance (over the span): whatever happened before, the
    sum of a whole game's rewards is exactly the game's result, 1.0 to each
    winner and 0.0 to the others, so the maximiser of the summed reward is the
    player who wins most often (potential-based shaping: the signal at every
    hand changes no optimal policy).  An episode cut short (``hands=K``) sums
    to the progress it made.  Buck 'Em: each seat's chips won or lost in the
    round, as ``"hand"`` (a session's goal is chips, and they add up to
    ``"game"``).
``"hand"``
    Each seat's score change in the hand (Deer Park Euchre: its fall, since
    scores count down from 20 towards 0), plus 1.0 to each winner when the game
    ends.  It teaches taking tricks and points, which in Deer Park works
    against winning: most games are won by a seat pushed up to 50.
``"game"``
    0 until the episode ends, then the game's ``returns()`` (1.0 to each winner;
    Buck 'Em: the chips won or lost over the episode).  A Deer Park Euchre
    episode of fewer than 4 hands can never end a game, so ``"game"`` with it
    is refused (it would always pay 0).
"""

from __future__ import annotations

import warnings
from typing import Any, Final, Literal

from ..errors import OptionsError
from ..packs import GameKind

__all__ = [
    "BUCKEM_HANDS",
    "DEFAULT_REWARD",
    "REWARDS",
    "RewardMode",
    "RewardWarning",
    "check_reward",
    "progress_rewards",
    "warn_if_not_winning",
]

RewardMode = Literal["progress", "hand", "game"]
REWARDS: Final[tuple[str, ...]] = ("progress", "hand", "game")
"""The reward modes, the default first."""
DEFAULT_REWARD: Final = "progress"
DEERPARK_SPAN: Final = 20
"""Deer Park Euchre: every score starts 20 from its nearer goal (0)."""
DEERPARK_MIN_HANDS: Final = 4
"""Deer Park Euchre: a hand moves a score by at most 5, so a game takes at least 4 hands."""
BUCKEM_HANDS: Final = 10
"""Rounds in a Buck 'Em episode unless ``hands`` says otherwise (a session has no end)."""


class RewardWarning(UserWarning):
    """A learning interface was set up so that maximising its summed reward does not
    mean winning the game (episodes cut short, or ``reward="hand"`` in Deer Park
    Euchre).  The setup is allowed (a learner that bootstraps at truncated steps
    still learns to win), so this is a warning, not an error."""


def warn_if_not_winning(kind: GameKind, hands: int | None, reward: str, stacklevel: int = 3) -> None:
    """Warn (:class:`RewardWarning`) when the summed reward of an episode of ``hands``
    hands (None: a whole game) paid as ``reward`` does not rank the players by winning.

    Buck 'Em sessions have no winner: their rewards are chips, always what a session is for.
    """
    if kind is GameKind.BUCKEM:
        return
    if hands is not None:
        unit = "hand" if hands == 1 else "hands"
        trap = " (in Deer Park Euchre, taking tricks, which loses games)"
        example = trap if kind is GameKind.DEERPARK else ""
        warnings.warn(
            f"episodes of {hands} {unit} end before the game does: their rewards sum to the game's result "
            "only over whole games, so a learner that does not bootstrap from its value estimate where "
            f"an episode is truncated learns what pays in {hands} {unit}{example}; use hands=None (whole "
            "games, the default) to teach winning",
            RewardWarning,
            stacklevel=stacklevel,
        )
    elif kind is GameKind.DEERPARK and reward == "hand":
        warnings.warn(
            "reward='hand' pays Deer Park Euchre tricks, and most games are won by a seat pushed up to 50: "
            "its summed reward works against winning; use reward='progress' (the default) or 'game'",
            RewardWarning,
            stacklevel=stacklevel,
        )


def check_reward(reward: object, kind: GameKind, hands: int | None) -> RewardMode:
    """``reward`` as a mode, or :class:`OptionsError` (an unknown mode, or a
    combination whose rewards would always be 0)."""
    if not isinstance(reward, str) or reward not in REWARDS:
        raise OptionsError(f"reward must be 'progress', 'hand' or 'game', not {reward!r}"[:200])
    if reward == "game" and kind is GameKind.DEERPARK and hands is not None and hands < DEERPARK_MIN_HANDS:
        raise OptionsError(
            f"reward='game' with hands={hands} would always pay 0: a Deer Park Euchre game takes at least "
            f"{DEERPARK_MIN_HANDS} hands; use reward='progress' (the default), more hands, or whole games"
        )
    mode: RewardMode = reward  # type: ignore[assignment]
    return mode


def _deerpark_gap(score: int) -> int:
    """How far a Deer Park Euchre score is from the nearer goal (0 at or past 0 or 50)."""
    if score <= 0 or score >= 50:
        return 0
    return min(score, 50 - score)


def progress_rewards(kind: GameKind, game: Any) -> list[float]:
    """Each seat's ``"progress"`` reward for the hand ``game`` has just scored
    (its phase is ``HAND_OVER`` or ``GAME_OVER``); see the module docs.

    The arithmetic is the C lane's, operation for operation (``csrc/hb_vec_dp.c``,
    ``csrc/hb_vec_hb.c``), so both give the same float32 rewards.
    """
    changes = game.hand_returns()
    if kind is GameKind.BUCKEM:
        return [float(d) for d in changes]
    after = game.standings
    before = [a - int(d) for a, d in zip(after, changes, strict=True)]
    if kind is GameKind.DEERPARK:
        span = DEERPARK_SPAN
        gaps_before = [_deerpark_gap(b) for b in before]
        gaps_after = [_deerpark_gap(a) for a in after]
    else:
        span = int(game.options.target)
        gaps_before = [max(span - b, 0) for b in before]
        gaps_after = [max(span - a, 0) for a in after]
    if game.is_over:
        won = set(game.winners)
        return [(1.0 if s in won else 0.0) + (g - span) / span for s, g in enumerate(gaps_before)]
    return [(b - a) / span for b, a in zip(gaps_before, gaps_after, strict=True)]
