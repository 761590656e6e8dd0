"""Play whole sessions between AI policies and measure them (used by ``bench/arena.py`` and tests).

Sessions come in **duplicate groups** (issue 32): every session of a group is played on the same
deals (one table seed) with another seating of the two policies, so the luck of the cards
cancels. The seatings of a group (``arrangements``) are the distinct rotations of the
alternating seating (A in seat 0, B in seat 1, …) and their mirrors (A and B swapped): with an
even number of seats the two mirrored sessions ``ABAB``/``BABA`` (Mus: seats 0/2 face 1/3, its
teams); with three seats all six seatings in which both play (``ABA BAB BAA ABB AAB BBA``, as
Skat programs are evaluated); with five seats ten. In every group each seat holds each policy
equally often, and each policy holds the same number of seats in all. (This is the reading of
issue 32's "all six arrangements (AAB … BBA)" for any seat count: for three seats it is every
seating with both policies; for more seats, every seating would weigh the policies unequally
by seat count, so only the rotations keep the balance.)
A searching policy (a level with ``search`` limits) gets the real state
(``bot.ai.policy.decide``); its searched decisions' iteration counts are kept, and
``budget_ms``/``max_iterations`` tune it (the ``--budget-ms``/``--iterations`` options of
``bench/arena.py``).
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.ai.levels import STRONG, level_of, policy_for, search_factor
from bot.ai.policy import Policy, decide
from bot.ai.strong.policy import StrongPolicy
from bot.rules import GAMES

MAX_ACTIONS = 200_000


@dataclass
class SessionResult:
    """One session: per-seat results (stack − buy_in), which policy sat where, decision times."""

    results: list[int]
    assignment: list[int]  # per seat: 0 = policy A, 1 = policy B
    actions: int
    times: list[list[float]] = field(default_factory=lambda: [[], []])  # seconds per decision
    iterations: list[int] = field(default_factory=list)  # per searched decision (strong seats)
    side_iterations: list[list[int]] = field(default_factory=lambda: [[], []])  # the same, per policy
    deals: int = 0  # deals played (the distinct ``deal`` indices of the views at decisions)
    seed: int = 0  # the table seed the session was dealt from

    def side_means(self) -> list[float]:
        """Each policy's mean seat result (A's, B's)."""
        return [statistics.fmean([r for r, a in zip(self.results, self.assignment, strict=True) if a == who])
                for who in (0, 1)]


def arrangements(seats: int) -> list[list[int]]:
    """The seatings of one duplicate group (per seat: 0 = policy A, 1 = policy B), in play order.

    The distinct rotations of the alternating seating, each followed by its mirror: 2 for an even
    number of seats, ``2 * seats`` for an odd one (module docstring).
    """
    out: list[list[int]] = []
    for r in range(seats):
        rotated = [((j + r) % seats) % 2 for j in range(seats)]
        for seating in (rotated, [1 - x for x in rotated]):
            if seating not in out:
                out.append(seating)
    return out


def group_size(seats: int) -> int:
    """Sessions per duplicate group (one table seed) at this seat count."""
    return len(arrangements(seats))


def assignment_for(seats: int, session: int) -> list[int]:
    """Which policy (0 = A, 1 = B) sits in each seat in ``session``."""
    seatings = arrangements(seats)
    return seatings[session % len(seatings)]


def session_seed(seed: int, session: int, size: int = 2) -> int:
    """The table seed of ``session``: the ``size`` sessions of a duplicate group share one."""
    return seed * 100_003 + session // size


def play_session(
    game_name: str,
    seats: int,
    options: dict[str, Any],
    table_seed: int,
    policies: Sequence[Policy],
    assignment: Sequence[int],
    rng_seed: int,
    timed: bool = True,
) -> SessionResult:
    """Play one session to its end with ``policies[assignment[seat]]`` in each seat."""
    game = GAMES[game_name]
    opts = game.validate_options(options)
    state = game.new_table(seats=seats, options=opts, seed=table_seed)
    rng = random.Random(rng_seed)
    out = SessionResult(results=[], assignment=list(assignment), actions=0, seed=table_seed)
    clock = time.perf_counter
    deals: set[Any] = set()
    while not state.is_over():
        seat = state.to_act()[0]
        view = state.view(seat)
        deals.add(view.get("deal"))
        legal = state.legal_actions(seat)
        who = assignment[seat]
        t0 = clock() if timed else 0.0
        policy = policies[who]
        traced = getattr(policy, "choose_traced", None)
        if traced is not None:
            action, result = traced(view, legal, rng, state)
            if result is not None:
                out.iterations.append(result.iterations)
                out.side_iterations[who].append(result.iterations)
        else:
            action = decide(policy, view, legal, rng, state)
        if timed:
            out.times[who].append(clock() - t0)
        state.apply(seat, action)
        out.actions += 1
        if out.actions > MAX_ACTIONS:
            raise RuntimeError(f"{game_name}: session {table_seed} never ends")
    out.results = [s - opts["buy_in"] for s in state.stacks]
    out.deals = len(deals)
    return out


