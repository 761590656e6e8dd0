"""Event-loop lag while profile cards count favourites (``/stats``, ``bot.views.boards.favourites``).

A card not cached replays up to 20 of the player's sessions per game in a thread (``asyncio.to_thread``).
Before ``Wallet.cards`` a member's burst of ``/stats user:…`` (one per player) ran as many of those at
once as they sent; now one at a time per member, ``STATS_CAPACITY`` at once bot-wide. This runs
``--concurrent`` such counts at once (each over the same 20 Jeu du Maître sessions, played at random,
as the bot does it: ``contracts_of`` per session, in the default thread pool) while a task sleeping
10 ms at a time measures how late the loop wakes it.

    python bench/stats_burst.py [--concurrent 1,4,12] [--rounds 3]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.rules import GAMES  # noqa: E402
from bot.store.tables import ActionRow  # noqa: E402
from bot.tables.deals import contracts_of  # noqa: E402
from bot.tables.replay import SessionLog  # noqa: E402

SESSIONS = 20  # bot.views.boards.FAVOURITE_SESSIONS


def sessions(game: str = "maitre", seats: int = 4) -> list[SessionLog]:
    """``SESSIONS`` whole sessions of ``game`` played at random (seeds 0…), as logs."""
    rules = GAMES[game]
    options = rules.validate_options({})
    out = []
    for seed in range(SESSIONS):
        state, rng, actions = rules.new_table(seats, options, seed), random.Random(seed), []
        while not state.is_over():
            seat = state.to_act()[0]
            action = rng.choice(state.legal_actions(seat))
            state.apply(seat, action)
            actions.append(ActionRow(len(actions), seat, action, "player", 0.0))
        out.append(SessionLog(rules, seats, options, seed, actions))
    return out


def count(logs: list[SessionLog]) -> int:
    """One player's favourite counted as ``favourites`` does (every session replayed)."""
    return sum(len(contracts_of(log, 0)) for log in logs)


async def run(logs: list[SessionLog], concurrent: int) -> dict[str, Any]:
    lags: list[float] = []
    done = asyncio.Event()

    async def sleeper() -> None:
        while not done.is_set():
            start = time.perf_counter()
            await asyncio.sleep(0.010)
            lags.append((time.perf_counter() - start - 0.010) * 1000)

    watch = asyncio.ensure_future(sleeper())
    start = time.perf_counter()
    await asyncio.gather(*(asyncio.to_thread(count, logs) for _ in range(concurrent)))
    wall = time.perf_counter() - start
    done.set()
    await watch
    lags.sort()
    return {"wall": wall, "p50": statistics.median(lags), "p99": lags[int(0.99 * (len(lags) - 1))],
            "max": lags[-1]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--concurrent", default="1,4,12")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    logs = sessions()
    count(logs)  # warm-up
    for n in (int(x) for x in args.concurrent.split(",")):
        runs = [asyncio.run(run(logs, n)) for _ in range(args.rounds)]
        best = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
        print(f"{n:>3} counts at once: wall {best['wall']:.2f} s, loop lag p50 {best['p50']:.1f} / "
              f"p99 {best['p99']:.1f} / max {best['max']:.1f} ms (median of {args.rounds})")


if __name__ == "__main__":
    main()
