"""Review speed: the time to review one seat of a whole session at the shipped budget.

Usage (from the project root):
    python bench/review_speed.py                     # Marias and Michigan, default options
    python bench/review_speed.py motz mus --seed 3

For each game, a session of the default options (default seats) is played by the easy policy
(seed 11), then seat 0 is reviewed in this process as the bot's AI worker would (``bot.review``:
the plan, then each decision's estimate with the session budget ``review_budget`` shared by the
decisions with a choice, at most ``review_cap`` rollouts each, the shipped ``Config``). Reported:
decisions, deals, CPU seconds (``time.process_time``, what the review costs the machine) and wall
seconds (the budget is wall-clock time, so a loaded machine buys fewer rollouts in it), and the
load average before and after (the machine is shared).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bot.ai.registry import easy_policy  # noqa: E402
from bot.config import Config  # noqa: E402
from bot.review import decision_points, estimate, run  # noqa: E402
from bot.review.analysis import per_decision_ms  # noqa: E402
from bot.review.selfplay import play_logged  # noqa: E402
from bot.rules import GAMES  # noqa: E402


def measure(game: str, seed: int, config: Config) -> str:
    g = GAMES[game]
    options = g.validate_options({})
    seats = g.default_seats
    log = play_logged(g, seats, options, seed, [easy_policy(game)] * seats, random.Random(seed))
    load0 = os.getloadavg()[0]
    c0, w0 = time.process_time(), time.perf_counter()
    plan = decision_points(g, seats, options, seed, log, 0)
    budget = per_decision_ms(plan, 1000.0 * config.review_budget)
    review = run(plan, estimate, str(seed), budget, config.review_cap)
    cpu, wall = time.process_time() - c0, time.perf_counter() - w0
    choices = sum(1 for p in plan.points if p.choices > 1)
    return (f"| {g.title} | {seats} | {len(log)} | {len(plan.results)} | {choices} / {len(plan.points)} | "
            f"{budget:.0f} | {cpu:.1f} | {wall:.1f} | {load0:.1f} → {os.getloadavg()[0]:.1f} | "
            f"{review.accuracy:.0f}% |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*", choices=[[], *sorted(GAMES)], help="default: marias michigan")
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    config = Config()
    print(f"review_budget = {config.review_budget:g} s per session, review_cap = {config.review_cap} "
          f"per decision; {os.cpu_count()} cores")
    print("| game | seats | actions | deals | decisions with a choice / all | ms per decision | CPU s "
          "| wall s | load avg (before → after) | accuracy (easy) |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for game in args.games or ["marias", "michigan"]:
        print(measure(game, args.seed, config), flush=True)


if __name__ == "__main__":
    main()
