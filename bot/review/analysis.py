"""A review: every decision graded, and the seat's result split into skill and luck.

The method (published in docs/review.md): at each decision of the seat, the expert's estimate
(``estimate``) gives every legal move's expected gain to the end of the deal from what the seat
saw. **Skill** is minus the sum over the seat's decisions of their cost (``Estimate.cost``:
``value(best) - value(played)`` less one standard error; zero or less, the search's best line is
the reference). **Luck** is everything else in the result: the
value of the position the seat was dealt (``position``: the best move's value at its first
decision of the deal), then every chance event (cards drawn, packets taken) and every other
seat's move (and every move the table played for the seat: the AI standing in for an away
player, a timeout; ``bot.review.points.STAND_IN``), as the estimates before and after them see
it. Each deal's ``luck`` is its result minus its skill, so skill + luck is the result exactly,
deal by deal (the AIVAT identity, with the search's values as the value function; Burch et al.
2018).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from typing import Any

from bot.ai.policy import Action
from bot.review.estimate import Estimate
from bot.review.grades import grade, score
from bot.review.points import Plan, Point

#: Moves kept per decision in a stored review (the best ones, and the played one).
KEPT_MOVES = 5


@dataclass
class Decision:
    """One graded decision of the reviewed seat (values in the game's natural unit)."""

    deal: int
    version: int
    played: Action
    best: Action
    played_value: float
    best_value: float
    cost: float
    grade: str
    choices: int
    moves: list[tuple[Action, float]] = field(default_factory=list)


@dataclass
class DealSplit:
    """One deal's result for the seat, split: ``skill + luck == result``."""

    deal: int
    result: float
    skill: float
    luck: float
    position: float | None  # the dealt position's value (best move at the first decision)


@dataclass
class Review:
    """A seat's review over a session (``accuracy`` in percent; None without a real choice)."""

    game: str
    seat: int
    unit: str
    scale: float
    decisions: list[Decision]
    deals: list[DealSplit]
    accuracy: float | None
    auto: int = 0  # the seat's moves the table played for it (the AI while away, timeouts): not graded

    @property
    def result(self) -> float:
        return sum(d.result for d in self.deals)

    @property
    def skill(self) -> float:
        return sum(d.skill for d in self.deals)

    @property
    def luck(self) -> float:
        return sum(d.luck for d in self.deals)

    def costliest(self, n: int = 3, deal: int | None = None) -> list[Decision]:
        """The ``n`` decisions that cost most (none that cost nothing), of one deal or all."""
        pool = [d for d in self.decisions
                if d.cost > 0 and d.grade != "best" and (deal is None or d.deal == deal)]
        return sorted(pool, key=lambda d: (-d.cost, d.version))[:n]

    def counts(self, deal: int | None = None) -> dict[str, int]:
        """How many decisions got each grade (forced moves left out)."""
        out: dict[str, int] = {}
        for d in self.decisions:
            if d.choices > 1 and (deal is None or d.deal == deal):
                out[d.grade] = out.get(d.grade, 0) + 1
        return out

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form (stored by ``bot.store.reviews``)."""
        return asdict(self)

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> Review:
        decisions = [Decision(**{**d, "moves": [(m[0], float(m[1])) for m in d.get("moves", [])]})
                     for d in raw["decisions"]]
        deals = [DealSplit(**d) for d in raw["deals"]]
        return cls(raw["game"], int(raw["seat"]), raw["unit"], float(raw["scale"]), decisions, deals,
                   raw.get("accuracy"), int(raw.get("auto") or 0))


def per_decision_ms(plan: Plan, session_ms: float) -> float:
    """A session's search budget shared by its decisions with a choice (forced ones cost nothing)."""
    return session_ms / max(1, sum(1 for p in plan.points if p.choices > 1))


def rng_for(salt: str, point: Point, seat: int) -> random.Random:
    """The estimate's randomness for one decision: from the review's salt (the table's number),
    the decision's version and the seat, never from anything the seat could not see."""
    return random.Random(f"review:{salt}:{point.version}:{seat}")


def assemble(plan: Plan, estimates: Iterable[Estimate]) -> Review:
    """The review of ``plan`` from one estimate per point, in order (see the module docstring)."""
    decisions: list[Decision] = []
    scores: list[float] = []
    skill = [0.0] * len(plan.results)
    position: list[float | None] = [None] * len(plan.results)
    for p, e in zip(plan.points, estimates, strict=True):
        forced = p.choices <= 1
        cost = 0.0 if forced else e.cost
        g = grade(plan.game, cost, plan.scale, p.choices)
        kept = list(e.moves[:KEPT_MOVES])
        decisions.append(Decision(p.deal, p.version, p.played, e.best, e.played_value, e.best_value, cost, g,
                                  p.choices, kept))
        if not forced:
            scores.append(score(plan.game, cost, plan.scale))
            i = p.deal - 1
            skill[i] -= cost
            if position[i] is None:
                position[i] = e.best_value
    deals = [DealSplit(i + 1, r, skill[i], r - skill[i], position[i]) for i, r in enumerate(plan.results)]
    accuracy = 100.0 * sum(scores) / len(scores) if scores else None
    return Review(plan.game, plan.seat, plan.unit, plan.scale, decisions, deals, accuracy, plan.auto)


Estimator = Callable[[str, Any, int, Action, random.Random, float, int], Estimate]


def run(plan: Plan, estimator: Estimator, salt: str, budget_ms: float, cap: int,
        progress: Callable[[int, int], None] | None = None) -> Review:
    """The whole review in this process (tests, bench): ``estimator(game, state, seat, played,
    rng, budget_ms, cap)`` per point; ``progress(deals done, deals)`` after each deal."""
    out: list[Estimate] = []
    deals = len(plan.results)
    for i, p in enumerate(plan.points):
        rng = rng_for(salt, p, plan.seat)
        out.append(estimator(plan.game, p.state, plan.seat, p.played, rng, budget_ms, cap))
        nxt = plan.points[i + 1].deal if i + 1 < len(plan.points) else deals + 1
        if progress is not None and nxt != p.deal:
            progress(min(nxt - 1, deals), deals)
    return assemble(plan, out)