@dataclass
class ArenaReport:
    """Aggregates over sessions for policies A and B."""

    names: tuple[str, str]
    sessions: int
    per_session: list[list[float]]  # [policy][session]: mean result of its seats
    times: list[list[float]]
    actions: int
    iterations: list[int] = field(default_factory=list)  # searched decisions' iteration counts
    side_iterations: list[list[int]] = field(default_factory=lambda: [[], []])  # the same, per policy
    group: int = 2  # sessions per duplicate group (``group_size``): sessions ``g*k … g*k+g-1`` share deals
    deals: list[int] = field(default_factory=list)  # [session]: deals played
    seeds: list[int] = field(default_factory=list)  # [session]: table seed

    def mean(self, who: int) -> float:
        return statistics.fmean(self.per_session[who])

    def diffs(self) -> list[float]:
        """``d = Ā − B̄`` per session, in play order (the duplicate statistics' input)."""
        return [a - b for a, b in zip(self.per_session[0], self.per_session[1], strict=True)]

    def mean_interval(self, who: int) -> tuple[float, float]:
        """95% interval of the mean jetons per session (normal approximation)."""
        xs = self.per_session[who]
        m = statistics.fmean(xs)
        half = 1.96 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else float("inf")
        return m - half, m + half

    @property
    def wins(self) -> list[float]:
        """[policy]: sessions won head to head (ties count half)."""
        a_won = sum(1.0 if a > b else 0.0 if a < b else 0.5
                    for a, b in zip(self.per_session[0], self.per_session[1], strict=True))
        return [a_won, self.sessions - a_won]

    def win_rate(self, who: int) -> float:
        return self.wins[who] / self.sessions

    def win_interval(self, who: int) -> tuple[float, float]:
        """95% Wilson interval of the head-to-head win rate."""
        n, p, z = self.sessions, self.win_rate(who), 1.96
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        return centre - half, centre + half

    def time_ms(self, who: int, q: float) -> float:
        ts = sorted(self.times[who])
        if not ts:
            return float("nan")
        return 1000 * ts[min(len(ts) - 1, int(q * len(ts)))]


def run_arena(
    game_name: str,
    level_a: str,
    level_b: str,
    sessions: int,
    seats: int | None = None,
    seed: int = 1,
    options: dict[str, Any] | None = None,
    timed: bool = True,
    budget_ms: float | None = None,
    max_iterations: int | None = None,
    first: int = 0,
    on_session: Callable[[int, SessionResult], None] | None = None,
) -> ArenaReport:
    """Play sessions ``first … first + sessions − 1`` of A against B and aggregate the results.

    ``budget_ms``/``max_iterations``: search limits of a strong side, times ``search_factor`` for
    another searching side (5 for the expert; None: their levels' own). A session's seating, table
    seed and rng depend only on its index, so a run played in slices (``first``) plays exactly the
    sessions of the whole run. ``on_session(index, result)`` is called after each session (the
    journal of ``bench/arena.py``).
    """
    game = GAMES[game_name]
    n = seats or game.default_seats or game.min_seats
    policies = [_policy(game_name, level, budget_ms, max_iterations) for level in (level_a, level_b)]
    iterations: list[int] = []
    side_iterations: list[list[int]] = [[], []]
    per_session: list[list[float]] = [[], []]
    times: list[list[float]] = [[], []]
    actions = 0
    size = group_size(n)
    deals: list[int] = []
    seeds: list[int] = []
    for i in range(first, first + sessions):
        assignment = assignment_for(n, i)
        seeds.append(session_seed(seed, i, size))
        res = play_session(
            game_name, n, dict(options or {}), seeds[-1], policies, assignment,
            rng_seed=seed * 7_919 + i, timed=timed,
        )
        if on_session is not None:
            on_session(i, res)
        deals.append(res.deals)
        for who, mean in enumerate(res.side_means()):
            per_session[who].append(mean)
            times[who].extend(res.times[who])
        actions += res.actions
        iterations.extend(res.iterations)
        for who in (0, 1):
            side_iterations[who].extend(res.side_iterations[who])
    return ArenaReport(
        (level_a, level_b), sessions, per_session, times, actions, iterations, side_iterations,
        size, deals, seeds,
    )


def _policy(game_name: str, level: str, budget_ms: float | None, max_iterations: int | None) -> Policy:
    """The level's policy, or a searching one with the given limits.

    The limits are strong's; each searching level gets them times ``search_factor`` (the
    expert 5 times each), so the levels keep the ratio of their iteration caps when compared by
    iterations.
    """
    lv = level_of(level)
    if lv.search is None or (budget_ms is None and max_iterations is None):
        return policy_for(game_name, lv)
    assert STRONG.search is not None
    base = STRONG.search
    factor = search_factor(lv)
    budget = (base.budget_ms if budget_ms is None else budget_ms) * factor
    cap = (base.max_iterations if max_iterations is None else max_iterations) * factor
    return StrongPolicy(game_name, budget_ms=budget, max_iterations=cap, expert=lv.search.expert)
