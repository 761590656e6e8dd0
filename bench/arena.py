"""Arena: whole sessions between two AI levels; win rate, jetons per session, decision times.

Usage (from the project root):
    python bench/arena.py mus --a easy --b random --sessions 400
    python bench/arena.py motz --a easy --b random --sessions 600 --seats 5 --seed 7
    python bench/arena.py mus --a strong --b easy --sessions 60 --budget-ms 200
    python bench/arena.py michigan --a strong --b easy --iterations 400 --budget-ms 10000  # by iterations
    python bench/arena.py motz --a expert --b strong --iterations 200 --budget-ms 1e9  # expert: 5x
    python bench/arena.py michigan --a strong --b easy --iterations 200 --budget-ms 1e9 --spec prior_z=1.0

Seats alternate between A and B (Mus: seats 0/2 against 1/3), swapped every other session on
the same deals. Per policy: head-to-head win rate (sessions where its seats averaged more
jetons than the other policy's; ties half) with a 95% Wilson interval, mean jetons per session
(stack − buy_in, averaged over its seats) with a 95% interval, and decision time p50/p95.
Deterministic for a given --seed (apart from the times, and a strong side's choices when its
time budget, not ``--iterations``, ends its searches). ``--budget-ms``/``--iterations`` are
strong's limits; an expert side gets 5 times each (the ratio of their default budgets).
``--spec FIELD=JSON`` (repeatable) overrides a field of the game's search spec
(``bot.ai.strong.spec.GameSpec``) for this run, to try a lever before changing the code.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import shlex
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bot.ai.arena import ArenaReport, run_arena  # noqa: E402
from bot.ai.levels import EASY, LEVELS, RANDOM  # noqa: E402
from bot.rules import GAMES  # noqa: E402


def format_report(report: ArenaReport, game: str, seats: int) -> str:
    """The result table as Markdown."""
    lines = [
        f"{GAMES[game].title}, {seats} seats, {report.sessions} sessions, {report.actions} actions",
        "",
        "| policy | win rate (95% CI) | jetons/session (95% CI) | decision p50 | decision p95 |",
        "|---|---|---|---|---|",
    ]
    for who, name in enumerate(report.names):
        lo, hi = report.win_interval(who)
        mlo, mhi = report.mean_interval(who)
        label = f"{'AB'[who]}: {name}"
        lines.append(
            f"| {label} | {100 * report.win_rate(who):.1f}% ({100 * lo:.1f}–{100 * hi:.1f}) "
            f"| {report.mean(who):+.2f} ({mlo:+.2f} … {mhi:+.2f}) "
            f"| {report.time_ms(who, 0.5):.3f} ms | {report.time_ms(who, 0.95):.3f} ms |"
        )
    its = sorted(report.iterations)
    if its:
        lines.append(f"\nsearched decisions: {len(its)}, iterations p5/p50/p95: "
                     f"{its[len(its) // 20]}/{its[len(its) // 2]}/{its[19 * len(its) // 20]}")
    for who, name in enumerate(report.names):
        side = sorted(report.side_iterations[who])
        if side:
            lines.append(f"{'AB'[who]}: {name}: {len(side)} searched decisions, iterations "
                         f"p5/p50/p95: {side[len(side) // 20]}/{side[len(side) // 2]}/"
                         f"{side[19 * len(side) // 20]}")
    return "\n".join(lines)


def override_spec(game: str, pairs: list[str]) -> None:
    """Replace fields of ``game``'s search spec from ``FIELD=JSON`` pairs (``null`` for None)."""
    from bot.ai.registry import game_ai, spec_for
    from bot.ai.strong.spec import GameSpec

    changes = {}
    for pair in pairs:
        name, _, value = pair.partition("=")
        if name not in {f.name for f in dataclasses.fields(GameSpec)}:
            raise SystemExit(f"--spec: GameSpec has no field {name!r}")
        changes[name] = json.loads(value)
    game_ai(game).spec = dataclasses.replace(spec_for(game), **changes)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=sorted(GAMES))
    parser.add_argument("--a", default=str(EASY), choices=LEVELS, help="level of policy A")
    parser.add_argument("--b", default=str(RANDOM), choices=LEVELS, help="level of policy B")
    parser.add_argument("--sessions", type=int, default=200)
    parser.add_argument("--seats", type=int, default=None)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--options", default="{}", help="host options as JSON")
    parser.add_argument("--budget-ms", type=float, default=None,
                        help="strong: time per decision (expert: 5x)")
    parser.add_argument("--iterations", type=int, default=None,
                        help="strong: iteration cap per decision (expert: 5x)")
    parser.add_argument("--spec", action="append", default=[], metavar="FIELD=JSON",
                        help="override a field of the strong search's GameSpec (experiments)")
    args = parser.parse_args(argv)
    game = GAMES[args.game]
    if args.spec:
        override_spec(args.game, args.spec)
    seats = args.seats or game.default_seats or game.min_seats
    if not game.min_seats <= seats <= game.max_seats:
        parser.error(f"{game.title} is played by {game.min_seats} to {game.max_seats} players")
    shown = ["python", "bench/arena.py", *(sys.argv[1:] if argv is None else argv)]
    print("$ " + shlex.join(shown))
    t0 = time.perf_counter()
    report = run_arena(
        args.game, args.a, args.b, args.sessions, seats=seats, seed=args.seed,
        options=json.loads(args.options), budget_ms=args.budget_ms, max_iterations=args.iterations,
    )
    print(format_report(report, args.game, seats))
    print(f"\n({time.perf_counter() - t0:.1f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
