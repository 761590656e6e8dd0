"""The AI levels' accuracy: AI-only sessions of each game reviewed seat by seat, as /review reviews
a player, written to ``bot/review/data/levels.json`` (what /stats shows beside a player's own).

Usage (from the project root):
    python bench/review_levels.py                              # every game and level, 2 sessions
    python bench/review_levels.py --sessions 4 --cap 200 --iterations 100
    python bench/review_levels.py marias --dry-run             # print, write nothing

For each game of ``GAMES`` and each level of the registry (``bot.ai.LEVELS``), ``--sessions``
sessions of the game's shortest options (``Game.shortest_options``, default seats, seeds 1, 2, …)
are played with that level in every seat; every seat is then reviewed (``bot.review``, the same
estimate as /review, at most ``--cap`` rollouts per decision, no clock: the figures do not depend
on the machine's load). A searching level plays with its search capped at ``--iterations``
times its share of the default cap (the expert keeps its 5× over strong), so the run is
deterministic. A level's accuracy is the mean over its decisions' scores (``bot.review.grades``).
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import random
import shlex
import sys
import time
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bot.ai import LEVELS, policy_for  # noqa: E402
from bot.ai.strong.policy import DEFAULT_MAX_ITERATIONS  # noqa: E402
from bot.review import decision_points, estimate, run  # noqa: E402
from bot.review.grades import score  # noqa: E402
from bot.review.selfplay import play_logged  # noqa: E402
from bot.rules import GAMES  # noqa: E402

OUT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "bot", "review", "data",
                   "levels.json")


def level_policy(game: str, level: str, iterations: int) -> Any:
    """The registry's policy; a searching one on a fixed iteration cap, no clock (a copy)."""
    policy = policy_for(game, level)
    if getattr(policy, "searches", False) and policy.max_iterations:
        policy = copy.copy(policy)
        policy.max_iterations = max(1, round(iterations * policy.max_iterations / DEFAULT_MAX_ITERATIONS))
        policy.budget_ms = 1e9
    return policy


def measure(game: str, level: str, sessions: int, cap: int, iterations: int) -> dict[str, Any]:
    g = GAMES[game]
    options = g.validate_options(g.shortest_options())
    seats = g.default_seats
    scores: list[float] = []
    counts: dict[str, int] = {}
    policy = level_policy(game, level, iterations)
    for k in range(1, sessions + 1):
        log = play_logged(g, seats, options, k, [policy] * seats, random.Random(k))
        for seat in range(seats):
            plan = decision_points(g, seats, options, k, log, seat)
            review = run(plan, estimate, f"levels:{k}", 1e9, cap)
            for d in review.decisions:
                if d.choices > 1:
                    scores.append(score(game, d.cost, plan.scale))
                    counts[d.grade] = counts.get(d.grade, 0) + 1
    accuracy = 100.0 * sum(scores) / len(scores) if scores else None
    return {"accuracy": None if accuracy is None else round(accuracy, 1), "decisions": len(scores),
            "sessions": sessions, "grades": counts}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*", choices=[[], *sorted(GAMES)], help="default: every game")
    parser.add_argument("--levels", nargs="*", choices=[str(level) for level in LEVELS],
                        help="default: every level")
    parser.add_argument("--sessions", type=int, default=2)
    parser.add_argument("--cap", type=int, default=120, help="rollouts per reviewed decision")
    parser.add_argument("--iterations", type=int, default=100, help="strong's search cap (expert: 5x)")
    parser.add_argument("--dry-run", action="store_true")
    args = parser.parse_args()
    command = "python bench/review_levels.py " + shlex.join(sys.argv[1:])
    data: dict[str, Any] = {"games": {}, "commands": {}}
    if os.path.exists(OUT):
        with open(OUT, encoding="utf-8") as fh:
            old = json.load(fh)
        data["games"], data["commands"] = old.get("games", {}), old.get("commands", {})
    print("| game | level | accuracy | decisions | best · good · inaccuracy · mistake · blunder | CPU s |")
    print("|---|---|---|---|---|---|")
    for game in args.games or sorted(GAMES):
        for level in args.levels or [str(level) for level in LEVELS]:
            t0 = time.process_time()
            figures = measure(game, level, args.sessions, args.cap, args.iterations)
            data["games"].setdefault(game, {})[level] = figures
            data["commands"][game] = command
            grades = " · ".join(str(figures["grades"].get(k, 0))
                                for k in ("best", "good", "inaccuracy", "mistake", "blunder"))
            print(f"| {GAMES[game].title} | {level} | {figures['accuracy']}% | {figures['decisions']} "
                  f"| {grades} | {time.process_time() - t0:.0f} |", flush=True)
            if not args.dry_run:  # after each level: a long run keeps what it measured
                with open(OUT, "w", encoding="utf-8") as fh:
                    json.dump(data, fh, indent=1, sort_keys=True)
                    fh.write("\n")


if __name__ == "__main__":
    main()
