"""Exact endgames: a perfect-information search of one determinization, and PIMC over many.

Once few cards remain in a trick game, the deal's end is near enough to search every line.
``solve(state, spec, deal0)`` plays every legal continuation of one (determinized, so fully
known) state to the end of the current deal through the engine's public surface only
(``to_act``/``legal_actions``/``clone``/``apply``/``is_over`` and the spec's ``values``), and
returns each seat's reward: **max^n**, every seat playing its best move for itself (its reward
as ``games.GameSpec`` counts it, so a team's seats share their aim); a seat with several equally
good moves is taken to pick one of them at random, so its result is their mean. A
transposition table (the spec's ``endgame_key``, when it has one) reuses positions reached by
different orders of the earlier tricks.

``pimc(...)`` is Perfect Information Monte Carlo (Ginsberg's GIB, the Skat programs): for each
determinization of the real state (``determinize``: only the redealt clone is ever searched,
never the hidden cards of the real state), every root move is solved exactly, and the move with
the best mean reward wins. It runs where ``spec.endgame(state)`` says the deal is short enough.

Where the deal is a zero-sum game between two sides (``spec.endgame_sides``: Marias's soloist
against the two defenders, who pay or are paid the same), ``AlphaBeta`` gives the same values as
max^n for a fraction of the leaves: one side maximizes the side-weighted sum of the rewards,
the other minimizes it, with alpha-beta cut-offs and a transposition table that keeps each
value's kind of bound (``spec.alphabeta_key``). Its cost is counted in positions searched, twelve
to a leaf (what a position and a rollout cost).

Cost is counted in *leaves* (positions at the end of the deal), the unit of a rollout, so a
search's ``max_iterations`` bounds both kinds of search alike.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import Any

from bot.ai.policy import Action
from bot.ai.strong.keys import action_key
from bot.ai.strong.paired import on_same_deals
from bot.ai.strong.spec import GameSpec

#: The alpha-beta's positions cost about 8 µs each (a clone and a move; Marias, four cards each),
#: a rollout or tree iteration about 100 µs: so many positions count as one leaf of the budget.
NODES_PER_LEAF = 12
#: Kinds of a stored alpha-beta value: exact, a lower bound, an upper bound.
_EXACT, _LOWER, _UPPER = 0, 1, 2
#: Moves within this of the best are equally good (rewards are in units of the game's scale).
TIE = 1e-9


class Solver:
    """One determinization's exact search (max^n, ties averaged), counting the leaves it reaches.

    With an ``opponent`` policy (the game's opponent model, ``GameSpec.model_opponents``), every
    seat but ``seat`` plays that policy's move from its own view of the determinization (drawing
    on ``rng``) instead of its best reply: ``seat``'s moves are searched exactly against the
    opponents the tree search assumes too.
    """

    __slots__ = (
        "spec", "deal0", "start", "scale", "relative", "key", "tt", "leaves", "seat", "opponent", "rng",
    )

    def __init__(
        self, spec: GameSpec, deal0: int, start: list[float], scale: float,
        seat: int = -1, opponent: Any = None, rng: random.Random | None = None,
    ):
        self.seat = seat
        self.opponent = opponent
        self.rng = rng
        self.spec = spec
        self.deal0 = deal0
        self.start = start
        self.scale = scale or 1.0
        self.relative = spec.relative
        self.key = spec.endgame_key
        self.tt: dict[Any, Any] = {}
        self.leaves = 0

    def reward(self, state: Any) -> tuple[float, ...]:
        """Each seat's reward for the deal ending in ``state`` (as ``ismcts`` backs it up)."""
        end = self.spec.values(state)
        start, scale = self.start, self.scale
        gain = [(end[i] - start[i]) / scale for i in range(len(start))]
        n = len(gain)
        if self.relative and n > 1:
            tot = sum(gain)
            gain = [g - (tot - g) / (n - 1) for g in gain]
        return tuple(gain)

    def value(self, state: Any) -> tuple[float, ...]:
        """The seats' rewards under best play by everyone from ``state`` (max^n)."""
        if state.is_over() or self.spec.deal_no(state) != self.deal0:
            self.leaves += 1
            return self.reward(state)
        key = None
        if self.key is not None:
            key = self.key(state)
            hit = self.tt.get(key)
            if hit is not None:
                return hit
        actor = state.to_act()[0]
        legal = state.legal_actions(actor)
        if self.opponent is not None and actor != self.seat:
            a = legal[0] if len(legal) == 1 else self.opponent.choose(state.view(actor), legal, self.rng)
            c = state.clone()
            c.apply(actor, a)
            out = self.value(c)
            if key is not None:
                self.tt[key] = out
            return out
        best: list[tuple[float, ...]] = []
        best_v = -math.inf
        for a in legal:
            c = state.clone()
            c.apply(actor, a)
            v = self.value(c)
            mine = v[actor]
            if mine > best_v + TIE:
                best_v, best = mine, [v]
            elif mine >= best_v - TIE:
                best.append(v)
        out = best[0] if len(best) == 1 else tuple(sum(col) / len(best) for col in zip(*best, strict=True))
        if key is not None:
            self.tt[key] = out
        return out


