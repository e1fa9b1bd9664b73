"""The batched lane for learning agents: many games stepped in one call.

:class:`VectorGame` holds ``num_envs`` environments of one game (every player
count and variant option of the game classes) and steps them all with one call,
one action id per environment.  Its state is read through buffers (the buffer
protocol: ``numpy.asarray(vg.legal_mask)`` is a zero-copy view, and NumPy is
never needed): :attr:`~VectorGame.current_player` (int16), :attr:`~VectorGame.legal_mask`
(int8 as PettingZoo's masks, the id space of
:meth:`~hucklebuck.games.engine.TrickGame.legal_action_ids`),
:attr:`~VectorGame.rewards` (float32; by default ``reward="progress"``, as the
PettingZoo environments and the OpenSpiel games pay), :attr:`~VectorGame.terminated`
and :attr:`~VectorGame.truncated` (uint8: the game ended, or the episode was cut
at ``hands`` hands) and :meth:`~VectorGame.observation_tensor` (float32, the layout of
:mod:`hucklebuck.games.tensors`).  The buffers are updated in place by every
:meth:`~VectorGame.step` and :meth:`~VectorGame.reset`; :attr:`~VectorGame.winners`
(who won each game the last step ended) is read when asked.

By default every episode is a whole game (Buck 'Em: 10 rounds), so a game's
``"progress"`` rewards sum to its result and a learner maximising them learns
to win; ``hands=K`` and Deer Park's ``reward="hand"`` warn
(:class:`RewardWarning`) that they do not.

Every call on one batch from several Python threads takes its turn,
:meth:`~VectorGame.close` and :meth:`~VectorGame.copy` included.

Two lanes, one result.  On the C core a compiled state machine steps every
environment in one call (split across ``threads`` native threads without the
GIL); elsewhere, and for any game and options the state machine does not cover
(:attr:`VectorGame.lane` says which), the environments are ordinary game
objects.  Both give identical buffers for the same seed.

Seeds.  Every deal draws from the project's specified random source,
splitmix64 (:class:`hucklebuck.evaluate.SplitMix64`, the one the simulations
and searches use), so each episode's cards are a pure function of the batch
seed, the environment and the episode.  Episode ``k`` of environment ``i`` in
a batch seeded ``s`` deals every hand (and every re-formed stock) from
``SplitMix64(deal_state(s, i, k))``: output ``k`` of splitmix64 started at
``env_seed(s, i) = (s ^ (i * 0xC2B2AE3D27D4EB4F)) mod 2**64``.  It is exactly
``GameClass(players, options=options, rng=SplitMix64(deal_state(s, i, k)))``
driven by the same ids (:meth:`~VectorGame.stream` gives that random source,
:meth:`~VectorGame.game` the game).  Episodes count from 0 at each seeded
:meth:`~VectorGame.reset`, and an environment whose episode ended is dealt its
next episode at the following step (auto-reset).
"""

from ._common import MAX_ENVS, deal_state, env_seed
from ._rewards import RewardWarning
from ._vector import VectorGame

__all__ = ["MAX_ENVS", "RewardWarning", "VectorGame", "deal_state", "env_seed"]
