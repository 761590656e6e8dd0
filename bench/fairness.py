"""How long one server's request waits behind another server's burst: the REST budget and the AI pool.

The scene of the third abuse pass: one server queues a burst (a tournament round's first DMs and
threads, many lobbies; or many tables' AI searches), then another server queues one request. The
bot's own queues are used (``bot.outbox.budget.RestBudget`` at Discord's rate, ``bot.tables.ai_pool``'s
``Budget`` with searches simulated by sleeps of ``--search-ms``), each twice:

- ``turns`` (today): every request names its server (``key``), the servers waiting take turns;
- ``fifo`` (before): every request without a server, i.e. first come first served.

The figure is the other server's wait, from its request to its grant, in wall-clock seconds (the
machine's load barely matters: the budget sleeps, nothing computes).

    python bench/fairness.py [--burst 400] [--searches 30] [--search-ms 200] [--workers 2]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.outbox.budget import PROMPT, RestBudget  # noqa: E402
from bot.tables.ai_pool import Budget  # noqa: E402


async def rest_wait(burst: int, turns: bool) -> float:
    """The other server's prompt's wait behind ``burst`` prompts of one server, at Discord's rate."""
    budget = RestBudget()
    loop = asyncio.get_running_loop()
    mine = [asyncio.create_task(budget.take(PROMPT, 1 if turns else None)) for _ in range(burst)]
    await asyncio.sleep(0)
    start = loop.time()
    await budget.take(PROMPT, 2 if turns else None)
    waited = loop.time() - start
    await asyncio.gather(*mine)
    budget.close()
    return waited


async def pool_wait(searches: int, search_s: float, workers: int, turns: bool) -> float:
    """The other server's AI search's wait behind ``searches`` of one server's tables."""
    budget = Budget(workers)
    loop = asyncio.get_running_loop()

    async def search(key: int) -> None:
        await budget.acquire(False, key=key if turns else None)
        try:
            await asyncio.sleep(search_s)
        finally:
            budget.release()

    mine = [asyncio.create_task(search(1)) for _ in range(searches)]
    await asyncio.sleep(0)
    start = loop.time()
    await budget.acquire(False, key=2 if turns else None)
    waited = loop.time() - start
    budget.release()
    await asyncio.gather(*mine)
    return waited


async def main(args: argparse.Namespace) -> None:
    for turns in (False, True):
        name = "turns" if turns else "fifo"
        started = time.perf_counter()
        rest = await rest_wait(args.burst, turns)
        pool = await pool_wait(args.searches, args.search_ms / 1000.0, args.workers, turns)
        print(f"{name:5}  REST: another server's prompt waited {rest:6.2f} s behind {args.burst} requests; "
              f"AI pool: its search waited {pool:6.2f} s behind {args.searches} searches of "
              f"{args.search_ms} ms on {args.workers} workers  ({time.perf_counter() - started:.1f} s)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--burst", type=int, default=400)
    parser.add_argument("--searches", type=int, default=30)
    parser.add_argument("--search-ms", type=int, default=200)
    parser.add_argument("--workers", type=int, default=2)
    asyncio.run(main(parser.parse_args()))