class AlphaBeta(Solver):
    """Max^n for a two-sided zero-sum deal, by alpha-beta: seats with ``sides[i] > 0`` maximize
    ``score = Σ sides[i] · reward[i]``, the others minimize it. Every seat's reward falls as the
    other side's rises (the defenders are paid, or pay, alike), so this is the best reply of every
    seat for itself; among equally good moves the first is taken (max^n averages them: the same
    values whenever the side's rewards are equal across those moves, i.e. unless a stack caps a
    payment). ``value`` returns the rewards at the end of the principal line."""

    __slots__ = ("sides", "nodes")

    def __init__(self, spec: GameSpec, deal0: int, start: list[float], scale: float, sides: list[int]):
        super().__init__(spec, deal0, start, scale)
        self.key = spec.alphabeta_key or spec.endgame_key
        self.sides = sides
        self.nodes = 0

    def value(self, state: Any) -> tuple[float, ...]:
        """The seats' rewards under best play by both sides from ``state``. ``leaves`` counts
        the positions searched so far over ``NODES_PER_LEAF`` (its cost in rollouts)."""
        out = self.search(state, -math.inf, math.inf)[1]
        self.leaves = -(-self.nodes // NODES_PER_LEAF)
        return out

    def search(self, state: Any, alpha: float, beta: float) -> tuple[float, tuple[float, ...]]:
        """(score, rewards) of ``state``: exact when strictly inside (alpha, beta), else a bound
        (fail-soft). Positions are stored with their kind of bound (``endgame_key``)."""
        self.nodes += 1
        if state.is_over() or self.spec.deal_no(state) != self.deal0:
            r = self.reward(state)
            return sum(s * x for s, x in zip(self.sides, r, strict=True)), r
        key = None
        if self.key is not None:
            key = self.key(state)
            hit = self.tt.get(key)
            if hit is not None:
                v, kind, r = hit
                if kind == _EXACT or (kind == _LOWER and v >= beta) or (kind == _UPPER and v <= alpha):
                    return v, r
        a0, b0 = alpha, beta
        actor = state.to_act()[0]
        legal = state.legal_actions(actor)
        maximize = self.sides[actor] > 0
        best_v = -math.inf if maximize else math.inf
        best_r: tuple[float, ...] = ()
        for a in legal:
            c = state.clone()
            c.apply(actor, a)
            v, r = self.search(c, alpha, beta)
            if maximize:
                if v > best_v:
                    best_v, best_r = v, r
                    alpha = max(alpha, v)
            elif v < best_v:
                best_v, best_r = v, r
                beta = min(beta, v)
            if alpha >= beta:
                break
        if key is not None:
            kind = _UPPER if best_v <= a0 else _LOWER if best_v >= b0 else _EXACT
            self.tt[key] = (best_v, kind, best_r)
        return best_v, best_r


def solver_for(
    spec: GameSpec, state: Any, deal0: int, start: list[float], scale: float,
    seat: int = -1, opponent: Any = None, rng: random.Random | None = None,
) -> Solver:
    """The exact search for ``state``: the opponent model's (``Solver`` with ``opponent``), else
    alpha-beta where the deal is two-sided (``spec.endgame_sides``), else max^n."""
    if opponent is None and spec.endgame_sides is not None:
        return AlphaBeta(spec, deal0, start, scale, spec.endgame_sides(state))
    return Solver(spec, deal0, start, scale, seat, opponent, rng)


def solve(state: Any, spec: GameSpec, deal0: int | None = None) -> tuple[float, ...]:
    """Each seat's reward (change of ``spec.values`` to the deal's end, over ``spec.scale``) under
    perfect-information best play from ``state``, which must be a state where every card is known
    (a determinization)."""
    d0 = spec.deal_no(state) if deal0 is None else deal0
    return Solver(spec, d0, spec.values(state), spec.scale(state)).value(state)


def solve_moves(state: Any, seat: int, spec: GameSpec) -> dict[tuple, float]:
    """``seat``'s exact reward for each of its legal moves in the fully known ``state``."""
    solver = Solver(spec, spec.deal_no(state), spec.values(state), spec.scale(state))
    out = {}
    for a in state.legal_actions(seat):
        c = state.clone()
        c.apply(seat, a)
        out[action_key(a)] = solver.value(c)[seat]
    return out


def pimc(
    spec: GameSpec,
    state: Any,
    seat: int,
    legal: list[Action],
    determinize: Any,
    rng: random.Random,
    deadline: float,
    cap: int,
    opponent: Any = None,
) -> tuple[dict[tuple, list[float]], int, int]:
    """Solve every root move over determinizations until ``deadline`` (``time.perf_counter``) or
    ``cap`` leaves; return per move key its rewards (one per determinization), the number of
    determinizations and the leaves searched. At least one determinization is always solved.
    ``opponent``: the other seats play this policy (see ``Solver``) instead of max^n."""
    evaluate = exact_evaluator(spec, state, seat, rng, opponent)
    return on_same_deals(state, seat, legal, determinize, rng, deadline, cap, evaluate)


def exact_evaluator(
    spec: GameSpec, state: Any, seat: int, rng: random.Random, opponent: Any = None,
    worth: Callable[[Sequence[float]], float] | None = None, scale: float | None = None,
) -> Callable[[Any, list[tuple[tuple, Action]]], tuple[list[float], int]]:
    """``on_same_deals``' scorer: each root move played on a determinization and solved exactly to
    the deal's end (``solver_for``); ``worth`` reads a move's value from the seats' rewards (default:
    ``seat``'s own), ``scale`` replaces ``spec.scale(state)``. Returns the values and the leaves."""
    deal0, start = spec.deal_no(state), spec.values(state)
    unit = spec.scale(state) if scale is None else scale

    def evaluate(d: Any, keys: list[tuple[tuple, Action]]) -> tuple[list[float], int]:
        solver = solver_for(spec, d, deal0, start, unit, seat, opponent, rng)
        out = []
        for _, a in keys:
            c = d.clone()
            c.apply(seat, a)
            rewards = solver.value(c)
            out.append(rewards[seat] if worth is None else worth(rewards))
        return out, solver.leaves

    return evaluate
