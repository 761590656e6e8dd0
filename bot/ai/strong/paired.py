"""Paired root search: every root move rolled out on the same determinizations.

Where a seat has few choices (Michigan: which suit to lead, at most four) and the rollout policy
is deterministic given a deal (the easy policies), UCB's unequal visits compare the moves on
different deals and the comparison is noisy. ``paired(...)`` instead draws a determinization
(the game's ``determinize``: only the redealt clone is ever played, never the real hidden cards),
plays **every** root move on its own clone of it, and rolls each one out to the end of the deal
with the rollout policy for every seat (common random numbers). The moves' differences are then
measured deal by deal, and the easy prior (``policy._with_prior``) tests them with the paired
standard error, as after an exact endgame (``endgame.pimc``, whose result shape this returns).

Cost is counted in *leaves* (rollouts to the end of the deal), so a search's ``max_iterations``
bounds it as it bounds a tree search or PIMC; the last determinization may pass the cap by at
most ``len(legal) - 1`` leaves. At least one determinization is always played.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from bot.ai.policy import Action
from bot.ai.strong.keys import action_key
from bot.ai.strong.spec import GameSpec

#: Rollouts give up after this many actions (no deal of these games is that long).
MAX_ROLLOUT = 2_000


def rollout(
    spec: GameSpec, d: Any, seat: int, deal0: int, start: float, scale: float, policy: Any,
    rng: random.Random,
) -> float:
    """``seat``'s reward (change of ``spec.values`` over ``scale``) when the fully known ``d`` is
    played to the end of deal ``deal0`` by ``policy`` (None: uniformly at random) for every seat
    (through ``spec.rollout_fast``, the same choice read from ``d`` itself, where the game has
    one). ``d`` is played on, not copied."""
    steps = 0
    fast = spec.fast_move() if policy is not None else None  # the policy's move read from the state
    while not d.is_over() and spec.deal_no(d) == deal0 and steps < MAX_ROLLOUT:
        actor = d.to_act()[0]
        legal = d.legal_actions(actor)
        if len(legal) == 1:
            a = legal[0]
        elif policy is None:
            a = legal[int(rng.random() * len(legal))]
        else:
            a = fast(d, actor, legal, rng) if fast is not None else None
            if a is None:
                a = policy.choose(d.view(actor), legal, rng)
        d.apply(actor, a)
        steps += 1
    return (spec.values(d)[seat] - start) / scale


def on_same_deals(
    state: Any,
    seat: int,
    legal: list[Action],
    determinize: Any,
    rng: random.Random,
    deadline: float,
    cap: int,
    evaluate: Callable[[Any, list[tuple[tuple, Action]]], tuple[list[float], int]],
) -> tuple[dict[tuple, list[float]], int, int]:
    """Draw determinizations of ``state`` for ``seat`` until ``deadline`` (``time.perf_counter``)
    or ``cap`` leaves, and score every root move on each: ``evaluate(d, keys)`` returns one reward
    per ``(key, move)`` of ``keys`` (in that order) and the leaves it cost. Returns per move key
    its rewards (one per determinization, in the same order for every move), the determinizations
    drawn and the leaves. At least one determinization is always drawn. Shared by this module's
    rollouts and the exact endgame (``endgame.pimc``)."""
    keys = [(action_key(a), a) for a in legal]
    rewards: dict[tuple, list[float]] = {k: [] for k, _ in keys}
    leaves = 0
    samples = 0
    clock = time.perf_counter
    while True:
        values, cost = evaluate(determinize(state, seat, rng), keys)
        for (k, _), v in zip(keys, values, strict=True):
            rewards[k].append(v)
        leaves += cost
        samples += 1
        if leaves >= cap or clock() >= deadline:
            break
    return rewards, samples, leaves


def paired(
    spec: GameSpec,
    state: Any,
    seat: int,
    legal: list[Action],
    determinize: Any,
    rng: random.Random,
    deadline: float,
    cap: int,
    policy: Any = None,
) -> tuple[dict[tuple, list[float]], int, int]:
    """Roll every root move out on each determinization until ``deadline``
    (``time.perf_counter``) or ``cap`` leaves; return per move key its rewards (one per
    determinization, in the same order for every move), the determinizations played and the
    leaves (rollouts) searched."""
    deal0 = spec.deal_no(state)
    start = spec.values(state)[seat]
    scale = spec.scale(state) or 1.0

    def evaluate(d: Any, keys: list[tuple[tuple, Action]]) -> tuple[list[float], int]:
        out = []
        last = len(keys) - 1
        for i, (_, a) in enumerate(keys):
            c = d.clone() if i < last else d  # the last move plays on the determinization itself
            c.apply(seat, a)
            out.append(rollout(spec, c, seat, deal0, start, scale, policy, rng))
        return out, len(keys)

    return on_same_deals(state, seat, legal, determinize, rng, deadline, cap, evaluate)
