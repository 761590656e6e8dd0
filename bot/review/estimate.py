"""One decision, estimated: every legal move's expected value from what the seat could see.

``estimate(game, state, seat, played, rng, budget_ms, cap)`` runs in an AI worker process. It
reads the game through the expert level's search spec (``bot.ai.levels.EXPERT``: the same determinizer,
model policy and exact endgame the expert plays with) and scores **every** legal move on the same
determinizations of the seat's view (common random numbers): solved exactly where the expert's
search solves the rest of the deal exactly (``endgame.pimc``), else each move rolled out to the
end of the deal by the expert's model policy (``paired.paired``). The tree search would only
value the moves it favours; a grade needs a value for the move played too.

Only the state's ``clone`` is ever played, after the determinizer has redealt every card the seat
could not see: two states the seat cannot tell apart give the same estimate for the same ``rng``
(tests/review: the no-peeking twin test).
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass
from typing import Any

from bot.ai.levels import EXPERT
from bot.ai.policy import Action
from bot.ai.registry import determinizer
from bot.ai.strong.endgame import exact_evaluator, pimc
from bot.ai.strong.keys import action_key
from bot.ai.strong.paired import on_same_deals, paired, rollout
from bot.ai.strong.policy import StrongPolicy


@dataclass(frozen=True)
class Estimate:
    """The moves' values (in the game's natural unit, to the end of the deal), best first."""

    moves: tuple[tuple[Action, float], ...]  # (move, expected gain), best first
    played: Action
    played_value: float
    exact: bool
    samples: int  # determinizations drawn
    #: One standard error of ``best − played`` measured deal by deal (0 with fewer than two deals).
    margin: float = 0.0

    @property
    def best(self) -> Action:
        """The move with the highest estimate (the played one when it ties for the best)."""
        return self.moves[0][0]

    @property
    def best_value(self) -> float:
        return self.moves[0][1]

    @property
    def cost(self) -> float:
        """What the played move cost against the best, in the natural unit (>= 0): the mean
        difference less one standard error of it, so a move the estimate cannot tell from the best
        costs nothing and the noise of many moves' means does not inflate every cost."""
        return max(0.0, self.best_value - self.played_value - self.margin)


#: The level whose search the review's estimates use (``bot.ai.levels``).
REVIEWER = EXPERT


def expert(game: str) -> StrongPolicy:
    """The reviewing level's player of ``game`` (its spec, rollout and opponent model; shared)."""
    policy = REVIEWER.policy(game)
    if not isinstance(policy, StrongPolicy):
        raise ValueError(f"the reviewing level does not search {game!r}")
    return policy


def scored_moves(policy: StrongPolicy, legal: list[Action], played: Action) -> list[Action]:
    """The moves the review scores: the spec's pruned list (wide bet ladders narrowed), plus the
    move played if pruning dropped it."""
    spec = policy.spec
    moves = spec.prune(legal) if spec.prune is not None else list(legal)
    if not any(action_key(a) == action_key(played) for a in moves):
        moves.append(played)
    return moves


def estimate(game: str, state: Any, seat: int, played: Action, rng: random.Random,
             budget_ms: float, cap: int) -> Estimate:
    """Every scored move's expected gain for ``seat`` from ``state`` (see the module docstring).

    ``budget_ms`` bounds the time and ``cap`` the determinizations (each scores every move: ``cap``
    times the moves in rollouts or solved lines); at least one is always drawn. A forced move
    (one legal) is not searched.
    """
    legal = state.legal_actions(seat)
    if len(legal) <= 1:
        return Estimate(((played, 0.0),), played, 0.0, True, 0)
    policy = expert(game)
    spec = policy.spec
    moves = scored_moves(policy, legal, played)
    det = spec.determinize or determinizer(game)
    deadline = time.perf_counter() + budget_ms / 1000.0
    scale = spec.scale(state) or 1.0
    exact = spec.endgame is not None and spec.endgame(state)
    leaves = max(1, cap) * len(moves)
    model = None if spec.endgame_maxn else policy.opponents
    if spec.relative:  # the seat's change less the others' mean change, as the search rewards it
        scorer = _relative_exact(spec, state, seat, rng, model) if exact else _relative_rollouts(
            spec, state, seat, rng, policy.rollout)
        rewards, samples, _ = on_same_deals(state, seat, moves, det, rng, deadline, leaves, scorer)
    elif exact:
        rewards, samples, _ = pimc(spec, state, seat, moves, det, rng, deadline, leaves, model)
    else:
        rewards, samples, _ = paired(spec, state, seat, moves, det, rng, deadline, leaves, policy.rollout)
    value = {k: scale * sum(v) / len(v) for k, v in rewards.items() if v}
    pkey = action_key(played)
    best = max(value.values())
    ranked = sorted(moves, key=lambda a: (-value[action_key(a)], action_key(a) != pkey))
    if value[pkey] >= best - 1e-9:  # the played move ties for the best: it is the best
        ranked.remove(next(a for a in ranked if action_key(a) == pkey))
        ranked.insert(0, played)
    margin = _paired_se(rewards[action_key(ranked[0])], rewards[pkey], scale)
    return Estimate(tuple((a, value[action_key(a)]) for a in ranked), played, value[pkey], exact, samples,
                    margin)


def relative(gains: list[float], seat: int) -> float:
    """``seat``'s gain less the other seats' mean gain."""
    n = len(gains)
    return gains[seat] - (sum(gains) - gains[seat]) / (n - 1) if n > 1 else gains[seat]


def _relative_rollouts(spec: Any, state: Any, seat: int, rng: random.Random, policy: Any) -> Any:
    """``on_same_deals``' scorer: each move rolled out (``paired.rollout``), the relative gain."""
    deal0, start, scale = spec.deal_no(state), spec.values(state), spec.scale(state) or 1.0

    def evaluate(d: Any, keys: list[tuple[tuple, Action]]) -> tuple[list[float], int]:
        out = []
        for _, a in keys:
            c = d.clone()
            c.apply(seat, a)
            rollout(spec, c, seat, deal0, start[seat], scale, policy, rng)
            end = spec.values(c)
            out.append(relative([(e - s) / scale for e, s in zip(end, start, strict=True)], seat))
        return out, len(keys)

    return evaluate


def _relative_exact(spec: Any, state: Any, seat: int, rng: random.Random, model: Any) -> Any:
    """``on_same_deals``' scorer: each move solved exactly (``exact_evaluator``), the relative gain."""
    return exact_evaluator(spec, state, seat, rng, model, worth=lambda rewards: relative(list(rewards), seat),
                           scale=spec.scale(state) or 1.0)


def _paired_se(best: list[float], played: list[float], scale: float) -> float:
    """The standard error of the mean of ``best − played`` over the same determinizations."""
    n = min(len(best), len(played))
    if n < 2:
        return 0.0
    diffs = [scale * (b - p) for b, p in zip(best, played, strict=False)]
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return math.sqrt(var / n)
