"""Strong against another level: whole sessions where the strong seats get the real state.

The shared arena (``bot.ai.arena``) calls ``choose(view, legal, rng)``; search needs the state,
so this module plays the sessions itself, with the same seating (alternating seats, mirrored
pairs on the same deals) and the same ``ArenaReport`` aggregates. Usage::

    python -m bot.ai.strong.arena mus --b easy --sessions 60 --budget-ms 200
    python -m bot.ai.strong.arena michigan --iterations 400 --budget-ms 10000   # capped by iterations
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from typing import Any

from bot.ai.arena import ArenaReport, assignment_for, session_seed
from bot.ai.registry import policy_for
from bot.ai.strong.policy import StrongPolicy
from bot.rules import GAMES

MAX_ACTIONS = 200_000


def play_session(
    game_name: str, seats: int, options: dict[str, Any], table_seed: int,
    policies: list[Any], assignment: list[int], rng_seed: int,
) -> tuple[list[int], list[list[float]], list[int], int]:
    """One session; returns (results per seat, decision seconds per policy, iterations, actions)."""
    game = GAMES[game_name]
    opts = game.validate_options(options)
    state = game.new_table(seats=seats, options=opts, seed=table_seed)
    rng = random.Random(rng_seed)
    times: list[list[float]] = [[], []]
    iterations: list[int] = []
    actions = 0
    clock = time.perf_counter
    while not state.is_over():
        seat = state.to_act()[0]
        view = state.view(seat)
        legal = state.legal_actions(seat)
        who = assignment[seat]
        policy = policies[who]
        t0 = clock()
        if isinstance(policy, StrongPolicy):
            action = policy.choose(view, legal, rng, state=state)
            if policy.last is not None:
                iterations.append(policy.last.iterations)
        else:
            action = policy.choose(view, legal, rng)
        times[who].append(clock() - t0)
        state.apply(seat, action)
        actions += 1
        if actions > MAX_ACTIONS:
            raise RuntimeError(f"{game_name}: session {table_seed} never ends")
    return [s - opts["buy_in"] for s in state.stacks], times, iterations, actions


def run(
    game_name: str, level_b: str, sessions: int, seats: int | None = None, seed: int = 1,
    options: dict[str, Any] | None = None, budget_ms: float = 200.0, max_iterations: int | None = None,
    progress: bool = False,
) -> tuple[ArenaReport, list[int]]:
    """Strong (A) against ``level_b`` (B) over ``sessions`` sessions; the report and iteration counts."""
    game = GAMES[game_name]
    n = seats or game.default_seats or game.min_seats
    policies = [StrongPolicy(game_name, budget_ms=budget_ms, max_iterations=max_iterations),
                policy_for(game_name, level_b)]
    per_session: list[list[float]] = [[], []]
    wins = [0.0, 0.0]
    times: list[list[float]] = [[], []]
    iterations: list[int] = []
    actions = 0
    for i in range(sessions):
        assignment = assignment_for(n, i)
        results, ts, its, acts = play_session(
            game_name, n, dict(options or {}), session_seed(seed, i), policies, assignment, seed * 7_919 + i,
        )
        means = [statistics.fmean([r for r, a in zip(results, assignment, strict=True) if a == who])
                 for who in (0, 1)]
        for who in (0, 1):
            per_session[who].append(means[who])
            times[who].extend(ts[who])
        if means[0] != means[1]:
            wins[0 if means[0] > means[1] else 1] += 1
        else:
            wins[0] += 0.5
            wins[1] += 0.5
        iterations.extend(its)
        actions += acts
        if progress:
            print(f"  session {i + 1}/{sessions}: strong {means[0]:+.1f}, {level_b} {means[1]:+.1f}",
                  file=sys.stderr, flush=True)
    return ArenaReport(("strong", level_b), sessions, per_session, wins, times, actions), iterations


def format_report(report: ArenaReport, iterations: list[int], title: str) -> str:
    """The result as a Markdown table plus the searched decisions' iteration counts."""
    header = "| policy | win rate (95% CI) | jetons/session (95% CI) | decision p50 | decision p95 |"
    lines = [title, "", header, "|---|---|---|---|---|"]
    for who, name in enumerate(report.names):
        lo, hi = report.win_interval(who)
        mlo, mhi = report.mean_interval(who)
        lines.append(
            f"| {'AB'[who]}: {name} | {100 * report.win_rate(who):.1f}% ({100 * lo:.1f}–{100 * hi:.1f}) "
            f"| {report.mean(who):+.2f} ({mlo:+.2f} … {mhi:+.2f}) "
            f"| {report.time_ms(who, 0.5):.1f} ms | {report.time_ms(who, 0.95):.1f} ms |"
        )
    if iterations:
        its = sorted(iterations)
        lines.append(f"\nsearched decisions: {len(its)}, iterations p5/p50/p95: "
                     f"{its[len(its) // 20]}/{its[len(its) // 2]}/{its[19 * len(its) // 20]}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="strong (ISMCTS) against another AI level")
    parser.add_argument("game", choices=sorted(GAMES))
    parser.add_argument("--b", default="easy")
    parser.add_argument("--sessions", type=int, default=40)
    parser.add_argument("--seats", type=int, default=None)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--options", default="{}")
    parser.add_argument("--budget-ms", type=float, default=200.0)
    parser.add_argument("--iterations", type=int, default=None, help="iteration cap per decision")
    parser.add_argument("--progress", action="store_true")
    args = parser.parse_args(argv)
    t0 = time.perf_counter()
    report, its = run(args.game, args.b, args.sessions, seats=args.seats, seed=args.seed,
                      options=json.loads(args.options), budget_ms=args.budget_ms,
                      max_iterations=args.iterations, progress=args.progress)
    game = GAMES[args.game]
    seats = args.seats or game.default_seats or game.min_seats
    title = (f"{game.title}, {seats} seats, {report.sessions} sessions, {report.actions} actions, "
             f"budget {args.budget_ms:g} ms, iteration cap {args.iterations}")
    print(format_report(report, its, title))
    print(f"\n({time.perf_counter() - t0:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
