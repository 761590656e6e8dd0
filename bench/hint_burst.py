"""A strong-AI table's move delay under a burst of ``/hint`` searches, on the bot's AI pool.

The scene of issue 26 item 6: twelve players ask ``/hint`` at once while another table, where a
human is present, waits for its strong AI's move. The bot's own pool is used as the bot uses it
(``bot.tables.ai_pool.AiPool``, worker processes, ``--workers`` of them: 1 in production), with
the very calls the bot makes: the table's move is ``search_move`` at the strong level, submitted
as urgent (a human is present), and each hint is ``bot.ai.coach.hint`` submitted as ``/hint``
submits it:

- ``--hints-as hint`` (today): ``priority=Priority.HINT``, behind every table's move;
- ``--hints-as urgent`` (before): ``urgent=True``, as ``/hint`` did before issue 26, i.e. as
  urgent as the table's move, first come first served.

Each round: the twelve hints are submitted (one starts on the worker), then the table's move;
the delay is from the move's submission to its result. Then the hints are drained. The move
alone (no hint) is measured the same way first. Wall-clock seconds, so the machine's load
matters: the load average is printed.

    python bench/hint_burst.py [--rounds 5] [--hints 12] [--workers 1] [--hints-as hint|urgent]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.ai.coach import hint  # noqa: E402
from bot.ai.levels import STRONG  # noqa: E402
from bot.rules import GAMES  # noqa: E402
from bot.tables.ai_pool import AiPool, Priority, search_move  # noqa: E402


def positions(game_name: str, count: int, seed: int) -> list[tuple[Any, int]]:
    """``count`` positions of ``game_name`` where the seat to act has a real choice."""
    game = GAMES[game_name]
    n = game.default_seats or game.min_seats
    rng = random.Random(seed)
    out: list[tuple[Any, int]] = []
    session = 0
    while len(out) < count:
        state = game.new_table(seats=n, options=game.validate_options({}), seed=seed + session)
        session += 1
        while not state.is_over() and len(out) < count:
            seat = state.to_act()[0]
            legal = state.legal_actions(seat)
            if len(legal) > 1 and rng.random() < 0.3:
                out.append((state.clone(), seat))
            state.apply(seat, legal[rng.randrange(len(legal))])
    return out


async def move_delay(pool: AiPool, game: str, state: Any, seat: int, rng_seed: int) -> float:
    """Seconds from submitting one strong move (urgent: a human is present) to its result."""
    view, legal = state.view(seat), state.legal_actions(seat)
    start = time.perf_counter()
    await pool.run(search_move, game, STRONG.name, view, legal, random.Random(rng_seed), state.clone(),
                   urgent=True)
    return time.perf_counter() - start


async def run(args: argparse.Namespace) -> None:
    pool = AiPool(args.workers)
    spots = positions(args.game, args.rounds * (args.hints + 1) + args.rounds, args.seed)
    try:
        await move_delay(pool, args.game, *spots[0], 0)  # start the workers, import the search
        alone = [await move_delay(pool, args.game, *spots[r], r) for r in range(args.rounds)]
        burst: list[float] = []
        k = args.rounds
        for r in range(args.rounds):
            hints = []
            for _ in range(args.hints):
                state, seat = spots[k]
                k += 1
                rng = random.Random(f"{r}:{k}:hint")
                if args.hints_as == "hint":
                    work = pool.run(hint, args.game, state, seat, rng, priority=Priority.HINT)
                else:
                    work = pool.run(hint, args.game, state, seat, rng, urgent=True)
                hints.append(asyncio.ensure_future(work))
            await asyncio.sleep(0.05)  # the first hint is on the worker, the others queued
            state, seat = spots[k]
            k += 1
            burst.append(await move_delay(pool, args.game, state, seat, 1000 + r))
            await asyncio.gather(*hints)
    finally:
        pool.close()
    load = os.getloadavg()
    print(f"game {args.game}, {args.workers} worker process(es), {args.hints} hints per round submitted "
          f"as {args.hints_as!r}, {args.rounds} rounds; load average "
          f"{load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    print(f"  move alone        : median {statistics.median(alone):.3f} s, max {max(alone):.3f} s")
    print(f"  move under a burst: median {statistics.median(burst):.3f} s, max {max(burst):.3f} s")
    print(f"  added by the burst: median {statistics.median(burst) - statistics.median(alone):+.3f} s")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="motz", choices=sorted(GAMES))
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--hints", type=int, default=12)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--hints-as", choices=("hint", "urgent"), default="hint")
    parser.add_argument("--seed", type=int, default=1)
    asyncio.run(run(parser.parse_args(argv)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
