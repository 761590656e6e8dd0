"""What a server's settings cost (issue 29): the reads ``/table new``, a lobby cap check and
``/daily`` make (``SettingsStore.for_guild``: one indexed query, no cache), and a change
(``SettingsStore.set``: lock, read, write, log in one transaction).

``--guilds`` servers each have every key set (the worst case for the read: one row per key);
the figures are the median and p99 of ``--reads`` reads of random servers, and of ``--writes``
changes, on SQLite (a file in a temporary folder) or PostgreSQL (``--database postgresql://…``,
a fresh schema dropped after).

    python bench/settings.py [--guilds 1000] [--reads 5000] [--writes 500] [--database postgresql://…]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bot.config import Config  # noqa: E402
from bot.store import Database  # noqa: E402
from bot.store.settings import SettingsStore  # noqa: E402

VALUES = {"language": "cs", "channels": [10**17 + 1, 10**17 + 2], "threads": True, "pace": "slow",
          "tables_per_member": 2, "tables_per_channel": 5, "tables_per_guild": 20,
          "options.mus": {"stake": 3}, "options.motz": {"ante": 2}, "rated": False, "hints": False,
          "ai_levels": ["easy", "strong"],
          "starting_grant": 500, "daily_grant": 50, "daily_cooldown_hours": 12.0, "opener_role": 10**17 + 3}


def _ms(samples: list[float]) -> str:
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return f"median {statistics.median(ordered) * 1000:.3f} ms, p99 {p99 * 1000:.3f} ms"


async def run(args: argparse.Namespace, target: str) -> None:
    db = await Database.open(target)
    store = SettingsStore(db, Config())
    try:
        for guild in range(1, args.guilds + 1):
            for key, value in VALUES.items():
                await store.set(guild, key, value, 1)
        rng = random.Random(1)
        reads = []
        for _ in range(args.reads):
            t = time.perf_counter()
            await store.for_guild(rng.randint(1, args.guilds))
            reads.append(time.perf_counter() - t)
        writes = []
        for n in range(args.writes):
            t = time.perf_counter()
            await store.set(rng.randint(1, args.guilds), "daily_grant", n % 1000, 2)
            writes.append(time.perf_counter() - t)
        print(f"{db.dialect}: {args.guilds} servers × {len(VALUES)} keys")
        print(f"  for_guild (each /table new, cap check, /daily): {_ms(reads)}")
        print(f"  set (lock, read, write, log in one transaction): {_ms(writes)}")
    finally:
        await db.close()


async def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--guilds", type=int, default=1000)
    p.add_argument("--reads", type=int, default=5000)
    p.add_argument("--writes", type=int, default=500)
    p.add_argument("--database",
                   help="a SQLite path or a postgresql:// URL (default: a temporary SQLite file)")
    args = p.parse_args()
    if args.database and args.database.startswith(("postgresql://", "postgres://")):
        from tests.backends import fresh_pg

        async with fresh_pg(args.database) as url:
            await run(args, url)
        return
    with tempfile.TemporaryDirectory() as folder:
        await run(args, args.database or os.path.join(folder, "bench.db"))


if __name__ == "__main__":
    asyncio.run(main())
