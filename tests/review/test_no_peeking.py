"""No peeking, for the review: two sessions identical in what the reviewed player saw and
different in the hidden cards give the same review, figure for figure.

At every decision of the reviewed seat in an easy-played session, the twin session holds a redeal
of the state (``state.redeal``: the same view for that seat, other hidden cards elsewhere), as
tests/ai/test_no_peeking.py builds them. The review of the twins (same table salt, same search
size) must give the same grades, values and skill. The twins are checked to hide other cards,
and an estimator that peeks is caught by the same comparison (so the test can fail).
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from bot.review import decision_points, estimate, run
from bot.review.estimate import Estimate
from bot.review.points import Plan
from tests.ai.test_no_peeking import hidden
from tests.review.helpers import CASES, Logged, play_out

SMALL = 6


def twin_plans(game: str, seat: int, limit: int = 12) -> tuple[Plan, Plan, int]:
    seats, raw = CASES[game]
    s = play_out(Logged(game, seats, raw, 7), seed=7)
    plan = decision_points(s.game, s.seats, s.options, s.seed, s.log, seat)
    plan.points = [p for p in plan.points if p.choices > 1][:limit]
    plan.results = plan.results[: plan.points[-1].deal]
    twins = []
    differing = 0
    for i, p in enumerate(plan.points):
        for k in range(10):
            twin = p.state.redeal(seat, random.Random(1000 * i + k))
            if hidden(game, twin, seat) != hidden(game, p.state, seat):
                differing += 1
                break
        assert twin.view(seat) == p.state.view(seat)
        twins.append(dataclasses.replace(p, state=twin))
    return plan, dataclasses.replace(plan, points=twins), differing


@pytest.mark.parametrize("game", sorted(CASES))
def test_twin_sessions_get_the_same_review(game: str) -> None:
    plan, twin, differing = twin_plans(game, 0)
    assert differing >= len(plan.points) - 1, "the twins should hide other cards"
    a = run(plan, estimate, "9", 1e9, SMALL)
    b = run(twin, estimate, "9", 1e9, SMALL)
    assert [(d.grade, d.best, d.played_value, d.best_value, d.moves) for d in a.decisions] == [
        (d.grade, d.best, d.played_value, d.best_value, d.moves) for d in b.decisions]
    assert a.skill == b.skill and a.accuracy == b.accuracy


def test_a_peeking_estimate_is_caught() -> None:
    """An estimator that adds what the next seat really holds to the values is told apart."""

    def peeking(game: str, state: Any, seat: int, played: Any, rng: random.Random, budget: float,
                cap: int) -> Estimate:
        e = estimate(game, state, seat, played, rng, budget, cap)
        bonus = sum(ord(c[0]) for c in state.hands[(seat + 1) % len(state.hands)])
        moves = tuple((a, v + (bonus if i == 0 else 0)) for i, (a, v) in enumerate(e.moves))
        return dataclasses.replace(e, moves=moves)

    plan, twin, _ = twin_plans("motz", 0, limit=4)
    a = run(plan, peeking, "9", 1e9, SMALL)
    b = run(twin, peeking, "9", 1e9, SMALL)
    assert [d.best_value for d in a.decisions] != [d.best_value for d in b.decisions]
