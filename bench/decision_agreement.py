"""Is the search saturated? How often strong plays another move than itself, and than the expert.

Usage (from the project root):
    python bench/decision_agreement.py                       # every game, issue 32's fixed counts
    python bench/decision_agreement.py motz michigan --points 200

At decision points of easy-played sessions (``bench/search_speed.py``'s points, seeds 300…, every
fifth decision with a choice) where strong searches, strong decides twice with two rngs at the
plan's fixed iteration count (``COUNTS``: what 200 ms bought, issue 32) and the expert once at
5× that. Printed per game: how many searched points, and on how many of them strong agreed with
itself and with the expert. Where strong disagrees with itself, its move there is decided by its
sampling, and more search (the expert) can decide it better: that is the room the expert has.
Where strong almost never disagrees with itself, five times the search changes almost no move:
the expert cannot be much stronger there by searching more, and what is left to win lies
elsewhere (the hidden cards: ``research/ceiling.py --peek``). Moves of equal worth (two cards of
the same value) count as disagreements too, so a high rate is an upper bound on the room.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from search_speed import decision_points  # noqa: E402  (bench/search_speed.py)

from bot.ai.strong.keys import action_key  # noqa: E402
from bot.ai.strong.policy import StrongPolicy  # noqa: E402
from bot.rules import GAMES  # noqa: E402

#: Issue 32's fixed iteration counts for strong (the expert: 5×), what 200 ms bought.
COUNTS = {"motz": 2100, "michigan": 2530, "marias": 1130, "mus": 1000, "maitre": 760}


def searched_points(game: str, count: int) -> list:
    """Up to ``count`` decision points where strong searches (Mus does not search its lances)."""
    probe = StrongPolicy(game, budget_ms=1e9, max_iterations=1)
    out: list = []
    for seed in range(300, 1300):
        for state in decision_points(game, count=40, every=5, seed=seed):
            seat = state.to_act()[0]
            if probe.choose_traced(state.view(seat), state.legal_actions(seat), random.Random(0), state)[1]:
                out.append(state)
                if len(out) == count:
                    return out
    return out


def agreement(game: str, count: int, iterations: int) -> tuple[int, int, int, float]:
    """(searched points, strong agreeing with itself, strong agreeing with the expert, CPU s)."""
    t0 = time.process_time()
    strong = StrongPolicy(game, budget_ms=1e9, max_iterations=iterations)
    expert = StrongPolicy(game, budget_ms=1e9, max_iterations=iterations, expert=True)
    points = searched_points(game, count)
    itself = with_expert = 0
    for state in points:
        seat = state.to_act()[0]
        legal, view = state.legal_actions(seat), state.view(seat)
        first = action_key(strong.choose(view, legal, random.Random(1), state))
        itself += first == action_key(strong.choose(view, legal, random.Random(2), state))
        with_expert += first == action_key(expert.choose(view, legal, random.Random(3), state))
    return len(points), itself, with_expert, time.process_time() - t0


def share(k: int, n: int) -> str:
    """``k (p%)`` of ``n`` (``—`` for none)."""
    return f"{k} ({100 * k / n:.1f}%)" if n else "—"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", help=f"default: every game ({', '.join(sorted(COUNTS))})")
    parser.add_argument("--points", type=int, default=120, help="searched decision points per game")
    args = parser.parse_args(argv)
    unknown = [g for g in args.games if g not in COUNTS]
    if unknown:
        parser.error(f"no such game: {', '.join(unknown)} (choose from {', '.join(sorted(COUNTS))})")
    print("| game | strong / expert iterations | searched points | strong = strong (another rng) "
          "| strong = expert | CPU s |\n|---|---|---|---|---|---|")
    for game in args.games or sorted(COUNTS):
        n, itself, with_expert, seconds = agreement(game, args.points, COUNTS[game])
        print(f"| {GAMES[game].title} | {COUNTS[game]:,} / {5 * COUNTS[game]:,} | {n} | {share(itself, n)} "
              f"| {share(with_expert, n)} | {seconds:.0f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
