"""Duplicate statistics of an arena run (issue 32): edges per duplicate group, with intervals.

A run is ``K`` groups of ``m`` sessions on the same deals (``bot.ai.arena.arrangements``: the
mirrored pair ``m = 2`` with an even number of seats, the six seatings with three). For a session
``d = Ā − B̄`` (the mean result of policy A's seats minus B's). For group ``k``:

    E_k = (1 / 2m) · Σ d over the group's sessions

(with ``m = 2``: issue 32's ``¼·[d(2k) + d(2k+1)]``; ``d / 2`` is A's edge over the table's mean
seat when both hold as many seats). Reported:

- the **duplicate win rate** ``W``: share of groups with ``E_k > 0``, ties ½, with a Wilson interval;
- the **mean edge** ``Ē`` per session (mean of ``E_k``) and per deal (mean of ``E_k`` over the
  group's mean number of deals), each with a 95% normal interval over the ``K`` groups;
- the **within-group correlation** of ``d`` (Fisher's intraclass correlation, i.e. the Pearson
  correlation of every ordered pair of sessions of a group about the overall mean): near −1 when
  the cards' luck dominates (the same deals favour the seats A holds in one session and B in its
  mirror), the reason the groups' intervals are narrower than the sessions';
- the **session win rate** (sessions where ``d > 0``, ties ½) with an interval clustered by group
  (the sessions of a group are not independent; CR1 sandwich variance, factor ``K / (K − 1)``).

Intervals use z = 1.96 (normal approximation), as the arena always has: the plan's runs have
K ≥ 200 groups, where Student's t differs in the third digit.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

Z = 1.96
#: |E_k| below this is a tie (the results are integers: a true edge is never this small).
TIE = 1e-9


@dataclass(frozen=True)
class Estimate:
    """A value with its 95% interval."""

    value: float
    low: float
    high: float

    def percent(self) -> str:
        """``71.2% (64.6–77.1)``: a share with its interval."""
        return f"{100 * self.value:.1f}% ({100 * self.low:.1f}–{100 * self.high:.1f})"

    def signed(self, digits: int = 2) -> str:
        """``+4.33 (+3.32 … +5.35)``: a signed mean with its interval."""
        return f"{self.value:+.{digits}f} ({self.low:+.{digits}f} … {self.high:+.{digits}f})"


def wilson(successes: float, n: int, z: float = Z) -> Estimate:
    """The rate ``successes / n`` with its Wilson score interval (``successes`` may hold halves)."""
    if n <= 0:
        raise ValueError("a rate needs at least one trial")
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return Estimate(p, centre - half, centre + half)


def mean_interval(xs: Sequence[float], z: float = Z) -> Estimate:
    """The mean of ``xs`` with a normal 95% interval (infinite with one value)."""
    if not xs:
        raise ValueError("a mean needs at least one value")
    m = statistics.fmean(xs)
    half = z * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else math.inf
    return Estimate(m, m - half, m + half)


def groups(values: Sequence[float], size: int) -> list[list[float]]:
    """``values`` cut into consecutive groups of ``size``; ``ValueError`` unless they divide evenly."""
    if size < 1 or not values or len(values) % size:
        raise ValueError(f"{len(values)} sessions are not whole groups of {size}")
    return [list(values[i:i + size]) for i in range(0, len(values), size)]


def group_edges(diffs: Sequence[float], size: int) -> list[float]:
    """``E_k = Σ d / (2 · size)`` per group of ``size`` sessions (module docstring)."""
    return [sum(g) / (2 * size) for g in groups(diffs, size)]


def outcome(x: float) -> float:
    """1 when ``x`` is ahead, 0 behind, ½ for a tie."""
    return 1.0 if x > TIE else 0.0 if x < -TIE else 0.5


def intraclass_correlation(values: Sequence[float], size: int) -> float:
    """Fisher's intraclass correlation of ``values`` within groups of ``size`` (nan if constant).

    ``Σ_k Σ_{i≠j} (x_ki − x̄)(x_kj − x̄) / ((size − 1) · Σ (x − x̄)²)``.
    """
    if size < 2:
        raise ValueError("a correlation within groups needs groups of two or more")
    gs = groups(values, size)
    mean = statistics.fmean(values)
    total = sum((x - mean) ** 2 for x in values)
    if total == 0:
        return math.nan
    cross = 0.0
    for g in gs:
        s = sum(x - mean for x in g)
        cross += s * s - sum((x - mean) ** 2 for x in g)  # Σ_{i≠j} = (Σ)² − Σ of squares
    return cross / ((size - 1) * total)


def clustered_rate(outcomes: Sequence[float], size: int, z: float = Z) -> Estimate:
    """The mean of ``outcomes`` (0, ½, 1 per session) with an interval clustered by group.

    Variance ``K/(K−1) · Σ_k (Σ_{s∈k} (w_s − p))² / N²`` over ``K`` groups of ``N`` sessions, the
    interval clipped to [0, 1] (infinite with one group).
    """
    gs = groups(outcomes, size)
    n, k = len(outcomes), len(gs)
    p = sum(outcomes) / n
    if k < 2:
        return Estimate(p, -math.inf, math.inf)
    var = k / (k - 1) * sum(sum(w - p for w in g) ** 2 for g in gs) / (n * n)
    half = z * math.sqrt(var)
    return Estimate(p, max(0.0, p - half), min(1.0, p + half))


@dataclass(frozen=True)
class Duplicate:
    """The duplicate statistics of one run (module docstring)."""

    groups: int
    size: int
    win_rate: Estimate  # W, groups with E_k > 0 (ties ½), Wilson
    edge: Estimate  # Ē per session, jetons
    edge_per_deal: Estimate  # Ē per deal, jetons
    correlation: float  # of d within a group
    session_win_rate: Estimate  # sessions with d > 0 (ties ½), clustered by group
    ties: int  # groups with E_k = 0

    def cells(self) -> str:
        """W, Ē per session, Ē per deal, r and the clustered session rate as Markdown table cells."""
        return (f"| {self.win_rate.percent()} | {self.edge.signed()} | {self.edge_per_deal.signed(3)} "
                f"| {self.correlation:+.2f} | {self.session_win_rate.percent()} |")


def duplicate(diffs: Sequence[float], deals: Sequence[int], size: int) -> Duplicate:
    """The statistics of sessions whose ``d = Ā − B̄`` and deal counts are given in play order."""
    if len(deals) != len(diffs):
        raise ValueError("one deal count per session")
    edges = group_edges(diffs, size)
    per_deal = [e / max(1.0, statistics.fmean(g)) for e, g in zip(edges, groups(deals, size), strict=True)]
    wins = [outcome(e) for e in edges]
    return Duplicate(
        groups=len(edges),
        size=size,
        win_rate=wilson(sum(wins), len(wins)),
        edge=mean_interval(edges),
        edge_per_deal=mean_interval(per_deal),
        correlation=intraclass_correlation(diffs, size) if size > 1 else math.nan,
        session_win_rate=clustered_rate([outcome(d) for d in diffs], size),
        ties=sum(1 for w in wins if w == 0.5),
    )


def gain(base: Sequence[float], other: Sequence[float], size: int) -> tuple[Estimate, Estimate]:
    """What a variant bought over a base run on the same deals (``d`` per session, both in play
    order): the mean of ``ΔE_k = E_k(other) − E_k(base)`` with its 95% interval, and the share of
    groups where it is positive (ties ½, Wilson)."""
    if len(base) != len(other):
        raise ValueError("the two runs must play the same sessions")
    delta = [o - b for o, b in zip(group_edges(other, size), group_edges(base, size), strict=True)]
    return mean_interval(delta), wilson(sum(map(outcome, delta)), len(delta))
