"""A session's decisions by one seat and its deals' results, read back from the action log.

``decision_points(...)`` replays the log (``bot.tables.deals.walk``) and keeps, for every action
``seat`` took, the state just before it (the estimate determinizes it: it is never shown), the
move played, the deal it belongs to and how many moves were legal. A move the table played for
the seat (``STAND_IN``: the AI while its player was away, the timeout move at a deadline) is not
the player's decision: it is counted (``Plan.auto``), not graded. Deals are cut where the
search's own deal counter (``GameSpec.deal_no``) changes, and each deal's result for the seat is
the change of the search's value (``GameSpec.values``: jetons, the Maître's points, the Mus
match chance) over it, so the result and the estimates are in the same unit.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.ai.policy import Action
from bot.ai.registry import spec_for
from bot.rules.base import Game
from bot.store.tables import ActionRow
from bot.tables.replay import apply_logged

#: The log's actors of a move the table made for a seat, not its player's decision: the AI standing
#: in for an away player, the timeout move at a deadline (``bot.tables.autoplay``).
STAND_IN = frozenset({"ai", "timeout"})


@dataclass
class Point:
    """One decision of the reviewed seat: ``state`` before it (kept for the estimate only)."""

    deal: int  # from 1
    version: int  # the action's version in the log
    played: Action
    choices: int  # legal moves then
    state: Any = field(repr=False, default=None)


@dataclass
class Plan:
    """What a review estimates: the seat's decisions and each deal's result for the seat."""

    game: str
    seat: int
    points: list[Point]
    results: list[float]  # per deal, in the natural unit
    scale: float  # the search's unit of reward at the first deal (thresholds are fractions of it)
    unit: str
    auto: int = 0  # the seat's moves the table played for it (``STAND_IN``), left out of ``points``


def gain(spec: Any, before: Sequence[float], after: Sequence[float], seat: int) -> float:
    """``seat``'s change of the search's value from ``before`` to ``after``; in a game the search
    reads relatively (``GameSpec.relative``: the Maître), less the other seats' mean change, as
    the estimates value the moves."""
    own = after[seat] - before[seat]
    n = len(before)
    if not spec.relative or n < 2:
        return own
    return own - sum(after[i] - before[i] for i in range(n) if i != seat) / (n - 1)


def decision_points(game: Game, seats: int, options: dict[str, Any], seed: int, log: Sequence[ActionRow],
                    seat: int, keep_states: bool = True) -> Plan:
    """The plan of a review of ``seat`` over the session (see the module docstring)."""
    spec = spec_for(game.name)
    state = game.new_table(seats, options, seed)
    scale = float(spec.scale(state) or 1.0)
    points: list[Point] = []
    results: list[float] = []
    deal_no = spec.deal_no(state)
    start = list(spec.values(state))
    over = state.is_over()
    auto = 0
    for row in log:
        if row.seat == seat and row.action.get("type") is not None:
            if row.actor in STAND_IN:
                auto += 1  # the table's move for the seat: counted, not graded
            else:
                choices = len(state.legal_actions(seat))
                points.append(Point(len(results) + 1, row.version, dict(row.action), choices,
                                    state.clone() if keep_states else None))
        apply_logged(state, row.seat, row.action)
        now = spec.deal_no(state)
        if now != deal_no or (state.is_over() and not over):
            values = list(spec.values(state))
            results.append(gain(spec, start, values, seat))
            deal_no, start, over = now, values, state.is_over()
    if points and points[-1].deal > len(results):  # the log stops mid-deal: that deal so far
        results.append(gain(spec, start, list(spec.values(state)), seat))
    return Plan(game.name, seat, points, results, scale, spec.unit, auto)


def view_at(game: Game, seats: int, options: dict[str, Any], seed: int, log: Sequence[ActionRow],
            version: int, seat: int) -> dict[str, Any]:
    """``seat``'s own view just before the action of ``version`` (what the player saw then)."""
    state = game.new_table(seats, options, seed)
    for row in log:
        if row.version >= version:
            break
        apply_logged(state, row.seat, row.action)
    return dict(state.view(seat))


def plan_for(game_name: str, seats: int, options: dict[str, Any], seed: int, log: Sequence[ActionRow],
             seat: int) -> Plan:
    """``decision_points`` by the game's name (what an AI worker process is handed)."""
    from bot.rules import GAMES

    return decision_points(GAMES[game_name], seats, options, seed, log, seat)
