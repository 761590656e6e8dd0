"""What seating a tournament round costs on the event loop (issue 33).

``bot.tournaments.pairing.seat`` runs in the runner's task when a round opens: a backtracking
search capped at ``BUDGET`` steps, then a greedy pass. This times, for events of several sizes,
every round of a Swiss (standings order, here a shuffle) and of a club night, the worst and the
median round, and the repeated meetings left (0 while avoidable).

    python bench/tournaments.py [--rounds 12]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.tournaments import pairing  # noqa: E402

CASES = ((8, 3), (16, 4), (64, 4), (64, 2), (200, 3), (12, 4))


def run(n: int, size: int, rounds: int) -> tuple[float, float, int]:
    """(median ms, worst ms, repeats over all rounds) for ``rounds`` rounds of ``n`` entrants."""
    met: dict[frozenset[int], int] = {}
    times, repeats = [], 0
    for r in range(1, rounds + 1):
        order = list(range(n))
        random.Random(r).shuffle(order)
        start = time.perf_counter()
        tables = pairing.seat(order, size, met)
        times.append((time.perf_counter() - start) * 1000)
        repeats += pairing.repeats(tables, met)
        for k, v in pairing.meetings(tables).items():
            met[k] = met.get(k, 0) + v
    return statistics.median(times), max(times), repeats


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=12)
    args = parser.parse_args()
    print("| entrants | per table | rounds | median / worst round | repeated meetings |")
    print("|---|---|---|---|---|")
    for n, size in CASES:
        median, worst, repeats = run(n, size, args.rounds)
        print(f"| {n} | {size} | {args.rounds} | {median:.2f} / {worst:.2f} ms | {repeats} |")


if __name__ == "__main__":
    main()
