"""Time of ``python -m bot admin copy-to-postgres`` on a synthetic club.

    python bench/copy_db.py [--rows 200000] [--url postgresql://…]

Builds an SQLite club migrated by the store (``Database.open``): 1,000 wallets and a house, one
finished table per 100 ledger rows with 40 actions each, and ``--rows`` balanced ledger rows
(each account's balance is what its rows add up to), then copies it into a fresh schema of the
PostgreSQL database at ``--url`` (default: ``TAPIS_TEST_PG``), which is dropped afterwards. Prints
the rows copied, the time of the copy (migrations, COPY, checks, COMMIT) and rows per second.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sqlite3
import sys
import tempfile
import time
import uuid

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bot.store.copy import copy_to_postgres  # noqa: E402
from bot.store.db import Database  # noqa: E402

GUILD = 1_234_567_890_123_456_789
WALLETS = 1_000


async def build(path: str, rows: int, seed: int = 1) -> None:
    """The synthetic club (see the module docstring)."""
    db = await Database.open(path)
    await db.close()
    rng = random.Random(seed)
    conn = sqlite3.connect(path)
    now = 1_760_000_000.0
    users = [GUILD + 1 + i for i in range(WALLETS)]
    balances = {f"wallet:{GUILD}:{u}": 0 for u in users}
    house = f"house:{GUILD}"
    keys = list(balances)
    ledger = []
    for i in range(rows):
        dst = keys[i] if i < WALLETS else None
        if dst is None:
            src = rng.choice(keys)
            dst = rng.choice(keys)
            amount = rng.randint(1, 50)
            if src == dst or balances[src] < amount:
                src, amount = house, rng.randint(1, 50)
        else:
            src, amount = house, 1_000
        if src != house:
            balances[src] -= amount
        balances[dst] += amount
        ledger.append((i + 1, src, dst, amount, "bench", i // 100 + 1, now + i))
    tables = rows // 100 + 1
    conn.executemany(
        "INSERT INTO tables (id, guild_id, channel_id, game, options, seats, host_id, status, version, "
        "created_at, updated_at) VALUES (?, ?, ?, 'motz', '{}', '[]', ?, 'finished', 40, ?, ?)",
        [(t, GUILD, GUILD + 7, users[t % WALLETS], now, now) for t in range(1, tables + 1)])
    action = json.dumps({"type": "play", "card": "QH"})
    conn.executemany("INSERT INTO actions (table_id, version, seat, action, actor, at) "
                     "VALUES (?, ?, ?, ?, 'ai', ?)",
                     [(t, v, v % 4, action, now + v) for t in range(1, tables + 1) for v in range(40)])
    accounts = [(k, "wallet", GUILD, int(k.rsplit(":", 1)[1]), b, now) for k, b in balances.items()]
    accounts.append((house, "house", GUILD, None, -sum(balances.values()), now))
    conn.executemany("INSERT INTO accounts (id, kind, guild_id, user_id, balance, created_at) "
                     "VALUES (?, ?, ?, ?, ?, ?)", accounts)
    conn.executemany("INSERT INTO ledger (id, src, dst, amount, reason, table_id, at) "
                     "VALUES (?, ?, ?, ?, ?, ?, ?)", ledger)
    conn.commit()
    conn.close()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=200_000, help="ledger rows")
    parser.add_argument("--url", default=os.environ.get("TAPIS_TEST_PG"),
                        help="a PostgreSQL database to create a scratch schema in (default: TAPIS_TEST_PG)")
    args = parser.parse_args()
    if not args.url:
        parser.error("--url or TAPIS_TEST_PG is needed")
    import asyncpg

    from tests.backends import with_search_path

    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "club.db")
        t0 = time.perf_counter()
        await build(path, args.rows)
        print(f"built {args.rows} ledger rows in {time.perf_counter() - t0:.1f} s "
              f"({os.path.getsize(path) / 1e6:.0f} MB)")
        schema = f"bench_{uuid.uuid4().hex[:12]}"
        admin = await asyncpg.connect(args.url)
        await admin.execute(f"CREATE SCHEMA {schema}")
        try:
            report = await copy_to_postgres(path, with_search_path(args.url, schema))
        finally:
            await admin.execute(f"DROP SCHEMA {schema} CASCADE")
            await admin.close()
    total = sum(report.rows.values())
    print(", ".join(f"{t} {n}" for t, n in report.rows.items() if n))
    print(f"copied {total} rows in {report.seconds:.1f} s ({total / report.seconds:,.0f} rows/s)")


if __name__ == "__main__":
    asyncio.run(main())
