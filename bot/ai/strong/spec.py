"""Per-game knobs of the search: where a deal ends, how a result is scored, action pruning.

A :class:`GameSpec` gives, for one game: ``deal_no(state)`` (a counter that changes when the
current deal ends; search and rollouts stop there), ``values(state)`` (one number per seat
whose change over the deal is that seat's reward, in units of ``scale``), and optionally
``prune(legal)``: the subset of actions the search considers (the real legal list is never
changed; pruning only narrows wide bet ladders).

The spec is generic in the game's own state type; each game's spec is ``SPEC`` in
``bot/ai/<game>/spec.py``, found through ``bot.ai.registry``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from bot.ai.policy import Action, Policy

#: The game's own state type (``MotzState``, ``MusState``, …).
State = TypeVar("State")


@dataclass(frozen=True)
class GameSpec(Generic[State]):
    """How ISMCTS reads one game (see the module docstring)."""

    name: str
    deal_no: Callable[[State], int]
    values: Callable[[State], list[float]]
    scale: Callable[[State], float]
    relative: bool = False  # reward = own change minus the others' mean change
    prune: Callable[[list[Action]], list[Action]] | None = None
    rollout_easy: bool = False  # rollouts played by the easy policy instead of uniformly at random
    model_opponents: bool = False  # other seats play the easy policy inside the tree (see ismcts)
    #: Easy prior: play the easy policy's move unless the searched move's mean reward beats it by
    #: this many standard errors (None: always play the search's choice).
    prior_z: float | None = None
    #: ``prior_z_of(legal)``: the prior's ``z`` for this decision, overriding ``prior_z`` (None in
    #: the result: play the search's move). None: ``prior_z`` at every decision.
    prior_z_of: Callable[[list[Action]], float | None] | None = None
    #: ``prior_policy()``: the policy whose move the prior keeps (and that plays without a state);
    #: None: the game's easy policy.
    prior_policy: Callable[[], Policy] | None = None
    #: The expert level's prior policy (None: ``prior_policy``).
    expert_prior_policy: Callable[[], Policy] | None = None
    #: ``search_when(view, legal)`` False: play the prior policy's move without searching (None:
    #: always search).
    search_when: Callable[[dict, list[Action]], bool] | None = None
    #: What ``values`` counts, for the coach's sentences: "jetons", "points" (Maître), or "chance"
    #: (Mus: percentage points of the chance to win the match).
    unit: str = "jetons"
    #: ``endgame(state)`` True: the rest of the deal is short enough to solve every determinization
    #: exactly (``endgame.pimc``) instead of searching with rollouts (None: never).
    endgame: Callable[[State], bool] | None = None
    #: ``endgame_key(state)``: a hashable summary of everything that decides the deal's end from a
    #: fully known state, for the exact search's transposition table (None: no table).
    endgame_key: Callable[[State], Any] | None = None
    #: In the exact endgame, every seat plays its best reply (max^n) even when the tree models the
    #: opponents; False: the modelled opponents (``model_opponents``) play the model there too.
    endgame_maxn: bool = False
    #: ``determinize(state, seat, rng)`` used by the search instead of the game's module
    #: (the registry's ``GameAI.determinize``); None: the game's own.
    determinize: Callable[[State, int, random.Random], State] | None = None
    #: The expert level's changes to this spec, as ``(field, value)`` pairs applied with
    #: ``dataclasses.replace`` (e.g. another determinizer, no prior); empty: strong's spec.
    expert_overrides: tuple[tuple[str, Any], ...] = ()
    #: ``model_policy()``: the policy that plays the rollouts (``rollout_easy``) and the other
    #: seats in the tree (``model_opponents``); None: the game's easy policy.
    model_policy: Callable[[], Policy] | None = None
    #: ``rollout_fast(state, seat, legal, rng)``: the easy policy's move computed from the
    #: (determinized) state itself, used by the rollouts (tree and paired) and the modelled opponents
    #: in the tree when they are the easy policy's (``fast_move``); it must choose exactly what the
    #: easy policy chooses from ``state.view(seat)``, or return None to leave the decision to the
    #: policy (None: always the policy on the view).
    rollout_fast: Callable[[State, int, list[Action], random.Random], Action | None] | None = None
    #: True when ``rollout_fast`` also chooses what ``model_policy`` chooses wherever it returns an
    #: action (Marias: the expert's model plays as easy in the play), so it serves that model too.
    fast_fits_model: bool = False
    #: ``endgame_sides(state)``: +1 or -1 per seat when the deal is a zero-sum game between two
    #: sides (Marias: the soloist against the two defenders), so the exact search may be a
    #: two-sided alpha-beta (``endgame.AlphaBeta``) instead of max^n; None: max^n.
    endgame_sides: Callable[[State], list[int]] | None = None
    #: The alpha-beta's transposition key (as ``endgame_key``; kept apart so the opponent-model
    #: search, whose leaf counts it would change, keeps none).
    alphabeta_key: Callable[[State], Any] | None = None
    #: ``paired_root(state)`` True: no tree; every root move is rolled out on the same
    #: determinizations (``paired.paired``) and the moves compared pair by pair (None: never).
    paired_root: Callable[[State], bool] | None = None

    def fast_move(self) -> Callable[[State, int, list[Action], random.Random], Action | None] | None:
        """``rollout_fast`` where it may stand for the policy of the rollouts and the modelled
        opponents: always with the easy policy, with a ``model_policy`` only when it fits it."""
        return self.rollout_fast if self.model_policy is None or self.fast_fits_model else None
