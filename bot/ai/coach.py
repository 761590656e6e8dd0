"""The coach behind ``/hint``: the strong AI's move and how the best three moves fare.

``hint(game, state, seat, rng)`` runs the strong level's search for ``seat`` (it only ever
determinizes the state: the advice depends on the seat's view and ``rng`` alone, like the AI's
own moves) and returns a :class:`Hint`: the move strong would play, then up to two more of the
most searched moves, each with the share of simulated deals in which the seat came out ahead
and the mean gain over the rest of the deal (in jetons, points for the Maître, or percentage
points of the chance to win the match for Mus).
``hint_sentence`` puts it in words. Pure Python, holding the GIL for the search's budget: the
bot calls it off the event loop.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot.ai.levels import HINT
from bot.ai.policy import Action
from bot.ai.strong.ismcts import search
from bot.ai.strong.keys import action_key
from bot.ai.strong.policy import StrongPolicy

#: Moves shown (the chosen one first).
TOP = 3


@dataclass(frozen=True)
class HintMove:
    """One move as the search saw it: how often it came out ahead, and the mean gain."""

    action: Action
    win_rate: float  # share of simulated deals where the seat came out ahead
    gain: float  # mean change of the seat's standing to the end of the deal, in ``unit``
    visits: int


@dataclass(frozen=True)
class Hint:
    """The coach's answer: ``moves[0]`` is the move the strong AI plays."""

    moves: tuple[HintMove, ...]
    unit: str
    iterations: int


def hint(
    game: str, state: Any, seat: int, rng: random.Random, budget_ms: float | None = None,
    max_iterations: int | None = None,
) -> Hint:
    """The strong AI's advice for ``seat`` (who must be to act, with a choice to make).

    The search is the ``HINT`` level's (``bot.ai.levels``), within its limits unless given."""
    limits = HINT.search
    assert limits is not None
    budget_ms = limits.budget_ms if budget_ms is None else budget_ms
    max_iterations = limits.max_iterations if max_iterations is None else max_iterations
    policy = StrongPolicy(game, budget_ms=budget_ms, max_iterations=max_iterations, expert=limits.expert)
    legal = state.legal_actions(seat)
    if not legal:
        raise ValueError(f"seat {seat} has no move to make")
    action, result = policy.choose_traced(state.view(seat), legal, rng, state=state)
    if result is None and len(legal) > 1:  # played without a search (Mus bets): weigh the moves anyway
        result = search(
            game, policy.spec, state, seat, random.Random(rng.getrandbits(64)), budget_ms=budget_ms,
            max_iterations=max_iterations, rollout_policy=policy.rollout, opponent_policy=policy.opponents,
        )
    if result is None:  # one legal move: nothing to weigh
        return Hint((HintMove(action, float("nan"), float("nan"), 0),), policy.spec.unit, 0)
    scale = policy.spec.scale(state) or 1.0
    keys = {action_key(a): a for a in legal}
    chosen = action_key(action)
    ranked = sorted(
        (k for k in result.means if k in keys),
        key=lambda k: (k != chosen, -result.visits.get(k, 0), -result.means[k]),
    )
    win_rates = result.win_rates or {}
    moves = tuple(
        HintMove(keys[k], win_rates.get(k, 0.0), result.means[k] * scale, result.visits.get(k, 0))
        for k in ranked[:TOP]
    )
    if not moves or action_key(moves[0].action) != chosen:  # the chosen move was never searched
        moves = (HintMove(action, float("nan"), float("nan"), 0), *moves[: TOP - 1])
    return Hint(moves, policy.spec.unit, result.iterations)


def _odds(move: HintMove, unit: str, tr: Any) -> str:
    if move.visits == 0:
        return tr._("not simulated")
    pct = tr.percent(move.win_rate)  # the reader's percent sign and decimal sign ("42 %", "+1,5")
    gain = tr.signed_decimal(move.gain)  # no "-0.0"
    if unit == "points":
        return tr._("ahead in {pct} of simulated deals, {gain} points on average", pct=pct, gain=gain)
    if unit == "chance":  # Mus: the value is the chance to win the match, in percent
        return tr._("ahead in {pct} of simulated deals, {gain} points of winning chance on average",
                    pct=pct, gain=gain)
    return tr._("ahead in {pct} of simulated deals, {gain} jetons on average", pct=pct, gain=gain)


def hint_sentence(h: Hint, label: Callable[[Action], str], tr: Any = None) -> str:
    """The advice as a sentence a player reads: the move, then the others' odds.

    ``label`` names an action the way the table's buttons do; ``tr`` is the reader's
    ``bot.i18n`` translator (English without one).
    """
    if tr is None:
        from bot.i18n import english

        tr = english()
    best = h.moves[0]
    if h.iterations == 0:
        return tr._("**{move}** is your only move here.", move=label(best.action))
    text = tr._("The strong AI would play **{move}**: {odds}.", move=label(best.action),
                odds=_odds(best, h.unit, tr))
    others = [f"{label(m.action)} ({_odds(m, h.unit, tr)})" for m in h.moves[1:]]
    if others:
        text += " " + tr._("Next best: {moves}.", moves="; ".join(others))
    return text + " " + tr.n_("(Estimates from {n} simulated deal, to the end of this deal.)",
                              "(Estimates from {n} simulated deals, to the end of this deal.)", h.iterations)
