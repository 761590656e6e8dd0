"""Search speed: ISMCTS iterations per second of the strong AI, per game, and what 200 ms buys.

Usage (from the project root):
    python bench/search_speed.py                      # every game, 150 iterations per point
    python bench/search_speed.py mus michigan --iterations 300 --wall
    python bench/search_speed.py marias --spec 'determinize="bot.ai.marias.determinize:determinize_shown"'

Twelve decision points spread over one easy-played session (seed 11; the Maître with one tour)
are searched with a fixed iteration cap; the rate is iterations per CPU second (``--wall``:
per wall-clock second). A line times ``sum(range(10**7))`` first, to say how loaded the machine
was (about 0.14 s on an idle one).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from arena import override_spec  # noqa: E402  (bench/arena.py)

from bot.ai.registry import easy_policy  # noqa: E402
from bot.ai.strong.policy import StrongPolicy  # noqa: E402
from bot.rules import GAMES  # noqa: E402

SEATS = {"marias": 3, "maitre": 3}
OPTIONS = {"maitre": {"tours": 1}}


def decision_points(game: str, count: int = 12, every: int = 7, seed: int = 11) -> list:
    """Clones of ``count`` states of an easy-played session where the seat to act has a choice."""
    g = GAMES[game]
    options = g.validate_options(OPTIONS.get(game, {}))
    state = g.new_table(seats=SEATS.get(game, 4), options=options, seed=seed)
    easy, rng = easy_policy(game), random.Random(1)
    out: list = []
    k = 0
    while not state.is_over() and len(out) < count:
        seat = state.to_act()[0]
        legal = state.legal_actions(seat)
        if len(legal) > 1:
            if k % every == 0:
                out.append(state.clone())
            k += 1
        state.apply(seat, easy.choose(state.view(seat), legal, rng))
    return out


def rate(game: str, iterations: int, wall: bool = False) -> tuple[int, float]:
    """(iterations searched, seconds) over the game's decision points."""
    clock = time.perf_counter if wall else time.process_time
    policy = StrongPolicy(game, budget_ms=1e9, max_iterations=iterations)
    points = decision_points(game)
    total = 0
    t0 = clock()
    for s in points:
        seat = s.to_act()[0]
        _, result = policy.choose_traced(s.view(seat), s.legal_actions(seat), random.Random(1), s)
        total += result.iterations if result else 0
    return total, clock() - t0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=sorted(GAMES))
    parser.add_argument("--iterations", type=int, default=150)
    parser.add_argument("--wall", action="store_true", help="wall-clock time instead of CPU time")
    parser.add_argument("--spec", action="append", default=[], metavar="FIELD=JSON",
                        help="override a field of the games' search spec, as bench/arena.py does")
    args = parser.parse_args(argv)
    for game in args.games if args.spec else ():
        override_spec(game, args.spec)
    t0 = time.perf_counter()
    sum(range(10**7))
    print(f"sum(range(10**7)): {time.perf_counter() - t0:.2f} s; load average {os.getloadavg()[0]:.2f}")
    print("| game | iterations | seconds | iterations/s | per 200 ms |\n|---|---|---|---|---|")
    for game in args.games:
        n, dt = rate(game, args.iterations, args.wall)
        print(f"| {GAMES[game].title} | {n} | {dt:.2f} | {n / dt:,.0f} | {0.2 * n / dt:,.0f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
